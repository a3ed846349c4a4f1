/**
 * Where records are raised, as page titles and headings need it: the enclosing function of each
 * record whose title another record shares (src/catalog/derive/message-groups.ts), read once over the
 * whole catalog, with every excerpt of a file put together (src/search/raise-site.ts).
 */
import { sharedTitles, type Scopes } from '../catalog/derive/message-groups.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { raiseSite, raiseSites } from '../search/raise-site.ts';

type ScopeFields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber' | 'sourceCode' | 'sourceCodeStart'>;

/**
 * The scopes of the records that need a place label; the excerpts of their files' other records help
 * find them. `whole`: a record with its code, for records held without it (a lean catalog,
 * src/catalog/validate.ts), asked only for those files' records; `headlines`: the records' title
 * headlines, when already worked out (src/catalog/derive/titles.ts).
 */
export function recordScopes(records: readonly ScopeFields[], whole: (r: ScopeFields) => ScopeFields = (r) => r, headlines?: ReadonlyMap<string, string>): Scopes {
  const needed = sharedTitles(records, headlines);
  const fileKey = (r: ScopeFields) => `${r.repo}\u0000${r.filePath}`;
  const files = new Set(needed.map(fileKey));
  const read = records.filter((r) => files.has(fileKey(r))).map(whole);
  const sites = raiseSites(read);
  const want = new Set(needed.map((r) => r.id));
  const scopes: Scopes = {};
  read.forEach((r, i) => {
    const scope = sites[i]!.scope;
    if (scope !== null && want.has(r.id)) scopes[r.id] = scope;
  });
  return scopes;
}

/** The function a record's page says it is raised in: the build's reading when it made one, else its own excerpt's. */
export function scopeOf(r: Pick<ErrorRecord, 'id' | 'filePath' | 'lineNumber' | 'sourceCode' | 'sourceCodeStart'>, scopes: Scopes): string | null {
  return scopes[r.id] ?? raiseSite(r).scope;
}
