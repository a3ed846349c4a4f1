/**
 * One run of the GitHub Action on one webhook event: read the issue's thread, find the error text in
 * it (extract.ts), look each paste up against the project's site, and keep one comment listing the
 * matching pages (comment.ts): posted the first time something matches, edited on later runs, never a
 * second one; nothing posted when nothing matches. The thread is read whole on every run, so the
 * comment always says what the issue holds now, whichever event woke the action.
 */
import { z } from 'zod';
import { commentBody, MARKER, type PageMatch } from './comment.ts';
import { errorTexts, MAX_PASTES } from './extract.ts';
import type { GitHub, IssueRef } from './github.ts';

/** The fields of an `issues` or `issue_comment` webhook payload the action reads. */
export const payloadSchema = z.object({
  action: z.string().describe('What happened: opened, edited, created…'),
  issue: z.object({
    number: z.number().int().positive().describe('The issue (or pull request) number.'),
    body: z.string().nullable().optional().describe("The issue's text (null when empty)."),
  }),
  comment: z
    .object({ id: z.number().int().describe("The comment's id."), body: z.string().nullable().optional().describe("The comment's text.") })
    .optional()
    .describe('The comment, for issue_comment events.'),
  repository: z.object({
    name: z.string().min(1).describe("The repository's name."),
    owner: z.object({ login: z.string().min(1).describe("The owner's login.") }),
  }),
});
export type Payload = z.infer<typeof payloadSchema>;

/** The events and actions that can change what the thread pastes. */
const HANDLED: Record<string, readonly string[]> = {
  issues: ['opened', 'edited', 'reopened'],
  issue_comment: ['created', 'edited', 'deleted'],
};

/** Lookups per run at most, over the whole thread: the issue's own text first, then comments in order. */
export const MAX_LOOKUPS = MAX_PASTES * 2;

/** Said when pages were listed before and the thread no longer pastes an error any page matches. */
export const NOTHING_NOW = `${MARKER}\nNo error in this issue matches a page any more.\n`;

export type Outcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'silent' | 'created' | 'updated' | 'unchanged'; pastes: number; pages: number; commentId: number | null };

export interface RunOptions {
  event: string;
  payload: Payload;
  github: GitHub;
  /** Looks one paste up: the page when the site counts it a match (exact or close), else null. */
  find: (paste: string) => Promise<PageMatch | null>;
  siteName: string;
}

export async function runAction(o: RunOptions): Promise<Outcome> {
  const { event, payload } = o;
  if (!HANDLED[event]?.includes(payload.action)) return { kind: 'skipped', reason: `${event}.${payload.action} does not change the thread's text` };
  if (event === 'issue_comment' && payload.comment?.body?.startsWith(MARKER)) return { kind: 'skipped', reason: "the action's own comment" };
  const issue: IssueRef = { owner: payload.repository.owner.login, repo: payload.repository.name, number: payload.issue.number };
  const comments = await o.github.comments(issue);
  const own = comments.find((c) => c.body?.startsWith(MARKER)) ?? null;
  const texts = [payload.issue.body, ...comments.filter((c) => !c.body?.startsWith(MARKER)).map((c) => c.body)];
  const pastes = [...new Set(texts.flatMap((t) => errorTexts(t)))].slice(0, MAX_LOOKUPS);
  const matches: PageMatch[] = [];
  for (const paste of pastes) {
    const m = await o.find(paste);
    if (m) matches.push(m);
  }
  const body = commentBody(matches, o.siteName);
  const counts = { pastes: pastes.length, pages: new Set(matches.map((m) => m.url)).size };
  if (body === null) {
    // Silent on an issue it never commented on; an earlier list that no longer holds is corrected.
    if (!own || own.body === NOTHING_NOW) return { kind: own ? 'unchanged' : 'silent', ...counts, commentId: own?.id ?? null };
    await o.github.update(issue, own.id, NOTHING_NOW);
    return { kind: 'updated', ...counts, commentId: own.id };
  }
  if (own) {
    if (own.body === body) return { kind: 'unchanged', ...counts, commentId: own.id };
    await o.github.update(issue, own.id, body);
    return { kind: 'updated', ...counts, commentId: own.id };
  }
  const created = await o.github.create(issue, body);
  return { kind: 'created', ...counts, commentId: created.id };
}
