import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8 } from '../../../src/util/utf8.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
/** What decodeUtf8 must give: a fatal TextDecoder's answer (it drops one leading byte-order mark). */
function byTextDecoder(bytes: Uint8Array): string | null {
  try {
    return fatal.decode(bytes);
  } catch {
    return null;
  }
}

// Bytes that are often UTF-8: text, bytes around the multi-byte boundaries, byte-order marks.
const pieces = fc.oneof(
  fc.string({ unit: 'grapheme' }).map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 6 }),
  fc.constantFrom([0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xf0, 0x9f, 0x98]).map((b) => Uint8Array.from(b)),
);
const bytes = fc.array(pieces, { maxLength: 8 }).map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));

describe('decodeUtf8', () => {
  it('gives what a fatal TextDecoder gives, null where it throws', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeUtf8(b)).toBe(byTextDecoder(b));
        expect(decodeUtf8(b) === null).toBe(firstInvalidUtf8(b) !== null);
      }),
      { numRuns: 3000 },
    );
  });

  it('drops one leading byte-order mark, not a second, and reads a view into a larger buffer', () => {
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41]))).toBe('\uFEFFA');
    const buffer = Buffer.from('xx\u00e9t\u00e9yy');
    expect(decodeUtf8(buffer.subarray(2, buffer.length - 2))).toBe('\u00e9t\u00e9');
    expect(decodeUtf8(Uint8Array.from([0x7b, 0xff, 0x7d]))).toBeNull();
  });
});
