/**
 * Ruby: `raise`/`fail` with a message: `raise "..."` (RuntimeError), `raise X, "..."`,
 * `raise X.new("...")`. Messages: single- and double-quoted strings with `#{...}` interpolation,
 * adjacent literals, `+`, `format`/`sprintf` and `"..." % args`, a name assigned earlier in the method
 * or a constant of the same file (`MESSAGE = "..."`).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { classConstants, fileConstant } from './constants.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, hole, linesTransformed, printfParts, text, type MessagePart } from './message.ts';
import { SiteCollector, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['method', 'singleton_method', 'block', 'do_block', 'lambda']);
const RAISES = new Set(['raise', 'fail']);

const shapes: Shapes = {
  definition(n) {
    if (n.type === 'method') return { kind: 'method', name: n.childForFieldName('name')?.text ?? null, isFunction: true };
    if (n.type === 'singleton_method') return { kind: 'method', name: `self.${n.childForFieldName('name')?.text ?? ''}`, isFunction: true };
    if (n.type === 'block' || n.type === 'do_block' || n.type === 'lambda') return { kind: 'block', name: null, isFunction: true };
    if (n.type === 'class' || n.type === 'module') return { kind: n.type, name: n.childForFieldName('name')?.text ?? null, isFunction: false };
    return null;
  },
  guard(a, child) {
    const condition = a.childForFieldName('condition');
    const code = condition ? oneLine(condition.text) : '';
    // `unless c` raises when `!(c)` holds; its `else` branch when `c` does.
    const negated = `!(${code})`;
    if (a.type === 'if' || a.type === 'elsif' || a.type === 'unless') {
      const consequence = a.childForFieldName('consequence');
      const alternative = a.childForFieldName('alternative');
      if (consequence && contains(consequence, child)) return { kind: 'if', code: a.type === 'unless' ? negated : code };
      if (alternative?.type === 'else' && contains(alternative, child)) return a.type === 'unless' ? { kind: 'if', code } : { kind: 'else', code };
    }
    if (a.type === 'if_modifier' && condition && !contains(condition, child)) return { kind: 'if', code };
    if (a.type === 'unless_modifier' && condition && !contains(condition, child)) return { kind: 'if', code: negated };
    if (a.type === 'rescue') return { kind: 'catch', code: oneLine(a.childForFieldName('exceptions')?.text ?? '') };
    if (a.type === 'when') {
      const patterns = a.namedChildren.filter((c) => c?.type === 'pattern');
      if (!patterns.some((p) => p && contains(p, child))) return { kind: 'case', code: oneLine(patterns.map((p) => p!.text).join(', ')) };
    }
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes);
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['body_statement', 'program', 'then', 'else', 'begin', 'ensure', 'block_body', 'do', 'when']),
  separator: '.',
};

/** Methods that return the string's text as it is, or wrapped in terminal colours (the colorize and rainbow gems). */
const SAME_TEXT = new Set(['freeze', 'to_s', 'dup', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'bold']);
/** Methods that trim the string's text. */
const TRIM: Record<string, (s: string) => string> = {
  strip: (s) => s.trim(),
  lstrip: (s) => s.trimStart(),
  rstrip: (s) => s.trimEnd(),
  chomp: (s) => s.replace(/\r?\n$/, ''),
  squish: (s) => s.trim().replace(/\s+/g, ' '),
};

