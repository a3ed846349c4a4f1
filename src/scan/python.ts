/**
 * Python: `raise X(message)` where the message is a literal, an f-string, a `%` format, a
 * `.format(...)` call, a `+` concatenation, or a name assigned one of those earlier in the function.
 */
import type { Node } from 'web-tree-sitter';
import { contains, firstParagraph, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { decodeEscapes } from './escapes.ts';
import { braceParts, concatParts, hole, printfParts, text, type MessagePart } from './message.ts';
import { SiteCollector, type FileSites } from './site.ts';

const MESSAGE_KEYWORDS = new Set(['message', 'msg', 'detail', 'reason', 'description', 'text']);

const shapes: Shapes = {
  definition(n) {
    if (n.type === 'function_definition') {
      const inClass = n.parent?.type === 'block' && n.parent.parent?.type === 'class_definition';
      const decoratedInClass = n.parent?.type === 'decorated_definition' && n.parent.parent?.parent?.type === 'class_definition';
      return { kind: inClass || decoratedInClass ? 'method' : 'function', name: n.childForFieldName('name')?.text ?? null, isFunction: true };
    }
    if (n.type === 'class_definition') return { kind: 'class', name: n.childForFieldName('name')?.text ?? null, isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement' || a.type === 'elif_clause') {
      const consequence = a.childForFieldName('consequence');
      const condition = a.childForFieldName('condition');
      if (consequence && condition && contains(consequence, child)) return { kind: 'if', code: oneLine(condition.text) };
      if (a.type === 'if_statement' && child.type === 'else_clause' && condition) return { kind: 'else', code: oneLine(condition.text) };
    }
    if (a.type === 'except_clause') {
      const handled = a.namedChildren.find((c) => c && c.type !== 'block' && c.type !== 'comment');
      return { kind: 'catch', code: handled ? oneLine(handled.text) : '' };
    }
    if (a.type === 'case_clause') {
      const pattern = a.namedChildren.find((c) => c?.type === 'case_pattern');
      return { kind: 'case', code: pattern ? oneLine(pattern.text) : '' };
    }
    return null;
  },
  doc(def) {
    const body = def.childForFieldName('body');
    const first = body?.namedChildren[0];
    const str = first?.type === 'expression_statement' ? first.namedChildren[0] : null;
    if (!str || str.type !== 'string') return null;
    const parts = stringParts(str);
    return parts ? firstParagraph(parts.map((p) => (p.kind === 'text' ? p.text : `{${p.name}}`)).join('')) : null;
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['block', 'module']),
  separator: '.',
};

/** The parts of one string literal (plain, raw, f-string). */
function stringParts(n: Node): MessagePart[] | null {
  const start = n.children.find((c) => c?.type === 'string_start');
  const prefix = (start?.text ?? '').replace(/['"]+$/, '').toLowerCase();
  const raw = prefix.includes('r');
  const f = prefix.includes('f') || prefix.includes('t');
  const parts: MessagePart[] = [];
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'string_content') {
      let t = raw ? c.text : decodeEscapes(c.text, 'python');
      if (f) t = t.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
      parts.push(text(t));
    } else if (c.type === 'interpolation') {
      const expr = c.childForFieldName('expression');
      // `{value = }` prints `value = ` before the value.
      const debug = /^\{(.*?=\s*)(?:![rsa])?(?::[^}]*)?\}$/s.exec(c.text);
      parts.push(text(debug ? debug[1]! : ''), hole(expr?.text ?? 'value'));
    }
  }
  return parts;
}

/** Parts of a string-valued expression, or null when it holds no literal text. */
function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  switch (n.type) {
    case 'string':
      return stringParts(n);
    case 'concatenated_string': {
      const parts: MessagePart[] = [];
      for (const c of n.namedChildren) if (c?.type === 'string') parts.push(...(stringParts(c) ?? []));
      return parts;
    }
    case 'parenthesized_expression': {
      const inner = n.namedChildren[0];
      return inner ? messageParts(inner, scope, site, depth + 1) : null;
    }
    case 'binary_operator': {
      const op = n.childForFieldName('operator')?.type;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (!left || !right) return null;
      if (op === '%' && (left.type === 'string' || left.type === 'concatenated_string')) {
        const format = messageParts(left, scope, site, depth + 1);
        if (!format || format.some((p) => p.kind === 'hole')) return format;
        const literal = format.map((p) => (p.kind === 'text' ? p.text : '')).join('');
        const args = right.type === 'tuple' ? right.namedChildren.map((c) => c!.text) : [right.text];
        return printfParts(literal, args, 'python');
      }
      if (op === '+') {
        return concatParts(left, right, (side) => messageParts(side, scope, site, depth + 1));
      }
      return null;
    }
    case 'call': {
      const fn = n.childForFieldName('function');
      if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'format') {
        const obj = fn.childForFieldName('object');
        const format = obj ? messageParts(obj, scope, site, depth + 1) : null;
        if (!format || format.some((p) => p.kind === 'hole')) return null;
        const positional: string[] = [];
        const named = new Map<string, string>();
        for (const a of n.childForFieldName('arguments')?.namedChildren ?? []) {
          if (!a) continue;
          if (a.type === 'keyword_argument') named.set(a.childForFieldName('name')?.text ?? '', a.childForFieldName('value')?.text ?? '');
          else positional.push(a.text);
        }
        return braceParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), positional, named);
      }
      return null;
    }
    case 'identifier':
      return scope ? assignedParts(n.text, scope, site, depth) : null;
    default:
      return null;
  }
}

/** The message parts of the last `name = <message>` before the site in the same function. */
function assignedParts(name: string, scope: Node, site: Node, depth: number): MessagePart[] | null {
  const value = lastAssignedValue(name, scope, site, ['assignment'], (a) => ({ target: a.childForFieldName('left'), value: a.childForFieldName('right') }));
  return value ? messageParts(value, null, site, depth + 1) : null;
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (a.type === 'function_definition') return a;
  return null;
}

export function pythonSites(root: Node): FileSites {
  const out = new SiteCollector();
  for (const stmt of root.descendantsOfType('raise_statement')) {
    if (!stmt) continue;
    const raised = stmt.namedChildren[0];
    if (!raised) continue; // a bare `raise` re-raises: not a site
    if (raised.type !== 'call') {
      out.skip(raised.type === 'identifier' && /^[A-Z]/.test(raised.text) ? 'no-message' : 'rethrow', stmt);
      continue;
    }
    const fn = raised.childForFieldName('function');
    const args = raised.childForFieldName('arguments');
    const callee = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.type === 'identifier' ? fn.text : null;
    const errorClass = callee && /^[A-Z]/.test(callee) ? callee : null;
    const list = (args?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
    // The message: the first positional argument with literal text (`Error(name, f"...")` has it second),
    // else a `message=`-like keyword argument.
    const positional = list.filter((a) => a.type !== 'keyword_argument' && a.type !== 'list_splat' && a.type !== 'dictionary_splat');
    const keyword = list.find((a) => a.type === 'keyword_argument' && MESSAGE_KEYWORDS.has(a.childForFieldName('name')?.text ?? ''))?.childForFieldName('value');
    const candidates = keyword ? [...positional, keyword] : positional;
    const scope = enclosingFunction(stmt);
    out.exception(stmt, candidates, (c) => messageParts(c, scope, stmt), errorClass, 'raise', () => siteContext(stmt, shapes));
  }
  return out.result();
}
