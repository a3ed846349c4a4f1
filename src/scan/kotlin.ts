/**
 * Kotlin: `throw X(message)`, the standard library's `error(message)` (IllegalStateException) and
 * the lazy messages of `require`/`requireNotNull` (IllegalArgumentException) and `check`/`checkNotNull`
 * (IllegalStateException). Messages: string templates (`$name`, `${expr}`), raw strings, `+`,
 * `"...".format(...)`, `String.format(...)`, a name assigned earlier in the function or a property of
 * the same file (`const val MSG = "..."`). And the message a class's constructor hands its base
 * (`class NotFoundException(id: String) : RuntimeException("No entry for $id")`), for
 * `throw NotFoundException(id)` in its file or another (constructors.ts).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { classConstants, fileConstant } from './constants.ts';
import { builtConstants, builtFor, superMessage, type ClassInfo, type ClassConstructor, type TypeNames } from './constructors.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, hole, linesTransformed, printfParts, text, type MessagePart } from './message.ts';
import { endLineOf, lineOf, SiteCollector, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['function_declaration', 'secondary_constructor', 'anonymous_function', 'lambda_literal', 'getter', 'setter', 'anonymous_initializer']);
const CLASSES = new Set(['class_declaration', 'object_declaration', 'companion_object']);
/** The standard library's checks: the exception each throws. */
const CHECKS: Record<string, string> = {
  require: 'IllegalArgumentException',
  requireNotNull: 'IllegalArgumentException',
  check: 'IllegalStateException',
  checkNotNull: 'IllegalStateException',
};

const nameOf = (n: Node): string | null => n.childForFieldName('name')?.text ?? n.namedChildren.find((c) => c?.type === 'identifier')?.text ?? null;

const shapes: Shapes = {
  definition(n) {
    if (n.type === 'function_declaration') {
      const inClass = n.parent?.type === 'class_body';
      return { kind: inClass ? 'method' : 'function', name: nameOf(n), isFunction: true };
    }
    if (FUNCTIONS.has(n.type)) return { kind: n.type === 'secondary_constructor' ? 'constructor' : 'function', name: null, isFunction: true };
    if (CLASSES.has(n.type)) return { kind: n.type === 'class_declaration' ? 'class' : 'object', name: n.type === 'companion_object' ? null : nameOf(n), isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_expression') {
      const condition = a.childForFieldName('condition');
      if (!condition || contains(condition, child)) return null;
      const code = oneLine(condition.text);
      const elseToken = a.children.find((c) => c?.type === 'else');
      return elseToken && child.startIndex > elseToken.startIndex ? { kind: 'else', code } : { kind: 'if', code };
    }
    if (a.type === 'when_entry') {
      const arrow = a.children.find((t) => t?.type === '->');
      const conditions = arrow ? a.namedChildren.filter((c) => c && c.endIndex <= arrow.startIndex) : [];
      if (conditions.length > 0 && !conditions.some((c) => c && contains(c, child))) return { kind: 'case', code: oneLine(conditions.map((c) => c!.text).join(', ')) };
      if (conditions.length === 0) return { kind: 'default', code: 'when' };
    }
    if (a.type === 'catch_block') return { kind: 'catch', code: oneLine(a.namedChildren.find((c) => c?.type === 'user_type')?.text ?? '') };
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes, new Set(['line_comment']), true);
  },
  commentTypes: new Set(['line_comment', 'block_comment']),
  blockTypes: new Set(['block', 'source_file', 'class_body', 'lambda_literal', 'when_entry', 'statements']),
  separator: '.',
};

/** A run of literal source text: `$name` is a placeholder, the rest is text. */
function templateRun(raw: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let last = 0;
  for (const m of raw.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
    parts.push(text(raw.slice(last, m.index)), hole(m[1]!));
    last = m.index + m[0].length;
  }
  parts.push(text(raw.slice(last)));
  return parts;
}