/** A heredoc's text: its body is the first `heredoc_body` after the `<<~NAME` that opens it. */
function heredocParts(beginning: Node): MessagePart[] | null {
  let root = beginning;
  while (root.parent) root = root.parent;
  const body = root.descendantsOfType('heredoc_body').find((b) => b !== null && b.startIndex >= beginning.endIndex);
  if (!body) return null;
  const quoted = /^<<[~-]?'/.test(beginning.text);
  const parts: MessagePart[] = [];
  for (const c of body.namedChildren) {
    if (!c || c.type === 'heredoc_end') continue;
    if (c.type === 'heredoc_content') parts.push(text(c.text));
    else if (c.type === 'escape_sequence') parts.push(text(quoted ? c.text : decodeEscapes(c.text, 'ruby')));
    else if (c.type === 'interpolation') parts.push(hole(c.namedChildren.length === 1 ? c.namedChildren[0]!.text : c.text.replace(/^#\{|\}$/g, '')));
  }
  // The body runs from the opening line's end to the closing marker's indentation; `<<~` also removes
  // the common indentation. The final line break is dropped: it ends the message, it is not read in it.
  return linesTransformed(parts, (t) => {
    const lines = t.replace(/^[^\n]*\n/, '').replace(/\n[ \t]*$/, '').split('\n');
    if (!beginning.text.startsWith('<<~')) return lines.join('\n');
    const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
    const cut = indents.length > 0 ? Math.min(...indents) : 0;
    return lines.map((l) => l.slice(cut)).join('\n');
  });
}

/** The parts of a string: a single-quoted one is text (`\\` and `\'` only), a double-quoted one interpolates. */
function stringParts(n: Node): MessagePart[] | null {
  if (n.type === 'chained_string') {
    const parts: MessagePart[] = [];
    for (const c of n.namedChildren) {
      const own = c ? stringParts(c) : null;
      if (!own) return null;
      parts.push(...own);
    }
    return parts;
  }
  if (n.type === 'heredoc_beginning') return heredocParts(n);
  if (n.type !== 'string') return null;
  const single = n.text.startsWith("'") || /^%q/.test(n.text);
  const parts: MessagePart[] = [];
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_content') parts.push(text(single ? c.text.replace(/\\([\\'])/g, '$1') : c.text));
    else if (c.type === 'escape_sequence') parts.push(text(single ? c.text.replace(/\\([\\'])/g, '$1') : decodeEscapes(c.text, 'ruby')));
    else if (c.type === 'interpolation') {
      const inner = c.namedChildren.filter((e) => e && e.type !== 'comment');
      parts.push(hole(inner.length === 1 ? inner[0]!.text : c.text.replace(/^#\{|\}$/g, '')));
    }
  }
  return parts;
}

const argsOf = (call: Node): Node[] => (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');

const formatOf = (format: MessagePart[] | null, args: Node[]): MessagePart[] | null => {
  if (!format || format.some((p) => p.kind === 'hole')) return null;
  // A hash argument (`format("%{a}", a: 1)`) names its values; the `%{name}` conversions carry the names.
  const values = args.length === 1 && args[0]!.type === 'array' ? args[0]!.namedChildren.map((c) => c!.text) : args.map((a) => a.text);
  return printfParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), values, 'ruby');
};

function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  const read = (m: Node) => messageParts(m, scope, site, depth + 1);
  // A long `a + b + c` chain is a deep tree: its operands count for little towards the look-up depth (600 of them for one look-up).
  const sameDepth = (m: Node) => messageParts(m, scope, site, depth + 0.01);
  const literal = stringParts(n);
  if (literal) return literal;
  switch (n.type) {
    case 'parenthesized_statements':
      return n.namedChildren.length === 1 ? read(n.namedChildren[0]!) : null;
    case 'binary': {
      const op = n.childForFieldName('operator')?.type;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (!left || !right) return null;
      if (op === '+') return concatParts(left, right, sameDepth);
      if (op === '%') return formatOf(stringParts(left), right.type === 'array' ? [right] : [right]);
      return null;
    }
    case 'call': {
      const method = n.childForFieldName('method')?.text;
      const receiver = n.childForFieldName('receiver');
      if (receiver && method && !n.childForFieldName('arguments') && (SAME_TEXT.has(method) || Object.hasOwn(TRIM, method))) {
        const parts = read(receiver);
        return parts && Object.hasOwn(TRIM, method) ? linesTransformed(parts, TRIM[method]!) : parts;
      }
      // `Rainbow("...")` (the rainbow gem) wraps the text for colouring.
      if (method === 'Rainbow' && !receiver && argsOf(n).length === 1) return read(argsOf(n)[0]!);
      if ((method === 'format' || method === 'sprintf') && (!receiver || receiver.text === 'Kernel')) {
        const args = argsOf(n);
        return args[0] ? formatOf(read(args[0]), args.slice(1)) : null;
      }
      return null;
    }
    case 'identifier': {
      const value = scope ? lastAssignedValue(n.text, scope, site, ['assignment'], (a) => ({ target: a.childForFieldName('left'), value: a.childForFieldName('right') })) : null;
      return value ? messageParts(value, null, site, depth + 1) : null;
    }
    case 'constant': {
      const value = fileConstant(site, 'assignment', (a) => (a.childForFieldName('left')?.text === n.text ? a.childForFieldName('right') : null), FUNCTIONS);
      return value ? messageParts(value, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

function enclosingMethod(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (a.type === 'method' || a.type === 'singleton_method') return a;
  return null;
}

const lastConstant = (n: Node): string | null => (n.type === 'constant' ? n.text : n.type === 'scope_resolution' ? (n.childForFieldName('name')?.text ?? null) : null);

export function rubySites(root: Node): FileSites {
  const out = new SiteCollector();
  // A file that defines its own `fail` (Rack::Files#fail answers a request) does not raise with it.
  const own = new Set(root.descendantsOfType('method').map((m) => m?.childForFieldName('name')?.text));
  for (const call of root.descendantsOfType('call')) {
    if (!call || call.childForFieldName('receiver')) continue;
    const method = call.childForFieldName('method');
    if (method?.type !== 'identifier' || !RAISES.has(method.text) || own.has(method.text)) continue;
    const args = argsOf(call);
    const first = args[0];
    if (!first) continue; // a bare `raise` re-raises
    const scope = enclosingMethod(call);
    const read = (m: Node) => messageParts(m, scope, call);
    const context = () => siteContext(call, shapes);
    const form = method.text;
    const cls = lastConstant(first);
    // `raise MESSAGE`, a constant holding a string, raises a RuntimeError with it.
    const constantMessage = cls && args.length === 1 ? read(first) : null;
    if (cls && !constantMessage) {
      // `raise X, "message"` (a third argument is the backtrace); `raise X` has no message.
      out.exception(call, args.slice(1, 2), read, cls, form, context, classConstantOf);
      continue;
    }
    if (first.type === 'call' && first.childForFieldName('method')?.text === 'new') {
      const receiver = first.childForFieldName('receiver');
      const name = receiver ? lastConstant(receiver) : null;
      out.exception(call, argsOf(first).slice(0, 1), read, name, form, context, classConstantOf);
      continue;
    }
    if (first.type === 'identifier' || first.type === 'instance_variable') {
      // `raise error`: a value built elsewhere, unless it holds a message assigned in the method.
      if (!read(first)) {
        out.skip('rethrow', call);
        continue;
      }
    }
    // `raise "message"` raises a RuntimeError with it.
    out.exception(call, [first], read, 'RuntimeError', form, context);
  }
  return out.result(classConstants(root, ['class', 'module'], rubyConstants, (v) => messageParts(v, null, v)));
}

/** `Errors::NOT_FOUND`: a constant of another class or module, in any file (autoloading has no one layout). */
function classConstantOf(n: Node): ImportedMessage | null {
  if (n.type !== 'scope_resolution') return null;
  const scope = n.childForFieldName('scope');
  const cls = scope ? lastConstant(scope) : null;
  const name = n.childForFieldName('name')?.text;
  return cls && name ? { name, spec: cls, language: 'class' } : null;
}

/** `NOT_FOUND = "..."` in a class or module body. */
function rubyConstants(member: Node): [string, Node][] {
  const left = member.type === 'assignment' ? member.childForFieldName('left') : null;
  const value = member.childForFieldName('right');
  return left?.type === 'constant' && value ? [[left.text, value]] : [];
}
