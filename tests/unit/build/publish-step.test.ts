import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFileFor, nodeIo, publishSiteAndLedger, recoverPublish, type PublishIo } from '../../../src/build/publish-step.ts';

/** An output folder with a site and a ledger, and a staging folder with the next site. */
function setUp(withOldSite: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'errdex-publish-'));
  const outDir = join(root, 'dist');
  const staging = join(root, 'dist.build-1', 'staging');
  const ledgerFile = join(root, 'catalog', 'url-ledger.json');
  if (withOldSite) {
    mkdirSync(outDir);
    writeFileSync(join(outDir, 'index.html'), 'old site');
  }
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'index.html'), 'new site');
  mkdirSync(join(root, 'catalog'));
  writeFileSync(ledgerFile, 'old ledger');
  const state = () => ({
    site: existsSync(join(outDir, 'index.html')) ? readFileSync(join(outDir, 'index.html'), 'utf8') : 'no site',
    ledger: readFileSync(ledgerFile, 'utf8'),
  });
  const leftovers = () => [...readdirSync(root), ...readdirSync(join(root, 'catalog'))].filter((f) => f.includes('publishing') || f.includes('.tmp-'));
  return { root, outDir, staging, ledgerFile, state, leftovers };
}

/** File operations that fail at the `at`-th call: only that one (a full disk), or that and every later one (a crash). */
function failingIo(at: number, crash: boolean): { io: PublishIo; calls: () => number } {
  let n = 0;
  const wrap =
    <A extends unknown[]>(f: (...args: A) => void) =>
    (...args: A) => {
      const i = n++;
      if (i === at || (crash && i > at)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      f(...args);
    };
  return { io: { writeDurably: wrap(nodeIo.writeDurably), rename: wrap(nodeIo.rename), remove: wrap(nodeIo.remove), fsyncDir: wrap(nodeIo.fsyncDir) }, calls: () => n };
}

describe('publishing the site and the ledger as one step', () => {
  it('publishes both, leaving no journal or temporary file', () => {
    const t = setUp(true);
    const previous = publishSiteAndLedger({ staging: t.staging, outDir: t.outDir, ledger: { file: t.ledgerFile, text: 'new ledger' } });
    expect(t.state()).toEqual({ site: 'new site', ledger: 'new ledger' });
    expect(readFileSync(join(previous!, 'index.html'), 'utf8')).toBe('old site');
    expect(t.leftovers()).toEqual([]);
    expect(recoverPublish(t.outDir)).toBeNull();
  });

  for (const withOldSite of [true, false]) {
    const before = { site: withOldSite ? 'old site' : 'no site', ledger: 'old ledger' };
    const after = { site: 'new site', ledger: 'new ledger' };
    for (const crash of [false, true]) {
      it(`${crash ? 'a crash' : 'a failed write'} at any file operation leaves both before or both after${withOldSite ? '' : ' (first publish)'}`, () => {
        // How many file operations a whole publish makes.
        const count = failingIo(-1, false);
        const probe = setUp(withOldSite);
        publishSiteAndLedger({ staging: probe.staging, outDir: probe.outDir, ledger: { file: probe.ledgerFile, text: 'new ledger' } }, count.io);
        const total = count.calls();
        expect(total).toBeGreaterThanOrEqual(7);
        const seen = new Set<string>();
        for (let at = 0; at < total; at++) {
          const t = setUp(withOldSite);
          const { io } = failingIo(at, crash);
          expect(() => publishSiteAndLedger({ staging: t.staging, outDir: t.outDir, ledger: { file: t.ledgerFile, text: 'new ledger' } }, io)).toThrow(/ENOSPC/);
          // The next build of the folder finishes or undoes what was cut short.
          recoverPublish(t.outDir);
          const state = t.state();
          expect([before, after], `failing operation ${at}`).toContainEqual(state);
          expect(t.leftovers(), `failing operation ${at}`).toEqual([]);
          expect(existsSync(journalFileFor(t.outDir))).toBe(false);
          seen.add(state.site);
        }
        // Early failures leave the old state, late ones the new.
        expect(seen.size).toBe(2);
      });
    }
  }

  it('without a ledger to write, swaps the site alone', () => {
    const t = setUp(true);
    publishSiteAndLedger({ staging: t.staging, outDir: t.outDir, ledger: null });
    expect(t.state()).toEqual({ site: 'new site', ledger: 'old ledger' });
  });
});
