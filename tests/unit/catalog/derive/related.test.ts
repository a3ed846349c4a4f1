import { describe, expect, it } from 'vitest';
import { MIN_SCORE, RELATED_LIMIT, relatedErrors, templateWords, type RelatedInput } from '../../../../src/catalog/derive/related.ts';
import { sampleWrapped } from '../../../support/records.ts';

let counter = 0;
function rec(over: Partial<RelatedInput>): RelatedInput {
  counter++;
  return {
    repo: 'acme/app',
    filePath: `src/f${counter}.py`,
    lineNumber: 10,
    backgroundTag: null,
    tags: [],
    errorMessage: `message ${counter}`,
    ...over,
    id: (over.id ?? counter.toString(16)).padStart(16, '0'),
  };
}

const related = (records: RelatedInput[], id: string) => {
  const i = records.findIndex((r) => r.id === id);
  return relatedErrors(records)[i]!.map((l) => records[l.index]!.id);
};

describe('templateWords', () => {
  it('keeps the literal, distinctive words and drops placeholders, stopwords and numbers', () => {
    expect(templateWords('{type(self).__name__} received pp_rank > 0 handshake metadata but does not support PP-disaggregated KV transfer.')).toEqual([
      'disaggregated', 'handshake', 'kv', 'metadata', 'pp', 'pp_rank', 'received', 'support', 'transfer',
    ]);
    expect(templateWords('HTTP request failed: {0}')).toEqual(['http', 'request']);
    expect(templateWords('expected %d frames, got %s')).toEqual(['frames']);
  });
});

