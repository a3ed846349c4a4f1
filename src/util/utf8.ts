/** UTF-8: catalog bytes read as text only when they are UTF-8, and where they stop being so, for reports that name the bad bytes (catalog files, file names). */
import { isUtf8 } from 'node:buffer';

/**
 * The bytes as text, or null when they are not UTF-8; one leading byte-order mark is dropped, as a
 * fatal TextDecoder does. Checked, then decoded, by Node's buffer routines: the TextDecoder, which
 * throws to say no, showed in a profile of a large catalog's validation.
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  if (!isUtf8(bytes)) return null;
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, bytes.length - from).toString('utf8');
}

/** The first byte sequence that is not a well-formed UTF-8 character (offset and length), or null. */
export function firstInvalidUtf8(bytes: Uint8Array): { at: number; length: number } | null {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte -> length and the allowed range of the second byte (no overlongs, surrogates or > U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) [n, lo, hi] = [3, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [n, lo, hi] = [4, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return { at: i, length: 1 };
    for (let k = 1; k < n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return { at: i, length: k };
    }
    i += n;
  }
  return null;
}

/** `0xC3 0x28`: bytes as a report shows them. */
export function hexBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
}

/** Bytes as text, each byte that is not part of a UTF-8 character written `\xNN`: a file name that is not UTF-8, shown. */
export function escapedUtf8(bytes: Uint8Array): string {
  let out = '';
  let from = 0;
  for (let bad = firstInvalidUtf8(bytes); bad; bad = firstInvalidUtf8(bytes.subarray(from))) {
    const at = from + bad.at;
    out += Buffer.from(bytes.subarray(from, at)).toString('utf8');
    out += [...bytes.subarray(at, at + bad.length)].map((b) => `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    from = at + bad.length;
  }
  return out + Buffer.from(bytes.subarray(from)).toString('utf8');
}
