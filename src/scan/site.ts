/**
 * A raise site as a language reader finds it: where it is, what it raises, the message's parts and
 * what the code says around it. Records are written from these (record.ts); nothing here guesses.
 */
import type { Node } from 'web-tree-sitter';
import type { SiteContext } from './context.ts';
import { constructorShowsMore, hasLiteralPhrase, hasLiteralWords, type MessagePart } from './message.ts';

export interface Site extends SiteContext {
  /** First and last line (1-based) of the statement that raises. */
  line: number;
  endLine: number;
  /** The construct: `raise`, `throw`, `#[error]`, `panic!`, `errors.New`, … */
  form: string;
  /** `warning`: a message issued without stopping (`warnings.warn`); `definition`: a message the error class carries (`msg_template`). */
  kind: 'exception' | 'panic' | 'warning' | 'definition';
  errorClass: string | null;
  parts: MessagePart[];
  /**
   * The class whose constructor (`__init__`, `constructor`) builds the message (`VersionError`), when
   * the raise passes it arguments rather than the message: its placeholders are that constructor's
   * parameters and locals.
   */
  builtBy?: string;
  /**
   * A message held in a constant of another file (`from .messages import NOT_FOUND`;
   * `raise KeyError(NOT_FOUND)`): `parts` is empty (or holds the placeholder the constant fills)
   * until the scan, which has read every file, puts the constant's value there (scan.ts), or skips
   * the site as not literal.
   */
  imported?: ImportedMessage;
  /**
   * With `builtBy` and `imported`, when the other file does not declare the class's message: `parts`
   * holds the raise's own message, or `unread` says why it has none.
   */
  unread?: SiteSkip;
}

/** Where a raise site's message comes from when it names another file's constant. */
export interface ImportedMessage {
  /** The constant's name in the file that declares it. */
  name: string;
  /**
   * Python: the module as written (`.messages`, `pkg.errors`); JavaScript/TypeScript: the import's
   * path (`./messages`); `class`: the class or module that declares it (`Messages` of
   * `Messages.NOT_FOUND`, `Errors::NOT_FOUND`, a static import), or several apart by spaces, tried in
   * turn (a bare name: the class around the site, then its bases); `package`: unused (Go: the files
   * of the importing file's folder); Rust: the module path (`crate::util::error`, `super::errors`).
   */
  spec: string;
  language: 'python' | 'javascript' | 'class' | 'package' | 'rust';
  /**
   * The placeholder of `parts` the constant fills, by its name as written (Rust's
   * `panic!("{}", crate::util::error::DESTROYED)`); absent, the constant is the whole message.
   */
  local?: string;
}

/** A message the raised class's constructor builds: its parts, or where another file declares the class (`parts` empty until the scan reads it). */
export type BuiltMessage = Pick<Site, 'parts' | 'builtBy' | 'imported' | 'unread'>;

/** How another file names the message a class's constructor builds (FileSites.constants): `Class()`. */
export const builtKey = (cls: string): string => `${cls}()`;

/** Why a message read at a raise site gives no record (null: it does); `factory`: raised without an error class. */
export function skipReason(parts: MessagePart[] | null, factory: boolean): SiteSkip | null {
  return !parts ? 'not-literal' : !hasLiteralWords(parts) ? 'no-words' : factory && !hasLiteralPhrase(parts) ? 'not-literal' : null;
}

/** Why a raise site gives no record. */
export type SiteSkip = 'rethrow' | 'no-message' | 'not-literal' | 'no-words' | 'in-test' | 'pattern-unsafe' | 'template-unreadable';

export const SITE_SKIPS: Record<SiteSkip, string> = {
  rethrow: 're-raises an error value (`raise e`, `throw err`): not a new message',
  'no-message': 'raises without a message (`raise X`, `X()`)',
  'not-literal': 'message computed at run time (a variable or call)',
  'no-words': 'message with no literal words (only placeholders)',
  'in-test': 'inside test code (#[cfg(test)], #[test])',
  'pattern-unsafe': 'a messagePattern the validator rejects',
  'template-unreadable': 'literal text the template syntax cannot hold',
};

