/**
 * Is a `messagePattern` safe to run against text a stranger pasted?
 *
 * A small parser for JavaScript regular expression sources that finds the shapes behind
 * catastrophic backtracking:
 *  - a quantified group that itself contains an unbounded quantifier: `(a+)+`, `(\w*,?)*`;
 *  - an unbounded quantifier over alternatives that can start with the same character: `(a|ab)*`;
 *  - too many unbounded wildcards in one pattern (polynomial blow-up: `.*.*.*.*`).
 * It is deliberately conservative: patterns in the catalog describe one error message, so they
 * rarely need any of these shapes, and the report says which part to rewrite.
 */

/** Character-set summary of what a node can start with; `any` for dot and broad classes. */
type FirstSet = { any: true } | { any: false; chars: Set<string> };

interface Node {
  kind: 'char' | 'class' | 'group' | 'alt' | 'seq' | 'empty' | 'assert';
  /** Only for quantified atoms. */
  quant?: { min: number; max: number; lazy: boolean };
  first: FirstSet;
  /** Contains an unbounded quantifier somewhere inside (not counting its own). */
  innerUnbounded: boolean;
  /** Number of unbounded quantifiers over broad sets inside, including its own. */
  wildcards: number;
  children: Node[];
  /** Source text, for messages. */
  text: string;
}

const ANY: FirstSet = { any: true };
const MAX_WILDCARDS = 8;

function charSet(...chars: string[]): FirstSet {
  return { any: false, chars: new Set(chars) };
}

function union(a: FirstSet, b: FirstSet): FirstSet {
  if (a.any || b.any) return ANY;
  return { any: false, chars: new Set([...a.chars, ...b.chars]) };
}

function overlaps(a: FirstSet, b: FirstSet): boolean {
  if (a.any || b.any) return true;
  for (const c of a.chars) if (b.chars.has(c)) return true;
  return false;
}

class Parser {
  pos = 0;
  readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.src.length) throw new Error(`unexpected ')' at ${this.pos}`);
    return node;
  }

  private alternation(): Node {
    const start = this.pos;
    const branches = [this.sequence()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0]!;
    return {
      kind: 'alt',
      first: branches.map((b) => b.first).reduce(union),
      innerUnbounded: branches.some((b) => b.innerUnbounded || isUnbounded(b)),
      wildcards: branches.reduce((n, b) => n + b.wildcards, 0),
      children: branches,
      text: this.src.slice(start, this.pos),
    };
  }

  private sequence(): Node {
    const start = this.pos;
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      items.push(this.quantified());
    }
    if (items.length === 0) return { kind: 'empty', first: charSet(), innerUnbounded: false, wildcards: 0, children: [], text: '' };
    if (items.length === 1) return items[0]!;
    // What a sequence can start with: the first item that must consume something, plus optional ones before it.
    let first: FirstSet = charSet();
    for (const item of items) {
      if (item.kind === 'assert') continue;
      first = union(first, item.first);
      if (!item.quant || item.quant.min > 0) break;
    }
    return {
      kind: 'seq',
      first,
      innerUnbounded: items.some((i) => i.innerUnbounded || isUnbounded(i)),
      wildcards: items.reduce((n, i) => n + i.wildcards, 0),
      children: items,
      text: this.src.slice(start, this.pos),
    };
  }

  private quantified(): Node {
    const start = this.pos;
    const atom = this.atom();
    const quant = this.quantifier();
    if (!quant) return atom;
    const node: Node = { ...atom, quant, text: this.src.slice(start, this.pos) };
    if (quant.max === Infinity && atom.first.any) node.wildcards = atom.wildcards + 1;
    // `(.*,){20}` is twenty wildcards in a row: a bounded repetition multiplies what it repeats.
    else if (quant.max > 1) node.wildcards = atom.wildcards * quant.max;
    return node;
  }

  private quantifier(): Node['quant'] | undefined {
    const c = this.src[this.pos];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return undefined; // a literal '{' (allowed without the u flag)
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else return undefined;
    this.pos++;
    let lazy = false;
    if (this.src[this.pos] === '?') {
      lazy = true;
      this.pos++;
    }
    return { min, max, lazy };
  }

  private atom(): Node {
    const start = this.pos;
    const c = this.src[this.pos++]!;
    const leaf = (kind: Node['kind'], first: FirstSet): Node => ({
      kind,
      first,
      innerUnbounded: false,
      wildcards: 0,
      children: [],
      text: this.src.slice(start, this.pos),
    });
    if (c === '(') {
      let isAssert = false;
      if (this.src.startsWith('?:', this.pos)) this.pos += 2;
      else if (this.src.startsWith('?=', this.pos) || this.src.startsWith('?!', this.pos)) {
        this.pos += 2;
        isAssert = true;
      } else if (this.src.startsWith('?<=', this.pos) || this.src.startsWith('?<!', this.pos)) {
        this.pos += 3;
        isAssert = true;
      } else if (this.src.startsWith('?<', this.pos)) {
        const end = this.src.indexOf('>', this.pos);
        this.pos = end + 1;
      }
      const inner = this.alternation();
      if (this.src[this.pos] !== ')') throw new Error('unterminated group');
      this.pos++;
      if (isAssert) return { ...leaf('assert', charSet()), wildcards: inner.wildcards };
      return {
        kind: 'group',
        first: inner.first,
        innerUnbounded: inner.innerUnbounded || isUnbounded(inner),
        wildcards: inner.wildcards,
        children: [inner],
        text: this.src.slice(start, this.pos),
      };
    }
    if (c === '[') {
      const negated = this.src[this.pos] === '^';
      const chars = new Set<string>();
      let broad = negated;
      if (negated) this.pos++;
      let first = true;
      while (this.pos < this.src.length && (this.src[this.pos] !== ']' || first)) {
        first = false;
        const ch = this.src[this.pos++]!;
        if (ch === '\\') {
          const e = this.src[this.pos++]!;
          if ('wWdDsS'.includes(e)) broad = true;
          else chars.add(e);
        } else if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
          broad = true; // ranges: treat as broad rather than enumerate them
          this.pos += 2;
        } else chars.add(ch);
      }
      this.pos++; // ']'
      return leaf('class', broad ? ANY : { any: false, chars });
    }
    if (c === '\\') {
      const e = this.src[this.pos++]!;
      if ('wWdDsS'.includes(e)) return leaf('class', ANY);
      if ('bB'.includes(e)) return leaf('assert', charSet());
      if (e === 'u' || e === 'x') {
        const m = e === 'u' ? /^(\{[0-9a-fA-F]+\}|[0-9a-fA-F]{4})/.exec(this.src.slice(this.pos)) : /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.pos));
        if (m) this.pos += m[0].length;
        return leaf('char', charSet(this.src.slice(start, this.pos)));
      }
      if (/[1-9]/.test(e)) return leaf('class', ANY); // back-reference
      return leaf('char', charSet(e));
    }
    if (c === '.') return leaf('class', ANY);
    if (c === '^' || c === '$') return leaf('assert', charSet());
    return leaf('char', charSet(c));
  }
}

