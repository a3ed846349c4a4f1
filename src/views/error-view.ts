/** What an error page says about a record, computed once: title, description, facts, language. */
import { siteConfig } from '../../errdex.config.mjs';
import { languageForPath } from '../highlight/languages.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { showBidiControls } from '../schema/text-safety.ts';
import { shortenOnWord } from '../schema/message-template.ts';
import type { RelatedReasons } from '../catalog/derive/related.ts';
import type { MessageGroup } from '../catalog/derive/message-groups.ts';
import type { Derived } from '../catalog/derive/index.ts';
import { PLACED_TITLE_MAX, TITLE_MAX } from '../catalog/headline.ts';
import { shownHeadline } from '../catalog/derive/titles.ts';
import { describe, plainProse, plural } from '../util/text.ts';
import { markdownText } from './cite.ts';

export { PLACED_TITLE_MAX, TITLE_MAX };

/** What a page title shows of a record besides its message: computed over the whole catalog (derive). */
export interface TitleParts {
  /** The headline as the title shows it, where that is not the headline cut at TITLE_MAX (src/catalog/derive/titles.ts). */
  headline?: string | undefined;
  /** Where it is raised, where its message is raised in other places too (src/catalog/derive/message-groups.ts). */
  place?: string | undefined;
}

/**
 * What names the error in its title and trail: `Class: message`, the headline shortened on a word
 * boundary, or the form that tells it from other messages (`Class: opening … differing words`); with
 * the record's place label when another page would share it: `Class: message — command.rs, Command.mut_arg`.
 */
export function titleName(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>, parts: TitleParts = {}): string {
  const headline = parts.headline ?? shortenOnWord(shownHeadline(r), TITLE_MAX);
  return parts.place === undefined ? headline : `${headline} — ${parts.place}`;
}

/** A record's title parts as derive computed them. */
export function titlePartsOf(id: string, d: Pick<Derived, 'titleHeadlines' | 'placeLabels'>): TitleParts {
  return { headline: d.titleHeadlines.get(id), place: d.placeLabels.get(id) };
}

/** `<title>`: `Class: message — owner/repo`, the name as titleName gives it. */
export function pageTitle(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage' | 'repo'>, parts: TitleParts = {}): string {
  return `${titleName(r, parts)} — ${r.repo}`;
}

/** A message page's title: `Class: message — raised in 6 places — owner/repo` (class when its places share one). */
export function messagePageTitle(g: Pick<MessageGroup, 'repo' | 'entries' | 'titleHeadline'>): string {
  return `${g.titleHeadline} — raised in ${plural(g.entries.length, 'place')} — ${g.repo}`;
}

export function messagePageDescription(g: Pick<MessageGroup, 'repo' | 'entries'>): string {
  const files = [...new Set(g.entries.map((e) => e.record.filePath))];
  return describe(`Raised in ${plural(g.entries.length, 'place')} of ${g.repo}: ${files.join(', ')}.`, 160);
}

/** The meta and Open Graph description: the explanation's start as plain text (no backticks or other marks). */
export function pageDescription(r: Pick<ErrorRecord, 'documentation'>): string {
  return describe(plainProse(r.documentation), 160);
}

export const shortSha = (sha: string, n = 10): string => sha.slice(0, n);

export function sourceLanguage(r: Pick<ErrorRecord, 'filePath'>): string {
  return languageForPath(r.filePath);
}

/** Lines of context the excerpt shows on each side of the thrown line before it is expanded. */
export const EXCERPT_CONTEXT = { before: 4, after: 4 } as const;
/** An excerpt this short is shown whole. */
const SHORT_EXCERPT = 12;

/** The lines (file numbering) an excerpt shows before it is expanded; null: all of it. */
export function nearLines(start: number, lines: number, markLine: number | null): { from: number; to: number } | null {
  if (lines <= SHORT_EXCERPT) return null;
  const end = start + lines - 1;
  const from = markLine === null ? start : Math.max(start, markLine - EXCERPT_CONTEXT.before);
  const to = Math.min(end, (markLine ?? start) + EXCERPT_CONTEXT.after + (markLine === null ? EXCERPT_CONTEXT.before : 0));
  return { from, to };
}

/** Most lines of the thrown statement shown on its own. */
const STATEMENT_MAX = 6;

