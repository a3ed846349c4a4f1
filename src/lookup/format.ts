/**
 * The lookup's answer as a person reads it in a terminal: the page to open first, then where the
 * error is raised, what it means and the first solution, as the error page's first screen has them;
 * or, plainly, that the catalog has no entry for the error. `--json` prints the answer object itself.
 */
import { valueLabel, whyNoMatch } from '../search/results.ts';
import type { FoundAnswer, LookupAnswer, NoEntryAnswer, PageRef, Place } from './lookup.ts';

const address = (p: PageRef): string => p.url ?? p.pageFile ?? p.path;
const placeLabel = (p: Place): string => `${p.file}${p.line !== null ? `:${p.line}` : ''}${p.scope ? `, in ${p.scope}` : ''}`;
const indent = (text: string, by = '  '): string =>
  text
    .split('\n')
    .map((l) => (l.trim() ? `${by}${l}` : ''))
    .join('\n');

export function formatText(a: LookupAnswer): string {
  return `${a.status === 'found' ? found(a) : noEntry(a, a.site)}\n`;
}

function found(a: FoundAnswer): string {
  const lines: string[] = [];
  const how = a.match === 'exact' ? 'exact match' : 'close match';
  lines.push(
    a.messagePage
      ? `Found (${how}), ${a.repo}: raised in ${a.places.length > 1 ? `${a.places.length} places` : 'several places'}; your paste does not say which.`
      : `Found (${how}), ${a.repo}${a.errorClass ? `, ${a.errorClass}` : ''}:`,
  );
  lines.push(indent(a.message), `  ${address(a)}`);
  if (a.url && a.pageFile) lines.push(`  (in the folder: ${a.pageFile})`);
  lines.push('');
  if (a.messagePage && a.places.length > 0) {
    lines.push('Raised in (likeliest first)');
    for (const p of a.places) lines.push(`  ${placeLabel(p)}  ${address(p)}`);
  } else {
    lines.push(`Raised in  ${placeLabel(a.raised)}`);
    if (a.raised.github) lines.push(`           ${a.raised.github}`);
  }
  if (a.values.length > 0) lines.push(`Your values  ${a.values.map(valueLabel).join(', ')}`);
  if (a.meaning) lines.push('', a.messagePage ? `What it means (at ${placeLabel(a.raised)})` : 'What it means', indent(a.meaning));
  if (a.firstSolution) lines.push('', 'First solution', indent(a.firstSolution));
  if (a.note) lines.push('', `Note: ${a.note}`);
  return lines.join('\n');
}

function noEntry(a: NoEntryAnswer, site: string): string {
  const lines = [`No entry: the catalog at ${site} has no entry for this error.`];
  if (a.related.length > 0) {
    lines.push('', 'Possibly related (not matches):');
    for (const r of a.related) {
      lines.push(`  ${r.message.length > 100 ? `${r.message.slice(0, 99)}…` : r.message}  (${r.repo})`, `    ${address(r)}`);
      const why = whyNoMatch(r);
      // The page's sentence, as a line under the row's address: lower case, without its full stop.
      const text = why?.map((part) => (typeof part === 'string' ? part : part.code)).join('');
      if (text) lines.push(`    ${text.charAt(0).toLowerCase()}${text.slice(1).replace(/\.$/, '')}`);
    }
  }
  return lines.join('\n');
}

export function formatJson(a: LookupAnswer): string {
  return `${JSON.stringify(a, null, 2)}\n`;
}
