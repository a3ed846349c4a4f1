import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from '../../../src/catalog/load.ts';
import { locateJson, mayHaveDuplicateKeys } from '../../../src/catalog/json-locate.ts';
import { CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_HEADER, THEME_PREPAINT_SCRIPT, scriptHash } from '../../../src/util/csp.ts';
import { escapeCode } from '../../../src/highlight/highlighter.ts';
import { showBidiControls, textProblem } from '../../../src/schema/text-safety.ts';

describe('which characters catalog text may hold', () => {
  it('welcomes right-to-left text, emoji, combining marks, tabs and CRLF line breaks in text', () => {
    for (const s of ['שלום مرحبا', '\u{1F4A5}', 'e\u0301\u0332', 'a\tb', 'a\r\nb', '\u202eoverride\u202c', 'zero\u200bwidth', '\u{1F469}\u200d\u{1F4BB}']) {
      expect(textProblem(s, 'text'), JSON.stringify(s)).toBeNull();
    }
  });

  it('rejects control characters, lone carriage returns and unpaired surrogates, saying where', () => {
    expect(textProblem('a\u0000b', 'text')).toBe('contains the control character U+0000 at character 2; remove it, or write it as the text \\x00');
    expect(textProblem('x\n\u001b[31m', 'text')).toMatch(/U\+001B at line 2, column 1/);
    expect(textProblem('a\u0085', 'text')).toMatch(/U\+0085/);
    expect(textProblem('a\rb', 'text')).toMatch(/carriage return/);
    expect(textProblem('a\ud800b', 'text')).toMatch(/unpaired surrogate U\+D800/);
    expect(textProblem('\udc00', 'text')).toMatch(/unpaired surrogate U\+DC00/);
  });

  it('keeps labels on one line and free of direction controls and invisible characters', () => {
    expect(textProblem('src/\u202eyp.exe', 'label')).toMatch(/U\+202E RIGHT-TO-LEFT OVERRIDE at character 5/);
    expect(textProblem('Widget\u200bError', 'label')).toMatch(/ZERO WIDTH SPACE/);
    expect(textProblem('E1\nE2', 'label')).toMatch(/line break/);
    expect(textProblem('src/\u{1F4A5}/café.py', 'label')).toBeNull();
  });

  it('keeps out of labels every default-ignorable and format character (Unicode properties, not a hand list)', () => {
    const invisible = [
      ['\u00ad', 'U+00AD SOFT HYPHEN'],
      ['\u200c', 'U+200C ZERO WIDTH NON-JOINER'],
      ['\u200d', 'U+200D ZERO WIDTH JOINER'],
      ['\u2062', 'U+2062 INVISIBLE TIMES'],
      ['\u3164', 'U+3164 HANGUL FILLER'],
      ['\ufe0f', 'U+FE0F VARIATION SELECTOR-16'],
      ['\u180e', 'U+180E MONGOLIAN VOWEL SEPARATOR'],
      ['\u034f', 'U+034F COMBINING GRAPHEME JOINER'],
      ['\u{E0041}', 'U+E0041 (a format character)'],
      ['\u0600', 'U+0600 (a format character)'],
      ['\uffa0', 'U+FFA0 (a default-ignorable character)'],
      ['\u115f', 'U+115F (a default-ignorable character)'],
      ['\u{1D173}', 'U+1D173 (a format character)'],
      ['\u{E0100}', 'U+E0100 (a default-ignorable character)'],
    ];
    for (const [c, name] of invisible) {
      expect(textProblem(`Widget${c}Error`, 'label'), name).toBe(`contains the invisible character ${name} at character 7; a label must display as what it is`);
      expect(textProblem(`Widget${c}Error`, 'text'), name).toBeNull();
    }
    // Astral characters are read whole: the place is counted in UTF-16 units, as the other places are.
    expect(textProblem('\u{1F4A5}\u{E0041}', 'label')).toMatch(/U\+E0041 .* at character 3/);
    expect(textProblem('\u{1F4A5} e\u0301 \u05e9\u05dc\u05d5\u05dd', 'label')).toBeNull();
  });

  it('shows bidirectional controls in displayed text: isolated and labelled in HTML, a marker in plain text', () => {
    expect(showBidiControls('a\u202e<b>\u061c', 'html')).toBe(
      'a<span class="bidi-control" title="U+202E RIGHT-TO-LEFT OVERRIDE" data-cp="U+202E">\u202e</span>&lt;b&gt;' +
        '<span class="bidi-control" title="U+061C ARABIC LETTER MARK" data-cp="U+061C">\u061c</span>',
    );
    expect(showBidiControls('txt.\u202eexe\u202c and \u2066x\u2069', 'text')).toBe('txt.[U+202E]exe[U+202C] and [U+2066]x[U+2069]');
    expect(showBidiControls('שלום \u200b \u{1F4A5}', 'text')).toBe('שלום \u200b \u{1F4A5}');
  });

  it('shows direction controls in code as isolated, labelled marks and escapes the rest', () => {
    expect(escapeCode('a\u202e<b>')).toBe('a<span class="bidi-control" title="U+202E RIGHT-TO-LEFT OVERRIDE" data-cp="U+202E">\u202e</span>&lt;b&gt;');
  });
});

