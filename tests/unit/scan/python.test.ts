import { describe, expect, it } from 'vitest';
import { scanFixture, expectSound } from './records.ts';

describe('scan: Python', async () => {
  const r = await scanFixture('python');

  it('reads every message form: literal, f-string, %, .format, +, a name assigned before, keyword, second argument', () => {
    expect(r.byMessage('expected 2 parts, got {len(frame)} in {stage} ({{strict}})').errorClass).toBe('FrameError');
    expect(r.byMessage('delimiter must be empty, got {frame[0]} at stage {stage}').lineNumber).toBe(17);
    r.byMessage('empty payload for {stage}');
    r.byMessage('cannot reach {host}:{port} (retry {attempt})');
    r.byMessage('client closed: {reason}');
    expect(r.byMessage('resource not found').errorClass).toBe('LookupError');
    expect(r.byMessage('payload of {len(data)} bytes is too large').errorClass).toBe('PayloadError');
    r.byMessage('debug value = {value}');
    expectSound(r.records);
  });

  it('writes facts: place, excerpt, pinned link, guard, enclosing method and its docstring', () => {
    const rec = r.byMessage('expected 2 parts, got {len(frame)} in {stage} ({{strict}})');
    expect(rec.filePath).toBe('acme/client.py');
    expect(rec.githubUrl).toBe(`https://github.com/acme/python-demo/blob/${r.summary.sha}/acme/client.py#L15`);
    expect(rec.sourceCode!.split('\n')[rec.lineNumber! - rec.sourceCodeStart!]).toContain('raise FrameError(');
    expect(rec.triggerScenarios).toContain('`len(frame) != 2` holds in `Client.receive`');
    expect(rec.documentation).toContain('"Receive one frame and check its shape."');
    expect(rec.errorType).toBe('exception');
    expect(rec.severity).toBe('error');
    expect(rec.tags).toEqual(['python', 'acme', 'client', 'frame-error']);
    expect(rec.solutions).toEqual([]);
    expect(rec.commonSituations).toContain('Generated from the code by errdex scan');
    expect(r.byMessage('cannot reach {host}:{port} (retry {attempt})').triggerScenarios).toContain('while handling `OSError as exc`');
    expect(r.byMessage('resource not found').triggerScenarios).toContain('matches `404`');
  });

  it('gives the same message raised twice in one method two ids', () => {
    const twice = r.records.filter((x) => x.errorMessage === 'Data must not be None');
    expect(twice).toHaveLength(2);
    expect(new Set(twice.map((x) => x.id)).size).toBe(2);
  });

  it('skips tests, vendored and generated files, and counts the sites it cannot use (a factory given a name, not a message, among them)', () => {
    expect(r.summary.filesRead).toEqual({ python: 2 });
    expect(r.summary.filesSkipped).toEqual({ test: 1, vendored: 1, generated: 1 });
    expect(r.summary.sitesSkipped).toEqual({ 'no-message': 2, rethrow: 1, 'no-words': 1, 'not-literal': 3 });
    expect(r.records.some((x) => x.errorMessage.includes('never scanned'))).toBe(false);
  });

  it('reads a message marked for translation (`_()`, `gettext_lazy()`, `pgettext()` after its context) as written', () => {
    expect(r.byMessage('Enter a valid value.').errorClass).toBe('ValidationError');
    r.byMessage('Ensure this value has at most {limit} characters.');
    r.byMessage('The value is not allowed here.');
  });

  it("reads `self.message` from the site's own class or its base, never another class of the file", () => {
    const unique = r.records.filter((x) => x.errorMessage === 'This field must be unique.').map((x) => x.lineNumber);
    expect(unique).toEqual([76, 85]);
    expect(r.records.some((x) => x.errorMessage.startsWith('The fields'))).toBe(false);
  });

  it('reads messages held in module and class constants, and not a lower-case parameter', () => {
    expect(r.byMessage('value is not a number').errorClass).toBe('TypeError');
    expect(r.byMessage('value is longer than the field allows').triggerScenarios).toContain('`len(str(value)) > limit` holds in `Checker.check`');
    expect(r.summary.skippedSites).toContain('acme/validators.py:41 not-literal');
  });

  it("reads an error class's own message (msg_template, message) as a record of the class", () => {
    const template = r.byMessage('ensure this value is less than {limit_value}');
    expect([template.errorClass, template.lineNumber, template.errorType]).toEqual(['LimitError', 15, 'exception']);
    expect(template.documentation).toContain('The error class `LimitError` carries this message (`msg_template`)');
    expect(template.documentation).toContain('"The value is over its limit."');
    expect(r.byMessage('value must not be empty').errorClass).toBe('EmptyError');
    // Marked for translation, as Django REST framework's `default_detail = _('…')`.
    expect(r.byMessage('Authentication credentials were not provided.').errorClass).toBe('NotAuthenticated');
    // A str.format field in a class's message is a placeholder, whatever the attribute's name.
    expect(r.byMessage('Method "{method}" not allowed.').errorClass).toBe('MethodNotAllowed');
    // A parenthesised template over several literals; `{key!r}` names the field.
    expect(r.byMessage('no match for discriminator {key} (allowed values: {allowed})').errorClass).toBe('DiscriminatorError');
    // A class that is not an error keeps its attributes to itself; `raise LimitError()` has no message of its own.
    expect(r.records.some((x) => x.errorMessage === 'not an error class')).toBe(false);
    expect(r.summary.skippedSites).toContain('acme/validators.py:38 no-message');
  });

  it('reads warnings.warn (and an imported warn) as warnings, UserWarning by default', () => {
    const deprecated = r.byMessage('negative value {value} is deprecated');
    expect([deprecated.errorClass, deprecated.errorType, deprecated.severity]).toEqual(['DeprecationWarning', 'console', 'warning']);
    const zero = r.byMessage('zero is treated as missing');
    expect([zero.errorClass, zero.severity]).toEqual(['UserWarning', 'warning']);
    // A module constant whose name starts with an underscore.
    expect(r.byMessage('allow_reuse is deprecated and will be ignored').errorClass).toBe('DeprecationWarning');
    expectSound(r.records);
  });
});
