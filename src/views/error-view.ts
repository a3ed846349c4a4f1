/** What an error page says about a record, computed once: title, description, facts, language. */
import { siteConfig } from '../../errdex.config.mjs';
import { languageForPath } from '../highlight/languages.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { shortenOnWord } from '../schema/message-template.ts';
import type { RelatedReasons } from '../catalog/derive/related.ts';
import { errorHeadline } from '../catalog/headline.ts';
import { describe, plural } from '../util/text.ts';

export const TITLE_MAX = 70;


/** `<title>`: `Class: message — owner/repo`, the headline shortened on a word boundary. */
export function pageTitle(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage' | 'repo'>): string {
  return `${shortenOnWord(errorHeadline(r), TITLE_MAX)} — ${r.repo}`;
}

export function pageDescription(r: Pick<ErrorRecord, 'documentation'>): string {
  return describe(r.documentation, 160);
}

export const shortSha = (sha: string, n = 10): string => sha.slice(0, n);

export function sourceLanguage(r: Pick<ErrorRecord, 'filePath'>): string {
  return languageForPath(r.filePath);
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
  url.searchParams.set('title', `Entry ${r.id}: ${shortenOnWord(r.errorMessage.replace(/\s+/g, ' '), 80)}`);
  url.searchParams.set(
    'body',
    `**Entry:** ${r.id} (${r.repo})\n**Page:** ${pageUrl}\n**Message:** \`${r.errorMessage.replace(/`/g, "'")}\`\n\n**What is wrong with this entry?**\n\n`,
  );
  return url.toString();
}

/** Characters that Markdown would read as formatting or link syntax inside link text. */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>]/g;

/** `[Class: message](short link)`, ready to paste into a GitHub issue; the text renders exactly as written. */
export function markdownLink(r: Pick<ErrorRecord, 'errorClass' | 'errorMessage'>, url: string): string {
  const text = shortenOnWord(errorHeadline(r), MARKDOWN_TEXT_MAX).replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);
  return `[${text}](${url})`;
}

export const MARKDOWN_TEXT_MAX = 120;

/** Why a related error is listed, as a short phrase: "same file, 14 lines away · shared tag kv-transfer". */
export function relatedReasonText(reasons: RelatedReasons): string {
  const parts: string[] = [];
  if (reasons.sameFile) {
    parts.push(reasons.lineDistance === null ? 'same file' : reasons.lineDistance === 0 ? 'same line' : `same file, ${plural(reasons.lineDistance, 'line')} away`);
  } else if (reasons.sameDirectory) parts.push('same directory');
  if (reasons.sameClass) parts.push('same failure class');
  if (reasons.sharedTags.length > 0) parts.push(`shared ${reasons.sharedTags.length === 1 ? 'tag' : 'tags'} ${reasons.sharedTags.join(', ')}`);
  if (reasons.wording > 0) parts.push('similar message');
  return parts.join(' · ');
}
