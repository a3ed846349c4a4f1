/**
 * A local HTTP server answering the GitHub REST calls the action makes (list, create and edit issue
 * comments), over real HTTP, keeping the comments in memory and every request in `calls`, so a test
 * can check what the action posted and that a second run edited rather than posted.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface GitHubServer {
  url: string;
  calls: { method: string; path: string; body: unknown; authorization: string | undefined }[];
  /** Comments per `owner/repo#number`. */
  comments: Map<string, StoredComment[]>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

export async function startGitHubServer(token: string): Promise<GitHubServer> {
  const comments = new Map<string, StoredComment[]>();
  const calls: GitHubServer['calls'] = [];
  let nextId = 1000;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    calls.push({ method: req.method ?? '', path: url.pathname + url.search, body, authorization: req.headers.authorization });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' });
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list && req.method === 'GET') {
      const all = comments.get(`${list[1]}/${list[2]}#${list[3]}`) ?? [];
      const per = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, all.slice((page - 1) * per, page * per));
    }
    if (list && req.method === 'POST') {
      const key = `${list[1]}/${list[2]}#${list[3]}`;
      const c = { id: nextId++, body: (body as { body: string }).body, user: { login: 'github-actions[bot]', type: 'Bot' } };
      comments.set(key, [...(comments.get(key) ?? []), c]);
      return send(201, c);
    }
    if (one && req.method === 'PATCH') {
      for (const all of comments.values()) {
        const c = all.find((x) => x.id === Number(one[3]));
        if (c) {
          c.body = (body as { body: string }).body;
          return send(200, c);
        }
      }
      return send(404, { message: 'Not Found' });
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    comments,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
