/**
 * When a build cache's memo of every record (the message index's items, the record files' link
 * titles) is written again. The next build reads it whole, and writing it costs up to a second per
 * 100,000 records: while it lags the catalog by a few records, each build makes those few again from
 * the snapshot instead; once it lags by more than MEMO_LAG, it is written again.
 */
export const MEMO_LAG = 1_000;

/** Whether a memo that lags the catalog by `behind` records (made again, or gone, since it was written) is written again. */
export const memoLags = (behind: number): boolean => behind > MEMO_LAG;