/** The parts of a string literal: text, escapes decoded, `$name` and `${expr}` as placeholders. */
function stringParts(n: Node): MessagePart[] | null {
  if (n.type !== 'string_literal' && n.type !== 'multiline_string_literal') return null;
  const parts: MessagePart[] = [];
  let raw = '';
  const flush = () => {
    parts.push(...templateRun(raw));
    raw = '';
  };
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_content') raw += c.text;
    else if (c.type === 'escape_sequence') {
      flush();
      parts.push(text(decodeEscapes(c.text, 'kotlin')));
    } else if (c.type === 'interpolation') {
      flush();
      const expr = c.namedChildren[0];
      // `${'$'}` writes a dollar sign.
      if (expr?.type === 'character_literal' || expr?.type === 'string_literal') parts.push(text(expr.text.slice(1, -1)));
      else parts.push(hole(expr?.text ?? 'value'));
    }
  }
  flush();
  return parts;
}

/** Kotlin's `trimIndent()`: blank first and last lines dropped, the common indentation of the others removed. */
function trimIndent(s: string): string {
  const lines = s.split('\n');
  if (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

/** Kotlin's `trimMargin()`: blank first and last lines dropped, each line's text up to and with its `|` removed. */
function trimMargin(s: string): string {
  const lines = s.split('\n');
  if (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  return lines.map((l) => l.replace(/^[ \t]*\|/, '')).join('\n');
}

/** The callee and the arguments of a call: `X(a, b)`, `a.b.X(...)`, with any trailing lambda. */
function callOf(n: Node): { callee: Node; args: Node[]; lambda: Node | null } | null {
  if (n.type !== 'call_expression') return null;
  const callee = n.namedChildren[0];
  if (!callee) return null;
  const valueArgs = n.namedChildren.find((c) => c?.type === 'value_arguments');
  const args = (valueArgs?.namedChildren ?? []).filter((a): a is Node => a?.type === 'value_argument').map((a) => a.namedChildren.at(-1)!).filter(Boolean);
  const lambda = n.namedChildren.find((c) => c?.type === 'annotated_lambda')?.namedChildren.find((c) => c?.type === 'lambda_literal') ?? null;
  return { callee, args, lambda };
}

const lastName = (callee: Node): string | null => (callee.type === 'identifier' ? callee.text : callee.type === 'navigation_expression' ? (callee.namedChildren.at(-1)?.text ?? null) : null);

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
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (!left || !right || !n.children.some((c) => c?.type === '+')) return null;
      return concatParts(left, right, sameDepth);
    }
    case 'call_expression': {
      const call = callOf(n);
      if (!call || call.callee.type !== 'navigation_expression') return null;
      const method = lastName(call.callee);
      if ((method === 'trimIndent' || method === 'trimMargin') && call.args.length === 0 && call.callee.namedChildren[0]) {
        const parts = read(call.callee.namedChildren[0]);
        return parts ? linesTransformed(parts, method === 'trimIndent' ? trimIndent : trimMargin) : null;
      }
      if (method !== 'format') return null;
      const receiver = call.callee.namedChildren[0];
      if (!receiver) return null;
      // `"...".format(args)` or `String.format("...", args)` (a Locale may come first).
      const candidates = receiver.text === 'String' ? call.args.slice(0, 2) : [receiver];
      for (const [i, c] of candidates.entries()) {
        const format = read(c);
        if (!format) continue;
        if (format.some((p) => p.kind === 'hole')) return null;
        const rest = receiver.text === 'String' ? call.args.slice(i + 1) : call.args;
        return printfParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), rest.map((a) => a.text), 'java');
      }
      return null;
    }
    case 'identifier': {
      const value = scope
        ? lastAssignedValue(n.text, scope, site, ['property_declaration', 'assignment'], (a) =>
            a.type === 'property_declaration'
              ? { target: a.namedChildren.find((c) => c?.type === 'variable_declaration')?.namedChildren[0], value: a.namedChildren.at(-1) }
              : { target: a.namedChildren[0], value: a.namedChildren.at(-1) },
          )
        : null;
      if (value) return messageParts(value, null, site, depth + 1);
      const constant = fileConstant(
        site,
        'property_declaration',
        (d) => (d.namedChildren.find((c) => c?.type === 'variable_declaration')?.namedChildren[0]?.text === n.text ? (d.namedChildren.at(-1) ?? null) : null),
        FUNCTIONS,
      );
      return constant ? messageParts(constant, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** `Messages.NOT_FOUND`: a constant of an object or a class's companion, in any file. */
function classConstantOf(n: Node): ImportedMessage | null {
  if (n.type !== 'navigation_expression' || n.namedChildren.length !== 2) return null;
  const [cls, name] = n.namedChildren;
  return cls?.type === 'identifier' && name?.type === 'identifier' && /^[A-Z]/.test(cls.text) ? { name: name.text, spec: cls.text, language: 'class' } : null;
}

/** `const val NOT_FOUND = "..."` of an object or class body, and of a class's companion object. */
function kotlinConstants(member: Node): [string, Node][] {
  if (member.type === 'companion_object') {
    const body = member.namedChildren.find((c) => c?.type === 'class_body');
    return body ? body.namedChildren.flatMap((m) => (m ? kotlinConstants(m) : [])) : [];
  }
  if (member.type !== 'property_declaration' || !member.namedChildren.some((c) => c?.type === 'modifiers' && /\bconst\b/.test(c.text))) return [];
  const name = member.namedChildren.find((c) => c?.type === 'variable_declaration')?.namedChildren[0]?.text;
  const value = member.namedChildren.at(-1);
  return name && value && value.type !== 'variable_declaration' ? [[name, value]] : [];
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (FUNCTIONS.has(a.type) && a.type !== 'lambda_literal') return a;
  return null;
}

/** A lambda's value: its last statement. */
const lambdaValue = (lambda: Node): Node | null => lambda.namedChildren.filter((c) => c && c.type !== 'line_comment' && c.type !== 'block_comment' && c.type !== 'lambda_parameters').at(-1) ?? null;

export function kotlinSites(root: Node): FileSites {
  const out = new SiteCollector();
  const pkg = packageOf(root);
  let table: Map<string, ClassInfo | null> | undefined;
  let typeNames: TypeNames | undefined;
  const classes = () => (table ??= classTable(root, pkg));
  const names = () => (typeNames ??= kotlinNames(root, pkg));
  const context = (at: Node) => () => siteContext(at, shapes);
  for (const n of root.descendantsOfType(['throw_expression', 'call_expression'])) {
    if (!n) continue;
    const scope = enclosingFunction(n);
    const read = (m: Node) => messageParts(m, scope, n);
    if (n.type === 'throw_expression') {
      const thrown = n.namedChildren.find((c) => c && c.type !== 'line_comment' && c.type !== 'block_comment');
      if (!thrown) continue;
      const call = callOf(thrown);
      if (!call) {
        out.skip(thrown.type === 'identifier' || thrown.type === 'navigation_expression' ? 'rethrow' : 'not-literal', n);
        continue;
      }
      const name = lastName(call.callee);
      const errorClass = name && /^[A-Z]/.test(name) ? name : null;
      // The constructor a call with these arguments reaches (not one whose count a spread or a trailing lambda hides).
      const countable = /^[\w.]+$/.test(call.callee.text) && !call.lambda && !call.args.some((a) => a.parent?.text.startsWith('*'));
      const built = errorClass && countable ? () => builtFor(call.callee.text, call.args.length, classes(), names()) : undefined;
      out.exception(n, call.args, read, errorClass, 'throw', context(n), classConstantOf, built);
      continue;
    }
    const call = callOf(n);
    if (!call) continue;
    if (call.callee.type === 'identifier' && call.callee.text === 'error' && !call.lambda) {
      out.exception(n, call.args.slice(0, 1), read, 'IllegalStateException', 'error()', context(n), classConstantOf);
      continue;
    }
    // `require(cond) { "message" }`: the call with the lambda is the site; without one the message is the library's own.
    const inner = call.callee.type === 'call_expression' ? callOf(call.callee) : call.callee.type === 'identifier' ? call : null;
    const check = inner?.callee.type === 'identifier' ? CHECKS[inner.callee.text] : undefined;
    if (!check || !call.lambda) continue;
    const value = lambdaValue(call.lambda);
    if (!value) continue;
    const parts = out.message([value], read, n);
    if (parts) out.sites.push({ ...siteContext(n, shapes), line: lineOf(n), endLine: endLineOf(n), form: `${inner!.callee.text}()`, kind: 'exception', errorClass: check, parts });
  }
  return out.result(builtConstants(classes(), classConstants(root, ['class_declaration', 'object_declaration'], kotlinConstants, (v) => messageParts(v, null, v))));
}

const MESSAGE_MEMBERS = /^(message|localizedMessage|getMessage|getLocalizedMessage)$/;

/**
 * The file's classes by simple name, with what their constructors hand their base (constructors.ts);
 * null: a name declared twice, inside a function or a companion, an object's or an interface's, or a
 * function's too (`throw X()` may call it).
 */
function classTable(root: Node, pkg: string): Map<string, ClassInfo | null> {
  const table = new Map<string, ClassInfo | null>();
  for (const cls of root.descendantsOfType(['class_declaration', 'object_declaration'])) {
    const name = cls ? nameOf(cls) : null;
    if (!cls || !name) continue;
    const path: string[] = [name];
    let local = false;
    for (let a = cls.parent; a; a = a.parent) {
      if (FUNCTIONS.has(a.type) || a.type === 'companion_object' || a.type === 'object_literal') local = true;
      if (a.type === 'class_declaration' || a.type === 'object_declaration') path.unshift(nameOf(a) ?? '');
    }
    if (table.has(name) || local || cls.type !== 'class_declaration' || cls.children.some((c) => c?.type === 'interface')) {
      table.set(name, null);
      continue;
    }
    const body = cls.namedChildren.find((c) => c?.type === 'class_body');
    const members = body?.namedChildren.filter((m): m is Node => m !== null) ?? [];
    const primary = cls.namedChildren.find((c) => c?.type === 'primary_constructor');
    const classParameters = primary?.namedChildren.find((c) => c?.type === 'class_parameters')?.namedChildren.filter((p): p is Node => p?.type === 'class_parameter') ?? [];
    const specifiers = cls.namedChildren.find((c) => c?.type === 'delegation_specifiers')?.namedChildren ?? [];
    const invocation = specifiers.map((d) => d?.namedChildren.find((c) => c?.type === 'constructor_invocation')).find((c) => c) ?? null;
    const superType = invocation?.namedChildren.find((c) => c?.type === 'user_type') ?? specifiers[0]?.namedChildren.find((c) => c?.type === 'user_type');
    const secondaries = members.filter((m) => m.type === 'secondary_constructor');
    const constructors: ClassConstructor[] = secondaries.map(secondaryConstructor);
    // The primary constructor (a class with none declared and no secondary one has one taking nothing).
    if (primary || secondaries.length === 0) {
      const args = invocation ? valueArguments(invocation) : [];
      const params = new Set(classParameters.map((p) => p.namedChildren.find((c) => c?.type === 'identifier')?.text));
      const read = (a: Node) => (a.type === 'identifier' && params.has(a.text) ? null : messageParts(a, null, invocation!));
      constructors.unshift({
        min: classParameters.filter((p) => !p.children.some((c) => c?.type === '=')).length,
        max: classParameters.length,
        varargs: classParameters.some((p) => /\bvararg\b/.test(p.namedChildren.find((c) => c?.type === 'modifiers' || c?.type === 'parameter_modifiers')?.text ?? '')),
        parts: superMessage(args, read),
        plainSuper: args.length === 0,
      });
    }
    const ownMessage =
      members.some((m) => (m.type === 'property_declaration' || m.type === 'function_declaration') && MESSAGE_MEMBERS.test(m.type === 'function_declaration' ? (nameOf(m) ?? '') : (m.namedChildren.find((c) => c?.type === 'variable_declaration')?.namedChildren[0]?.text ?? ''))) ||
      classParameters.some((p) => p.children.some((c) => c?.type === 'val' || c?.type === 'var') && MESSAGE_MEMBERS.test(p.namedChildren.find((c) => c?.type === 'identifier')?.text ?? ''));
    table.set(name, { path: path.join('.'), qualified: `${pkg}${path.join('.')}`, base: superType?.namedChildren.filter((c) => c?.type === 'identifier' || c?.type === 'type_identifier').at(-1)?.text ?? null, constructors, ownMessage });
  }
  // `throw X(...)` may call a function named X.
  for (const f of root.descendantsOfType('function_declaration')) {
    const name = f ? nameOf(f) : null;
    if (name && /^[A-Z]/.test(name)) table.set(name, null);
  }
  return table;
}

const valueArguments = (call: Node): Node[] =>
  (call.namedChildren.find((c) => c?.type === 'value_arguments')?.namedChildren ?? []).filter((a): a is Node => a?.type === 'value_argument').map((a) => a.namedChildren.at(-1)!).filter(Boolean);

function secondaryConstructor(ctor: Node): ClassConstructor {
  const list = ctor.namedChildren.find((c) => c?.type === 'function_value_parameters');
  const children = list?.children.filter((c): c is Node => c !== null) ?? [];
  const params = children.filter((c) => c.type === 'parameter');
  // A parameter with a default value is followed by `=` and the value.
  const defaults = children.filter((c, i) => c.type === 'parameter' && children[i + 1]?.type === '=').length;
  const delegation = ctor.namedChildren.find((c) => c?.type === 'constructor_delegation_call');
  const viaSuper = delegation?.children.some((c) => c?.type === 'super') ?? false;
  const args = delegation ? valueArguments(delegation) : [];
  const names = new Set(params.map((p) => p.namedChildren.find((c) => c?.type === 'identifier')?.text));
  const read = (a: Node) => (a.type === 'identifier' && names.has(a.text) ? null : messageParts(a, ctor, delegation!));
  return {
    min: params.length - defaults,
    max: params.length,
    varargs: children.some((c) => c.type === 'parameter_modifiers' && /\bvararg\b/.test(c.text)),
    parts: viaSuper ? superMessage(args, read) : null,
    plainSuper: !delegation || (viaSuper && args.length === 0),
  };
}

/** The file's package, with a dot after it (or empty: the default package). */
const packageOf = (root: Node): string => {
  const d = root.namedChildren.find((c) => c?.type === 'package_header');
  const name = d?.namedChildren.find((c) => c?.type === 'qualified_identifier' || c?.type === 'identifier')?.text.replace(/\s+/g, '');
  return name ? `${name}.` : '';
};

/** The classes the file's imports name (by their alias, if any); a name none names is of the file's package, else of a `*` import. */
function kotlinNames(root: Node, pkg: string): TypeNames {
  const imported = new Map<string, string>();
  const onDemand: string[] = [];
  for (const d of root.namedChildren) {
    if (d?.type !== 'import' && d?.type !== 'import_header') continue;
    const name = d.namedChildren.find((c) => c?.type === 'qualified_identifier' || c?.type === 'identifier')?.text.replace(/\s+/g, '');
    if (!name) continue;
    if (d.children.some((c) => c?.type === '*')) onDemand.push(name);
    else {
      const alias = d.children.some((c) => c?.type === 'as') ? d.namedChildren.at(-1)?.text : undefined;
      imported.set(alias ?? name.split('.').at(-1)!, name);
    }
  }
  return { imported, prefixes: [pkg, ...onDemand.map((p) => `${p}.`)] };
}
