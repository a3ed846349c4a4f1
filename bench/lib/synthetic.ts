/**
 * A deterministic generator of realistic synthetic catalogs, for benchmarks and scale tests.
 *
 * Records vary like a real catalog: many repositories of different sizes, several languages each
 * with its own placeholder style (`{name}`, `%s`, `${x}`, `#{x}`, `{:?}`), error classes, excerpt
 * lengths of 20-40 lines, tags, failure classes, and message templates built from shared skeletons
 * so that many templates resemble one another (the hard case for the paste matcher).
 */
import { createHash } from 'node:crypto';
import { parseTemplate } from '../../src/schema/message-template.ts';
import { escapeRegExp } from '../../src/util/text.ts';

export interface SyntheticOptions {
  count: number;
  seed?: number;
  /** Failure class ids records may name in `backgroundTag`. */
  classIds?: string[];
  datasetVersion?: string;
  /**
   * 'lean' (the default): one 20-40-line excerpt and short snippets from a small vocabulary.
   * 'rich': records shaped like real ones (richProfile below); the same ids, repositories and messages.
   */
  profile?: Profile;
}

export const PROFILES = ['lean', 'rich'] as const;
export type Profile = (typeof PROFILES)[number];

/** Small fast PRNG (mulberry32): the same seed gives the same catalog on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const NOUNS = [
  'frame', 'buffer', 'socket', 'handshake', 'token', 'tensor', 'shard', 'replica', 'partition', 'segment', 'chunk', 'block',
  'page', 'record', 'column', 'row', 'index', 'schema', 'table', 'cursor', 'transaction', 'lock', 'lease', 'session',
  'request', 'response', 'header', 'payload', 'stream', 'channel', 'queue', 'topic', 'message', 'event', 'callback', 'handler',
  'plugin', 'module', 'package', 'dependency', 'config', 'option', 'flag', 'argument', 'parameter', 'field', 'attribute', 'key',
  'value', 'entry', 'node', 'edge', 'graph', 'tree', 'leaf', 'branch', 'commit', 'revision', 'snapshot', 'checkpoint', 'model',
  'layer', 'weight', 'gradient', 'optimizer', 'scheduler', 'worker', 'executor', 'thread', 'process', 'task', 'job', 'pipeline',
  'stage', 'device', 'kernel', 'driver', 'context', 'scope', 'namespace', 'container', 'volume', 'mount', 'path', 'file',
  'directory', 'archive', 'certificate', 'credential', 'secret', 'role', 'permission', 'policy', 'quota', 'limit', 'window',
  'timer', 'deadline', 'interval', 'offset', 'range', 'slice', 'vector', 'matrix', 'dimension', 'axis', 'dtype', 'encoding',
  'codec', 'format', 'version', 'protocol', 'endpoint', 'route', 'address', 'port', 'host', 'cluster', 'region', 'zone',
  'bucket', 'object', 'blob', 'image', 'tag', 'label', 'selector', 'template', 'variable', 'expression', 'operator', 'literal',
  'identifier', 'symbol', 'type', 'trait', 'interface', 'class', 'method', 'function', 'closure', 'iterator', 'generator',
  'future', 'promise', 'signal', 'subscriber', 'publisher', 'consumer', 'producer', 'broker', 'tenant', 'account', 'user',
] as const;

const VERBS = [
  'read', 'write', 'open', 'close', 'parse', 'decode', 'encode', 'serialize', 'deserialize', 'load', 'save', 'resolve',
  'allocate', 'free', 'bind', 'connect', 'register', 'unregister', 'initialize', 'start', 'stop', 'flush', 'sync', 'commit',
  'rollback', 'acquire', 'release', 'schedule', 'dispatch', 'compile', 'validate', 'verify', 'sign', 'authenticate',
  'authorize', 'fetch', 'upload', 'download', 'mount', 'unmount', 'attach', 'detach', 'spawn', 'join', 'cancel', 'retry',
  'migrate', 'upgrade', 'downgrade', 'index', 'query', 'insert', 'update', 'delete', 'merge', 'split', 'convert', 'cast',
] as const;

const STATES = [
  'the pool is closed', 'a transaction is active', 'the stream is paused', 'shutdown is in progress', 'the lock is held',
  'the context is cancelled', 'the cache is warming', 'the leader is unknown', 'the session expired', 'replication lags',
] as const;

const ADJECTIVES = ['invalid', 'unsupported', 'unknown', 'duplicate', 'missing', 'unexpected', 'malformed', 'stale', 'empty', 'corrupt'] as const;

/** Skeletons: `N`, `N2` nouns, `V` a verb, `A` an adjective, `S` a state, `I`, `I2` identifiers; `$1`… placeholders. */
const SKELETONS = [
  'I must be set when I2 is enabled',
  'unknown I: $1',
  'invalid value $1 for I (expected $2)',
  'I $1 is not supported by N',
  'I requires N2 >= $1, got $2',
  'cannot V N: I is $1',
  'missing required I in N $1',
  'I and I2 are mutually exclusive',
  'I is deprecated; use I2 instead',
  'I() takes $1 positional arguments but $2 were given',
  'failed to V N: $1',
  'failed to V N $1: $2',
  'could not V N $1',
  'cannot V N while S',
  'cannot V N $1 while S',
  'A N: $1',
  'A N $1 for N2 $2',
  'A N2 in N: $1',
  'N $1 not found',
  'N $1 not found in N2 $2',
  'N $1 already exists',
  'N $1 is not a valid N2',
  'expected $1 Ns, got $2',
  'expected N to be $1, got $2',
  'N must be between $1 and $2, got $3',
  'N must be positive, got $1',
  'N $1 exceeds the maximum of $2',
  'timed out after $1 waiting for N',
  'timeout waiting for N $1 after $2',
  'N count mismatch: $1 != $2',
  'unsupported N version $1 (supported: $2)',
  'N $1 does not support N2',
  'N2 of N $1 is A',
  'no N2 registered for N $1',
  'N is closed',
  'N was already Ved',
  'V N: permission denied for $1',
  'received $1 Ns but only $2 N2s are available',
  'N $1 has A N2 $2',
  'unable to V N from $1: $2',
] as const;