function isUnbounded(node: Node): boolean {
  return node.quant !== undefined && node.quant.max === Infinity;
}

function findProblem(node: Node): string | null {
  if (node.quant && node.quant.max > 1 && (node.kind === 'group' || node.kind === 'alt')) {
    if (node.innerUnbounded && node.quant.max === Infinity) {
      return `nested quantifier in ${JSON.stringify(node.text)}: a repeated group that contains a repetition can backtrack catastrophically; make the inner part match one way only`;
    }
    if (node.innerUnbounded && node.quant.max > MAX_WILDCARDS) {
      return `nested quantifier in ${JSON.stringify(node.text)}: a group that contains a repetition, repeated up to ${node.quant.max} times, can backtrack catastrophically; make the inner part match one way only`;
    }
    const inner = node.children[0]?.kind === 'alt' ? node.children[0] : node.kind === 'alt' ? node : null;
    if (inner && node.quant.max === Infinity) {
      const branches = inner.children;
      for (let i = 0; i < branches.length; i++) {
        for (let j = i + 1; j < branches.length; j++) {
          if (overlaps(branches[i]!.first, branches[j]!.first)) {
            return `repeated alternation ${JSON.stringify(node.text)} whose branches can match the same text backtracks catastrophically; make the branches start differently`;
          }
        }
      }
    }
  }
  for (const child of node.children) {
    const p = findProblem(child);
    if (p) return p;
  }
  return null;
}

/**
 * Returns null when `source` compiles as a JavaScript RegExp and shows none of the shapes above,
 * or a sentence saying what is wrong.
 */
export function isSafeRegexSource(source: string): string | null {
  try {
    new RegExp(source);
  } catch (e) {
    return `does not compile as a JavaScript RegExp: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  let tree: Node;
  try {
    tree = new Parser(source).parse();
  } catch {
    // Compiled by the engine but beyond this small parser: a pattern we cannot check is rejected, not trusted.
    return 'uses syntax the backtracking check cannot read; simplify the pattern';
  }
  const problem = findProblem(tree);
  if (problem) return `is prone to catastrophic backtracking: ${problem}`;
  if (tree.wildcards > MAX_WILDCARDS) {
    return `is prone to catastrophic backtracking: ${tree.wildcards} unbounded wildcards (.* .+ \\S+ ...); use at most ${MAX_WILDCARDS}`;
  }
  return null;
}
