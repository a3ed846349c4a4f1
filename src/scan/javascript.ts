/**
 * TypeScript and JavaScript: `throw new X(message)` (and `throw X(message)` for a capitalised
 * callee) where the message is a string, a template literal, a `+` concatenation, a name
 * assigned one of those earlier in the function, or a module-level `const` of the file. And the
 * message an error class's constructor hands `super(...)` (super(`No route for ${id}`)), for
 * `throw new X(id)` in its file or in a file that imports it by path.
 */
import type { Node } from 'web-tree-sitter';
import { fileConstant, isParameter, literalOnly } from './constants.ts';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, hole, text, type MessagePart } from './message.ts';
import { superMessage } from './constructors.ts';
import { builtKey, SiteCollector, type BuiltMessage, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['function_declaration', 'generator_function_declaration', 'function_expression', 'function', 'arrow_function', 'generator_function', 'method_definition']);
const CLASSES = new Set(['class_declaration', 'class', 'abstract_class_declaration']);

function functionName(n: Node): string | null {
  const own = n.childForFieldName('name');
  if (own) return own.text;
  const p = n.parent;
  if (!p) return null;
  if (p.type === 'variable_declarator') return p.childForFieldName('name')?.text ?? null;
  if (p.type === 'pair') return p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') ?? null;
  if (p.type === 'assignment_expression') return oneLine(p.childForFieldName('left')?.text ?? '', 80) || null;
  if (p.type === 'public_field_definition' || p.type === 'field_definition') return p.childForFieldName('name')?.text ?? p.childForFieldName('property')?.text ?? null;
  return null;
}

const DOC_HOLDERS = new Set(['export_statement', 'lexical_declaration', 'variable_declaration', 'variable_declarator', 'expression_statement', 'assignment_expression', 'pair']);

const shapes: Shapes = {
  definition(n) {
    if (FUNCTIONS.has(n.type)) return { kind: n.type === 'method_definition' ? 'method' : 'function', name: functionName(n), isFunction: true };
    if (CLASSES.has(n.type)) return { kind: 'class', name: n.childForFieldName('name')?.text ?? functionName(n), isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement') {
      const consequence = a.childForFieldName('consequence');
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text.replace(/^\(([\s\S]*)\)$/, '$1')) : '';
      if (consequence && contains(consequence, child)) return { kind: 'if', code };
      if (child.type === 'else_clause') return { kind: 'else', code };
    }
    if (a.type === 'catch_clause') return { kind: 'catch', code: oneLine(a.childForFieldName('parameter')?.text ?? '') };
    if (a.type === 'switch_case') return { kind: 'case', code: oneLine(a.childForFieldName('value')?.text ?? '') };
    return null;
  },
  doc(def) {
    let holder = def;
    while (holder.parent && DOC_HOLDERS.has(holder.parent.type)) holder = holder.parent;
    return commentsAbove(holder, shapes, new Set(['decorator']), true);
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['statement_block', 'program', 'switch_case', 'switch_default', 'class_body']),
  separator: '.',
};

function stringParts(n: Node): MessagePart[] {
  const inner = n.text.slice(1, -1);
  return [text(decodeEscapes(inner, 'javascript'))];
}

function templateParts(n: Node): MessagePart[] {
  const parts: MessagePart[] = [];
  let raw = '';
  const flush = () => {
    parts.push(text(decodeEscapes(raw, 'javascript')));
    raw = '';
  };
  for (const c of n.children) {
    if (!c || c.type === '`') continue;
    if (c.type === 'template_substitution') {
      flush();
      parts.push(hole(c.namedChildren[0]?.text ?? 'value'));
    } else raw += c.text;
  }
  flush();
  return parts;
}