/**
 * The thrown statement as plain text, for a block that wraps (the message readable at any width):
 * from the thrown line until its brackets close, at most STATEMENT_MAX lines, its common indent removed.
 */
export function thrownStatement(code: string, start: number, markLine: number): string | null {
  const lines = code.split('\n');
  const first = markLine - start;
  if (first < 0 || first >= lines.length) return null;
  const taken: string[] = [];
  let depth = 0;
  for (let i = first; i < lines.length && taken.length < STATEMENT_MAX; i++) {
    const line = lines[i]!;
    taken.push(line);
    for (const c of line) depth += c === '(' || c === '[' || c === '{' ? 1 : c === ')' || c === ']' || c === '}' ? -1 : 0;
    if (depth <= 0) break;
  }
  const indent = Math.min(...taken.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
  const text = taken
    .map((l) => l.slice(indent))
    .join('\n')
    .trimEnd();
  return text === '' ? null : text;
}

export interface DefensivePattern {
  id: string;
  title: string;
  code: string;
}

/** The record's defensive patterns that have code, in page order. */
export function defensivePatterns(r: Pick<ErrorRecord, 'validationCode' | 'typeGuard' | 'tryCatchPattern'>): DefensivePattern[] {
  return [
    { id: 'validation-code', title: 'Validate before calling', code: r.validationCode },
    { id: 'type-guard', title: 'Type guard', code: r.typeGuard },
    { id: 'try-catch', title: 'Try / catch', code: r.tryCatchPattern },
  ].filter((p): p is DefensivePattern => p.code !== null);
}

/**
 * Every block of code an error page highlights, all in the source's language: the build highlights
 * exactly these ahead of the render (a block missing here is still highlighted, only slower).
 */
export function highlightedCode(r: ErrorRecord): { code: string; lang: string }[] {
  const lang = sourceLanguage(r);
  const blocks = [r.sourceCode, r.exampleFix, ...defensivePatterns(r).map((p) => p.code)];
  return blocks.filter((code): code is string => code !== null).map((code) => ({ code, lang }));
}

export const HANDLING_STRATEGY_LABEL: Record<string, string> = {
  'try-catch': 'Catch and handle it',
  'type-guard': 'Check the error’s type',
  validation: 'Validate input first',
  retry: 'Retry',
  fallback: 'Fall back',
};

export function reportIssueUrl(r: Pick<ErrorRecord, 'id' | 'errorMessage' | 'repo'>, pageUrl: string): string {
  const url = new URL(siteConfig.reportIssueUrl);
  const message = showBidiControls(r.errorMessage, 'text');
  url.searchParams.set('title', `Entry ${r.id}: ${shortenOnWord(message.replace(/\s+/g, ' '), 80)}`);
  url.searchParams.set(
    'body',
    `**Entry:** ${r.id} (${r.repo})\n**Page:** ${pageUrl}\n**Message:** \`${message.replace(/`/g, "'")}\`\n\n**What is wrong with this entry?**\n\n`,
  );
  return url.toString();
}

/** `[Class: message](short link)`, ready to paste into a GitHub issue; the text renders exactly as written. */
export function markdownLink(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>, url: string): string {
  return `[${markdownText(shortenOnWord(shownHeadline(r), MARKDOWN_TEXT_MAX))}](${url})`;
}

export const MARKDOWN_TEXT_MAX = 120;

/** Why a related error is listed, as a short phrase: "same file, 14 lines away · shared tag kv-transfer". */
export function relatedReasonText(reasons: RelatedReasons): string {
  const parts: string[] = [];
  if (reasons.sameFile) {
    parts.push(
      reasons.lineDistance === null ? 'same file' : reasons.lineDistance === 0 ? 'same line' : `same file, ${plural(reasons.lineDistance, 'line')} away`,
    );
  } else if (reasons.sameDirectory) parts.push('same directory');
  if (reasons.sameClass) parts.push('same failure class');
  if (reasons.sharedTags.length > 0) parts.push(`shared ${reasons.sharedTags.length === 1 ? 'tag' : 'tags'} ${reasons.sharedTags.join(', ')}`);
  if (reasons.wording > 0) parts.push('similar message');
  return parts.join(' · ');
}
