import { describe, expect, it } from 'vitest';
import { errorRecordJsonSchema, wrappedRecordSchema } from '../../../src/schema/record.ts';
import { recordProblems } from '../../../src/schema/record-checks.ts';
import { validateEntries } from '../../../src/catalog/validate.ts';
import type { RawEntry } from '../../../src/catalog/load.ts';
import { sampleWrapped } from '../../support/records.ts';

/** Every problem of one record, errors and warnings (a warning's message starts with `warning: `). */
function problemsOf(value: unknown) {
  const entry: RawEntry = { file: 'x.jsonl', line: 7, text: JSON.stringify(value), value, isJsonl: true };
  const { problems, warnings } = validateEntries([entry]);
  return [...problems, ...warnings].map((p) => `${p.field}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`);
}

describe('the record schema', () => {
  it('accepts the three sample records exactly as given, wrapper included', () => {
    const samples = sampleWrapped();
    expect(samples).toHaveLength(3);
    for (const s of samples) {
      const parsed = wrappedRecordSchema.safeParse(s);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(recordProblems(parsed.data!.record)).toEqual([]);
      expect(parsed.data).toEqual(s); // nothing added, dropped or changed
    }
  });

  const REV1 = { name: 'v1.0', sha: 'a'.repeat(40), date: '2025-01-02T03:04:05Z' };
  const REV2 = { name: 'v2.0', sha: 'b'.repeat(40), date: '2025-06-02T03:04:05Z' };
  const HISTORY = {
    scannedFrom: REV1,
    introduced: REV1,
    messageChanges: [{ at: REV2, errorMessage: 'old wording {x}', messagePattern: 'old wording (.+?)' }],
    removed: { name: 'v3.0', sha: 'c'.repeat(40), date: '2025-09-02T03:04:05Z' },
  };

  it('accepts a record with its history, and keeps it as given', () => {
    const w = sampleWrapped()[0]!;
    w.record.history = HISTORY;
    const parsed = wrappedRecordSchema.safeParse(w);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data!.record.history).toEqual(HISTORY);
    expect(problemsOf(w)).toEqual([]);
    // A site still present has no `removed`.
    const { removed: _, ...present } = HISTORY;
    expect(wrappedRecordSchema.safeParse({ ...w, record: { ...w.record, history: present } }).success).toBe(true);
  });

  const base = () => sampleWrapped()[0]!;
  type Mutate = (w: { record: Record<string, unknown>; datasetVersion: string }) => void;
  const broken: [string, Mutate, string, RegExp][] = [
    ['id not hex', (w) => (w.record.id = 'B024D3D9177721A3'), 'record.id', /16 lowercase hex/],
    ['id too short', (w) => (w.record.id = 'abc'), 'record.id', /16 lowercase hex/],
    ['repo without owner', (w) => (w.record.repo = 'vllm'), 'record.repo', /owner\/name/],
    ['repo climbing out', (w) => (w.record.repo = 'owner/..'), 'record.repo', /owner\/name/],
    ['slug with capitals and spaces', (w) => (w.record.slug = 'Bad Slug'), 'record.slug', /kebab/],
    ['slug with a slash', (w) => (w.record.slug = 'a/b'), 'record.slug', /kebab/],
    ['empty message', (w) => (w.record.errorMessage = '   '), 'record.errorMessage', /empty/],
    ['pattern that does not compile', (w) => (w.record.messagePattern = 'unexpected (frame'), 'record.messagePattern', /does not compile/],
    ['pattern RE2 cannot run', (w) => (w.record.messagePattern = '(?<=x)\\w+'), 'record.messagePattern', /look-behind "\(\?<=" at character 1/],
    ['unknown errorType', (w) => (w.record.errorType = 'crash'), 'record.errorType', /must be one of "exception"/],
    ['httpStatus out of range', (w) => (w.record.httpStatus = 700), 'record.httpStatus', /at most 599/],
    ['httpStatus not an integer', (w) => (w.record.httpStatus = 404.5), 'record.httpStatus', /integer/],
    ['unknown severity', (w) => (w.record.severity = 'fatal'), 'record.severity', /must be one of "critical"/],
    ['absolute filePath', (w) => (w.record.filePath = '/etc/passwd'), 'record.filePath', /relative/],
    ['filePath with ..', (w) => (w.record.filePath = 'a/../../b.py'), 'record.filePath', /'\.\.'/],
    ['lineNumber as a string', (w) => (w.record.lineNumber = '1588'), 'record.lineNumber', /must be a number; got the string "1588"/],
    ['missing documentation', (w) => delete w.record.documentation, 'record.documentation', /is missing; expected string/],
    ['solutions not a list', (w) => (w.record.solutions = 'restart'), 'record.solutions', /must be an array; got the string "restart"/],
    ['empty solution', (w) => (w.record.solutions = ['ok', '']), 'record.solutions.1', /empty/],
    ['unknown handlingStrategy', (w) => (w.record.handlingStrategy = 'ignore'), 'record.handlingStrategy', /must be one of "try-catch"/],
    ['tag not kebab case', (w) => (w.record.tags = ['zmq', 'Protocol Mismatch']), 'record.tags.1', /kebab/],
    ['short sha', (w) => (w.record.analyzedSha = 'c794754062'), 'record.analyzedSha', /40-character/],
    ['analyzedAt not ISO', (w) => (w.record.analyzedAt = 'yesterday'), 'record.analyzedAt', /ISO-8601/],
    ['schemaVersion 3', (w) => (w.record.schemaVersion = 3), 'record.schemaVersion', /unsupported schema version 3/],
    ['unknown field (typo)', (w) => (w.record.solution = []), 'record.solution', /did you mean "solutions"/],
    ['unknown wrapper field', (w) => ((w as Record<string, unknown>).version = 1), 'version', /not a field of the wrapper/],
    ['datasetVersion missing', (w) => delete (w as Partial<typeof w>).datasetVersion, 'datasetVersion', /missing/],
    ['excerpt one line short', (w) => (w.record.sourceCodeEnd = 1607), 'record.sourceCode', /: warning: has 37 lines, expected 38/],
    ['lineNumber outside the excerpt', (w) => (w.record.lineNumber = 1500), 'record.lineNumber', /outside the excerpt's lines 1570-1606/],
    ['excerpt without its span', (w) => (w.record.sourceCodeStart = null), 'record.sourceCodeStart', /is null but sourceCode is set/],
    ['githubUrl javascript:', (w) => (w.record.githubUrl = 'javascript:alert(1)'), 'record.githubUrl', /https:\/\/github.com/],
    ['githubUrl http:', (w) => (w.record.githubUrl = String(w.record.githubUrl).replace('https:', 'http:')), 'record.githubUrl', /https:\/\/github.com/],
    ['githubUrl other host', (w) => (w.record.githubUrl = String(w.record.githubUrl).replace('github.com', 'gitlab.com')), 'record.githubUrl', /https:\/\/github.com/],
    ['githubUrl other repo', (w) => (w.record.githubUrl = String(w.record.githubUrl).replace('vllm-project/vllm', 'evil/vllm')), 'record.githubUrl', /not vllm-project\/vllm/],
    ['githubUrl other sha', (w) => (w.record.githubUrl = String(w.record.githubUrl).replace('c794754062', '0000000000')), 'record.githubUrl', /pinned to analyzedSha/],
    ['history with a short sha', (w) => (w.record.history = { ...HISTORY, introduced: { ...REV1, sha: 'abc123' } }), 'record.history.introduced.sha', /40-character/],
    ['history without its introduction', (w) => (w.record.history = { scannedFrom: REV1, messageChanges: [] }), 'record.history.introduced', /missing/],
    ['history with an earlier pattern RE2 cannot run', (w) => (w.record.history = { ...HISTORY, messageChanges: [{ ...HISTORY.messageChanges[0], messagePattern: '(?<=x)y' }] }), 'record.history.messageChanges.0.messagePattern', /look-behind/],
    ['history with an unknown field', (w) => (w.record.history = { ...HISTORY, deleted: REV2 }), 'record.history.deleted', /not a field/],
    ['githubUrl other file', (w) => (w.record.githubUrl = String(w.record.githubUrl).replace('moriio_connector.py', 'other.py')), 'record.githubUrl', /not filePath/],
  ];

  it.each(broken)('rejects %s, naming %s', (_name, mutate, field, message) => {
    const w = base();
    mutate(w);
    const problems = problemsOf(w);
    const hit = problems.find((p) => p.startsWith(`${field}: `));
    expect(hit, `problems were:\n${problems.join('\n')}`).toBeDefined();
    expect(hit).toMatch(message);
  });

  it('reports every problem of one record, not just the first', () => {
    const w = base();
    w.record.slug = 'Bad';
    w.record.severity = 'fatal';
    w.record.sourceCodeEnd = 1600;
    w.record.githubUrl = 'data:text/html,x';
    const fields = problemsOf(w).map((p) => p.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['record.slug', 'record.severity', 'record.sourceCode', 'record.githubUrl']));
  });

  it('publishes a JSON Schema that describes the wrapper, every record field, and the forms a file may hold', () => {
    type Obj = { properties: Record<string, unknown>; additionalProperties: boolean; required: string[]; patternProperties: Record<string, unknown> };
    const schema = errorRecordJsonSchema('https://example.org/schema/error-record.json') as { anyOf: unknown[]; $defs: { record: Obj; wrappedRecord: Obj } };
    const { record, wrappedRecord } = schema.$defs;
    expect(Object.keys(record.properties)).toContain('messagePattern');
    expect(Object.keys(record.properties)).toHaveLength(32);
    expect(record.additionalProperties).toBe(false);
    // `$` keys are notes; backgroundTag may be left out; a file holds a wrapped record, a bare one, or an array.
    expect(Object.keys(record.patternProperties)).toEqual(['^\\$']);
    expect(Object.keys(wrappedRecord.patternProperties)).toEqual(['^\\$']);
    expect(record.required).not.toContain('backgroundTag');
    expect(record.required).not.toContain('history');
    expect(record.required).toContain('messagePattern');
    expect(schema.anyOf).toHaveLength(3);
    expect(JSON.stringify(record.properties.messagePattern)).toContain('RE2');
  });
});