/**
 * A code identifier in the language's naming style: `frame_count`, `maxFrameCount`, `FrameBuffer`,
 * `--max-frame-count`, `FRAME_BUFFER_SIZE`. Real messages name settings, functions and types, which
 * is what makes most of them distinct.
 */
function identifier(r: Rand, lang: string): string {
  const words = Array.from({ length: int(r, 2, 3) }, () => pick(r, r() < 0.3 ? NAMES : NOUNS));
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const kind = r();
  if (kind < 0.12) return `--${words.join('-')}`;
  if (kind < 0.2) return words.join('_').toUpperCase();
  if (kind < 0.3) return words.map(cap).join('');
  if (kind < 0.4) return `${words[0]}.${words.slice(1).join('_')}`;
  if (['python', 'rust', 'ruby', 'cpp'].includes(lang)) return words.join('_');
  return words[0] + words.slice(1).map(cap).join('');
}

interface LanguageStyle {
  lang: string;
  ext: string;
  classes: readonly (string | null)[];
  placeholder: (r: Rand, name: string, numeric: boolean) => string;
  raise: (cls: string | null, message: string) => string;
  comment: string;
  dirs: readonly string[];
}

const q = (s: string) => JSON.stringify(s);

const LANGUAGES: readonly LanguageStyle[] = [
  {
    lang: 'python', ext: 'py', comment: '#', dirs: ['src', 'lib', 'core', 'utils', 'distributed', 'models', 'io'],
    classes: ['ValueError', 'RuntimeError', 'KeyError', 'TypeError', 'NotImplementedError', 'TimeoutError', 'AssertionError', 'ConfigError'],
    placeholder: (r, name, numeric) => pick(r, numeric ? [`{${name}}`, '%d', `{${name}!r}`] : [`{${name}}`, '%s', `{${name}!r}`, `{${name} = }`]),
    raise: (cls, m) => `raise ${cls ?? 'RuntimeError'}(f${q(m)})`,
  },
  {
    lang: 'rust', ext: 'rs', comment: '//', dirs: ['src', 'src/engine', 'src/net', 'crates/core/src', 'crates/io/src'],
    classes: ['Error', 'IoError', 'ParseError', null],
    placeholder: (r, name) => pick(r, [`{${name}}`, '{}', `{${name}:?}`, '{:?}']),
    raise: (_cls, m) => `return Err(anyhow!(${q(m)}));`,
  },
  {
    lang: 'go', ext: 'go', comment: '//', dirs: ['pkg', 'internal', 'cmd', 'pkg/server', 'internal/store'],
    classes: [null],
    placeholder: (r, _name, numeric) => pick(r, numeric ? ['%d', '%v'] : ['%s', '%v', '%q']),
    raise: (_cls, m) => `return fmt.Errorf(${q(m)}, args...)`,
  },
  {
    lang: 'typescript', ext: 'ts', comment: '//', dirs: ['src', 'packages/core/src', 'lib', 'src/runtime'],
    classes: ['Error', 'TypeError', 'RangeError', 'ValidationError'],
    placeholder: (_r, name) => `\${${name}}`,
    raise: (cls, m) => `throw new ${cls ?? 'Error'}(\`${m}\`);`,
  },
  {
    lang: 'java', ext: 'java', comment: '//', dirs: ['src/main/java/org/example', 'core/src/main/java/io/app'],
    classes: ['IllegalArgumentException', 'IllegalStateException', 'IOException', 'UnsupportedOperationException'],
    placeholder: () => '{}',
    raise: (cls, m) => `throw new ${cls ?? 'RuntimeException'}(format(${q(m)}, args));`,
  },
  {
    lang: 'ruby', ext: 'rb', comment: '#', dirs: ['lib', 'app/models', 'lib/core'],
    classes: ['ArgumentError', 'RuntimeError', 'NameError'],
    placeholder: (_r, name) => `#{${name}}`,
    raise: (cls, m) => `raise ${cls ?? 'RuntimeError'}, ${q(m)}`,
  },
  {
    lang: 'cpp', ext: 'cc', comment: '//', dirs: ['src', 'src/runtime', 'csrc', 'lib'],
    classes: ['std::runtime_error', 'std::invalid_argument', null],
    placeholder: (r, _n, numeric) => (numeric ? pick(r, ['%d', '%zu', '%lld']) : '%s'),
    raise: (_cls, m) => `throw std::runtime_error(strformat(${q(m)}, args));`,
  },
];