describe('reading bytes and JSON faithfully', () => {
  it('finds the first byte sequence that is not UTF-8', () => {
    const b = (...xs: number[]) => Uint8Array.from(xs);
    expect(firstInvalidUtf8(Buffer.from('plain ascii and é ✓ \u{1F4A5}'))).toBeNull();
    expect(firstInvalidUtf8(b(0x61, 0xff))).toEqual({ at: 1, length: 1 });
    expect(firstInvalidUtf8(b(0xc0, 0xaf))).toEqual({ at: 0, length: 1 }); // overlong '/'
    expect(firstInvalidUtf8(b(0xe2, 0x82, 0x20))).toEqual({ at: 0, length: 2 }); // cut short
    expect(firstInvalidUtf8(b(0xed, 0xa0, 0x80))).toEqual({ at: 0, length: 1 }); // a surrogate
    expect(firstInvalidUtf8(b(0xf4, 0x90, 0x80, 0x80))).toEqual({ at: 0, length: 1 }); // above U+10FFFF
  });

  it('finds keys given twice, which JSON.parse would drop silently', () => {
    const text = '{"a": 1,\n "b": {"c": 2, "c": 3},\n "a": 4}';
    expect(mayHaveDuplicateKeys(text, JSON.parse(text))).toBe(true);
    const loc = locateJson(text);
    expect(loc.ok && loc.duplicates).toEqual([
      { path: 'b.c', line: 2, firstLine: 2 },
      { path: 'a', line: 3, firstLine: 1 },
    ]);
    const clean = '{"a": "x\\": y", "b": [{"a": 1}]}';
    expect(mayHaveDuplicateKeys(clean, JSON.parse(clean))).toBe(true); // an escaped quote before ':' only costs a scan
    expect(mayHaveDuplicateKeys('{"a": 1, "b": {"a": 2}}', { a: 1, b: { a: 2 } })).toBe(false);
  });

  it('names the field that holds an offset', () => {
    const text = '{"record": {"id": "x", "documentation": "abc"}}';
    const loc = locateJson(text, { offset: text.indexOf('abc') + 1 });
    expect(loc.ok && loc.pathAt).toBe('record.documentation');
  });
});

describe('the Content-Security-Policy', () => {
  it('allows no inline script or style but the hashed theme pre-paint, and adds frame-ancestors as a header', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
    expect(CONTENT_SECURITY_POLICY).toContain(`script-src 'self' 'wasm-unsafe-eval' ${scriptHash(THEME_PREPAINT_SCRIPT)}`);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY_HEADER).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
  });
});
