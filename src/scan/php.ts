/**
 * PHP: `throw new X(message)` (and `throw X::create(...)`, a factory) where the message is a
 * single- or double-quoted string (`$var`, `{$expr}` interpolated), a heredoc or nowdoc, a `.`
 * concatenation, `sprintf(...)`/`vsprintf(...)`, a variable assigned earlier in the function or a
 * constant of the same file (`const MESSAGE = '...'`).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { classConstants, fileConstant } from './constants.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, hole, printfParts, text, type MessagePart } from './message.ts';
import { SiteCollector, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['function_definition', 'method_declaration', 'anonymous_function', 'anonymous_function_creation_expression', 'arrow_function']);
const CLASSES = new Set(['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration']);

const shapes: Shapes = {
  definition(n) {
    if (FUNCTIONS.has(n.type)) {
      const named = n.type === 'function_definition' || n.type === 'method_declaration';
      return { kind: n.type === 'method_declaration' ? 'method' : 'function', name: named ? (n.childForFieldName('name')?.text ?? null) : null, isFunction: true };
    }
    if (CLASSES.has(n.type)) return { kind: n.type.replace('_declaration', ''), name: n.childForFieldName('name')?.text ?? null, isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement' || a.type === 'else_if_clause') {
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text.replace(/^\(([\s\S]*)\)$/, '$1')) : '';
      const body = a.childForFieldName('body');
      if (body && contains(body, child)) return { kind: 'if', code };
      if (child.type === 'else_clause' && a.type === 'if_statement') return { kind: 'else', code };
    }
    if (a.type === 'catch_clause') return { kind: 'catch', code: oneLine(a.childForFieldName('type')?.text ?? '') };
    if (a.type === 'case_statement') {
      const value = a.childForFieldName('value') ?? a.namedChildren[0];
      if (value && !contains(value, child)) return { kind: 'case', code: oneLine(value.text) };
    }
    if (a.type === 'match_conditional_expression') {
      const conditions = a.childForFieldName('conditional_expressions');
      if (conditions && !contains(conditions, child)) return { kind: 'case', code: oneLine(conditions.text) };
    }
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes, new Set(['attribute_list']), true);
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['compound_statement', 'program', 'declaration_list', 'case_statement', 'default_statement', 'colon_block']),
  separator: '.',
};

/** A variable's or an expression's name in a placeholder: `$user->name` -> `user->name`. */
const exprName = (n: Node): string => n.text.replace(/^\{|\}$/g, '').replace(/^\$\{?|\}$/g, '').replace(/\$/g, '');