const OWNERS = ['acme', 'orbit', 'vector-labs', 'northwind', 'quill', 'hexa', 'lumen', 'corvid', 'tidal', 'kestrel', 'basalt', 'fjord', 'ember', 'cobalt', 'sable'];
const REPO_NAMES = ['engine', 'runtime', 'server', 'client', 'sdk', 'cli', 'core', 'db', 'queue', 'mesh', 'infer', 'train', 'store', 'gateway', 'compiler', 'vm', 'ui', 'sync'];
const TAGS = ['io', 'network', 'config', 'concurrency', 'memory', 'serialization', 'auth', 'storage', 'distributed', 'gpu', 'parsing', 'validation', 'timeout', 'compatibility', 'protocol', 'filesystem', 'database', 'cache', 'scheduling', 'http'];
const NAMES = ['count', 'size', 'name', 'path', 'id', 'rank', 'value', 'key', 'expected', 'actual', 'limit', 'timeout', 'index', 'kind', 'dtype', 'version', 'shape'];

function hex(input: string, n: number): string {
  return createHash('sha256').update(input).digest('hex').slice(0, n);
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .split('-')
    .slice(0, 10)
    .join('-');
}

/** A template's literal text with every placeholder style made alike: how it reads once printed. */
function printedForm(template: string): string {
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? p.text : '\u0000'))
    .join('');
}

