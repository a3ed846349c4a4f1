/**
 * Pasted queries for the search benchmark: a record's template filled with realistic values (the
 * clean concrete message), then damaged the ways real pastes are: class prefix, log prefix, ANSI
 * colours, terminal wrapping, a whole traceback, smart quotes, truncation, typos and drift.
 * Deterministic: the same catalog and seed give the same queries.
 */
import type { ErrorRecord } from '../../src/schema/record.ts';
import { languageForPath } from '../../src/highlight/languages.ts';
import { parseTemplate } from '../../src/schema/message-template.ts';
import { rng } from './synthetic.ts';

export const DAMAGES = ['class-prefix', 'log-prefix', 'ansi', 'wrapped', 'traceback', 'smart-quotes', 'truncated', 'typo', 'drift'] as const;
export type Damage = 'clean' | (typeof DAMAGES)[number];

export interface BenchQuery {
  /** The record the paste came from: the right first result. */
  target: ErrorRecord;
  damage: Damage;
  /** What is pasted. */
  text: string;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const WORDS = ['frame', 'engine', 'worker', 'cache', 'token', 'shard', 'socket', 'model', 'layer', 'queue'];

function value(r: Rand, numeric: boolean): string {
  if (numeric) return String(pick(r, [int(r, 0, 9), int(r, 10, 999), int(r, 1000, 999_999)]));
  const w = () => pick(r, WORDS);
  const makers = [
    () => String(int(r, 0, 4096)),
    () => `${int(r, 0, 99)}.${int(r, 0, 999)}`,
    () => `/var/lib/${w()}/${w()}_${int(r, 0, 99)}.bin`,
    () => `'${w()}_${int(r, 0, 9)}'`,
    () => `"${w()}"`,
    () => `[${int(r, 0, 9)}, ${int(r, 0, 9)}, ${int(r, 0, 9)}]`,
    () => `0x${int(r, 0, 0xffffff).toString(16)}`,
    () => `${int(r, 0, 3)}.${int(r, 0, 20)}.${int(r, 0, 9)}`,
    () => `${int(r, 1, 900)}ms`,
    () => `(${int(r, 1, 64)}, ${int(r, 1, 4096)})`,
    () => `http://10.0.${int(r, 0, 9)}.${int(r, 2, 250)}:8000/v1/${w()}`,
    () => `torch.float${pick(r, [16, 32, 64])}`,
  ];
  return pick(r, makers)();
}

const NUMERIC_HOLE = /^%(?:\d+\$)?[-#0 +']*\d*(?:hh|h|ll|l|L|q|j|z|t)?[diouxX]$/;

/** The template with values in its placeholders, checked against the record's own pattern. */
export function concreteMessage(r: Rand, record: ErrorRecord, quoted = false): string | null {
  const full = new RegExp(`^(?:${record.messagePattern})$`);
  for (let attempt = 0; attempt < 6; attempt++) {
    const text = parseTemplate(record.errorMessage)
      .map((p) => {
        if (p.kind === 'text') return p.text;
        const numeric = NUMERIC_HOLE.test(p.raw) || attempt >= 4;
        const v = value(r, numeric);
        return quoted && !numeric ? `'${v.replace(/^['"]|['"]$/g, '')}'` : v;
      })
      .join('');
    if (full.test(text)) return text;
  }
  return null;
}

const LOG_PREFIXES: ((r: Rand) => string)[] = [
  () => '2026-08-14T21:17:39.825Z ERROR ',
  (r) => `ERROR 08-14 21:17:${String(int(r, 10, 59))} [${pick(r, WORDS)}.py:${int(r, 1, 900)}] `,
  (r) => `2026-08-14 21:17:39,825 - ${pick(r, WORDS)}.${pick(r, WORDS)} - ERROR - `,
  (r) => `[2026-08-14T21:17:39Z ERROR ${pick(r, WORDS)}::${pick(r, WORDS)}] `,
  (r) => `Aug 14 21:17:39 node-${int(r, 1, 9)} ${pick(r, WORDS)}d[${int(r, 100, 99999)}]: `,
  (r) => `E0814 21:17:39.825012  ${int(r, 100, 9999)} ${pick(r, WORDS)}.cc:${int(r, 1, 900)}] `,
  (r) => `(EngineCore_0 pid=${int(r, 100, 99999)}) ERROR 08-14 21:17:39 [core.py:${int(r, 1, 900)}] `,
  (r) => `${pick(r, WORDS)}-1  | 2026/08/14 21:17:39 `,
];

function className(record: ErrorRecord): string {
  return record.errorClass ?? (languageForPath(record.filePath) === 'go' ? 'panic' : 'Error');
}

function traceback(r: Rand, record: ErrorRecord, message: string): string {
  const cls = className(record);
  const f = () => pick(r, WORDS);
  const noise = `INFO 08-14 21:17:38 [${f()}.py:${int(r, 1, 99)}] starting ${f()} ${f()}\n`;
  switch (languageForPath(record.filePath)) {
    case 'python':
      return `${noise}Traceback (most recent call last):\n  File "/app/${f()}/${f()}.py", line ${int(r, 1, 900)}, in run\n    self.${f()}()\n  File "/app/${f()}.py", line ${int(r, 1, 900)}, in ${f()}\n    raise ${cls}(msg)\n${cls}: ${message}`;
    case 'java':
      return `Exception in thread "main" org.example.${cls}: ${message}\n\tat org.example.${f()}.Service.run(Service.java:${int(r, 1, 900)})\n\tat org.example.Main.main(Main.java:12)`;
    case 'typescript':
    case 'javascript':
      return `${cls}: ${message}\n    at ${f()}Handler (/app/dist/${f()}.js:${int(r, 1, 900)}:${int(r, 1, 80)})\n    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)`;
    case 'go':
      return `panic: ${message}\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/cmd/${f()}/main.go:${int(r, 1, 900)} +0x1d\nexit status 2`;
    case 'rust':
      return `thread 'main' panicked at src/${f()}.rs:${int(r, 1, 900)}:${int(r, 1, 80)}:\n${message}\nnote: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace`;
    case 'ruby':
      return `/app/lib/${f()}.rb:${int(r, 1, 900)}:in '${f()}': ${message} (${cls})\n\tfrom /app/bin/run.rb:3:in '<main>'`;
    default:
      return `terminate called after throwing an instance of '${cls.startsWith('std::') ? cls : 'std::runtime_error'}'\n  what():  ${message}\nAborted (core dumped)`;
  }
}

function wrap(text: string, width: number): string {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
  return out.join('\n');
}

/** Literal words of the template long enough to misspell, with their positions in the message. */
function literalWords(record: ErrorRecord, message: string): { start: number; word: string }[] {
  const literal = new Set(parseTemplate(record.errorMessage).flatMap((p) => (p.kind === 'text' ? p.text.match(/[A-Za-z]{4,}/g) ?? [] : [])));
  return [...message.matchAll(/[A-Za-z]{4,}/g)].filter((m) => literal.has(m[0])).map((m) => ({ start: m.index, word: m[0] }));
}

function typo(r: Rand, record: ErrorRecord, message: string): string | null {
  const words = literalWords(record, message);
  if (words.length === 0) return null;
  const { start, word } = pick(r, words);
  const i = int(r, 1, word.length - 2);
  const kind = r();
  const changed =
    kind < 0.33 ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : kind < 0.66 ? word.slice(0, i) + word.slice(i + 1) : word.slice(0, i) + word[i] + word.slice(i);
  return message.slice(0, start) + changed + message.slice(start + word.length);
}

function drift(r: Rand, record: ErrorRecord, message: string): string | null {
  const words = literalWords(record, message);
  if (words.length < 2) return null;
  const { start, word } = pick(r, words);
  const kind = r();
  if (kind < 0.4) return `${message.slice(0, start)}${pick(r, ['the ', 'current ', 'remote ', 'local '])}${message.slice(start)}`;
  if (kind < 0.7) return (message.slice(0, start) + message.slice(start + word.length)).replace(/ {2,}/, ' ');
  return message.slice(0, start) + pick(r, ['entry', 'value', 'object', 'element', 'resource']) + message.slice(start + word.length);
}

function damage(r: Rand, kind: Damage, record: ErrorRecord, message: string): string | null {
  switch (kind) {
    case 'clean':
      return message;
    case 'class-prefix':
      return `${className(record)}: ${message}`;
    case 'log-prefix':
      return pick(r, LOG_PREFIXES)(r) + message;
    case 'ansi':
      return `\u001b[2m2026-08-14 21:17:39\u001b[0m \u001b[31;1mERROR\u001b[0m \u001b[1m${className(record)}\u001b[0m: \u001b[33m${message}\u001b[0m`;
    case 'wrapped': {
      const line = pick(r, LOG_PREFIXES)(r) + message;
      return wrap(line, Math.min(int(r, 50, 100), Math.max(20, line.length - 5)));
    }
    case 'traceback':
      return traceback(r, record, message);
    case 'smart-quotes': {
      const curly = message.replace(/'([^']*)'/g, '\u2018$1\u2019').replace(/"([^"]*)"/g, '\u201c$1\u201d');
      return curly === message ? null : curly;
    }
    case 'truncated':
      return message.slice(0, Math.max(12, Math.round(message.length * (0.55 + r() * 0.3))));
    case 'typo':
      return typo(r, record, message);
    case 'drift':
      return drift(r, record, message);
  }
}

/** `clean` queries for `clean` random records, and `perDamage` queries for each damage. */
export function benchQueries(records: readonly ErrorRecord[], options: { clean: number; perDamage: number; seed?: number }): BenchQuery[] {
  const r = rng(options.seed ?? 7);
  const out: BenchQuery[] = [];
  const plan: Damage[] = [...Array<Damage>(options.clean).fill('clean'), ...DAMAGES.flatMap((d) => Array<Damage>(options.perDamage).fill(d))];
  for (const kind of plan) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const target = records[Math.floor(r() * records.length)]!;
      const message = concreteMessage(r, target, kind === 'smart-quotes');
      const text = message === null ? null : damage(r, kind, target, message);
      if (text === null) continue;
      out.push({ target, damage: kind, text });
      break;
    }
  }
  return out;
}
