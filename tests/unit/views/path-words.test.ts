import { describe, expect, it } from 'vitest';
import { pathWords } from '../../../src/views/path-words.ts';

describe('the words of a missing address', () => {
  it('are its path words, without ids, slug tails, page numbers and the base path', () => {
    expect(pathWords('/sub/acme/widgets/widget-store-exploded-2222ab/', '/sub')).toBe('acme widgets widget store exploded');
    expect(pathWords('/e/0a6c72d63cdb2574/')).toBe('e');
    expect(pathWords('/vllm-project/vllm/page/3/')).toBe('vllm project vllm');
    expect(pathWords('/a/Caf%C3%A9_crash.html')).toBe('a Café crash');
    expect(pathWords('/%E0%A4%A/bad')).toBe('E0 A4 A bad');
  });
});
