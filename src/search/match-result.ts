/**
 * What the paste matcher returns for one record (matcher.ts ranks them, close-matches.ts makes the
 * near misses): a module of its own so that both read it without importing each other.
 */
import type { FilledHole } from '../schema/message-template.ts';
import type { IndexEntry } from './message-index.ts';

/** `exact`: the whole error line is the template; `contained`: the template is inside a longer line; `close`: a near miss. */
export type MatchKind = 'exact' | 'contained' | 'close';

export interface MatchResult {
  entry: IndexEntry;
  kind: MatchKind;
  /** Lower is better, comparable within a kind (for close matches: edits per literal token of the template, align.ts). */
  score: number;
  /** The pasted line it matched: what the result page shows as "your error". */
  line: string;
  /** The values the placeholders took, when the line lines up with the template. */
  values: FilledHole[] | null;
  /** The paste named this record's class (`ValueError: …`). */
  classMatch: boolean;
  /** The class the paste named for the line it matched (`ValueError` of `ValueError: …`), if any. */
  pastedClass: string | null;
  /** The paste named another error for that line, and the record's nowhere (class-prefix.ts `classClash`; set by the matcher's last step). */
  classClash?: boolean;
  /** Of a close match's `score`, what the line's text after the whole template costs (align.ts `TAIL`). */
  tailScore?: number;
  /** How well the record's raise site fits the paste's stack frames (frames.ts `siteFit`; 0 without frames). */
  siteFit?: number;
  /** The paste's frames show where its error went, and not through this record's raise site (frames.ts `siteMissed`). */
  siteMissed?: boolean;
}
