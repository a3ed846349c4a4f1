/**
 * C#: `throw new X(message)` as a statement or an expression (`x ?? throw new X(...)`), and
 * `throw XException.Create(..., message)`. Messages: regular, verbatim (`@"..."`), interpolated
 * (`$"...{x}"`) and raw strings, `+`, `string.Format(...)` and `"...".FormatWith(...)` composite
 * formats (`{0}`, `{0:N2}`, `{0,10}`), a name assigned earlier or a `const`/field of the same file.
 * `nameof(x)` arguments are parameter names, never the message (`ArgumentNullException(nameof(x))`).
 * And the message a class's constructor hands its base (`: base($"No entry for {id}")`), for
 * `throw new NotFoundException(id)` in its file or another (constructors.ts).
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { classConstants, fileConstant } from './constants.ts';
import { builtConstants, builtFor, superMessage, type ClassConstructor, type ClassInfo, type TypeNames } from './constructors.ts';
import { decodeEscapes } from './escapes.ts';
import { lastTypeName } from './java.ts';
import { braceParts, concatParts, hole, text, type MessagePart } from './message.ts';
import { SiteCollector, type BuiltMessage, type FileSites, type ImportedMessage } from './site.ts';

const FUNCTIONS = new Set(['method_declaration', 'constructor_declaration', 'destructor_declaration', 'operator_declaration', 'conversion_operator_declaration', 'local_function_statement', 'lambda_expression', 'anonymous_method_expression', 'accessor_declaration']);
const TYPES = new Set(['class_declaration', 'struct_declaration', 'interface_declaration', 'record_declaration', 'enum_declaration']);
/** Exceptions whose first argument is the parameter's name, the message coming second. */
const PARAM_FIRST = new Set(['ArgumentNullException', 'ArgumentOutOfRangeException']);

const shapes: Shapes = {
  definition(n) {
    if (FUNCTIONS.has(n.type)) {
      const anonymous = n.type === 'lambda_expression' || n.type === 'anonymous_method_expression';
      const name = anonymous ? null : n.type === 'accessor_declaration' ? null : (n.childForFieldName('name')?.text ?? null);
      return { kind: anonymous ? 'function' : n.type === 'constructor_declaration' ? 'constructor' : 'method', name, isFunction: true };
    }
    if (n.type === 'property_declaration' || n.type === 'indexer_declaration') return { kind: 'property', name: n.childForFieldName('name')?.text ?? 'this', isFunction: true };
    if (TYPES.has(n.type)) return { kind: n.type.replace('_declaration', ''), name: n.childForFieldName('name')?.text ?? null, isFunction: false };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement') {
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text) : '';
      const consequence = a.childForFieldName('consequence');
      const alternative = a.childForFieldName('alternative');
      if (consequence && contains(consequence, child)) return { kind: 'if', code };
      if (alternative && contains(alternative, child)) return { kind: 'else', code };
    }
    if (a.type === 'catch_clause') {
      const declaration = a.namedChildren.find((c) => c?.type === 'catch_declaration');
      return { kind: 'catch', code: oneLine(declaration?.childForFieldName('type')?.text ?? '') };
    }
    if (a.type === 'switch_section') {
      const labels = a.namedChildren.filter((c) => c && (c.type === 'case_switch_label' || c.type === 'case_pattern_switch_label' || c.type === 'constant_pattern' || c.type.endsWith('_pattern')) && !contains(c, child));
      if (labels.length > 0) return { kind: 'case', code: oneLine(labels.map((l) => l!.text.replace(/^case\s+|:$/g, '')).join(', ')) };
    }
    if (a.type === 'switch_expression_arm') {
      const pattern = a.namedChildren[0];
      if (pattern && !contains(pattern, child)) return { kind: 'case', code: oneLine(pattern.text) };
    }
    return null;
  },
  doc(def) {
    const xml = commentsAbove(def, shapes, new Set(['attribute_list']), true);
    // XML doc comments: the summary's text.
    return xml ? oneLine(xml.replace(/<(?:see|seealso|paramref|typeparamref)\s+(?:c?ref|name|langword)="([^"]*)"\s*\/>/g, '$1').replace(/<[^>]+>/g, ' '), 400) || null : null;
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['block', 'compilation_unit', 'declaration_list', 'switch_section', 'file_scoped_namespace_declaration']),
  separator: '.',
};

