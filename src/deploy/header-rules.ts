/**
 * The site's `_headers` file (Netlify and Cloudflare Pages format, written by the build:
 * src/build/headers.ts) read as rules and applied to one URL path, as those hosts apply it, so that an
 * object store, which reads no `_headers`, gets the same headers per object. Every rule that matches
 * adds its headers; a name given by several rules gets their values joined by ", " (Cloudflare Pages'
 * behaviour); a `! Name` line (Cloudflare's detach) drops the name that earlier rules set.
 */

export interface HeaderRule {
  /** The rule's path pattern as written (`/*`, `/_astro/*`, `/:owner/x`). */
  pattern: string;
  matches: RegExp;
  set: Array<[name: string, value: string]>;
  detach: string[];
}

export interface ParsedHeaders {
  rules: HeaderRule[];
  /** Lines that are not part of a rule, with their 1-based line numbers. */
  problems: string[];
}

/** `*` takes anything (slashes too), `:name` one path segment; the rest is literal. */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') && part.length > 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export function parseHeadersFile(text: string): ParsedHeaders {
  const rules: HeaderRule[] = [];
  const problems: string[] = [];
  let current: HeaderRule | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (!/^\s/.test(line)) {
      // A pattern with a scheme and host names another domain's URLs: none of this site's objects.
      current = { pattern: trimmed, matches: /^https?:\/\//.test(trimmed) ? /(?!)/ : patternRegExp(trimmed), set: [], detach: [] };
      rules.push(current);
      return;
    }
    if (!current) {
      problems.push(`line ${i + 1}: a header before any path pattern: ${trimmed}`);
      return;
    }
    if (trimmed.startsWith('!')) {
      current.detach.push(trimmed.slice(1).trim());
      return;
    }
    const colon = trimmed.indexOf(':');
    if (colon <= 0) {
      problems.push(`line ${i + 1}: not "Name: value": ${trimmed}`);
      return;
    }
    current.set.push([trimmed.slice(0, colon).trim(), trimmed.slice(colon + 1).trim()]);
  });
  return { rules, problems };
}

/** The headers the rules give `path` (a URL path with the site's base path), by lower-case name. */
export function headersFor(rules: readonly HeaderRule[], path: string): Map<string, { name: string; value: string }> {
  const headers = new Map<string, { name: string; value: string }>();
  for (const rule of rules) {
    if (!rule.matches.test(path)) continue;
    for (const name of rule.detach) headers.delete(name.toLowerCase());
    for (const [name, value] of rule.set) {
      const key = name.toLowerCase();
      const before = headers.get(key);
      headers.set(key, { name: before?.name ?? name, value: before ? `${before.value}, ${value}` : value });
    }
  }
  return headers;
}
