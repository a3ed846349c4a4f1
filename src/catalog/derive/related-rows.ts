/**
 * What each row of a related-errors list says, so that no two rows of one list read the same: the
 * message cut as titles cut it, the words that tell it from another row's message that opens alike
 * (titles.ts), and where it is raised when two rows show one message (message-groups.ts, labelPlaces).
 */
import { shortenOnWord } from '../../schema/message-template.ts';
import type { ErrorRecord } from '../../schema/record.ts';
import { labelPlaces, type Scopes } from './message-groups.ts';
import { tellApart } from './titles.ts';

/** The most characters of a related error's message a row shows: a link names the error, its page says it whole. */
export const RELATED_MESSAGE_MAX = 120;

type RowFields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber'>;

export interface RowName {
  /** The message as the row shows it. */
  text: string;
  /** Where it is raised, when another row of the list shows the same message. */
  place?: string;
}

const rowMessage = (r: RowFields): string => r.errorMessage.replace(/\s+/g, ' ').trim();

/** The message of a row cut alone: what a row shows unless the list needs more. */
export const rowText = (r: RowFields): string => shortenOnWord(rowMessage(r), RELATED_MESSAGE_MAX);

/** For each row of a list, what it shows where its message cut alone would read as another row's; undefined for the others. */
export function relatedRowNames(rows: readonly RowFields[], scopes: Scopes): (RowName | undefined)[] {
  const cuts = rows.map(rowText);
  if (new Set(cuts).size === cuts.length) return rows.map(() => undefined);
  const forms = tellApart(rows.map(rowMessage), RELATED_MESSAGE_MAX);
  const texts = rows.map((r, i) => forms.get(rowMessage(r)) ?? cuts[i]!);
  const byText = new Map<string, number[]>();
  texts.forEach((t, i) => byText.set(t, [...(byText.get(t) ?? []), i]));
  const names: (RowName | undefined)[] = rows.map((_, i) => (texts[i] === cuts[i] ? undefined : { text: texts[i]! }));
  for (const indexes of byText.values()) {
    if (indexes.length < 2) continue;
    const labels = labelPlaces(
      indexes.map((i) => rows[i]!),
      scopes,
    );
    indexes.forEach((i, k) => {
      names[i] = { text: texts[i]!, place: labels[k]! };
    });
  }
  return names;
}
