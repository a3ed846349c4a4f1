/**
 * Ruby: `raise`/`fail` with a message: `raise "..."` (RuntimeError), `raise X, "..."`,
 * `raise X.new("...")`. Messages: single- and double-quoted strings with `#{...}` interpolation,
 * adjacent literals, `+`, `format`/`sprintf` and `"..." % args`, a name assigned earlier in the method
 * or a constant of the same file (`MESSAGE = "..."`).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { fileConstant } from './constants.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, hole, printfParts, text, type MessagePart } from './message.ts';
import { SiteCollector, type FileSites } from './site.ts';

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
  for (const call of root.descendantsOfType('call')) {
    if (!call || call.childForFieldName('receiver')) continue;
    const method = call.childForFieldName('method');
    if (method?.type !== 'identifier' || !RAISES.has(method.text)) continue;
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
      out.exception(call, args.slice(1, 2), read, cls, form, context);
      continue;
    }
    if (first.type === 'call' && first.childForFieldName('method')?.text === 'new') {
      const receiver = first.childForFieldName('receiver');
      const name = receiver ? lastConstant(receiver) : null;
      out.exception(call, argsOf(first).slice(0, 1), read, name, form, context);
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
  return out.result();
}
