/**
 * Java: `throw new X(message)` (and `throw factory(message)`, class unknown) where the message is a
 * string or text block, a `+` concatenation, `String.format(...)`, `"...".formatted(...)`,
 * `MessageFormat.format(...)`, a `StringBuilder`'s `toString()` after its `append`s, or a name
 * assigned one of those earlier in the method or held in a field of the same file
 * (`static final String MSG = "..."`). And the message an exception class's constructor hands its base
 * (`super("No entry for " + id)`), for `throw new NotFoundException(id)` in its file or in another file
 * (by the class's package: its import, the file's own package, an on-demand import).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { classConstants, fileConstant } from './constants.ts';
import { decodeEscapes } from './escapes.ts';
import { braceParts, concatParts, hasLiteralWords, hole, printfParts, text, type MessagePart } from './message.ts';
import { builtConstants, builtFor, superMessage, type ClassInfo, type ClassConstructor, type TypeNames } from './constructors.ts';
import { SiteCollector, type BuiltMessage, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration', 'lambda_expression']);
const CLASSES = new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']);

const shapes: Shapes = {
  definition(n) {
    if (FUNCTIONS.has(n.type)) {
      const name = n.type === 'lambda_expression' ? null : (n.childForFieldName('name')?.text ?? null);
      return { kind: n.type === 'lambda_expression' ? 'function' : n.type === 'method_declaration' ? 'method' : 'constructor', name, isFunction: true };
    }
    if (CLASSES.has(n.type)) return { kind: 'class', name: n.childForFieldName('name')?.text ?? null, isFunction: false };
    if (n.type === 'object_creation_expression' && n.namedChildren.some((c) => c?.type === 'class_body')) return { kind: 'class', name: null, isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement') {
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text.replace(/^\(([\s\S]*)\)$/, '$1')) : '';
      const consequence = a.childForFieldName('consequence');
      const alternative = a.childForFieldName('alternative');
      if (consequence && contains(consequence, child)) return { kind: 'if', code };
      if (alternative && contains(alternative, child)) return { kind: 'else', code };
    }
    if (a.type === 'catch_clause') {
      const param = a.namedChildren.find((c) => c?.type === 'catch_formal_parameter');
      return { kind: 'catch', code: oneLine(param?.namedChildren.find((c) => c?.type === 'catch_type')?.text ?? '') };
    }
    if (a.type === 'switch_block_statement_group' || a.type === 'switch_rule') {
      const label = a.namedChildren.find((c) => c?.type === 'switch_label');
      if (label && !contains(label, child)) return { kind: 'case', code: oneLine(label.text.replace(/^case\s+|:$/g, '')) };
    }
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes, new Set(['line_comment']), true);
  },
  commentTypes: new Set(['line_comment', 'block_comment']),
  blockTypes: new Set(['block', 'program', 'class_body', 'constructor_body', 'switch_block_statement_group', 'interface_body', 'enum_body_declarations']),
  separator: '.',
};

/** A text block's content as Java reads it: the line after `"""`, the common indentation removed. */
function textBlock(raw: string): string {
  const lines = raw.replace(/^[ \t]*\n/, '').split('\n');
  const closingOnOwnLine = /^[ \t]*$/.test(lines.at(-1) ?? '');
  const indents = lines.filter((l, i) => l.trim() !== '' || (closingOnOwnLine && i === lines.length - 1)).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const body = lines.map((l) => l.slice(cut).replace(/[ \t]+$/, '')).join('\n');
  return body.replace(/\\\n/g, '');
}

function stringText(n: Node): string | null {
  if (n.type !== 'string_literal') return null;
  let out = '';
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_fragment') out += c.text;
    else if (c.type === 'multiline_string_fragment') out += textBlock(c.text);
    else if (c.type === 'escape_sequence') out += decodeEscapes(c.text, 'java');
  }
  return out;
}

const argsOf = (call: Node): Node[] => (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'line_comment' && a.type !== 'block_comment');

/** The literal format of a call's format argument and the arguments after it (a `Locale` may come first). */
function formatCall(args: Node[], read: (n: Node) => MessagePart[] | null): { format: string; rest: string[] } | null {
  for (let i = 0; i < Math.min(args.length, 2); i++) {
    const parts = read(args[i]!);
    if (!parts) continue;
    if (parts.some((p) => p.kind === 'hole')) return null;
    return { format: parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''), rest: args.slice(i + 1).map((a) => a.text) };
  }
  return null;
}

