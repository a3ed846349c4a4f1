/** Listings of failure classes and tags, split once per build and shared by their first and further pages. */
import type { ClassSummary, TagSummary } from '../catalog/derive/index.ts';
import { cachedListing, listing, type Listing } from './listing.ts';
import { classPath, tagPath } from '../util/urls.ts';

/** Room the class explanation takes on the first page. */
const explanationBytes = (s: ClassSummary) => Math.ceil(Buffer.byteLength(s.cls.explanation) * 1.2) + 2_000;

export const classListing = (s: ClassSummary): Listing => cachedListing(classPath(s.cls.id), () => listing(classPath(s.cls.id), s.entries, explanationBytes(s)));

export const tagListing = (s: TagSummary): Listing => cachedListing(tagPath(s.tag), () => listing(tagPath(s.tag), s.entries));