describe('related errors', () => {
  // Seed 003: the old site listed unrelated Rust HTTP/JSON errors of the same repository for this
  // Python ValueError, because they shared a common tag, and a TLS class because of "handshake".
  const seed003 = sampleWrapped().find((w) => w.record.id === '0a6c72d63cdb2574')!.record as unknown as RelatedInput;
  const seed000 = sampleWrapped().find((w) => w.record.id === 'b024d3d9177721a3')!.record as unknown as RelatedInput;
  const vllm = 'vllm-project/vllm';
  const page003 = { ...seed003, tags: ['kv-transfer', 'pipeline-parallel', 'error-handling'] };
  const unrelated = [
    rec({ id: 'f1', repo: vllm, filePath: 'rust/src/frontend/src/error.rs', lineNumber: 20, errorMessage: 'HTTP request failed: {0}', tags: ['http', 'error-handling'] }),
    rec({ id: 'f2', repo: vllm, filePath: 'rust/src/frontend/src/error.rs', lineNumber: 24, errorMessage: 'JSON error: {0}', tags: ['json', 'error-handling'] }),
    rec({ id: 'f3', repo: vllm, filePath: 'rust/src/frontend/src/error.rs', lineNumber: 28, errorMessage: 'Tokenizer error: {0}', tags: ['tokenizer', 'error-handling'] }),
    rec({ id: 'f4', repo: vllm, filePath: 'rust/src/frontend/src/routes.rs', lineNumber: 90, errorMessage: 'tokenize endpoint unavailable: {0}', tags: ['http', 'error-handling'] }),
    rec({ id: 'f5', repo: vllm, filePath: 'rust/src/frontend/src/config.rs', lineNumber: 12, errorMessage: 'managed frontend engine count ({engine_count}) must equal data parallel size ({dp})', tags: ['config', 'error-handling'] }),
    rec({ id: 'f6', repo: 'psf/requests', filePath: 'src/requests/adapters.py', lineNumber: 500, errorMessage: 'TLS handshake failed: {0}', tags: ['ssl', 'error-handling'], backgroundTag: 'tls' }),
  ];
  const sameFile = rec({
    id: 'a1', repo: vllm, filePath: seed003.filePath, lineNumber: 680,
    errorMessage: '{type(self).__name__} does not implement set_xfer_handshake_metadata for KV transfer', tags: ['kv-transfer'],
  });
  const sameDirectory = rec({
    id: 'a2', repo: vllm, filePath: 'vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py', lineNumber: 300,
    errorMessage: 'handshake metadata for remote engine {engine_id} is missing', tags: ['kv-transfer'],
  });
  // Unrelated records everywhere, so that 'error-handling' is as common as it is in a real catalog.
  const background = Array.from({ length: 40 }, (_, k) =>
    rec({ repo: k % 2 ? vllm : 'acme/app', filePath: `other/m${k}.py`, errorMessage: `widget ${k} cannot be frobnicated`, tags: ['error-handling'] }),
  );
  const catalog = [page003, seed000 as RelatedInput, sameFile, sameDirectory, ...unrelated, ...background];

  it('links seed 003 to the errors of its own code, never to unrelated HTTP, JSON or TLS errors', () => {
    const ids = related(catalog, seed003.id);
    expect(ids.slice(0, 2)).toEqual(['00000000000000a1', '00000000000000a2']);
    for (const u of unrelated) expect(ids).not.toContain(u.id);
    for (const b of background) expect(ids).not.toContain(b.id);
  });

  it('says why each link is there', () => {
    const i = catalog.indexOf(page003);
    const [first, second] = relatedErrors(catalog)[i]!;
    expect(first!.reasons).toMatchObject({ sameFile: true, lineDistance: 14, sameRepo: true, sharedTags: ['kv-transfer'] });
    expect(first!.reasons.wording).toBeGreaterThan(0.2);
    expect(second!.reasons).toMatchObject({ sameFile: false, sameDirectory: true, sameRepo: true });
    expect(first!.score).toBeGreaterThanOrEqual(second!.score);
  });

  it('gives no links rather than weak ones', () => {
    const lonely = rec({ id: 'b1', repo: 'solo/repo', errorMessage: 'quux overflowed the zorp', tags: ['error-handling'] });
    expect(related([...catalog, lonely], lonely.id)).toEqual([]);
    // The same repository alone, or a common tag alone, is not enough.
    for (const u of unrelated.slice(0, 4)) expect(related(catalog, u.id)).not.toContain(seed003.id);
  });

  it('ranks the nearer line first in the same file, and stops at six', () => {
    const file = Array.from({ length: 10 }, (_, k) => rec({ id: `c${k}`, filePath: 'src/big.py', lineNumber: 100 + k * 30, errorMessage: `distinct ${k}` }));
    const ids = related(file, '00000000000000c0');
    expect(ids).toHaveLength(RELATED_LIMIT);
    expect(ids).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((x) => x.padStart(16, '0')));
  });

  it('finds similar wording across repositories', () => {
    const a = rec({ id: 'd1', repo: 'one/a', errorMessage: 'replica lease expired before quorum commit {term}' });
    const b = rec({ id: 'd2', repo: 'two/b', errorMessage: 'lease expired before quorum commit in term %d' });
    const links = relatedErrors([a, b, ...background]);
    expect(links[0]!.map((l) => l.index)).toEqual([1]);
    expect(links[0]![0]!.score).toBeGreaterThanOrEqual(MIN_SCORE);
  });

  it('is deterministic whatever the input order', () => {
    const byId = (records: RelatedInput[]) => {
      const links = relatedErrors(records);
      return Object.fromEntries(records.map((r, i) => [r.id, links[i]!.map((l) => `${records[l.index]!.id}:${l.score}`)]));
    };
    const reversed = [...catalog].reverse();
    expect(byId(reversed)).toEqual(byId(catalog));
  });

  it('looks at a bounded window of a large shared index list', () => {
    // 2,000 records of one class in one directory: each still gets at most six links, all from its neighbours.
    const many = Array.from({ length: 2000 }, (_, k) => rec({ id: `e${k.toString(16).padStart(4, '0')}`, filePath: `pkg/m${String(k).padStart(4, '0')}.go`, backgroundTag: 'x', errorMessage: `thing ${k}` }));
    const links = relatedErrors(many);
    expect(links.every((l) => l.length <= RELATED_LIMIT)).toBe(true);
    const middle = links[1000]!.map((l) => l.index);
    expect(middle.every((j) => Math.abs(j - 1000) <= 32)).toBe(true);
  });
});
