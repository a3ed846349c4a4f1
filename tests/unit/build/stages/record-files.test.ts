import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mergeRecordFiles, missingTemplate, shardRecordsMade, templateFileIn, writeRecordFiles } from '../../../../src/build/stages/record-files.ts';
import { loadCatalog } from '../../../../src/catalog/catalog.ts';
import { writeSnapshot } from '../../../../src/catalog/snapshot.ts';
import { SHORT_LINK_MARKERS as M } from '../../../../src/views/short-link.ts';
import { errorPath } from '../../../../src/util/urls.ts';
import { SAMPLE_CATALOG } from '../../../support/records.ts';
import { syntheticRecords } from '../../../../bench/lib/synthetic.ts';
import { shardRecordsResult } from '../../../../src/build/merge.ts';
import { listFilesBelow } from '../../../../src/util/files.ts';
import { measureFolders, measureSite, measureSiteBeside } from '../../../../src/build/summary.ts';

const template = `<!DOCTYPE html><html><head><title>${M.title}</title><meta name="description" content="${M.description}"><meta http-equiv="refresh" content="0; url=${M.to}"></head><body><a href="${M.to}">${M.title}</a> /e/${M.id}/</body></html>`;

async function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-record-files-'));
  const catalog = loadCatalog(SAMPLE_CATALOG);
  const snapshot = join(dir, 'catalog.jsonl');
  writeSnapshot(snapshot, catalog.entries);
  return { dir, catalog, snapshot, site: join(dir, 'site'), render: join(dir, 'render'), out: join(dir, 'records') };
}

const writeTemplate = (site: string, html: string) => {
  mkdirSync(join(templateFileIn(site), '..'), { recursive: true });
  writeFileSync(templateFileIn(site), html);
};

