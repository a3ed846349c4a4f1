/**
 * The options of a bench or catalog script, read with node:util's parseArgs: `--help` prints the
 * script's usage, and an option it does not know (or one without its value) is named with the usage
 * and exit code 2, where parseArgs alone would end the script with a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

export function scriptOptions<const O extends Options>(options: O, usage: string): Values<O> {
  const config = { options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true } as const;
  let values: Record<string, unknown>;
  try {
    values = parseArgs(config).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  delete values.help;
  return values as Values<O>;
}