function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  const read = (m: Node) => messageParts(m, scope, site, depth + 1);
  // A long `a + b + c` chain is a deep tree: its operands count for little towards the look-up depth (600 of them for one look-up).
  const sameDepth = (m: Node) => messageParts(m, scope, site, depth + 0.01);
  const literal = stringText(n);
  if (literal !== null) return [text(literal)];
  switch (n.type) {
    case 'parenthesized_expression':
      return n.namedChildren[0] ? read(n.namedChildren[0]) : null;
    case 'binary_expression': {
      if (n.childForFieldName('operator')?.type !== '+') return null;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      // `"size " + 10 + ", closed=" + false`: literals print as written.
      const operand = (m: Node) => (m.type === 'decimal_integer_literal' ? [text(m.text.replace(/[lL_]/g, ''))] : /^(true|false|null_literal)$/.test(m.type) ? [text(m.text)] : m.type === 'character_literal' ? [text(decodeEscapes(m.text.slice(1, -1), 'java'))] : sameDepth(m));
      return left && right ? concatParts(left, right, operand) : null;
    }
    case 'method_invocation': {
      const name = n.childForFieldName('name')?.text;
      const object = n.childForFieldName('object');
      const args = argsOf(n);
      if (name === 'formatted' && object) {
        const format = read(object);
        if (!format || format.some((p) => p.kind === 'hole')) return null;
        return printfParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), args.map((a) => a.text), 'java');
      }
      if (name === 'format' && object?.text === 'String') {
        const call = formatCall(args, read);
        return call ? printfParts(call.format, call.rest, 'java') : null;
      }
      if (name === 'toString' && object?.type === 'identifier' && args.length === 0) return builderParts(object.text, site, read);
      if (name === 'format' && object?.text === 'MessageFormat') {
        const call = formatCall(args, read);
        // MessageFormat quotes with `'`: `''` is one apostrophe.
        return call ? braceParts(call.format.replace(/''/g, "'"), call.rest, new Map(), /[,]/) : null;
      }
      return null;
    }
    case 'identifier': {
      const value = scope
        ? lastAssignedValue(n.text, scope, site, ['variable_declarator', 'assignment_expression'], (a) =>
            a.type === 'variable_declarator' ? { target: a.childForFieldName('name'), value: a.childForFieldName('value') } : { target: a.childForFieldName('left'), value: a.childForFieldName('right') },
          )
        : null;
      if (value) return messageParts(value, null, site, depth + 1);
      const constant = fileConstant(site, ['field_declaration', 'constant_declaration'], (d) => {
        const v = d.namedChildren.find((c) => c?.type === 'variable_declarator' && c.childForFieldName('name')?.text === n.text);
        return v?.childForFieldName('value') ?? null;
      }, FUNCTIONS);
      return constant ? messageParts(constant, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

const BUILDERS = /^(StringBuilder|StringBuffer|StrBuilder|TextStringBuilder)$/;

/** A literal in a builder's `append`: text as Java prints it, or null for an expression. */
function appendedLiteral(arg: Node): string | null {
  if (arg.type === 'character_literal') return decodeEscapes(arg.text.slice(1, -1), 'java');
  if (arg.type === 'decimal_integer_literal') return arg.text.replace(/[lL_]/g, '');
  return stringText(arg);
}

/** The parts a chain `new StringBuilder("a").append(x).append("b")` rooted at `root` adds, or null when it is not such a chain. */
function chainParts(n: Node, isRoot: (m: Node) => boolean, read: (m: Node) => MessagePart[] | null): MessagePart[] | null {
  if (isRoot(n)) return [];
  if (n.type === 'object_creation_expression' && BUILDERS.test(lastTypeName(n.childForFieldName('type')?.text ?? ''))) {
    const first = argsOf(n)[0];
    return first && first.type !== 'decimal_integer_literal' ? (read(first) ?? [hole(first.text)]) : [];
  }
  if (n.type !== 'method_invocation') return null;
  const object = n.childForFieldName('object');
  const inner = object ? chainParts(object, isRoot, read) : null;
  if (!inner) return null;
  const name = n.childForFieldName('name')?.text;
  const arg = argsOf(n)[0];
  if (name === 'append' && arg) {
    const literal = appendedLiteral(arg);
    return [...inner, ...(literal !== null ? [text(literal)] : (read(arg) ?? [hole(arg.text)]))];
  }
  // Another builder method (`appendWithSeparators(list, "->")`): what it adds is known at run time.
  return [...inner, hole(arg?.text ?? name ?? 'value')];
}

/**
 * `throw new X(buf.toString())`: the text a `StringBuilder` declared in the same block collected
 * with `append` before the throw. A statement that changes it in a branch or a loop adds a
 * placeholder (its text depends on the run).
 */
function builderParts(name: string, site: Node, read: (m: Node) => MessagePart[] | null): MessagePart[] | null {
  for (let block = site.parent; block; block = block.parent) {
    if (block.type !== 'block' && block.type !== 'constructor_body') continue;
    const statements = block.namedChildren.filter((c): c is Node => c !== null);
    const until = statements.findIndex((c) => c.startIndex <= site.startIndex && c.endIndex >= site.endIndex);
    const declarationIndex = statements.findIndex((c, i) => i < until && c.type === 'local_variable_declaration' && c.childForFieldName('declarator')?.childForFieldName('name')?.text === name);
    if (declarationIndex === -1) {
      if (FUNCTIONS.has(block.parent?.type ?? '')) return null;
      continue;
    }
    const value = statements[declarationIndex]!.childForFieldName('declarator')?.childForFieldName('value');
    const parts = value ? chainParts(value, () => false, read) : null;
    if (!parts) return null;
    const isBuilder = (m: Node) => m.type === 'identifier' && m.text === name;
    const mentions = new RegExp(`\\b${name}\\b`);
    for (const st of statements.slice(declarationIndex + 1, until)) {
      const expr = st.type === 'expression_statement' ? st.namedChildren[0] : null;
      const own = expr ? chainParts(expr, isBuilder, read) : null;
      if (own && own.length > 0) parts.push(...own);
      else if (mentions.test(st.text)) parts.push(hole(name));
    }
    return hasLiteralWords(parts) ? parts : null;
  }
  return null;
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (FUNCTIONS.has(a.type)) return a;
  return null;
}

/** The last name of a type as written: `java.io.IOException` -> `IOException`, `Foo<T>` -> `Foo`. */
export const lastTypeName = (t: string): string => t.replace(/<[\s\S]*$/, '').split(/\.|::/).at(-1)!.trim();

export function javaSites(root: Node): FileSites {
  const out = new SiteCollector();
  const staticImports = staticImportTable(root);
  const pkg = packageOf(root);
  const classes = classTable(root, pkg);
  const names = typeNames(root, pkg);
  for (const stmt of root.descendantsOfType('throw_statement')) {
    if (!stmt) continue;
    const thrown = stmt.namedChildren.find((c) => c && c.type !== 'line_comment' && c.type !== 'block_comment');
    if (!thrown) continue;
    let errorClass: string | null = null;
    let built: (() => BuiltMessage | null) | undefined;
    if (thrown.type === 'object_creation_expression') {
      const type = thrown.childForFieldName('type');
      errorClass = type ? lastTypeName(type.text) : null;
      // `new X(...) { ... }` makes an anonymous subclass, which may build its message otherwise.
      if (type && !thrown.namedChildren.some((c) => c?.type === 'class_body')) built = () => builtFor(type.text, argsOf(thrown).length, classes, names);
    } else if (thrown.type === 'method_invocation') {
      // A factory: `throw Errors.illegalState("...")`; a class only when the receiver names one (`XException.create(...)`).
      const object = thrown.childForFieldName('object')?.text ?? '';
      errorClass = /(Exception|Error)$/.test(object) ? lastTypeName(object) : null;
    } else {
      out.skip(thrown.type === 'identifier' || thrown.type === 'field_access' ? 'rethrow' : 'not-literal', stmt);
      continue;
    }
    const scope = enclosingFunction(stmt);
    out.exception(stmt, argsOf(thrown), (a) => messageParts(a, scope, stmt), errorClass, 'throw', () => siteContext(stmt, shapes), (a) => classConstantOf(a, staticImports), built);
  }
  const constants = classConstants(root, CLASS_TYPES, javaConstant, (v) => messageParts(v, null, v));
  return out.result(builtConstants(classes, constants));
}

const CLASS_TYPES = ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration'];

/** The file's classes by simple name, with what their constructors hand their base (constructors.ts). */
function classTable(root: Node, pkg: string): Map<string, ClassInfo | null> {
  const table = new Map<string, ClassInfo | null>();
  for (const cls of root.descendantsOfType(CLASS_TYPES)) {
    const name = cls?.childForFieldName('name')?.text;
    if (!cls || !name) continue;
    const path: string[] = [name];
    let local = false;
    for (let a = cls.parent; a; a = a.parent) {
      if (FUNCTIONS.has(a.type) || a.type === 'object_creation_expression') local = true;
      if (CLASS_TYPES.includes(a.type)) path.unshift(a.childForFieldName('name')?.text ?? '');
    }
    if (table.has(name) || local || cls.type !== 'class_declaration') {
      table.set(name, null);
      continue;
    }
    const members = cls.childForFieldName('body')?.namedChildren.filter((m): m is Node => m !== null) ?? [];
    const superclass = cls.childForFieldName('superclass')?.namedChildren.find((c) => c !== null && c.type !== 'extends');
    table.set(name, {
      path: path.join('.'),
      qualified: `${pkg}${path.join('.')}`,
      base: superclass ? lastTypeName(superclass.text) : null,
      constructors: members.filter((m) => m.type === 'constructor_declaration').map(javaConstructor),
      // A class whose `getMessage` is its own prints that, not what its constructor handed its base.
      ownMessage: members.some((m) => m.type === 'method_declaration' && /^get(Localized)?Message$/.test(m.childForFieldName('name')?.text ?? '')),
    });
  }
  return table;
}

function javaConstructor(ctor: Node): ClassConstructor {
  const params = ctor.childForFieldName('parameters')?.namedChildren.filter((p) => p?.type === 'formal_parameter' || p?.type === 'spread_parameter') ?? [];
  const first = ctor.childForFieldName('body')?.namedChildren.find((c) => c !== null && c.type !== 'line_comment' && c.type !== 'block_comment');
  const invocation = first?.type === 'explicit_constructor_invocation' ? first : null;
  const viaSuper = invocation?.childForFieldName('constructor')?.type === 'super';
  const args = invocation ? argsOf(invocation) : [];
  const read = (a: Node) => messageParts(a, ctor, invocation!);
  return {
    min: params.length,
    max: params.length,
    varargs: params.some((p) => p?.type === 'spread_parameter'),
    parts: viaSuper ? superMessage(args, read) : null,
    plainSuper: !invocation || (viaSuper && args.length === 0),
  };
}

/** The file's package, with a dot after it (or empty: the default package). */
const packageOf = (root: Node): string => {
  const d = root.namedChildren.find((c) => c?.type === 'package_declaration');
  const name = d?.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier')?.text;
  return name ? `${name}.` : '';
};

/** The classes the file's imports name; a name none names is of the file's package, else of an on-demand import. */
function typeNames(root: Node, pkg: string): TypeNames {
  const imported = new Map<string, string>();
  const onDemand: string[] = [];
  for (const d of root.namedChildren) {
    if (d?.type !== 'import_declaration' || d.children.some((c) => c?.type === 'static')) continue;
    const name = d.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier')?.text;
    if (!name) continue;
    if (d.children.some((c) => c?.type === 'asterisk')) onDemand.push(name);
    else imported.set(name.split('.').at(-1)!, name);
  }
  return { imported, prefixes: [pkg, ...onDemand.map((p) => `${p}.`)] };
}

/** `import static pkg.Messages.NOT_FOUND;`: each name by the class that declares it. */
function staticImportTable(root: Node): Map<string, string> {
  const table = new Map<string, string>();
  for (const d of root.namedChildren) {
    if (d?.type !== 'import_declaration' || !d.children.some((c) => c?.type === 'static') || d.children.some((c) => c?.type === 'asterisk')) continue;
    const path = d.namedChildren.find((c) => c?.type === 'scoped_identifier')?.text.split('.') ?? [];
    if (path.length >= 2) table.set(path.at(-1)!, path.at(-2)!);
  }
  return table;
}

/** `Messages.NOT_FOUND` (a class's constant, in any file), or a name imported statically. */
function classConstantOf(n: Node, staticImports: ReadonlyMap<string, string>): ImportedMessage | null {
  if (n.type === 'identifier') {
    const cls = staticImports.get(n.text);
    return cls ? { name: n.text, spec: cls, language: 'class' } : null;
  }
  if (n.type !== 'field_access') return null;
  const cls = n.childForFieldName('object')?.text.split('.').at(-1);
  const name = n.childForFieldName('field')?.text;
  return cls && name && /^[A-Z]/.test(cls) ? { name, spec: cls, language: 'class' } : null;
}

/** `static final String NOT_FOUND = "..."` (or an interface's field): each name and value it declares. */
function javaConstant(field: Node): [string, Node][] {
  if (field.type !== 'field_declaration' && field.type !== 'constant_declaration') return [];
  const modifiers = field.namedChildren.find((c) => c?.type === 'modifiers')?.text ?? '';
  const inInterface = field.parent?.type === 'interface_body';
  if (!inInterface && !(/\bstatic\b/.test(modifiers) && /\bfinal\b/.test(modifiers))) return [];
  return field.namedChildren.flatMap((v) => {
    const name = v?.type === 'variable_declarator' ? v.childForFieldName('name')?.text : undefined;
    const value = v?.childForFieldName('value');
    return name && value ? [[name, value] as [string, Node]] : [];
  });
}

