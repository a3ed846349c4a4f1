/**
 * Python: `raise X(message)` where the message is a literal, an f-string, a `%` format, a
 * `.format(...)` call, a `+` concatenation, one of these marked for translation (`_("...")`), a name assigned one of those earlier in the function, or
 * a module-level or class-level constant of the file (`MSG = "..."`, `self.MSG`). Also
 * `warnings.warn(message, Category)` (a warning), and the message an error class carries as an
 * attribute (pydantic v1's `msg_template = "..."`, `message = "..."`): raised as `raise X()`, it has
 * no message at the raise. And the message an error class's `__init__` builds from its arguments
 * (`super().__init__(f"Could not find {expected}")`), for `raise X(name)` in its file or in a file
 * that imports it.
 */
import type { Node } from 'web-tree-sitter';
import { fileConstant, isParameter, literalOnly } from './constants.ts';
import { contains, firstParagraph, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { decodeEscapes } from './escapes.ts';
import { braceParts, concatParts, hasLiteralWords, hole, printfParts, text, type MessagePart } from './message.ts';
import { builtKey, endLineOf, lineOf, SiteCollector, type BuiltMessage, type FileSites, type ImportedMessage } from './site.ts';

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
      // A message marked for translation (`_("...")`, `gettext_lazy("...")`) prints as written when untranslated.
      if (fn?.type === 'identifier' && GETTEXT.has(fn.text)) {
        const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
        const withContext = fn.text.startsWith('pgettext');
        const message = withContext ? args[1] : args[0];
        return args.length === (withContext ? 2 : 1) && message ? messageParts(message, scope, site, depth + 1) : null;
      }
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
      // A module constant by its upper-case name: a lower-case one is more likely a parameter.
      return (scope ? assignedParts(n.text, scope, site, depth) : null) ?? (/^_*[A-Z][A-Z0-9_]*$/.test(n.text) ? constantParts(n.text, site, depth) : null);
    case 'attribute': {
      // `self.MESSAGE`, `cls.MESSAGE`, `Class.MESSAGE`: a class attribute of this file.
      const object = n.childForFieldName('object');
      const name = n.childForFieldName('attribute')?.text;
      if (object?.type !== 'identifier' || !name) return null;
      if (object.text === 'self' || object.text === 'cls') {
        const own = classAttribute(enclosingClass(site), name);
        return own ? messageParts(own, null, site, depth + 1) : null;
      }
      if (!/^[A-Z]/.test(object.text)) return null;
      // A class of this file has the attribute or not; of another file, whatever this file declares by that name.
      const cls = classNamed(site, object.text);
      if (!cls) return constantParts(name, site, depth);
      const declared = classAttribute(cls, name);
      return declared ? messageParts(declared, null, site, depth + 1) : null;
    }
    default:
      return null;
  }
}

const FUNCTIONS = new Set(['function_definition', 'lambda']);

/** gettext's functions and the names projects give them: the message is their argument (pgettext's second, after the context). */
const GETTEXT = new Set(['_', 'gettext', 'gettext_lazy', 'ugettext', 'ugettext_lazy', 'lazy_gettext', '_l', 'pgettext', 'pgettext_lazy']);

/** The value of `name = <message>` at module or class level in this file (the class around the site first). */
function constantParts(name: string, site: Node, depth: number): MessagePart[] | null {
  const value = fileConstant(site, 'assignment', (a) => (a.childForFieldName('left')?.text === name ? a.childForFieldName('right') : null), FUNCTIONS);
  return value ? messageParts(value, null, site, depth + 1) : null;
}

const enclosingClass = (n: Node): Node | null => {
  for (let a = n.parent; a; a = a.parent) if (a.type === 'class_definition') return a;
  return null;
};

const classNamed = (site: Node, name: string): Node | null => {
  let root = site;
  while (root.parent) root = root.parent;
  return root.descendantsOfType('class_definition').find((c) => c?.childForFieldName('name')?.text === name) ?? null;
};

/**
 * The value of `name = ...` in a class's body, or in its bases of the same file, as Python looks an
 * attribute up: `self.message` in one class is not another class's `message`.
 */