export interface FileSites {
  sites: Site[];
  /**
   * The file's constants with a literal value, as other files name them: module-level ones by name,
   * class-level ones as `Class.NAME` (whatever the language writes between them).
   */
  constants?: Record<string, MessagePart[]>;
  skipped: Partial<Record<SiteSkip, number>>;
  /** Where each skipped site is (line), for the `--skipped` list. */
  skippedAt: { reason: SiteSkip; line: number }[];
}

export class SiteCollector {
  readonly sites: Site[] = [];
  readonly skipped: Partial<Record<SiteSkip, number>> = {};
  readonly skippedAt: { reason: SiteSkip; line: number }[] = [];
  skip(reason: SiteSkip, at: Node): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    this.skippedAt.push({ reason, line: lineOf(at) });
  }
  /**
   * The message of a raise site: the first candidate whose parts `read` can take, with literal words;
   * else the site is counted as skipped (why) and null comes back. Without an error class (a factory
   * call) the literal text must read as a phrase: a lone word is more likely a name than the message.
   */
  message(candidates: readonly Node[], read: (candidate: Node) => MessagePart[] | null, at: Node, factory = false): MessagePart[] | null {
    let parts: MessagePart[] | null = null;
    for (const c of candidates) if ((parts = read(c))) break;
    const reason = skipReason(parts, factory);
    if (reason) {
      this.skip(reason, at);
      return null;
    }
    return parts;
  }
  /**
   * An exception raised at `at` (`throw new X(...)`, `raise X(...)`): skipped as 'no-message' without
   * candidates, else recorded with its message as `message` reads it and what the code says around it.
   */
  exception(
    at: Node,
    candidates: readonly Node[],
    read: (candidate: Node) => MessagePart[] | null,
    errorClass: string | null,
    form: string,
    context: () => SiteContext,
    imported?: (candidate: Node) => ImportedMessage | null,
    built?: () => BuiltMessage | null,
  ): void {
    const site = { line: lineOf(at), endLine: endLineOf(at), form, kind: 'exception', errorClass } as const;
    // The error class's constructor builds the message from what the raise passes it (an argument is
    // not the message then, even a literal one): the constructor's message, of this file or, read
    // later, of another.
    const made = built?.() ?? null;
    const readings = candidates.map(read);
    const own = readings.find((p) => p !== null && skipReason(p, !errorClass) === null) ?? null;
    if (made && !made.imported && (!own || constructorShowsMore(made.parts, own))) {
      this.sites.push({ ...context(), ...site, ...made });
      return;
    }
    if (candidates.length === 0) {
      // Should the other file not declare the class's message, the raise has none.
      if (made) this.sites.push({ ...context(), ...site, ...made, parts: [], unread: 'no-message' });
      else this.skip('no-message', at);
      return;
    }
    // A message none of the candidates holds here, but one names another file's constant: read later.
    const elsewhere = imported && !readings.some((p) => p) ? candidates.map(imported).find((m) => m) : null;
    if (elsewhere) {
      this.sites.push({ ...context(), ...site, parts: [], imported: elsewhere });
      return;
    }
    if (made?.imported) {
      // Should the other file not declare the class's message, or it show less: the raise's own, or why it has none.
      this.sites.push({ ...context(), ...site, ...made, parts: own ?? [], ...(own ? {} : { unread: skipReason(readings.find((p) => p) ?? null, !errorClass)! }) });
      return;
    }
    const parts = this.message(candidates, read, at, !errorClass);
    if (parts) this.sites.push({ ...context(), ...site, parts });
  }
  result(constants?: Record<string, MessagePart[]>): FileSites {
    return { sites: this.sites, skipped: this.skipped, skippedAt: this.skippedAt, ...(constants ? { constants } : {}) };
  }
}

export const lineOf = (n: Node): number => n.startPosition.row + 1;
export const endLineOf = (n: Node): number => n.endPosition.row + 1 - (n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? 1 : 0);
