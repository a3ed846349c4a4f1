/**
 * The Content-Security-Policy every page carries (as a <meta> tag; operators can send the same as a
 * header, see README). Scripts come from the site's own files; the one inline script (the theme
 * pre-paint) is allowed by its hash. Pagefind needs WebAssembly, hence 'wasm-unsafe-eval'.
 */
import { createHash } from 'node:crypto';

/** Runs before first paint so a stored theme choice never flashes the other theme. */
export const THEME_PREPAINT_SCRIPT =
  "try{var t=localStorage.getItem('errdex-theme');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}";

export function scriptHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${scriptHash(THEME_PREPAINT_SCRIPT)}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * The policy for operators to send as an HTTP header: the same, plus what only a header can carry
 * (`frame-ancestors`: no other site may frame these pages). `npm run csp` prints it.
 */
export const CONTENT_SECURITY_POLICY_HEADER = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;
