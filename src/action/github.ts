/**
 * The three GitHub REST calls the action makes, and nothing else: list an issue's comments, post one,
 * edit one. The API's address comes from the runner (`GITHUB_API_URL`, which is also how GitHub
 * Enterprise and the tests' local server are reached), so no call is hard-wired to github.com.
 */

export interface IssueComment {
  id: number;
  body: string;
  user: { login: string; type?: string } | null;
}

export interface IssueRef {
  owner: string;
  repo: string;
  number: number;
}

export class GitHubError extends Error {}

/** The comments a page of the list holds at most (the API's maximum). */
const PER_PAGE = 100;
/** Pages read at most: 10,000 comments; a thread that long is read no further. */
const MAX_PAGES = 100;

export function gitHub(options: { api: string; token: string; fetch?: typeof fetch }) {
  const get = options.fetch ?? fetch;
  const api = options.api.replace(/\/+$/, '');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await get(`${api}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${options.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'errdex-action',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new GitHubError(`${method} ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };
  const issuePath = (i: IssueRef) => `/repos/${encodeURIComponent(i.owner)}/${encodeURIComponent(i.repo)}/issues`;
  return {
    async comments(issue: IssueRef): Promise<IssueComment[]> {
      const all: IssueComment[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const batch = await call<IssueComment[]>('GET', `${issuePath(issue)}/${issue.number}/comments?per_page=${PER_PAGE}&page=${page}`);
        all.push(...batch);
        if (batch.length < PER_PAGE) break;
      }
      return all;
    },
    create: (issue: IssueRef, body: string) => call<IssueComment>('POST', `${issuePath(issue)}/${issue.number}/comments`, { body }),
    update: (issue: IssueRef, id: number, body: string) => call<IssueComment>('PATCH', `${issuePath(issue)}/comments/${id}`, { body }),
  };
}

export type GitHub = ReturnType<typeof gitHub>;
