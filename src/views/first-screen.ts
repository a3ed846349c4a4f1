/**
 * The error page's promise on a phone: at 360×740 the message, where it is raised, the explanation
 * and the first solution end on the first screen. Their heights there are estimated from the texts
 * (the narrow layout's font sizes and measure, styles/error.css, with letters as wide as the widest
 * fallback face's, DejaVu Sans, so that a phone's narrower face only leaves room to spare). When they
 * do not fit, the explanation, then the message, show only their first lines at narrow widths (a line
 * clamp, the rest one toggle away: every word stays in the page, and wide screens show it all).
 */
import { parseTemplate } from '../schema/message-template.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { proseSegments } from '../util/text.ts';

/** A message longer than this is set smaller at narrow widths (styles/error.css: h1.message.long). */
export const LONG_MESSAGE = 160;

/** The narrow screen the page is laid out for, and its text's width (360 px less main's padding). */
export const NARROW_SCREEN = { width: 360, height: 740, measure: 336 } as const;

/** A run of text in one face: `mono` for code, `em` its size relative to the line's font. */
export interface Run {
  text: string;
  mono?: boolean;
  /** Extra width of the run's box (padding and border of a code span or a placeholder), in px. */
  box?: number;
}

/** A kind of text of the narrow layout: its font size and line height in px. */
interface Face {
  size: number;
  lineHeight: number;
  /** Average advance of a letter, in em, on the catalog's texts. */
  letter: number;
  /** Size of a mono run relative to the face (`code` is 0.9em, a placeholder 0.92em). */
  mono: number;
}

/**
 * Letters' average advance, in em, measured in Chromium on the 1,705 real records' texts set in
 * DejaVu Sans (0.498 for prose, 0.506 for messages, 0.571 for messages in its bold) and DejaVu Sans
 * Mono (0.602), a little wider here: an estimate a line short would leave the first solution a line low.
 */
const MONO_EM = 0.61;

const FACES = {
  message: { size: 16.8, lineHeight: 23.5, letter: 0.58, mono: 0.92 },
  longMessage: { size: 15.2, lineHeight: 21.3, letter: 0.515, mono: 0.92 },
  where: { size: 13.6, lineHeight: 19.7, letter: 0.51, mono: 0.9 },
  prose: { size: 15.04, lineHeight: 21.8, letter: 0.51, mono: 0.9 },
} satisfies Record<string, Face>;

/**
 * What the first screen holds besides these texts, in px (measured in Chromium at 360×740): the site
 * header, main's padding, the row of facts, the headings "What it means" and "Solutions", and the
 * margins between them.
 */
const CHROME = 232;
/** A row of facts, when they wrap. */
const FACT_ROW = 30;
/** The toggle under a clamped text. */
const TOGGLE = 26;
/** The solutions' indent (1.5rem). */
const SOLUTION_INDENT = 24;
/** The fewest lines a clamped text keeps: the explanation's start, the message's. */
export const MIN_LINES = { explanation: 3, message: 5 } as const;
/** The most lines a clamped text keeps (styles/error.css has a rule for each count up to this). */
export const MAX_LINES = 12;
/** The fewest estimated lines a clamp cuts: an estimate may be a line more than the text takes. */
const SLACK = 2;

/** The lines `runs` take in `width` px, wrapped at spaces (a word longer than a line breaks anywhere). */
export function wrappedLines(runs: readonly Run[], face: Face, width: number): number {
  let lines = 1;
  let x = 0;
  for (const run of runs) {
    const letter = (run.mono ? MONO_EM * face.mono : face.letter) * face.size;
    if (run.box) x += run.box;
    for (const word of run.text.split(/(?<= )/)) {
      if (word === '\n') continue;
      const w = word.length * letter;
      if (x + w <= width || x === 0) {
        x += w;
        // A word wider than the line breaks anywhere.
        while (x > width) {
          lines++;
          x -= width;
        }
      } else {
        lines++;
        x = w;
      }
    }
  }
  return lines;
}

/** Prose as runs: `code` spans in the mono face, in their box. */
const proseRuns = (text: string): Run[] => proseSegments(text).map((s) => (s.code ? { text: s.text, mono: true, box: 8 } : { text: s.text }));

/** The lines of prose of one or more paragraphs. */
function proseLines(text: string, width: number): number {
  return text
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== '')
    .reduce((n, p) => n + wrappedLines(proseRuns(p.replace(/\s+/g, ' ')), FACES.prose, width), 0);
}

export interface FirstScreenInput {
  message: string;
  /** The message is set smaller (LONG_MESSAGE). */
  longMessage: boolean;
  /** The facts row's pills, as text. */
  facts: readonly string[];
  /** "Raised in file:line, in scope · …" as shown, the mono parts marked. */
  where: readonly Run[];
  explanation: string;
  firstSolution: string | null;
}