/** Fills a skeleton with words and language-style placeholders; returns the template and its pattern. */
function makeTemplate(r: Rand, style: LanguageStyle): { template: string; pattern: string } {
  const skeleton = pick(r, SKELETONS);
  // A third of the nouns are identifiers instead (`kv_cache`), as in real messages.
  const noun = r() < 0.35 ? identifier(r, style.lang) : pick(r, NOUNS);
  const noun2 = r() < 0.35 ? identifier(r, style.lang) : pick(r, NOUNS);
  let template = '';
  let pattern = '';
  const tokens = skeleton.split(/(\$\d|\bN2\b|\bNs\b|\bN\b|\bV\b|\bVed\b|\bA\b|\bS\b|\bI2\b|\bI\b)/);
  for (const t of tokens) {
    if (/^\$\d$/.test(t)) {
      const numeric = r() < 0.4;
      const ph = style.placeholder(r, pick(r, NAMES), numeric);
      template += ph;
      pattern += ph === '%d' || ph === '%zu' || ph === '%lld' ? '(\\d+)' : '(.+?)';
      continue;
    }
    const word =
      t === 'N' ? noun : t === 'N2' ? noun2 : t === 'Ns' ? `${noun}s` : t === 'V' ? pick(r, VERBS) : t === 'Ved' ? `${pick(r, VERBS)}ed` : t === 'A' ? pick(r, ADJECTIVES) : t === 'S' ? pick(r, STATES) : t === 'I' || t === 'I2' ? identifier(r, style.lang) : t;
    template += word;
    pattern += escapeRegExp(word);
  }
  // A third of the templates get a qualifier, so that near-identical templates exist side by side.
  if (r() < 0.33) {
    const extra = ` (${pick(r, ['during', 'in', 'for'])} ${pick(r, NOUNS)} ${pick(r, NOUNS)})`;
    template += extra;
    pattern += escapeRegExp(extra);
  }
  return { template, pattern };
}

function excerpt(r: Rand, style: LanguageStyle, raiseLine: string, length?: number): { code: string; offset: number } {
  const lines: string[] = [];
  const total = length ?? int(r, 20, 40);
  const at = int(r, 5, total - 5);
  const ind = style.lang === 'python' || style.lang === 'ruby' ? '    ' : '\t';
  for (let i = 0; i < total; i++) {
    if (i === at) {
      lines.push(`${ind}${ind}${raiseLine}`);
      continue;
    }
    const v = pick(r, NAMES);
    const n = pick(r, NOUNS);
    const kind = r();
    if (kind < 0.15) lines.push(`${ind}${style.comment} ${pick(r, VERBS)} the ${n} before ${pick(r, VERBS)}ing the ${pick(r, NOUNS)}`);
    else if (kind < 0.25) lines.push('');
    else lines.push(codeLine(r, style, ind, kind, v, n));
  }
  return { code: lines.join('\n'), offset: at };
}

/** One statement in the language's style about the variable `v` and the noun `n`; `kind` in [0.25, 1) picks a condition or a call. */
function codeLine(r: Rand, style: LanguageStyle, ind: string, kind: number, v: string, n: string): string {
  if (style.lang === 'python') return `${ind}${kind < 0.5 ? 'if' : ''}${kind < 0.5 ? ` self.${n}_${v} is None:` : `${v} = self._${n}.${pick(r, VERBS)}(${v})`}`;
  if (style.lang === 'ruby') return `${ind}${v} = @${n}.${pick(r, VERBS)}(${v})`;
  if (style.lang === 'go') return `${ind}${v}, err := ${n}.${pick(r, VERBS)}(ctx, ${v})`;
  if (style.lang === 'rust') return `${ind}let ${v} = self.${n}.${pick(r, VERBS)}(&${v})?;`;
  return `${ind}${kind < 0.5 ? 'if (' + n + '.' + v + ' == null) {' : 'const ' + v + ' = this.' + n + '.' + pick(r, VERBS) + '(' + v + ');'}`;
}

/**
 * The rich profile, measured on real records (`../shared/search-dev/records.jsonl`, 1,705 records of
 * seven codebases, and the seed-shaped sample in data/): every record has its excerpt, 37 lines around
 * the raise; 93 % a try/catch of 7-9 lines, 72 % a validation snippet of 3-4 lines, 22 % a type guard
 * of 2-3 lines; the seed-shaped records have an example fix (before and after, 6-10 lines) on half of
 * them. A file raises in 4.4 places on average (median 2, some 50), so a quarter of the excerpts'
 * lines are in another record's excerpt too. Prose is about twice the lean profile's. A few records
 * carry a long excerpt (a whole function), the long blocks where a highlighter's cost per line shows.
 * Every snippet names the record's own identifiers, so blocks repeat across records no more than real
 * ones do.
 */
const RICH = { around: 18, recordsPerFile: 4.4, longExcerpt: 0.06, longLines: [80, 160], exampleFix: 0.5, validation: 0.72, guard: 0.22, tryCatch: 0.93 } as const;