describe('the record files stage', () => {
  it('writes the JSON twins at once, and the short links from the template once a render has written it whole', async () => {
    const { catalog, snapshot, site, render, out } = await fixture();
    let progress = 0;
    const writing = writeRecordFiles({ snapshot, outDir: out, templateSites: [render, site] }, (n) => (progress = n));
    // The twins do not wait for the template: the stage is halfway through before any render has written it.
    await sleep(200);
    expect(progress).toBe(Math.floor(catalog.entries.length / 2));
    for (const e of catalog.entries) expect(readFileSync(join(out, 'api/errors', `${e.record.id}.json`), 'utf8')).toBe(e.sourceText);
    expect(readdirSync(join(out, 'e'))).toEqual([]);
    // A page being written is not taken for the template.
    writeTemplate(render, template.slice(0, template.indexOf('<body>')));
    await sleep(200);
    expect(readdirSync(join(out, 'e'))).toEqual([]);
    writeTemplate(render, template);
    const result = await writing;
    expect(result).toMatchObject({ records: catalog.entries.length, files: 2 * catalog.entries.length });
    expect(progress).toBe(catalog.entries.length);
    for (const e of catalog.entries) {
      const link = readFileSync(join(out, 'e', e.record.id, 'index.html'), 'utf8');
      expect(link).toContain(`url=${errorPath(e.record)}`);
      expect(link).toContain(`/e/${e.record.id}/`);
    }
  });

  it('links the files the published site holds byte for byte (by the listing it kept), and writes the others', async () => {
    const { catalog, snapshot, site, dir } = await fixture();
    writeTemplate(site, template);
    const published = join(dir, 'published');
    const listing = join(dir, 'cache/record-files.json');
    const made = await writeRecordFiles({ snapshot, outDir: published, templateSites: [site], published: { site: null, listing } });
    const first = catalog.entries[0]!.record.id;
    const twin = join(published, 'api/errors', `${first}.json`);
    writeFileSync(twin, `${readFileSync(twin, 'utf8')} `);
    const out = join(dir, 'again');
    const result = await writeRecordFiles({ snapshot, outDir: out, templateSites: [site], published: { site: published, listing } });
    expect(result).toMatchObject({ files: 2 * catalog.entries.length, linked: 2 * catalog.entries.length - 1, bytes: made.bytes });
    for (const e of catalog.entries) {
      const f = `api/errors/${e.record.id}.json`;
      expect(readFileSync(join(out, f), 'utf8')).toBe(e.sourceText);
      expect(statSync(join(out, f)).ino === statSync(join(published, f)).ino).toBe(e.record.id !== first);
      expect(statSync(join(out, 'e', e.record.id, 'index.html')).ino).toBe(statSync(join(published, 'e', e.record.id, 'index.html')).ino);
    }
  });

  it('keeps each short link\'s hash and head in the build cache: one as kept is not made again, an edited record\'s is, the files those of a build without it', async () => {
    const { catalog, snapshot, site, dir } = await fixture();
    writeTemplate(site, template);
    const listing = join(dir, 'cache/record-files.json');
    const memo = { file: join(dir, 'cache/short-links.json'), code: 'code-1' };
    const published = join(dir, 'published');
    const made = await writeRecordFiles({ snapshot, outDir: published, templateSites: [site], published: { site: null, listing }, memo });
    const written = statSync(memo.file).ino;
    // The same catalog again: every link as kept, none made, so the memo is not written again.
    const again = await writeRecordFiles({ snapshot, outDir: join(dir, 'again'), templateSites: [site], published: { site: published, listing }, memo });
    expect(again).toEqual({ ...made, linked: made.files });
    expect(statSync(memo.file).ino).toBe(written);

    // The first record's documentation edited: its short link (the description) is made again.
    const editedDoc = 'An edited description of this error, as its short link unfurls.';
    const entries = catalog.entries.map((e, i) => {
      if (i > 0) return e;
      const value = JSON.parse(e.sourceText) as { record?: { documentation: string }; documentation?: string };
      (value.record ?? (value as { documentation: string })).documentation = editedDoc;
      return { ...e, record: { ...e.record, documentation: editedDoc }, sourceText: JSON.stringify(value) };
    });
    const editedSnapshot = join(dir, 'edited.jsonl');
    writeSnapshot(editedSnapshot, entries);
    const edited = await writeRecordFiles({ snapshot: editedSnapshot, outDir: join(dir, 'edited'), templateSites: [site], published: { site: join(dir, 'again'), listing }, memo });
    expect(edited.linked).toBe(made.files - 2);
    // One link made: the memo is not written again (the next build makes that link again, and finds it in place).
    expect(statSync(memo.file).ino).toBe(written);
    const cold = await writeRecordFiles({ snapshot: editedSnapshot, outDir: join(dir, 'cold'), templateSites: [site] });
    expect({ ...edited, linked: 0 }).toEqual(cold);
    for (const f of listFilesBelow(join(dir, 'cold'))) expect(readFileSync(join(dir, 'edited', f), 'utf8'), f).toBe(readFileSync(join(dir, 'cold', f), 'utf8'));
    expect(readFileSync(join(dir, 'edited/e', entries[0]!.record.id, 'index.html'), 'utf8')).toContain(editedDoc.slice(0, 40));
    // Another code's memo is not taken: every link made again (and written anew, the bytes the same).
    const other = await writeRecordFiles({ snapshot: editedSnapshot, outDir: join(dir, 'other'), templateSites: [site], memo: { ...memo, code: 'code-2' } });
    expect(other).toEqual(cold);
  });

  it("makes again the short links of a repository whose titles an edit changed, and takes the others' titles as kept", async () => {
    const { site, dir } = await fixture();
    // Records of several repositories.
    mkdirSync(join(dir, 'catalog'));
    writeFileSync(join(dir, 'catalog/records.jsonl'), `${[...syntheticRecords({ count: 300, seed: 3 })].join('\n')}\n`);
    const catalog = loadCatalog(join(dir, 'catalog'));
    const snapshot = join(dir, 'catalog.jsonl');
    writeSnapshot(snapshot, catalog.entries);
    writeTemplate(site, template);
    const listing = join(dir, 'cache/record-files.json');
    const memo = { file: join(dir, 'cache/short-links.json'), code: 'code-1' };
    let published = join(dir, 'published');
    const made = await writeRecordFiles({ snapshot, outDir: published, templateSites: [site], published: { site: null, listing }, memo });
    // Two records of one repository with other messages: the second takes the first's, so both titles
    // now need their places (message-groups.ts `placeLabels`), the first's though its text is unchanged.
    const a = catalog.entries.findIndex((e) => catalog.entries.some((o) => o.record.repo === e.record.repo && o.record.errorMessage !== e.record.errorMessage));
    const b = catalog.entries.findIndex((o) => o.record.repo === catalog.entries[a]!.record.repo && o.record.errorMessage !== catalog.entries[a]!.record.errorMessage);
    const { errorMessage, messagePattern, errorClass, repo } = catalog.entries[a]!.record;
    const entries = catalog.entries.map((e, i) => {
      if (i !== b) return e;
      const value = JSON.parse(e.sourceText) as { record: Record<string, unknown> };
      Object.assign(value.record, { errorMessage, messagePattern, errorClass });
      return { ...e, record: { ...e.record, errorMessage, messagePattern, errorClass }, sourceText: JSON.stringify(value) };
    });
    // The files of that repository's records: the others' are all linked, their titles taken as kept.
    const ofRepo = 2 * catalog.entries.filter((e) => e.record.repo === repo).length;
    expect(ofRepo).toBeLessThan(made.files / 2);
    let step = 0;
    const rebuild = async (now: typeof entries) => {
      const file = join(dir, `edited-${++step}.jsonl`);
      writeSnapshot(file, now);
      const out = join(dir, `edited-${step}`);
      const edited = await writeRecordFiles({ snapshot: file, outDir: out, templateSites: [site], published: { site: published, listing }, memo });
      const cold = await writeRecordFiles({ snapshot: file, outDir: join(dir, `cold-${step}`), templateSites: [site] });
      expect({ ...edited, linked: 0 }).toEqual(cold);
      expect(listFilesBelow(out).sort()).toEqual(listFilesBelow(join(dir, `cold-${step}`)).sort());
      let changed = 0;
      for (const f of listFilesBelow(join(dir, `cold-${step}`))) {
        const text = readFileSync(join(dir, `cold-${step}`, f), 'utf8');
        expect(readFileSync(join(out, f), 'utf8'), f).toBe(text);
        if (!existsSync(join(published, f)) || readFileSync(join(published, f), 'utf8') !== text) changed++;
      }
      // The files that changed were made, and none of another repository's.
      expect(edited.files - edited.linked).toBeGreaterThanOrEqual(changed);
      expect(edited.files - edited.linked).toBeLessThanOrEqual(ofRepo);
      published = out;
      return { ...edited, changed };
    };
    const shared = await rebuild(entries);
    // The edited record's twin and short link, the other record's short link, and any other whose title shares theirs.
    expect(shared.changed).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(published, 'e', catalog.entries[a]!.record.id, 'index.html'), 'utf8')).not.toBe(readFileSync(join(dir, 'published/e', catalog.entries[a]!.record.id, 'index.html'), 'utf8'));
    // The edited record removed: the other's title no longer needs its place.
    const removed = await rebuild(entries.filter((_, i) => i !== b));
    expect(removed.changed).toBeGreaterThanOrEqual(1);
    expect(readFileSync(join(published, 'e', catalog.entries[a]!.record.id, 'index.html'), 'utf8')).toBe(readFileSync(join(dir, 'published/e', catalog.entries[a]!.record.id, 'index.html'), 'utf8'));
    // A record added with the first one's message: the first's title needs its place again.
    const copy = catalog.entries[a]!;
    const value = JSON.parse(copy.sourceText) as { record: Record<string, unknown> };
    Object.assign(value.record, { id: 'added0000000001a', slug: `${copy.record.slug}-added` });
    const addedEntry = { ...copy, record: { ...copy.record, id: 'added0000000001a', slug: `${copy.record.slug}-added` }, sourceText: JSON.stringify(value) };
    const added = await rebuild([...entries.filter((_, i) => i !== b), addedEntry]);
    expect(added.changed).toBeGreaterThanOrEqual(3);
  });

  it('refuses a whole template without its markers', async () => {
    const { snapshot, site, out } = await fixture();
    writeTemplate(site, '<html><body>no markers</body></html>');
    await expect(writeRecordFiles({ snapshot, outDir: out, templateSites: [site] })).rejects.toThrow(/marker/);
  });

  it('is merged into the site in place of the template', async () => {
    const { catalog, snapshot, site, out } = await fixture();
    expect(missingTemplate(site)).toMatch(/no short-link template/);
    writeTemplate(site, template);
    mkdirSync(join(site, 'api'), { recursive: true });
    writeFileSync(join(site, 'api/manifest.json'), '{}');
    // The notice of a removed record, which the render writes beside the template.
    mkdirSync(join(site, 'e/removed-1'), { recursive: true });
    writeFileSync(join(site, 'e/removed-1/index.html'), 'removed');
    expect(missingTemplate(site)).toBeNull();
    const { figures } = await writeRecordFiles({ snapshot, outDir: out, templateSites: [site] });
    // The stage's folders as it measured them while writing: what a walk of them finds.
    expect(figures).toEqual(measureSite(out));
    const known = mergeRecordFiles(out, site, figures);
    // With the notices: the rest of the site walked, the stage's folders not, the figures of the whole.
    expect(known?.skip).toEqual(['api/errors', 'e']);
    expect(await measureSiteBeside(site, async (dirs) => measureFolders(site, dirs), known!)).toEqual(measureSite(site));
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(templateFileIn(site), '..'))).toBe(false);
    expect(readdirSync(join(site, 'e')).sort()).toEqual([...catalog.entries.map((e) => e.record.id), 'removed-1'].sort());
    expect(readFileSync(join(site, 'e/removed-1/index.html'), 'utf8')).toBe('removed');
    expect(readdirSync(join(site, 'api')).sort()).toEqual(['errors', 'manifest.json']);
  });

  it('measures its folders as it fills them, those taken from the standby too; a notice in place of a short link leaves them to be walked', async () => {
    const { catalog, snapshot, site, dir } = await fixture();
    writeTemplate(site, template);
    const listing = join(dir, 'cache/record-files.json');
    const published = join(dir, 'published');
    await writeRecordFiles({ snapshot, outDir: published, templateSites: [site], published: { site: null, listing } });
    // The standby: the site before the published one, with a twin and a short link no record has now.
    const standby = join(dir, 'standby');
    cpSync(published, standby, { recursive: true });
    writeFileSync(join(standby, 'api/errors/gone.json'), '{"gone": true}');
    mkdirSync(join(standby, 'e/gone'));
    writeFileSync(join(standby, 'e/gone/index.html'), 'x'.repeat(100_000));
    const out = join(dir, 'again');
    const again = await writeRecordFiles({ snapshot, outDir: out, templateSites: [site], published: { site: published, listing, seeded: true }, standby });
    // Copies, not the published files: each replaced by a link of the published one, the extra ones removed.
    expect(again).toMatchObject({ inPlace: 0, linked: 2 * catalog.entries.length });
    expect(existsSync(join(out, 'e/gone'))).toBe(false);
    expect(again.figures).toEqual(measureSite(out));
    // A notice of the same id as a short link takes its place: the figures are no longer the stage's.
    const id = catalog.entries[0]!.record.id;
    mkdirSync(join(site, 'e', id), { recursive: true });
    writeFileSync(join(site, 'e', id, 'index.html'), 'notice');
    expect(mergeRecordFiles(out, site, again.figures)).toBeNull();
    expect(readFileSync(join(site, 'e', id, 'index.html'), 'utf8')).toBe('notice');
  });

  it("says the shards' record files can be linked only when every shard made them, with their heads, from one snapshot", () => {
    const root = mkdtempSync(join(tmpdir(), 'errdex-shard-records-'));
    const shard = (name: string, said: object | null) => {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      if (said) writeFileSync(shardRecordsResult(dir), JSON.stringify(said));
      return dir;
    };
    const made = (key: string, records: number, heads: unknown[] | null = []) => ({ key, records, files: 2 * records, linked: 0, bytes: 0, titles: {}, heads });
    const a = shard('a', made('k1', 3));
    const b = shard('b', made('k1', 4));
    expect(shardRecordsMade([a, b])).toEqual({ key: 'k1', records: 7 });
    // Mixed keys: nothing is linked early, and the merge makes the files.
    expect(shardRecordsMade([a, b, shard('c', made('k2', 1))])).toBeNull();
    expect(shardRecordsMade([a, shard('d', made('k1', 1, null))])).toBeNull();
    expect(shardRecordsMade([a, shard('e', null)])).toBeNull();
    writeFileSync(shardRecordsResult(b), '{"key": "k1", ');
    expect(shardRecordsMade([a, b])).toBeNull();
  });
});