/** Lines to clamp each text to at narrow widths (null: shown whole), and the estimated bottom of the first solution, in px. */
export interface FirstScreenFit {
  message: number | null;
  explanation: number | null;
  bottom: number;
}

/**
 * How the first screen fits at 360×740: the lines the explanation keeps (at least MIN_LINES), then
 * the message, so that the first solution ends on the screen; null where a text is whole.
 */
export function fitFirstScreen(input: FirstScreenInput): FirstScreenFit {
  const width = NARROW_SCREEN.measure;
  const face = input.longMessage ? FACES.longMessage : FACES.message;
  const messageRuns: Run[] = parseTemplate(input.message).map((p) => (p.kind === 'text' ? { text: p.raw } : { text: p.raw, mono: true, box: 6 }));
  const messageLines = wrappedLines(messageRuns, face, width);
  const explanationLines = proseLines(input.explanation, width);
  const factRows = wrappedLines(
    input.facts.map((f) => ({ text: `${f.replace(/ /g, '\u00a0')} `, box: 29 })),
    { size: 14, lineHeight: 0, letter: 0.51, mono: 1 },
    width,
  );
  const fixed =
    CHROME +
    (factRows - 1) * FACT_ROW +
    wrappedLines(input.where, FACES.where, width) * FACES.where.lineHeight +
    (input.firstSolution === null ? 0 : proseLines(input.firstSolution, width - SOLUTION_INDENT) * FACES.prose.lineHeight);
  const height = (m: number, e: number, clamped: number) => fixed + m * face.lineHeight + e * FACES.prose.lineHeight + clamped * TOGGLE;
  const room = NARROW_SCREEN.height;
  // The explanation gives up lines first, down to its start; then the message. A clamp cuts at least
  // two of the estimated lines (SLACK), so that its toggle has something to show where the estimate is a line long.
  let explanation = explanationLines;
  let message = messageLines;
  if (height(message, explanation, 0) > room) {
    const fits = Math.floor((room - height(message, 0, 1)) / FACES.prose.lineHeight);
    explanation = Math.max(MIN_LINES.explanation, Math.min(explanationLines - SLACK, MAX_LINES, fits));
  }
  const explanationClamped = explanation < explanationLines;
  if (height(message, explanation, explanationClamped ? 1 : 0) > room) {
    const fits = Math.floor((room - height(0, explanation, (explanationClamped ? 1 : 0) + 1)) / face.lineHeight);
    message = Math.max(MIN_LINES.message, Math.min(messageLines - SLACK, MAX_LINES, fits));
  }
  const messageClamped = message < messageLines;
  return {
    message: messageClamped ? message : null,
    explanation: explanationClamped ? explanation : null,
    bottom: Math.round(height(message, explanation, (messageClamped ? 1 : 0) + (explanationClamped ? 1 : 0))),
  };
}

/** Where an error page says its record is raised, as its header shows it. */
export interface RaisedAt {
  /** `file:line`. */
  location: string;
  scope: string | null;
  /** "also raised in 3 other places". */
  alsoRaised: string | null;
  /** The failure class's title, a fact of the header. */
  failureClass: string | null;
  /** " · since v1.2 · message changed in v2.0" (site-history.ts), for a record with a history. */
  history?: string | null;
  /** The site is gone: a "removed" fact joins the header's. */
  removed?: boolean;
}

/** fitFirstScreen for an error page's record and header. */
export function errorPageFit(
  r: Pick<ErrorRecord, 'repo' | 'severity' | 'errorClass' | 'errorCode' | 'httpStatus' | 'errorMessage' | 'documentation' | 'solutions'>,
  at: RaisedAt,
): FirstScreenFit {
  const facts = [r.repo, at.removed && 'removed', r.severity, r.errorClass, r.errorCode && `code ${r.errorCode}`, r.httpStatus !== null && `HTTP ${r.httpStatus}`, at.failureClass];
  return fitFirstScreen({
    message: r.errorMessage,
    longMessage: r.errorMessage.length > LONG_MESSAGE,
    facts: facts.filter((f): f is string => typeof f === 'string' && f !== ''),
    where: [
      { text: 'Raised in ' },
      { text: at.location, mono: true, box: 8 },
      ...(at.scope ? [{ text: ', in ' }, { text: at.scope, mono: true, box: 8 }] : []),
      ...(at.alsoRaised ? [{ text: ` · ${at.alsoRaised}` }] : []),
      ...(at.history ? [{ text: at.history }] : []),
    ],
    explanation: r.documentation,
    firstSolution: r.solutions[0] ?? null,
  });
}