/** The parts of a string literal of any kind, or null when the node is not one. */
function stringParts(n: Node): MessagePart[] | null {
  switch (n.type) {
    case 'string_literal': {
      let out = '';
      for (const c of n.namedChildren) {
        if (c?.type === 'string_literal_content') out += c.text;
        else if (c?.type === 'escape_sequence') out += decodeEscapes(c.text, 'csharp');
      }
      return [text(out)];
    }
    case 'verbatim_string_literal':
      return [text(n.text.replace(/^@"|"$/g, '').replace(/""/g, '"'))];
    case 'raw_string_literal': {
      const m = /^("{3,})([\s\S]*)\1$/.exec(n.text);
      if (!m) return null;
      const body = m[2]!;
      if (!body.includes('\n')) return [text(body)];
      const lines = body.split('\n').slice(1);
      const indent = /^[ \t]*/.exec(lines.at(-1) ?? '')![0].length;
      return [text(lines.slice(0, -1).map((l) => l.slice(indent)).join('\n'))];
    }
    case 'interpolated_string_expression': {
      const start = n.namedChildren.find((c) => c?.type === 'interpolation_start')?.text ?? '$';
      const verbatim = start.includes('@');
      const raw = start.includes('"""') || (start.match(/\$/g)?.length ?? 0) > 1;
      const parts: MessagePart[] = [];
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.type === 'string_content') parts.push(text(raw ? c.text : verbatim ? c.text.replace(/""/g, '"').replace(/\{\{/g, '{').replace(/\}\}/g, '}') : c.text.replace(/\{\{/g, '{').replace(/\}\}/g, '}')));
        else if (c.type === 'escape_sequence') parts.push(text(decodeEscapes(c.text, 'csharp')));
        else if (c.type === 'interpolation') {
          const expr = c.namedChildren.find((e) => e && e.type !== 'interpolation_brace' && e.type !== 'interpolation_format_clause' && e.type !== 'interpolation_alignment_clause');
          // `{nameof(x.Y)}` prints the name itself: `Y`.
          const name = expr && isNameof(expr) ? /([A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\)\s*$/.exec(expr.text)?.[1] : undefined;
          parts.push(name ? text(name) : hole(expr?.text ?? 'value'));
        }
      }
      return parts;
    }
    default:
      return null;
  }
}

const argsOf = (call: Node): Node[] =>
  (call.childForFieldName('arguments')?.namedChildren ?? call.namedChildren.find((c) => c?.type === 'argument_list')?.namedChildren ?? [])
    .filter((a): a is Node => a?.type === 'argument')
    .map((a) => a.namedChildren.at(-1)!)
    .filter(Boolean);

const isNameof = (n: Node) => n.type === 'invocation_expression' && n.childForFieldName('function')?.text === 'nameof';
/** An `IFormatProvider` argument before the format: `CultureInfo.InvariantCulture`, `provider`. */
const isCulture = (n: Node) => /Culture|provider|FormatProvider/i.test(n.text) && stringParts(n) === null;

