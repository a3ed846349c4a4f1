/**
 * The record fields that hold code, and those that hold prose: most of a rich record's bytes, and
 * shown only on the record's own page. A process that needs every record but not these (a render
 * process for the pages it does not render, the build's validation once each record is checked)
 * drops them as it reads, so that what it holds of the catalog stays small: the entry's text keeps
 * them whole. The lean snapshot (src/catalog/snapshot.ts) keeps of the prose only the documentation,
 * which every record's page description, short link and search summary are made from.
 */
import type { ErrorRecord } from '../schema/record.ts';

const CODE_FIELDS = ['sourceCode', 'exampleFix', 'validationCode', 'typeGuard', 'tryCatchPattern'] as const satisfies readonly (keyof ErrorRecord)[];
const PROSE_FIELDS = ['documentation', 'triggerScenarios', 'commonSituations'] as const satisfies readonly (keyof ErrorRecord)[];
const PROSE_LIST_FIELDS = ['solutions', 'preventionTips'] as const satisfies readonly (keyof ErrorRecord)[];

const CODE_OR_PROSE = new Set<string>([...CODE_FIELDS, ...PROSE_FIELDS, ...PROSE_LIST_FIELDS]);

/** Whether the field holds code or prose. */
export const isCodeOrProse = (field: string): boolean => CODE_OR_PROSE.has(field);

/** Drops the record's code (null), in place. */
export function dropCode(record: ErrorRecord): void {
  for (const field of CODE_FIELDS) record[field] = null;
}

/** Drops the record's prose ('' and []), in place; with `keepDocumentation`, all of it but the documentation. */
export function dropProse(record: ErrorRecord, keepDocumentation = false): void {
  for (const field of PROSE_FIELDS) if (!keepDocumentation || field !== 'documentation') record[field] = '';
  for (const field of PROSE_LIST_FIELDS) record[field] = [];
}