/** A line of a source file, as the excerpts' other lines are. */
function fileLine(r: Rand, style: LanguageStyle): string {
  const ind = style.lang === 'python' || style.lang === 'ruby' ? '    ' : '\t';
  const v = pick(r, NAMES);
  const n = pick(r, NOUNS);
  const kind = r();
  if (kind < 0.15) return `${ind}${style.comment} ${pick(r, VERBS)} the ${n} before ${pick(r, VERBS)}ing the ${pick(r, NOUNS)}`;
  if (kind < 0.25) return '';
  return codeLine(r, style, ind, kind, v, n);
}

function richSnippets(r: Rand, style: LanguageStyle, cls: string | null, subject: string): Pick<
  Record<string, string | null>,
  'exampleFix' | 'validationCode' | 'typeGuard' | 'tryCatchPattern'
> {
  const ind = style.lang === 'python' || style.lang === 'ruby' ? '    ' : '  ';
  const lines = (n: number, indent = '') => Array.from({ length: n }, () => codeLine(r, style, indent, 0.25 + r() * 0.75, pick(r, NAMES), pick(r, NOUNS)).replace(/\t/g, ind));
  const c = style.comment;
  const name = `${subject}_${pick(r, NAMES)}`;
  const cond = style.lang === 'python' ? `if ${name} is None or ${name} < 0:` : style.lang === 'ruby' ? `if ${name}.nil? || ${name}.negative?` : `if (${name} == null || ${name} < 0) {`;
  const close = style.lang === 'python' ? [] : style.lang === 'ruby' ? ['end'] : ['}'];
  const raise = (m: string) => `${ind}${style.raise(cls, m)}`;
  const exampleFix = r() < RICH.exampleFix ? [`${c} Before: ${name} reaches ${pick(r, VERBS)}() unchecked`, ...lines(int(r, 1, 3)), '', `${c} After: check ${name} first`, cond, raise(`${name} must be set`), ...close, ...lines(int(r, 0, 1))].join('\n') : null;
  const validationCode = r() < RICH.validation ? [cond, raise(`invalid ${name}: ${pick(r, ADJECTIVES)}`), ...close, ...lines(int(r, 0, 1))].slice(0, int(r, 3, 4)).join('\n') : null;
  const typeGuard = r() < RICH.guard ? [style.lang === 'python' ? `def is_${name}(value) -> bool:` : style.lang === 'ruby' ? `def ${name}?(value)` : `function is_${name}(value) {`, `${ind}return value is not None and hasattr(value, "${pick(r, NOUNS)}")`, ...(style.lang === 'python' || r() < 0.3 ? [] : ['}'])].join('\n') : null;
  let tryCatchPattern: string | null = null;
  if (r() < RICH.tryCatch) {
    const body = lines(int(r, 1, 2), ind);
    const handle = [`${ind}log.warning("${pick(r, VERBS)} ${subject} failed: %s", err)`, `${ind}${pick(r, NAMES)} = default_${pick(r, NOUNS)}()`];
    tryCatchPattern = (
      style.lang === 'python'
        ? ['try:', ...body, `except ${cls ?? 'Exception'} as err:`, ...handle, `${ind}raise`]
        : style.lang === 'ruby'
          ? ['begin', ...body, `rescue ${cls ?? 'StandardError'} => err`, ...handle, 'end']
          : style.lang === 'go'
            ? [`if err := ${subject}.${pick(r, VERBS)}(ctx); err != nil {`, ...handle, `${ind}return fmt.Errorf("${subject}: %w", err)`, '}']
            : style.lang === 'rust'
              ? [`match ${subject}.${pick(r, VERBS)}() {`, `${ind}Ok(v) => v,`, `${ind}Err(err) => {`, ...handle.map((l) => ind + l), `${ind}${ind}return Err(err.into());`, `${ind}}`, '}']
              : ['try {', ...body, `} catch (err) {`, ...handle, `${ind}throw err;`, '}']
    ).join('\n');
  }
  return { exampleFix, validationCode, typeGuard, tryCatchPattern };
}

const SENTENCES = [
  'The check runs before any state is changed, so the call can be retried once the cause is fixed.',
  'It usually means the caller and the library disagree about the lifecycle of the object.',
  'The values in the message are the ones the check saw, not the ones the caller passed.',
  'Configuration loaded from the environment is read once, at start-up, and not again.',
  'Concurrent callers make this more likely: the state can change between the check and the use.',
  'Older versions accepted the value silently and failed later, with a less helpful message.',
] as const;