function composite(format: MessagePart[], args: Node[]): MessagePart[] | null {
  if (format.some((p) => p.kind === 'hole')) return null;
  // An argument split by `#if`/`#endif` lines is named without them.
  const names = args.map((a) => a.text.replace(/^[ \t]*#.*$/gm, ''));
  return braceParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), names, new Map(), /[,:]/);
}

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
      if (n.childForFieldName('operator')?.type !== '+') return null;
      const left = n.childForFieldName('left');
      const right = n.childForFieldName('right');
      return left && right ? concatParts(left, right, sameDepth) : null;
    }
    case 'invocation_expression': {
      const fn = n.childForFieldName('function');
      if (fn?.type !== 'member_access_expression') return null;
      const name = fn.childForFieldName('name')?.text;
      const receiver = fn.childForFieldName('expression');
      const args = argsOf(n);
      if (name === 'Format' && (receiver?.text === 'string' || receiver?.text === 'String')) {
        // `string.Format(format, args)` or `string.Format(provider, format, args)`.
        const at = args[0] && isCulture(args[0]) ? 1 : 0;
        const format = args[at] ? read(args[at]) : null;
        return format ? composite(format, args.slice(at + 1)) : null;
      }
      // `"...".FormatWith(CultureInfo.InvariantCulture, a, b)` (Newtonsoft.Json's helper): the first argument is the provider.
      if (name === 'FormatWith' && receiver) {
        const format = stringParts(receiver) ?? read(receiver);
        return format ? composite(format, args.slice(1)) : null;
      }
      return null;
    }
    case 'identifier': {
      const value = scope
        ? lastAssignedValue(n.text, scope, site, ['variable_declarator', 'assignment_expression'], (a) =>
            a.type === 'variable_declarator'
              ? { target: a.childForFieldName('name') ?? a.namedChildren[0], value: a.namedChildren.at(-1) === a.namedChildren[0] ? null : a.namedChildren.at(-1) }
              : { target: a.childForFieldName('left'), value: a.childForFieldName('right') },
          )
        : null;
      if (value) return messageParts(value, null, site, depth + 1);
      const constant = fileConstant(
        site,
        'field_declaration',
        (d) => {
          const v = d.descendantsOfType('variable_declarator').find((x) => (x?.childForFieldName('name') ?? x?.namedChildren[0])?.text === n.text);
          return v && v.namedChildren.length > 1 ? (v.namedChildren.at(-1) ?? null) : null;
        },
        FUNCTIONS,
      );
      return constant ? messageParts(constant, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (FUNCTIONS.has(a.type) || a.type === 'property_declaration') return a;
  return null;
}

export function csharpSites(root: Node): FileSites {
  const out = new SiteCollector();
  let table: Map<string, ClassInfo | null> | undefined;
  const classes = () => (table ??= classTable(root));
  for (const stmt of root.descendantsOfType(['throw_statement', 'throw_expression'])) {
    if (!stmt) continue;
    const thrown = stmt.namedChildren.find((c) => c && c.type !== 'comment');
    if (!thrown) continue; // `throw;` re-throws
    let errorClass: string | null = null;
    let args: Node[];
    let built: (() => BuiltMessage | null) | undefined;
    if (thrown.type === 'object_creation_expression') {
      const type = thrown.childForFieldName('type');
      errorClass = type ? lastTypeName(type.text) : null;
      args = argsOf(thrown);
      // `new X(...) { Prop = ... }` may set the message another way.
      const count = args.length;
      if (type && errorClass && !thrown.childForFieldName('initializer')) built = () => builtFor(type.text, count, classes(), typeNames(stmt));
      if (errorClass && PARAM_FIRST.has(errorClass)) args = args.slice(1);
    } else if (thrown.type === 'invocation_expression') {
      // A factory: `JsonReaderException.Create(reader, "...")` names its class; `CreateError("...")` does not.
      const fn = thrown.childForFieldName('function');
      const receiver = fn?.type === 'member_access_expression' ? (fn.childForFieldName('expression')?.text ?? '') : '';
      errorClass = /(Exception|Error)$/.test(receiver) ? lastTypeName(receiver) : null;
      args = argsOf(thrown);
    } else {
      out.skip(thrown.type === 'identifier' || thrown.type === 'member_access_expression' ? 'rethrow' : 'not-literal', stmt);
      continue;
    }
    const scope = enclosingFunction(stmt);
    out.exception(stmt, args.filter((a) => !isNameof(a)), (a) => messageParts(a, scope, stmt), errorClass, 'throw', () => siteContext(stmt, shapes), (a) => classConstantOf(a, stmt), built);
  }
  return out.result(builtConstants(classes(), classConstants(root, ['class_declaration', 'struct_declaration', 'interface_declaration', 'record_declaration'], csharpConstants, (v) => messageParts(v, null, v))));
}

/** The namespaces around a node, outer first (`namespace A.B { namespace C` or a file's `namespace A.B;`), as declared. */
function namespaceDeclarations(n: Node): Node[] {
  const out: Node[] = [];
  for (let a = n.parent; a; a = a.parent) if (a.type === 'namespace_declaration') out.unshift(a);
  const fileScoped = n.tree.rootNode.namedChildren.find((c) => c?.type === 'file_scoped_namespace_declaration');
  if (fileScoped && fileScoped.startIndex < n.startIndex) out.unshift(fileScoped);
  return out;
}

const namespaceName = (d: Node) => d.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';

/** A declaration list's `using` directives: namespaces (`using Acme.Errors;`) and aliases (`using E = Acme.Errors.NotFound;`). */
function usings(list: Node, namespaces: string[], aliases: Map<string, string>): void {
  for (const u of list.namedChildren) {
    if (u?.type !== 'using_directive' || u.children.some((c) => c?.type === 'static')) continue;
    const target = u.namedChildren.filter((c) => c?.type === 'qualified_name' || c?.type === 'identifier').at(-1)?.text.replace(/\s+/g, '');
    const alias = u.childForFieldName('name')?.text;
    if (!target) continue;
    if (alias) aliases.set(alias, target);
    else namespaces.push(`${target}.`);
  }
}

/**
 * Where C# looks for a class a raise names: each namespace around it, innermost first, with the
 * `using` directives declared in it, then the global namespace and the file's own `using` directives.
 */
function typeNames(site: Node): TypeNames {
  const prefixes: string[] = [];
  const imported = new Map<string, string>();
  const declarations = namespaceDeclarations(site);
  const full = declarations.map((_, i) => declarations.slice(0, i + 1).map(namespaceName).join('.'));
  for (let i = declarations.length - 1; i >= 0; i--) {
    const d = declarations[i]!;
    const outer = i > 0 ? `${full[i - 1]}.` : '';
    const segments = namespaceName(d).split('.');
    // `namespace A.B` is `namespace A { namespace B`: its usings belong to B.
    prefixes.push(`${full[i]}.`);
    const body = d.type === 'namespace_declaration' ? d.childForFieldName('body') : null;
    if (body) usings(body, prefixes, imported);
    for (let k = segments.length - 1; k > 0; k--) prefixes.push(`${outer}${segments.slice(0, k).join('.')}.`);
  }
  prefixes.push('');
  usings(site.tree.rootNode, prefixes, imported);
  return { imported, prefixes };
}

/** Exceptions whose constructor takes the parameter's name first (`base("id")` names no message). */
const messageArguments = (base: string | null, args: Node[]) => (base && PARAM_FIRST.has(base) ? args.slice(1) : args).filter((a) => !isNameof(a));

/**
 * The file's classes by simple name, with what their constructors hand their base (constructors.ts);
 * null: a name declared twice, or by a partial class (its other parts are in other files).
 */
function classTable(root: Node): Map<string, ClassInfo | null> {
  const table = new Map<string, ClassInfo | null>();
  for (const cls of root.descendantsOfType([...TYPES])) {
    const name = cls?.childForFieldName('name')?.text;
    if (!cls || !name) continue;
    const path: string[] = [name];
    for (let a = cls.parent; a; a = a.parent) if (TYPES.has(a.type)) path.unshift(a.childForFieldName('name')?.text ?? '');
    const modifiers = cls.namedChildren.filter((c) => c?.type === 'modifier').map((c) => c!.text);
    if (table.has(name) || cls.type !== 'class_declaration' || modifiers.includes('partial') || modifiers.includes('static')) {
      table.set(name, null);
      continue;
    }
    const namespace = namespaceDeclarations(cls).map(namespaceName).join('.');
    const baseList = cls.namedChildren.find((c) => c?.type === 'base_list');
    const baseType = baseList?.namedChildren.find((c) => c !== null && c.type !== 'argument_list');
    const base = baseType ? lastTypeName(baseType.text) : null;
    const members = cls.childForFieldName('body')?.namedChildren.filter((m): m is Node => m !== null) ?? [];
    const constructors = members.filter((m) => m.type === 'constructor_declaration' && !m.namedChildren.some((c) => c?.type === 'modifier' && c.text === 'static')).map((m) => csharpConstructor(m, base));
    // A primary constructor (`class NotFound(string id) : Exception($"...")`).
    const primary = cls.namedChildren.find((c) => c?.type === 'parameter_list');
    if (primary) {
      const baseArgs = baseList?.namedChildren.some((c) => c?.type === 'argument_list') ? argsOf(baseList) : null;
      constructors.unshift(constructorShape(primary, baseArgs ? { viaBase: true, args: baseArgs } : null, base, baseList ?? primary, null));
    }
    table.set(name, {
      path: path.join('.'),
      qualified: `${namespace ? `${namespace}.` : ''}${path.join('.')}`,
      base,
      constructors,
      // Its own `Message` is what is printed.
      ownMessage: members.some((m) => m.type === 'property_declaration' && m.childForFieldName('name')?.text === 'Message'),
    });
  }
  return table;
}

function csharpConstructor(ctor: Node, base: string | null): ClassConstructor {
  const initializer = ctor.namedChildren.find((c) => c?.type === 'constructor_initializer');
  const call = initializer ? { viaBase: initializer.children.some((c) => c?.type === 'base'), args: argsOf(initializer) } : null;
  return constructorShape(ctor.childForFieldName('parameters'), call, base, initializer ?? ctor, ctor);
}

/** A constructor's arguments (optional ones may be left out) and what it hands its base. */
function constructorShape(parameters: Node | null, call: { viaBase: boolean; args: Node[] } | null, base: string | null, site: Node, scope: Node | null): ClassConstructor {
  const params = parameters?.namedChildren.filter((p): p is Node => p?.type === 'parameter') ?? [];
  const names = new Set(params.map((p) => p.childForFieldName('name')?.text));
  const read = (a: Node) => (a.type === 'identifier' && names.has(a.text) ? null : messageParts(a, scope, site));
  const varargs = parameters?.children.some((c) => c?.type === 'params') || params.some((p) => p.children.some((c) => c?.type === 'params'));
  return {
    min: params.filter((p) => !p.children.some((c) => c?.type === '=')).length,
    max: params.length,
    varargs: varargs ?? false,
    parts: call?.viaBase ? superMessage(messageArguments(base, call.args), read) : null,
    plainSuper: !call || (call.viaBase && call.args.length === 0),
  };
}

const CLASSES = new Set(['class_declaration', 'struct_declaration', 'record_declaration', 'interface_declaration']);

/**
 * `Messages.NotFound` (a class's constant, in any file), or a constant named bare: one of the class
 * around the throw (which a partial class may declare in its other file), or of a class it derives from.
 */
function classConstantOf(n: Node, site: Node): ImportedMessage | null {
  if (n.type === 'identifier') {
    if (!/^[A-Z]/.test(n.text)) return null;
    let cls = site.parent;
    while (cls && !CLASSES.has(cls.type)) cls = cls.parent;
    const name = cls?.childForFieldName('name')?.text;
    const bases = cls?.children.find((c) => c?.type === 'base_list')?.namedChildren.map((b) => (b ? lastTypeName(b.text) : '')) ?? [];
    return name ? { name: n.text, spec: [name, ...bases].filter(Boolean).join(' '), language: 'class' } : null;
  }
  if (n.type !== 'member_access_expression') return null;
  const cls = n.childForFieldName('expression')?.text.split('.').at(-1);
  const name = n.childForFieldName('name')?.text;
  return cls && name && /^[A-Z]/.test(cls) ? { name, spec: cls, language: 'class' } : null;
}

/** `const string NotFound = "..."` or `static readonly string`: each name and value a field declares. */
function csharpConstants(field: Node): [string, Node][] {
  if (field.type !== 'field_declaration') return [];
  const modifiers = field.children.filter((c) => c?.type === 'modifier').map((c) => c!.text);
  if (!modifiers.includes('const') && !(modifiers.includes('static') && modifiers.includes('readonly'))) return [];
  return field.descendantsOfType('variable_declarator').flatMap((v) => {
    const name = (v?.childForFieldName('name') ?? v?.namedChildren[0])?.text;
    const value = v && v.namedChildren.length > 1 ? v.namedChildren.at(-1) : null;
    return name && value ? [[name, value] as [string, Node]] : [];
  });
}