function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  switch (n.type) {
    case 'string':
      return stringParts(n);
    case 'template_string':
      return templateParts(n);
    case 'parenthesized_expression': {
      const inner = n.namedChildren[0];
      return inner ? messageParts(inner, scope, site, depth + 1) : null;
    }
    case 'binary_expression': {
      if (n.childForFieldName('operator')?.type !== '+') return null;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      if (!left || !right) return null;
      return concatParts(left, right, (side) => messageParts(side, scope, site, depth + 1));
    }
    case 'call_expression': {
      // `[...].join(sep)`: the elements' texts joined.
      const fn = n.childForFieldName('function');
      const array = fn?.type === 'member_expression' && fn.childForFieldName('property')?.text === 'join' ? fn.childForFieldName('object') : null;
      if (array?.type !== 'array') return null;
      const sepNode = n.childForFieldName('arguments')?.namedChildren[0];
      const sep = sepNode ? messageParts(sepNode, null, site, depth + 1) : [text(',')];
      if (!sep || sep.some((p) => p.kind === 'hole')) return null;
      const parts: MessagePart[] = [];
      let literal = false;
      array.namedChildren.forEach((e, i) => {
        if (!e || e.type === 'comment') return;
        if (i > 0) parts.push(...sep);
        const own = messageParts(e, scope, site, depth + 1);
        literal ||= own !== null;
        parts.push(...(own ?? [hole(e.text)]));
      });
      return literal ? parts : null;
    }
    case 'identifier': {
      const local = scope ? assignedParts(n.text, scope, site, depth) : null;
      if (local || isParameter(site, n.text, FUNCTIONS)) return local;
      // A module-level `const MESSAGE = '...'` of this file.
      const constant = fileConstant(site, 'variable_declarator', (d) => (d.childForFieldName('name')?.text === n.text ? (d.childForFieldName('value') ?? null) : null), FUNCTIONS);
      return constant ? messageParts(constant, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** The message parts of the last `name = …` / `const name = …` before the site in the same function. */
function assignedParts(name: string, scope: Node, site: Node, depth: number): MessagePart[] | null {
  const value = lastAssignedValue(name, scope, site, ['variable_declarator', 'assignment_expression'], (a) =>
    a.type === 'variable_declarator' ? { target: a.childForFieldName('name'), value: a.childForFieldName('value') } : { target: a.childForFieldName('left'), value: a.childForFieldName('right') },
  );
  return value ? messageParts(value, null, site, depth + 1) : null;
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (FUNCTIONS.has(a.type)) return a;
  return null;
}

export function javascriptSites(root: Node): FileSites {
  const out = new SiteCollector();
  const imports = importTable(root);
  const classImports = importTable(root, true);
  const built = builtMessages(root);
  // The class's own message (its constructor's), from this file or the file it is imported from.
  const constructorMessage = (cls: string) => (): BuiltMessage | null => {
    const here = built.get(cls);
    if (here !== undefined) return here ? { parts: here, builtBy: cls } : null;
    const from = classImports.get(cls);
    return from ? { parts: [], builtBy: from.name === 'default' ? cls : from.name, imported: { ...from, name: builtKey(from.name) } } : null;
  };
  for (const stmt of root.descendantsOfType('throw_statement')) {
    if (!stmt) continue;
    let thrown = stmt.namedChildren.find((c) => c?.type !== 'comment');
    if (!thrown) continue;
    // `throw Object.assign(new Error('...'), { extra })` throws the error it is given.
    const assign = thrown.type === 'call_expression' && thrown.childForFieldName('function')?.text === 'Object.assign' ? thrown.childForFieldName('arguments')?.namedChildren[0] : null;
    if (assign && (assign.type === 'new_expression' || assign.type === 'call_expression')) thrown = assign;
    const isNew = thrown.type === 'new_expression';
    if (!isNew && thrown.type !== 'call_expression') {
      out.skip(thrown.type === 'identifier' || thrown.type === 'member_expression' ? 'rethrow' : 'not-literal', stmt);
      continue;
    }
    const callee = thrown.childForFieldName(isNew ? 'constructor' : 'function');
    const name = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.type === 'identifier' ? callee.text : null;
    // `new X(...)` and `X(...)` name the class; a lowercase factory (`throw err('...')`) does not.
    const errorClass = name && /^[A-Z]/.test(name) ? name : null;
    const args = (thrown.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
    // The message: the first argument with literal text (`new AggregateError(errors, 'message')` has it second).
    const scope = enclosingFunction(stmt);
    const imported = (a: Node) => (a.type === 'identifier' && !isParameter(stmt, a.text, FUNCTIONS) ? (imports.get(a.text) ?? null) : null);
    const built = isNew && callee?.type === 'identifier' && errorClass ? constructorMessage(errorClass) : undefined;
    out.exception(stmt, args, (a) => messageParts(a, scope, stmt), errorClass, 'throw', () => siteContext(stmt, shapes), imported, built);
  }
  const constants = exportedConstants(root);
  // A module's classes, as an import names them: `import { NotFoundError }`, or its default export.
  for (const stmt of root.namedChildren) {
    const declaration = stmt?.type === 'export_statement' ? stmt.childForFieldName('declaration') : stmt;
    const name = declaration && CLASSES.has(declaration.type) ? declaration.childForFieldName('name')?.text : undefined;
    const parts = name ? built.get(name) : undefined;
    if (!name || !parts) continue;
    constants[builtKey(name)] = parts;
    if (stmt!.children.some((c) => c?.type === 'default')) constants[builtKey('default')] = parts;
  }
  return out.result(constants);
}

/**
 * Of each class of the file that extends another, the message its constructor hands `super(...)` as
 * its first argument, when that has literal words (and no other argument has): its placeholders are
 * the constructor's parameters and locals. A class without a constructor of its own builds its
 * message with its base's, when that base is of the file. Null: a class of the file whose message is
 * not taken (none, two, one it sets itself with `this.message =` or a `message` member, a name
 * declared twice).
 */
function builtMessages(root: Node): Map<string, MessagePart[] | null> {
  const out = new Map<string, MessagePart[] | null>();
  const inheriting = new Map<string, string>();
  for (const cls of root.descendantsOfType([...CLASSES])) {
    const name = cls ? (cls.childForFieldName('name')?.text ?? (cls.parent?.type === 'variable_declarator' ? cls.parent.childForFieldName('name')?.text : undefined)) : undefined;
    if (!cls || !name) continue;
    if (out.has(name) || inheriting.has(name)) {
      out.set(name, null);
      inheriting.delete(name);
      continue;
    }
    out.set(name, null);
    const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
    const extended = heritage?.namedChildren.find((c) => c?.type === 'extends_clause')?.childForFieldName('value') ?? heritage?.namedChildren.find((c) => c !== null && c.type !== 'implements_clause' && c.type !== 'comment');
    if (!extended) continue;
    const members = cls.childForFieldName('body')?.namedChildren.filter((m): m is Node => m !== null) ?? [];
    const memberName = (m: Node) => (m.childForFieldName('name') ?? m.childForFieldName('property'))?.text;
    // A `message` field (even one only declared: TypeScript may define it as undefined) or getter of its own.
    if (members.some((m) => memberName(m) === 'message')) continue;
    const ctor = members.find((m) => m.type === 'method_definition' && memberName(m) === 'constructor' && m.childForFieldName('body'));
    if (!ctor) {
      if (extended.type === 'identifier') inheriting.set(name, extended.text);
      continue;
    }
    // The message it sets itself is the one printed.
    if (ctor.descendantsOfType('assignment_expression').some((a) => /^this\s*\.\s*message$/.test(a?.childForFieldName('left')?.text ?? ''))) continue;
    const calls = ctor.descendantsOfType('call_expression').filter((c): c is Node => c !== null && c.childForFieldName('function')?.type === 'super');
    const messages = calls.map((call) => {
      const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
      const read = (a: Node) => messageParts(a, ctor, call);
      // A parameter handed on is what the raise passes (`if (!msg) msg = '…'` only its default).
      const passed = args[0]?.type === 'identifier' && isParameter(call, args[0].text, FUNCTIONS);
      const parts = passed ? null : superMessage(args, read);
      return parts ? JSON.stringify(parts) : null;
    });
    if (messages.length > 0 && messages.every((m) => m !== null && m === messages[0])) out.set(name, JSON.parse(messages[0]!) as MessagePart[]);
  }
  // A class without a constructor is constructed with its base's (with every argument passed on).
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, base] of inheriting) {
      const from = out.get(base);
      if (from) {
        out.set(name, from);
        inheriting.delete(name);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * `import { NOT_FOUND as MISSING } from './messages'`: each imported name by the name it has here;
 * with `withDefault`, a default import too (`import NotFoundError from './errors'`, named `default`).
 */
function importTable(root: Node, withDefault = false): Map<string, ImportedMessage> {
  const table = new Map<string, ImportedMessage>();
  for (const stmt of root.namedChildren) {
    if (stmt?.type !== 'import_statement') continue;
    const source = stmt.childForFieldName('source');
    const spec = source ? (stringParts(source) ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('') : '';
    if (!spec) continue;
    const clause = stmt.namedChildren.find((c) => c?.type === 'import_clause');
    const byDefault = clause?.namedChildren.find((c) => c?.type === 'identifier');
    if (withDefault && byDefault) table.set(byDefault.text, { name: 'default', spec, language: 'javascript' });
    for (const specifier of stmt.descendantsOfType('import_specifier')) {
      const name = specifier?.childForFieldName('name')?.text;
      if (!specifier || !name) continue;
      table.set(specifier.childForFieldName('alias')?.text ?? name, { name, spec, language: 'javascript' });
    }
  }
  return table;
}

/** The module's `export const NAME = <literal message>` declarations, as a file importing them reads them. */
function exportedConstants(root: Node): Record<string, MessagePart[]> {
  const out: Record<string, MessagePart[]> = {};
  for (const stmt of root.namedChildren) {
    const declaration = stmt?.type === 'export_statement' ? stmt.childForFieldName('declaration') : null;
    if (declaration?.type !== 'lexical_declaration' || !declaration.children.some((c) => c?.type === 'const')) continue;
    for (const d of declaration.namedChildren) {
      const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null;
      const value = d?.childForFieldName('value');
      if (name?.type !== 'identifier' || !value) continue;
      const parts = literalOnly(messageParts(value, null, value));
      if (parts) out[name.text] = parts;
    }
  }
  return out;
}
