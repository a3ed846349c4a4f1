/**
 * The options of a command-line script (errdex's commands, the bench's), read with node:util's
 * parseArgs: `--help` prints the script's usage (exit 0), and an option it does not know, or one
 * without its value, is named with the usage (exit 2), where parseArgs alone would end the script
 * with a stack trace. A value the script finds wrong after that is refused the same way
 * (refuseOption, wholeNumber).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

export interface ScriptArgs {
  /** The arguments to read; the process's by default. */
  args?: string[];
  /** Whether arguments that are no option are taken (`positionals`). */
  positionals?: boolean;
  /** Put before the message of a wrong option (`scan: `). */
  label?: string;
}

export function scriptOptions<const O extends Options>(options: O, usage: string, how: ScriptArgs = {}): { values: Values<O>; positionals: string[] } {
  const config = { options: { ...options, help: { type: 'boolean' } }, strict: true, allowPositionals: how.positionals ?? false, ...(how.args ? { args: how.args } : {}) } as const;
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs(config);
  } catch (e) {
    console.error(`${how.label ?? ''}${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  delete parsed.values.help;
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

/** Ends the script as a wrong option does: the message, then the usage, on stderr (exit 2). */
export function refuseOption(message: string, usage: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** An option's value read as a whole number (of at least `min`, when given); anything else is refused (refuseOption). */
export function wholeNumber(text: string, option: string, usage: string, min?: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || (min !== undefined && n < min)) {
    refuseOption(`${option} takes a whole number${min === undefined ? '' : ` of at least ${min}`}; got ${text}`, usage);
  }
  return n;
}
