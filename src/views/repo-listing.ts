/** The listing of a repository page, split once per build and shared by its first and further pages. */
import type { RepoSummary } from '../catalog/derive/index.ts';
import { cachedListing, listing, tocBytes, type Listing } from './listing.ts';
import { directoryOf } from '../util/text.ts';
import { repoPath } from '../util/urls.ts';

export function repoListing(s: RepoSummary): Listing {
  const path = repoPath(s.repo);
  return cachedListing(path, () => listing(path, s.entries, tocBytes([...new Set(s.entries.map((e) => directoryOf(e.record.filePath)))])));
}
