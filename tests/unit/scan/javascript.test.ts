import { describe, expect, it } from 'vitest';
import { scanFixture, expectSound } from './records.ts';

describe('scan: TypeScript and JavaScript', async () => {
  const r = await scanFixture('typescript');

  it('reads strings, template literals, + concatenation, a const assigned before, a later argument, a factory', () => {
    expect(r.byMessage('port {port} is privileged; use one above 1024').errorClass).toBe('PortError');
    expect(r.byMessage('port {port} is in the ephemeral range').errorClass).toBe('RangeError');
    r.byMessage('route must start with "/", got {JSON.stringify(path)}');
    expect(r.byMessage('invalid config file: {String(e)}').errorClass).toBe('SyntaxError');
    r.byMessage('several plugins failed to load');
    expect(r.byMessage('unknown option "{key}"').errorClass).toBeNull();
    expect(r.byMessage('expected a string but received {typeof value}').tags[0]).toBe('javascript');
    expect(r.byMessage('Can not locate node.').errorClass).toBe('Error');
    expect(r.byMessage('Plugin {name} failed.\nCheck its options.').documentation).toContain('`explain`');
    expectSound(r.records);
  });

  it('names the method and its doc comment, the guard and the comment beside the throw', () => {
    const rec = r.byMessage('port {port} is in the ephemeral range');
    expect(rec.documentation).toContain('`Server.listen`');
    expect(rec.documentation).toContain('"Opens a listener on the port."');
    expect(rec.documentation).toContain('"ports above this are ephemeral"');
    expect(rec.triggerScenarios).toContain('`port > 49151` holds');
    expect(r.byMessage('invalid config file: {String(e)}').documentation).toContain('`parse`');
  });

  it('skips test and minified files, re-throws and messages without words', () => {
    expect(r.summary.filesSkipped).toEqual({ test: 1, minified: 2 });
    expect(r.summary.sitesSkipped).toEqual({ rethrow: 1, 'no-words': 1, 'no-message': 1, 'not-literal': 1 });
  });

  it('reads a module-level const as the message, unless a parameter of that name hides it', () => {
    expect(r.byMessage('server is not started yet').triggerScenarios).toContain('`!running` holds in `stop`');
    expect(r.records.some((x) => x.errorMessage === 'never the parameter of stop')).toBe(false);
  });
});