/** Sentences of prose about a record, `n` of them, from its own words. */
const prose = (r: Rand, n: number, lead: string): string => {
  const from = int(r, 0, SENTENCES.length - 1);
  return [lead, ...Array.from({ length: n }, (_, i) => SENTENCES[(from + i) % SENTENCES.length])].join(' ');
};

export function* syntheticRecords(options: SyntheticOptions): Generator<string> {
  const r = rng(options.seed ?? 1);
  // The rich profile's own stream: the lean fields (ids, messages, repositories) are the same in both.
  const rr = rng((options.seed ?? 1) * 7919 + 17);
  /** Per repository, the file its next records are raised in, and how many more it takes. */
  const richFiles = new Map<string, { path: string; lines: string[]; last: number; left: number }>();
  const datasetVersion = options.datasetVersion ?? '2026-08-15T17:31:12.345Z';
  // Repositories of very different sizes: a few big ones, a long tail.
  const repoCount = Math.max(3, Math.round(Math.sqrt(options.count) * 1.5));
  const repos = Array.from({ length: repoCount }, (_, i) => ({
    name: `${OWNERS[i % OWNERS.length]}/${REPO_NAMES[Math.floor(i / OWNERS.length) % REPO_NAMES.length]}${i >= OWNERS.length * REPO_NAMES.length ? `-${i}` : ''}`,
    style: LANGUAGES[i % LANGUAGES.length]!,
    sha: hex(`sha${i}`, 40),
    weight: 1 / (1 + i * 0.15),
  }));
  const totalWeight = repos.reduce((s, x) => s + x.weight, 0);
  const slugs = new Set<string>();
  // Every template prints differently: two records whose messages read the same could not be told apart by any search.
  const printed = new Set<string>();
  for (let i = 0; i < options.count; i++) {
    let w = r() * totalWeight;
    let repo = repos[0]!;
    for (const x of repos) {
      w -= x.weight;
      if (w <= 0) {
        repo = x;
        break;
      }
    }
    const style = repo.style;
    let made = makeTemplate(r, style);
    for (let tries = 0; printed.has(printedForm(made.template)) && tries < 50; tries++) made = makeTemplate(r, style);
    printed.add(printedForm(made.template));
    const { template, pattern } = made;
    const cls = pick(r, style.classes);
    const id = hex(`${options.seed ?? 1}:${i}`, 16);
    let slug = `${slugify(template) || 'error'}-${id.slice(0, 6)}`;
    while (slugs.has(`${repo.name}/${slug}`)) slug += '-x';
    slugs.add(`${repo.name}/${slug}`);
    const dir = pick(r, style.dirs);
    const filePath = `${dir}/${pick(r, NOUNS)}_${pick(r, NOUNS)}.${style.ext}`;
    const hasExcerpt = r() < 0.95;
    const { code, offset } = excerpt(r, style, style.raise(cls, template));
    const start = int(r, 1, 3000);
    const lines = code.split('\n').length;
    const lineNumber = start + offset;
    const tags = Array.from(new Set(Array.from({ length: int(r, 0, 4) }, () => pick(r, TAGS))));
    const record = {
      id,
      repo: repo.name,
      slug,
      errorCode: r() < 0.1 ? `E${int(r, 1000, 9999)}` : null,
      errorMessage: template,
      messagePattern: pattern,
      errorType: pick(r, ['exception', 'exception', 'exception', 'error_code', 'validation', 'panic', 'http', 'console'] as const),
      errorClass: cls,
      httpStatus: r() < 0.05 ? pick(r, [400, 404, 409, 429, 500, 503]) : null,
      severity: pick(r, ['error', 'error', 'error', 'warning', 'critical', 'info'] as const),
      filePath,
      lineNumber,
      sourceCode: hasExcerpt ? code : null,
      sourceCodeStart: hasExcerpt ? start : null,
      sourceCodeEnd: hasExcerpt ? start + lines - 1 : null,
      githubUrl: `https://github.com/${repo.name}/blob/${repo.sha}/${filePath}#L${lineNumber}`,
      documentation: `Raised when the ${template.split(' ').slice(0, 4).join(' ')} check fails. The \`${pick(r, NOUNS)}\` is in a state the caller did not expect; the message names the values involved.`,
      triggerScenarios: `Calling ${pick(r, VERBS)}() on a ${pick(r, NOUNS)} after ${pick(r, STATES)}.`,
      commonSituations: `Upgrades that change the ${pick(r, NOUNS)} format; concurrent ${pick(r, VERBS)} calls; misconfigured ${pick(r, NOUNS)} limits.`,
      solutions: Array.from({ length: int(r, 1, 4) }, () => `${pick(r, VERBS)} the ${pick(r, NOUNS)} before you ${pick(r, VERBS)} the ${pick(r, NOUNS)}`),
      exampleFix: r() < 0.6 ? `${style.comment} before\n${pick(r, NAMES)} = ${pick(r, NOUNS)}\n\n${style.comment} after\n${pick(r, NAMES)} = checked(${pick(r, NOUNS)})` : null,
      handlingStrategy: pick(r, ['try-catch', 'type-guard', 'validation', 'retry', 'fallback', null] as const),
      validationCode: r() < 0.4 ? `${style.comment} validate first\nassert_valid(${pick(r, NAMES)})` : null,
      typeGuard: r() < 0.2 ? `is_${pick(r, NOUNS)}(${pick(r, NAMES)})` : null,
      tryCatchPattern: r() < 0.3 ? `try:\n    ${pick(r, VERBS)}()\nexcept Exception:\n    ${pick(r, VERBS)}()` : null,
      preventionTips: Array.from({ length: int(r, 0, 3) }, () => `Always ${pick(r, VERBS)} the ${pick(r, NOUNS)} first`),
      tags,
      backgroundTag: options.classIds && options.classIds.length > 0 && r() < 0.5 ? pick(r, options.classIds) : null,
      analyzedSha: repo.sha,
      analyzedAt: '2026-08-14T21:17:39.825Z',
      schemaVersion: 2,
    };
    if (options.profile === 'rich') {
      // Several records of one file: each raise is placed a few lines after the file's last one, and
      // its excerpt is a window of the file, overlapping its neighbours' as real excerpts do.
      let file = richFiles.get(repo.name);
      if (!file || file.left === 0) {
        file = { path: filePath, lines: [], last: int(rr, 10, 400), left: 1 + Math.floor(Math.log(1 - rr()) / Math.log(1 - 1 / RICH.recordsPerFile)) };
        richFiles.set(repo.name, file);
      }
      file.left--;
      const at = file.last + int(rr, 3, 60);
      file.last = at;
      const before = rr() < RICH.longExcerpt ? int(rr, RICH.longLines[0], RICH.longLines[1]) - RICH.around - 1 : RICH.around;
      const from = Math.max(0, at - before);
      while (file.lines.length <= at + RICH.around) file.lines.push(fileLine(rr, style));
      file.lines[at] = `${style.lang === 'python' || style.lang === 'ruby' ? '        ' : '\t\t'}${style.raise(cls, template)}`;
      record.filePath = file.path;
      record.lineNumber = at + 1;
      Object.assign(record, {
        sourceCode: file.lines.slice(from, at + RICH.around + 1).join('\n'),
        sourceCodeStart: from + 1,
        sourceCodeEnd: at + RICH.around + 1,
        githubUrl: `https://github.com/${repo.name}/blob/${repo.sha}/${file.path}#L${at + 1}`,
        ...richSnippets(rr, style, cls, identifier(rr, style.lang).replace(/[^A-Za-z0-9_]/g, '_')),
        documentation: prose(rr, int(rr, 2, 3), record.documentation),
        triggerScenarios: prose(rr, int(rr, 1, 3), record.triggerScenarios),
        commonSituations: prose(rr, int(rr, 0, 2), record.commonSituations),
        solutions: Array.from({ length: int(rr, 2, 4) }, () => `${pick(rr, VERBS)} the ${pick(rr, NOUNS)} before you ${pick(rr, VERBS)} the ${pick(rr, NOUNS)}. ${pick(rr, SENTENCES)}`),
        preventionTips: Array.from({ length: int(rr, 1, 3) }, () => `Always ${pick(rr, VERBS)} the ${pick(rr, NOUNS)} first`),
      });
    }
    yield JSON.stringify({ record, datasetVersion });
  }
}
