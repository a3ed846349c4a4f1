import { describe, expect, it } from 'vitest';
import { readSourceFile } from '../../../src/scan/read-file.ts';
import type { ScanLanguage } from '../../../src/scan/select.ts';

/** Broken and hostile sources per language: each must be read without throwing. */
const HOSTILE: Record<'java' | 'kotlin' | 'csharp' | 'ruby' | 'php', string[]> = {
  java: ['class A { void f() { throw new X("unterminated', 'throw new;', `class A { void f() { throw new X(${Array.from({ length: 400 }, (_, i) => `"w${i} " + x`).join(' + ')}); } }`],
  kotlin: ['fun f() { throw X("$', 'require() {', `fun f() { error(${Array.from({ length: 400 }, () => '"word " + x').join(' + ')}) }`],
  csharp: ['class A { void F() { throw new X($"{', 'throw new X(nameof());', '#if X\nclass A {\n#else\n}'],
  ruby: ['raise X, "#{', 'raise', 'fail(', `raise X, ${Array.from({ length: 400 }, () => '"word " + x').join(' + ')}`],
  php: ['<?php throw new X("{$', '<?php throw new X(<<<EOT\n', '<?php throw X::', 'no php tag at all'],
};

describe('scan: reading broken sources', () => {
  for (const [language, sources] of Object.entries(HOSTILE)) {
    it(`${language}: never throws, and keeps what it can read`, async () => {
      for (const source of sources) {
        const read = await readSourceFile(language as ScanLanguage, source);
        expect(Array.isArray(read.sites)).toBe(true);
      }
      // A long concatenation is still read in full (its operands do not exhaust the look-up depth).
      const long = sources.find((s) => s.length > 10_000);
      if (long) {
        const read = await readSourceFile(language as ScanLanguage, long);
        expect(read.sites).toHaveLength(1);
        expect(read.sites[0]!.parts.filter((p) => p.kind === 'text' && /w(ord|\d+)/.test(p.text)).length).toBe(400);
      }
    });
  }
});