function stringParts(n: Node): MessagePart[] | null {
  const interpolating = n.type === 'encapsed_string' || n.type === 'heredoc';
  if (n.type !== 'string' && !interpolating && n.type !== 'nowdoc') return null;
  const holder = n.type === 'heredoc' || n.type === 'nowdoc' ? n.namedChildren.find((c) => c?.type === 'heredoc_body' || c?.type === 'nowdoc_body') : n;
  if (!holder) return [text('')];
  const parts: MessagePart[] = [];
  for (const c of holder.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_content' || c.type === 'nowdoc_string') parts.push(text(c.text));
    else if (c.type === 'escape_sequence') parts.push(text(interpolating ? decodeEscapes(c.text, 'php') : c.text.replace(/^\\([\\'])$/, '$1')));
    else if (interpolating) parts.push(hole(exprName(c)));
  }
  // A heredoc's closing marker sets the indentation removed from every line (PHP 7.3).
  const indent = n.type === 'heredoc' || n.type === 'nowdoc' ? (/\n([ \t]*)[A-Za-z_]\w*\s*$/.exec(n.text)?.[1]?.length ?? 0) : 0;
  if (indent > 0) {
    const margin = new RegExp(`(^|\n)[ \t]{0,${indent}}`, 'g');
    return parts.map((p, i) => (p.kind === 'text' && (i === 0 || p.text.includes('\n')) ? text(i === 0 ? p.text.replace(margin, '$1') : p.text.replace(/\n[ \t]*/g, (m) => `\n${m.slice(1 + Math.min(indent, m.length - 1))}`)) : p));
  }
  return parts;
}

const argsOf = (call: Node): Node[] =>
  (call.childForFieldName('arguments')?.namedChildren ?? call.namedChildren.find((c) => c?.type === 'arguments')?.namedChildren ?? [])
    .filter((a): a is Node => a?.type === 'argument')
    .map((a) => a.namedChildren.at(-1)!)
    .filter(Boolean);

/** A function's name without a leading namespace separator: `\sprintf` -> `sprintf`. */
const functionName = (call: Node): string | null => call.childForFieldName('function')?.text.replace(/^\\/, '') ?? null;

function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  const read = (m: Node) => messageParts(m, scope, site, depth + 1);
  // A long `a + b + c` chain is a deep tree: its operands count for little towards the look-up depth (600 of them for one look-up).
  const sameDepth = (m: Node) => messageParts(m, scope, site, depth + 0.01);
  const literal = stringParts(n);
  if (literal) return literal;
  switch (n.type) {
    case 'parenthesized_expression':
      return n.namedChildren[0] ? read(n.namedChildren[0]) : null;
    case 'binary_expression': {
      if (n.childForFieldName('operator')?.type !== '.') return null;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      return left && right ? concatParts(left, right, sameDepth) : null;
    }
    case 'function_call_expression': {
      const name = functionName(n);
      if (name !== 'sprintf' && name !== 'vsprintf') return null;
      const args = argsOf(n);
      const format = args[0] ? read(args[0]) : null;
      if (!format || format.some((p) => p.kind === 'hole')) return null;
      const values = name === 'vsprintf' && args[1]?.type === 'array_creation_expression' ? args[1].namedChildren.map((c) => c!.text) : args.slice(1).map((a) => a.text);
      return printfParts(
        format.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
        values.map((v) => v.replace(/^\$/, '')),
        'php',
      );
    }
    case 'variable_name': {
      const value = scope ? lastAssignedValue(n.text, scope, site, ['assignment_expression'], (a) => ({ target: a.childForFieldName('left'), value: a.childForFieldName('right') })) : null;
      return value ? messageParts(value, null, site, depth + 1) : null;
    }
    case 'class_constant_access_expression':
    case 'name': {
      // `self::MESSAGE`, `static::MESSAGE` or a global `MESSAGE`: a `const` of this file.
      const name = n.type === 'name' ? n.text : n.namedChildren.at(-1)?.text;
      if (!name || (n.type !== 'name' && !/^(self|static)$/.test(n.namedChildren[0]?.text ?? ''))) return null;
      const value = fileConstant(site, 'const_element', (c) => (c.namedChildren[0]?.text === name ? (c.namedChildren.at(-1) ?? null) : null), FUNCTIONS);
      return value ? messageParts(value, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** `Messages::NOT_FOUND`: a constant of another class, in any file (an autoloader's layout is its own). */
function classConstantOf(n: Node): ImportedMessage | null {
  if (n.type !== 'class_constant_access_expression') return null;
  const cls = n.namedChildren[0]?.text.split('\\').at(-1);
  const name = n.namedChildren.at(-1)?.text;
  return cls && name && !/^(self|static|parent)$/.test(cls) ? { name, spec: cls, language: 'class' } : null;
}

/** `const NOT_FOUND = '...';` in a class: each name and value. */
function phpConstants(member: Node): [string, Node][] {
  if (member.type !== 'const_declaration') return [];
  return member.namedChildren.flatMap((c) => {
    const name = c?.type === 'const_element' ? c.namedChildren[0]?.text : undefined;
    const value = c?.namedChildren.at(-1);
    return name && value && c!.namedChildren.length > 1 ? [[name, value] as [string, Node]] : [];
  });
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (FUNCTIONS.has(a.type)) return a;
  return null;
}

export function phpSites(root: Node): FileSites {
  const out = new SiteCollector();
  for (const stmt of root.descendantsOfType(['throw_expression', 'throw_statement'])) {
    if (!stmt) continue;
    const thrown = stmt.namedChildren.find((c) => c && c.type !== 'comment');
    if (!thrown) continue;
    let errorClass: string | null = null;
    if (thrown.type === 'object_creation_expression') {
      const type = thrown.namedChildren.find((c) => c && (c.type === 'name' || c.type === 'qualified_name'));
      errorClass = type ? (type.text.split('\\').at(-1) ?? null) : null;
    } else if (thrown.type === 'scoped_call_expression') {
      // `throw InvalidArgumentException::forKey(...)`: a named constructor of the class.
      const scope = thrown.childForFieldName('scope')?.text ?? '';
      errorClass = /(Exception|Error)$/.test(scope) ? (scope.split('\\').at(-1) ?? null) : null;
    } else if (thrown.type !== 'function_call_expression' && thrown.type !== 'member_call_expression') {
      out.skip(thrown.type === 'variable_name' || thrown.type === 'member_access_expression' ? 'rethrow' : 'not-literal', stmt);
      continue;
    }
    const scope = enclosingFunction(stmt);
    // A variable names its placeholder without the sigil: `{key}`, `{this->dir}`.
    const read = (a: Node) => messageParts(a, scope, stmt)?.map((p) => (p.kind === 'hole' ? hole(p.name.replace(/\$/g, '')) : p)) ?? null;
    out.exception(stmt, argsOf(thrown), read, errorClass, 'throw', () => siteContext(stmt, shapes), classConstantOf);
  }
  return out.result(classConstants(root, ['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration'], phpConstants, (v) => messageParts(v, null, v)));
}