function classAttribute(cls: Node | null, name: string, seen = new Set<number>()): Node | null {
  if (!cls || seen.has(cls.id)) return null;
  seen.add(cls.id);
  for (const statement of cls.childForFieldName('body')?.namedChildren ?? []) {
    const assignment = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
    if (assignment?.type === 'assignment' && assignment.childForFieldName('left')?.text === name) return assignment.childForFieldName('right');
  }
  for (const base of cls.childForFieldName('superclasses')?.namedChildren ?? []) {
    const found = base?.type === 'identifier' ? classAttribute(classNamed(cls, base.text), name, seen) : null;
    if (found) return found;
  }
  return null;
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

/** Class attributes that hold the message an error class is raised with. */
const MESSAGE_ATTRIBUTES = new Set(['msg_template', 'message_template', 'default_message', 'default_detail', 'message', 'msg']);
const looksLikeError = (name: string) => /(Error|Exception|Warning|Exc)$/.test(name);

/** `class IntegerError(PydanticTypeError): msg_template = "value is not a valid integer"`: the class's own message. */
function classMessages(root: Node, out: SiteCollector): void {
  for (const cls of root.descendantsOfType('class_definition')) {
    const name = cls?.childForFieldName('name')?.text;
    const bases = cls?.childForFieldName('superclasses')?.namedChildren.map((b) => b?.text.split('.').at(-1) ?? '') ?? [];
    if (!cls || !name || !(looksLikeError(name) || bases.some(looksLikeError))) continue;
    for (const statement of cls.childForFieldName('body')?.namedChildren ?? []) {
      const assignment = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
      const target = assignment?.type === 'assignment' ? assignment.childForFieldName('left')?.text : undefined;
      let value = assignment?.childForFieldName('right');
      if (value?.type === 'parenthesized_expression') value = value.namedChildren[0];
      // A literal, or one marked for translation (Django REST framework's `default_detail = _('…')`).
      const translated = value?.type === 'call' && GETTEXT.has(value.childForFieldName('function')?.text ?? '');
      if (!assignment || !target || !value || !MESSAGE_ATTRIBUTES.has(target) || (value.type !== 'string' && value.type !== 'concatenated_string' && !translated)) continue;
      const parts = out.message([value], (v) => messageParts(v, null, v), assignment);
      if (!parts) continue;
      const literal = parts.every((p) => p.kind === 'text') ? parts.map((p) => (p.kind === 'text' ? p.text : '')).join('') : null;
      const context = siteContext(assignment, shapes);
      out.sites.push({
        ...context,
        enclosing: context.enclosing,
        enclosingKind: 'class attribute',
        doc: shapes.doc(cls),
        guard: null,
        line: lineOf(assignment),
        endLine: endLineOf(assignment),
        form: target,
        kind: 'definition',
        errorClass: name,
        // A template for str.format, by its name or its fields (`Method "{method}" not allowed.`).
        parts: literal !== null && (target.endsWith('template') || /\{[A-Za-z_]\w*\}/.test(literal)) ? braceParts(literal, []) : parts,
      });
    }
  }
}

/**
 * Of each error class of the file whose `__init__` hands its base a message with literal words
 * (`super().__init__(message)`, `super(Cls, self).__init__(...)`, `Base.__init__(self, ...)`, or as
 * `message=`), that message: its placeholders are the constructor's parameters and locals.
 */
function builtMessages(root: Node): Map<string, MessagePart[]> {
  // Each error class of the file: its first base, and what its `__init__` hands its base.
  const classes = new Map<string, { base: string | null; init: InitMessage; ownStr: boolean }>();
  for (const cls of root.descendantsOfType('class_definition')) {
    const name = cls?.childForFieldName('name')?.text;
    const bases = cls?.childForFieldName('superclasses')?.namedChildren.filter((b) => b?.type !== 'keyword_argument').map((b) => b?.text ?? '') ?? [];
    if (!cls || !name || !(looksLikeError(name) || bases.some((b) => looksLikeError(b.split('.').at(-1)!)))) continue;
    const methods = (cls.childForFieldName('body')?.namedChildren ?? []).filter((m): m is Node => m?.type === 'function_definition');
    const init = methods.find((m) => m.childForFieldName('name')?.text === '__init__');
    const ownStr = methods.some((m) => m.childForFieldName('name')?.text === '__str__');
    // Two classes of one name in a file: neither is known.
    classes.set(name, classes.has(name) ? { base: null, init: { kind: 'other' }, ownStr: true } : { base: bases[0] ?? null, init: init ? initMessage(init, bases) : { kind: 'none' }, ownStr });
  }
  const out = new Map<string, MessagePart[]>();
  for (const name of classes.keys()) {
    const parts = builtBy(name, classes, new Set());
    if (parts) out.set(name, parts);
  }
  return out;
}

/** What an `__init__` hands its base: a message with literal words, a parameter as it is, anything else; none: no `__init__`. */
type InitMessage = { kind: 'message'; parts: MessagePart[] } | { kind: 'passed' } | { kind: 'other' } | { kind: 'none' };

/**
 * The message a class's constructor makes, as Python calls it: its own `__init__`'s, else its first
 * base's; then handed up unchanged by every base of the file it reaches (a base that builds its own
 * message around it, or prints itself with `__str__`, makes another: none is taken).
 */
function builtBy(name: string, classes: ReadonlyMap<string, { base: string | null; init: InitMessage; ownStr: boolean }>, seen: Set<string>): MessagePart[] | null {
  const cls = classes.get(name);
  if (!cls || seen.has(name) || cls.ownStr) return null;
  seen.add(name);
  if (cls.init.kind === 'none') return cls.base ? builtBy(cls.base, classes, seen) : null;
  if (cls.init.kind !== 'message') return null;
  for (let base = cls.base, up = new Set<string>(); base !== null && classes.has(base) && !up.has(base); base = classes.get(base)!.base) {
    up.add(base);
    const b = classes.get(base)!;
    if (b.ownStr || (b.init.kind !== 'none' && b.init.kind !== 'passed')) return null;
  }
  return cls.init.parts;
}

/** What an `__init__` hands its base (`super().__init__(…)`, `super(Cls, self).__init__(…)`, `Base.__init__(self, …)`, or as `message=`): every such call must hand the same. */
function initMessage(init: Node, bases: readonly string[]): InitMessage {
  let found: InitMessage = { kind: 'other' };
  let calls = 0;
  for (const call of init.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    if (!call || fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== '__init__' || enclosingFunction(call)?.id !== init.id) continue;
    const object = fn.childForFieldName('object');
    const viaSuper = object?.type === 'call' && object.childForFieldName('function')?.text === 'super';
    const viaBase = object !== null && bases.includes(object.text);
    if (!viaSuper && !viaBase) continue;
    const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
    const positional = args.filter((a) => a.type !== 'keyword_argument' && a.type !== 'list_splat' && a.type !== 'dictionary_splat');
    const keyword = args.find((a) => a.type === 'keyword_argument' && MESSAGE_KEYWORDS.has(a.childForFieldName('name')?.text ?? ''))?.childForFieldName('value');
    const message = (viaSuper ? positional[0] : positional[1]) ?? keyword;
    // A parameter handed on is what the raise passes (`hint = hint or "unknown"` only its default).
    const passed = message?.type === 'identifier' && isParameter(call, message.text, FUNCTIONS);
    const parts = message && !passed ? messageParts(message, init, call) : null;
    const reading: InitMessage = passed ? { kind: 'passed' } : parts && hasLiteralWords(parts) ? { kind: 'message', parts } : { kind: 'other' };
    if (calls++ > 0 && JSON.stringify(reading) !== JSON.stringify(found)) return { kind: 'other' };
    found = reading;
  }
  return found;
}

const WARN_CALLEES = new Set(['warnings.warn', 'warn']);

/** `warnings.warn(message, Category)`: a warning, `UserWarning` unless a category is given. */
function warningSites(root: Node, out: SiteCollector): void {
  const importsWarn = /^\s*from\s+warnings\s+import\s+[^\n]*\bwarn\b/m.test(root.text.slice(0, 20_000));
  for (const call of root.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function')?.text;
    if (!call || !fn || !WARN_CALLEES.has(fn) || (fn === 'warn' && !importsWarn)) continue;
    const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
    const keyword = (k: string) => args.find((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === k)?.childForFieldName('value');
    const positional = args.filter((a) => a.type !== 'keyword_argument');
    const message = positional[0] ?? keyword('message');
    if (!message) continue;
    const category = positional[1] ?? keyword('category');
    const scope = enclosingFunction(call);
    const parts = out.message([message], (m) => messageParts(m, scope, call), call);
    if (!parts) continue;
    out.sites.push({ ...siteContext(call, shapes), line: lineOf(call), endLine: endLineOf(call), form: 'warnings.warn', kind: 'warning', errorClass: category?.text.split('.').at(-1) ?? 'UserWarning', parts });
  }
}

export function pythonSites(root: Node): FileSites {
  const out = new SiteCollector();
  const imports = importTable(root);
  const built = builtMessages(root);
  // The class's own message (its constructor's), from this file or the file it is imported from.
  const constructorMessage = (cls: string | null) => (): BuiltMessage | null => {
    if (!cls) return null;
    const here = built.get(cls);
    if (here) return { parts: here, builtBy: cls };
    const from = imports.get(cls);
    return from ? { parts: [], builtBy: from.name, imported: { ...from, name: builtKey(from.name) } } : null;
  };
  classMessages(root, out);
  warningSites(root, out);
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
    // An imported class by its own name, which a traceback prints, not the alias it has here.
    const named = fn?.type === 'identifier' && callee ? (imports.get(callee)?.name ?? callee) : callee;
    const errorClass = named && /^[A-Z]/.test(named) ? named : null;
    const list = (args?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
    // The message: the first positional argument with literal text (`Error(name, f"...")` has it second),
    // else a `message=`-like keyword argument.
    const positional = list.filter((a) => a.type !== 'keyword_argument' && a.type !== 'list_splat' && a.type !== 'dictionary_splat');
    const keyword = list.find((a) => a.type === 'keyword_argument' && MESSAGE_KEYWORDS.has(a.childForFieldName('name')?.text ?? ''))?.childForFieldName('value');
    const candidates = keyword ? [...positional, keyword] : positional;
    const scope = enclosingFunction(stmt);
    const imported = (c: Node) => (c.type === 'identifier' && !(scope && isParameter(stmt, c.text, FUNCTIONS)) ? (imports.get(c.text) ?? null) : null);
    out.exception(stmt, candidates, (c) => messageParts(c, scope, stmt), errorClass, 'raise', () => siteContext(stmt, shapes), imported, constructorMessage(fn?.type === 'identifier' ? (callee ?? null) : null));
  }
  const constants = moduleConstants(root);
  for (const [cls, parts] of built) constants[builtKey(cls)] = parts;
  return out.result(constants);
}

/** `from .messages import NOT_FOUND as MISSING`: each imported name by the name it has here. */
function importTable(root: Node): Map<string, ImportedMessage> {
  const table = new Map<string, ImportedMessage>();
  for (const stmt of root.descendantsOfType('import_from_statement')) {
    const spec = stmt?.childForFieldName('module_name')?.text;
    if (!stmt || !spec) continue;
    for (const n of stmt.childrenForFieldName('name')) {
      if (n?.type === 'dotted_name') table.set(n.text, { name: n.text, spec, language: 'python' });
      else if (n?.type === 'aliased_import') {
        const name = n.childForFieldName('name')?.text;
        const alias = n.childForFieldName('alias')?.text;
        if (name && alias) table.set(alias, { name, spec, language: 'python' });
      }
    }
  }
  return table;
}

/** The module's `NAME = <literal message>` assignments, as another file importing them reads them. */
function moduleConstants(root: Node): Record<string, MessagePart[]> {
  const out: Record<string, MessagePart[]> = {};
  for (const statement of root.namedChildren) {
    const assignment = statement?.type === 'expression_statement' ? statement.namedChildren[0] : null;
    const name = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null;
    const value = assignment?.childForFieldName('right');
    if (name?.type !== 'identifier' || !value) continue;
    const parts = literalOnly(messageParts(value, null, value));
    if (parts) out[name.text] = parts;
  }
  return out;
}
