/**
 * The error record schema: the single source of the TypeScript types, of validation and of the
 * published JSON Schema (`/schema/error-record.json`).
 *
 * Checks that need more than one field (source span, GitHub permalink) live in `record-checks.ts`,
 * so that this file stays a plain description of the format; single-field checks in `field-checks.ts`.
 */
import { z } from 'astro/zod';
import { countLines, githubUrlShapeProblem } from './field-checks.ts';
import { patternProblem } from './pattern.ts';
import { textProblem, type TextKind } from './text-safety.ts';

export const SCHEMA_VERSION = 2;

/** Size limits: a record is a page, not a dump. They keep one bad field from sinking a build. */
export const LIMITS = {
  message: 4_000,
  prose: 20_000,
  code: 200_000,
  codeLines: 2_000,
  listItems: 100,
  tag: 64,
  tags: 50,
  slug: 200,
  filePath: 1_000,
} as const;

/** Rejects characters that break HTML or mislead the reader (see text-safety.ts). */
const safeCharacters = (kind: TextKind) => (s: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(s, kind);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

const tooLong = (max: number) => ({ error: (iss: { input?: unknown }) => `is ${String((iss.input as string).length)} characters long; the limit is ${max}` });

const nonBlank = (max: number, kind: TextKind = 'text') =>
  z
    .string()
    .max(max, tooLong(max))
    .refine((s) => s.trim().length > 0, { error: 'must not be empty or only white space' })
    .superRefine(safeCharacters(kind));

const code = z
  .string()
  .max(LIMITS.code, tooLong(LIMITS.code))
  .refine((s) => s.trim().length > 0, { error: 'must not be empty or only white space; use null when there is no code' })
  .refine((s) => countLines(s) <= LIMITS.codeLines, {
    error: (iss) => `has ${String(countLines(iss.input as string))} lines; the limit is ${LIMITS.codeLines}`,
  })
  .superRefine(safeCharacters('text'));

const nullableCode = code.nullable();

// GitHub owner names: letters, digits and single hyphens; repository names: letters, digits, '.', '_', '-'
// but never '.' or '..' (they would leave the output folder).
export const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HEX16 = /^[0-9a-f]{16}$/;
const HEX40 = /^[0-9a-f]{40}$/;

/** A path relative to the repository root that cannot climb out of it or break a URL. */
export function filePathProblem(path: string): string | null {
  if (path.length === 0) return 'must not be empty';
  if (path.length > LIMITS.filePath) return `is longer than ${LIMITS.filePath} characters`;
  const characters = textProblem(path, 'label');
  if (characters) return characters;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'must be relative to the repository root, not absolute';
  if (path.includes('\\')) return "must use '/' as separator, not '\\'";
  if (/%[0-9A-Fa-f]{2}/.test(path)) return 'must not be percent-encoded (write the path as it is in the repository)';
  const segments = path.split('/');
  if (segments.some((s) => s === '' )) return "must not contain empty segments ('//' or a trailing '/')";
  if (segments.some((s) => s === '.' || s === '..')) return "must not contain '.' or '..' segments";
  return null;
}

/** A revision of the repository as a history scan names it (src/scan/history.ts). */
const revisionSchema = z
  .strictObject({
    name: nonBlank(200, 'label').describe('The revision as scanned: a tag name (e.g. "v2.1.0") or a short commit sha.'),
    sha: z.string().regex(HEX40, { error: 'must be a full 40-character lowercase hex commit sha' }).describe('The commit of the revision: the full 40-character sha.'),
    date: z.iso
      .datetime({ offset: true, error: 'must be an ISO-8601 timestamp, e.g. "2026-08-14T21:17:39Z"' })
      .describe("The commit's date, ISO-8601."),
  })
  .describe('A revision of the repository: its name, commit and date.');

/** Optional: records scanned from a single commit have no history; their pages show none. */
const historySchema = z
  .strictObject({
    scannedFrom: revisionSchema.describe(
      'The first revision the history covers. When introduced is this revision, the site may be older: the page says "since" it "or earlier".',
    ),
    introduced: revisionSchema.describe('The first revision the raise site is in (the last such, if it was removed and came back).'),
    messageChanges: z
      .array(
        z
          .strictObject({
            at: revisionSchema.describe('The revision whose message differs from the one before it.'),
            errorMessage: nonBlank(LIMITS.message).describe('The message template before this change, as the code wrote it then.'),
            messagePattern: nonBlank(LIMITS.message)
              .superRefine((source, ctx) => {
                const problem = patternProblem(source);
                if (problem) ctx.addIssue({ code: 'custom', message: problem });
              })
              .describe('The regular expression of that earlier message (same rules as messagePattern): the paste search matches earlier wordings too.'),
          })
          .describe('One change of the message: the revision that made it and the wording before it.'),
      )
      .max(LIMITS.listItems)
      .describe('Each change of the message template, oldest first, with the earlier wording; empty when it never changed.'),
    removed: revisionSchema
      .optional()
      .describe(
        'The revision the raise site is gone from. The record then describes the site as last seen (analyzedSha is the last commit that had it) and its page says it was removed; left out while the site exists.',
      ),
  })
  .describe('When the raise site appeared, how its message changed and when it went away, over the revisions a history scan read (npm run scan -- --history).');

export const handlingStrategies = ['try-catch', 'type-guard', 'validation', 'retry', 'fallback'] as const;
export const errorTypes = ['exception', 'error_code', 'console', 'http', 'validation', 'panic'] as const;
export const severities = ['critical', 'error', 'warning', 'info'] as const;

export const errorRecordSchema = z
  .strictObject({
    id: z
      .string()
      .regex(HEX16, { error: 'must be 16 lowercase hex characters, e.g. "b024d3d9177721a3"' })
      .describe('Permanent identifier of the record: 16 lowercase hex characters. Never reused; the short link /e/{id}/ and the URL ledger key on it.'),
    repo: z
      .string()
      .regex(REPO, { error: 'must be "owner/name" as on GitHub, e.g. "vllm-project/vllm"' })
      .describe('The GitHub repository that raises the error, as "owner/name". The page lives at /{owner}/{name}/{slug}/.'),
    slug: z
      .string()
      .max(LIMITS.slug, tooLong(LIMITS.slug))
      .regex(SLUG, { error: 'must be lowercase kebab case (a-z, 0-9 and single hyphens), e.g. "unexpected-frame-b024d3"' })
      .describe('The last segment of the page URL, unique within the repository: lowercase kebab case. When it changes, the old URL redirects (url-ledger.json).'),
    errorCode: nonBlank(200, 'label')
      .nullable()
      .describe('A code the program prints or returns with the error (e.g. "E0425", "ECONNRESET"), shown beside the message; null when there is none.'),
    errorMessage: nonBlank(LIMITS.message).describe(
      'The message template as the code writes it, placeholders included ({name}, %s, %(name)s, ...): the page title, and what a pasted message is matched against.',
    ),
    messagePattern: nonBlank(LIMITS.message)
      .superRefine((source, ctx) => {
        const problem = patternProblem(source);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe(
        'A regular expression for the printed message, placeholders as groups (e.g. "unexpected frame! (.+?)"), in JavaScript RegExp syntax, matched anchored. ' +
          'It must compile on RE2 (no look-around, no back-references): errdex matches it on RE2, in time linear in the length of the text; ' +
          'on a backtracking engine it may be slow (see redos in /api/errors.json).',
      ),
    errorType: z.enum(errorTypes).describe('How the error reaches the user: a thrown exception, a returned error code, a console message, an HTTP error response, a validation failure, or a panic.'),
    errorClass: nonBlank(200, 'label')
      .nullable()
      .describe('The class or type of the error as printed before the message (e.g. "ValueError", "HandshakeError"); null when none is printed.'),
    httpStatus: z.int().min(100).max(599).nullable().describe('The HTTP status sent with the error, for errors served over HTTP; otherwise null.'),
    severity: z.enum(severities).describe('How bad it is for whoever meets it: critical (data loss, crash), error (the operation fails), warning (it goes on, possibly wrongly), info.'),
    filePath: z
      .string()
      .superRefine((path, ctx) => {
        const problem = filePathProblem(path);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('The file that raises the error, relative to the repository root, with "/" separators, as it is at analyzedSha.'),
    lineNumber: z.int().positive().nullable().describe('The line that raises the error (1-based), marked in the excerpt; must lie inside sourceCodeStart..sourceCodeEnd. Null when unknown.'),
    sourceCode: nullableCode.describe(
      'An excerpt of filePath around the raise, exactly as in the file: sourceCodeEnd - sourceCodeStart + 1 lines (otherwise the page says its numbering is unverified). Null with no excerpt.',
    ),
    sourceCodeStart: z.int().positive().nullable().describe('The line number of the excerpt\'s first line; null exactly when sourceCode is null.'),
    sourceCodeEnd: z.int().positive().nullable().describe('The line number of the excerpt\'s last line, not before sourceCodeStart; null exactly when sourceCode is null.'),
    githubUrl: z
      .string()
      .max(2_000, tooLong(2_000))
      .superRefine((url, ctx) => {
        const problem = githubUrlShapeProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('Permalink to the raise: https://github.com/{repo}/blob/{analyzedSha}/{filePath}, optionally with #L10 or #L10-L20.'),
    documentation: nonBlank(LIMITS.prose).describe('What the error means: what the code was doing and what went wrong, in plain text (`code` spans allowed). The page\'s first paragraph.'),
    triggerScenarios: nonBlank(LIMITS.prose).describe('The conditions in the code that lead to the raise: which input or state, on which path.'),
    commonSituations: nonBlank(LIMITS.prose).describe('Where people meet it in practice: the setups, versions and mistakes that usually cause it.'),
    solutions: z
      .array(nonBlank(LIMITS.prose))
      .max(LIMITS.listItems)
      .describe('What to do about it, most likely first: one step or remedy per item, plain text.'),
    exampleFix: nullableCode.describe('Code showing a fix (the corrected call or configuration), in the language of filePath; null when none fits.'),
    handlingStrategy: z
      .enum(handlingStrategies)
      .nullable()
      .describe('How calling code should handle it, if at all: catch it, check the type first, validate the input first, retry, or fall back. Null when the error should not be handled but fixed.'),
    validationCode: nullableCode.describe('Code that checks the input before the call so the error cannot happen; null when none fits.'),
    typeGuard: nullableCode.describe('Code that tells this error apart from others (an isinstance check, a type guard, errors.Is); null when none fits.'),
    tryCatchPattern: nullableCode.describe('Code that catches this error and handles it; null when none fits.'),
    preventionTips: z
      .array(nonBlank(LIMITS.prose))
      .max(LIMITS.listItems)
      .describe('How to keep it from happening again: one practice per item, plain text.'),
    tags: z
      .array(
        z
          .string()
          .max(LIMITS.tag)
          .regex(TAG, { error: 'must be lowercase kebab case (a-z, 0-9 and single hyphens), e.g. "kv-transfer"' }),
      )
      .max(LIMITS.tags)
      .describe('Topics, lowercase kebab case (e.g. "kv-transfer"): each gets a page at /tags/{tag}/ listing its errors, and they count in related errors.'),
    // Optional: catalogs written for other sites have no failure classes.
    backgroundTag: z
      .string()
      .regex(TAG, { error: 'must be the id of a failure class: lowercase kebab case' })
      .nullable()
      .default(null)
      .describe('The id of the failure class the error belongs to, defined in the catalog\'s classes.json (schema: classes.json); may be left out or null.'),
    analyzedSha: z
      .string()
      .regex(HEX40, { error: 'must be a full 40-character lowercase hex commit sha' })
      .describe('The commit the record was analysed at: the full 40-character sha. filePath, the excerpt and githubUrl are as of this commit.'),
    analyzedAt: z.iso
      .datetime({ error: 'must be an ISO-8601 UTC timestamp, e.g. "2026-08-14T21:17:39.825Z"' })
      .describe('When the record was analysed: an ISO-8601 UTC timestamp.'),
    history: historySchema.optional(),
    schemaVersion: z
      .literal(SCHEMA_VERSION, {
        error: (iss) => `unsupported schema version ${JSON.stringify(iss.input)}; this build reads schemaVersion ${SCHEMA_VERSION}`,
      })
      .describe(`The version of this format: ${SCHEMA_VERSION}.`),
  })
  .meta({ title: 'errdex error record', description: 'One place where an open-source codebase raises an error, analysed.' });

/** The wrapped form of a record: what errdex publishes as a record's JSON twin, and one of the input forms (see input-forms.ts). */
export const wrappedRecordSchema = z
  .strictObject({
    record: errorRecordSchema,
    datasetVersion: z.iso
      .datetime({ error: 'must be an ISO-8601 UTC timestamp, e.g. "2026-08-15T17:31:12.345Z"' })
      .describe('The version of the dataset this record was published in: an ISO-8601 UTC timestamp. Shown on the page; the URL ledger records it.'),
  })
  .meta({
    title: 'errdex wrapped error record',
    description: 'The catalog input format: {"record": {...}, "datasetVersion": ISO-8601}.',
  });

export type ErrorRecord = z.infer<typeof errorRecordSchema>;
export type RecordHistory = z.infer<typeof historySchema>;
export type HistoryRevision = z.infer<typeof revisionSchema>;
export type WrappedRecord = z.infer<typeof wrappedRecordSchema>;
export type Severity = (typeof severities)[number];

/** Keys starting with `$` (`$schema`, `$comment`) are notes: allowed in a record and its wrapper, and ignored. */
const NOTES = { '^\\$': {} };

/**
 * The JSON Schema of a catalog file (or a `.jsonl` line), a wrapped record, a bare record or an array
 * of either, with `id` as its `$id` (the URL the site serves it at). Cross-field checks
 * (record-checks.ts) are described in prose. `npm run schema` writes it to schema/; the site serves it.
 */
export function errorRecordJsonSchema(id: string): Record<string, unknown> {
  type ObjectSchema = Record<string, unknown> & { properties: Record<string, unknown> };
  const wrapped = z.toJSONSchema(wrappedRecordSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as ObjectSchema;
  const { $schema, title, description, ...wrapper } = wrapped;
  const $id = id;
  const record = { ...(wrapper.properties.record as Record<string, unknown>), patternProperties: NOTES };
  const one = { anyOf: [{ $ref: '#/$defs/wrappedRecord' }, { $ref: '#/$defs/record' }] };
  return {
    $schema,
    $id,
    title,
    description: 'A catalog file (.json) or line (.jsonl): a wrapped record {"record": {...}, "datasetVersion": ISO-8601}, a bare record, or an array of either.',
    anyOf: [...one.anyOf, { type: 'array', minItems: 1, items: one }],
    $defs: {
      wrappedRecord: { ...wrapper, properties: { ...wrapper.properties, record: { $ref: '#/$defs/record' } }, patternProperties: NOTES },
      record,
    },
    $comment:
      'Also checked by errdex, beyond this schema: sourceCode has exactly sourceCodeEnd - sourceCodeStart + 1 lines (a warning: ' +
      'the page shows the numbering as unverified) and lineNumber lies inside that span; githubUrl is ' +
      'https://github.com/{repo}/blob/{analyzedSha}/{filePath}[#Ln[-Lm]]; ' +
      'messagePattern is written in JavaScript RegExp syntax and compiles on RE2 (no look-around, no back-references): ' +
      'errdex matches it on RE2, in time linear in the length of the text whatever the pattern; a backtracking engine ' +
      '(JavaScript, Python, PCRE) may take far longer on some patterns, which /api/errors.json flags; ids and (repo, slug) ' +
      'pairs are unique; backgroundTag names a failure class defined in the catalog. A bare record takes its datasetVersion ' +
      "from the newest wrapped record of its file, else of the catalog, else the build's (SOURCE_DATE_EPOCH or its start).",
  };
}
