/**
 * Checks of one field on its own, used by the schema (record.ts) and by the cross-field checks
 * (record-checks.ts): kept apart so that neither imports the other.
 */

export function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Encodes a repository path for a GitHub URL: each segment percent-encoded, '/' kept. */
export function encodeRepoPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export const PERMALINK_FORM = 'https://github.com/{repo}/blob/{analyzedSha}/{filePath}';

/**
 * What is wrong with a githubUrl on its own, whatever the other fields say: not a URL, or not an
 * https://github.com/ one (`javascript:`, `data:`, `http:`, another host, credentials).
 */
export function githubUrlShapeProblem(githubUrl: string): string | null {
  if (githubUrl === '') return `must not be empty; expected ${PERMALINK_FORM}`;
  // The URL parser silently drops tabs and line breaks and trims spaces; the page would link the raw string.
  if (/[\s\u0000-\u001f\u007f]/.test(githubUrl)) return `contains white space or a control character; expected ${PERMALINK_FORM}`;
  let url: URL;
  try {
    url = new URL(githubUrl);
  } catch {
    return `is not a URL; expected ${PERMALINK_FORM}`;
  }
  if (url.protocol !== 'https:' || url.hostname !== 'github.com' || url.username || url.password || url.port) {
    return `must be an https://github.com/ URL; got ${JSON.stringify(truncate(githubUrl))}`;
  }
  return null;
}

export function truncate(s: string, n = 120): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
