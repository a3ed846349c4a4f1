/**
 * Go: `errors.New("...")`, `fmt.Errorf("...", args)` and `panic(...)` with a literal, a
 * `fmt.Sprintf`/`fmt.Errorf`/`errors.New` call, a `+` concatenation, a name assigned one of those
 * or a package-level `const`/`var` of the file.
 * A package-level `var ErrX = errors.New(...)` names its error: `ErrX` is the error class.
 */
import type { Node } from 'web-tree-sitter';
import { fileConstant, isParameter, literalOnly } from './constants.ts';
import { commentsAbove, contains, lastAssignedValue, oneLine, siteContext, type Shapes } from './context.ts';
import { decodeEscapes } from './escapes.ts';
import { concatParts, printfParts, text, type MessagePart } from './message.ts';
import { endLineOf, lineOf, SiteCollector, type FileSites, type ImportedMessage } from './site.ts';

const receiverType = (n: Node): string | null => {
  const t = n.childForFieldName('receiver')?.namedChildren[0]?.childForFieldName('type')?.text;
  return t ? t.replace(/^\*/, '').replace(/\[[\s\S]*$/, '') : null;
};

const shapes: Shapes = {
  definition(n) {
    if (n.type === 'function_declaration') return { kind: 'function', name: n.childForFieldName('name')?.text ?? null, isFunction: true };
    if (n.type === 'method_declaration') {
      const recv = receiverType(n);
      const name = n.childForFieldName('name')?.text ?? null;
      return { kind: 'method', name: recv && name ? `${recv}.${name}` : name, isFunction: true };
    }
    if (n.type === 'func_literal') return { kind: 'function', name: null, isFunction: true };
    return null;
  },
  guard(a, child) {
    if (a.type === 'if_statement') {
      const consequence = a.childForFieldName('consequence');
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text) : '';
      const alternative = a.childForFieldName('alternative');
      if (consequence && contains(consequence, child)) return { kind: 'if', code };
      if (alternative && contains(alternative, child)) return { kind: 'else', code };
    }
    if (a.type === 'expression_case' || a.type === 'type_case') {
      const value = a.childForFieldName('value') ?? a.childForFieldName('type');
      if (value && !contains(value, child)) return { kind: 'case', code: oneLine(value.text) };
    }
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes);
  },
  commentTypes: new Set(['comment']),
  blockTypes: new Set(['block', 'statement_list', 'source_file', 'expression_case', 'default_case', 'type_case', 'communication_case']),
  separator: '.',
};

function literalText(n: Node): string | null {
  if (n.type === 'interpreted_string_literal') return decodeEscapes(n.text.slice(1, -1), 'go');
  if (n.type === 'raw_string_literal') return n.text.slice(1, -1).replace(/\r/g, '');
  return null;
}

type Call = { pkg: string | null; name: string; args: Node[] };

function callOf(n: Node): Call | null {
  if (n.type !== 'call_expression') return null;
  const fn = n.childForFieldName('function');
  const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment');
  if (fn?.type === 'identifier') return { pkg: null, name: fn.text, args };
  if (fn?.type === 'selector_expression') return { pkg: fn.childForFieldName('operand')?.text ?? null, name: fn.childForFieldName('field')?.text ?? '', args };
  return null;
}

const isErrorsNew = (c: Call) => c.pkg === 'errors' && c.name === 'New';
const isFormat = (c: Call) => c.pkg === 'fmt' && (c.name === 'Errorf' || c.name === 'Sprintf');

function messageParts(n: Node, scope: Node | null, site: Node, depth = 0): MessagePart[] | null {
  if (depth > 6) return null;
  const literal = literalText(n);
  if (literal !== null) return [text(literal)];
  if (n.type === 'parenthesized_expression') return n.namedChildren[0] ? messageParts(n.namedChildren[0], scope, site, depth + 1) : null;
  if (n.type === 'binary_expression' && n.childForFieldName('operator')?.type === '+') {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (!left || !right) return null;
    return concatParts(left, right, (side) => messageParts(side, scope, site, depth + 1));
  }
  const call = callOf(n);
  if (call && isErrorsNew(call) && call.args[0]) return messageParts(call.args[0], scope, site, depth + 1);
  if (call && isFormat(call) && call.args[0]) {
    const format = messageParts(call.args[0], scope, site, depth + 1);
    if (!format || format.some((p) => p.kind === 'hole')) return null;
    return printfParts(format.map((p) => (p.kind === 'text' ? p.text : '')).join(''), call.args.slice(1).map((a) => a.text), 'go');
  }
  if (n.type === 'identifier' && scope) {
    const value = lastAssignedValue(n.text, scope, site, ['short_var_declaration', 'assignment_statement', 'var_spec'], (a) =>
      a.type === 'var_spec'
        ? { target: a.childForFieldName('name'), value: a.childForFieldName('value')?.namedChildren[0] }
        : { target: a.childForFieldName('left')?.namedChildren[0], value: a.childForFieldName('right')?.namedChildren[0] },
    );
    if (value) return messageParts(value, null, site, depth + 1);
    // A package-level `const msg = "..."` of this file.
    if (isParameter(site, n.text, GO_FUNCTIONS)) return null;
    const constant = fileConstant(
      site,
      ['const_spec', 'var_spec'],
      (d) => (d.childForFieldName('name')?.text === n.text ? (d.childForFieldName('value')?.namedChildren[0] ?? null) : null),
      GO_FUNCTIONS,
    );
    return constant ? messageParts(constant, null, site, depth + 1) : null;
  }
  return null;
}

const GO_FUNCTIONS = new Set(['function_declaration', 'method_declaration', 'func_literal']);

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (a.type === 'function_declaration' || a.type === 'method_declaration' || a.type === 'func_literal') return a;
  return null;
}

/** The call is an argument of `panic(...)` or of another message call: that one is the site. */
function insideMessageCall(n: Node): boolean {
  const outer = n.parent?.type === 'argument_list' ? n.parent.parent : null;
  const call = outer ? callOf(outer) : null;
  return call !== null && ((call.pkg === null && call.name === 'panic') || isFormat(call) || isErrorsNew(call));
}

export function goSites(root: Node): FileSites {
  const out = new SiteCollector();
  for (const n of root.descendantsOfType('call_expression')) {
    if (!n) continue;
    const call = callOf(n);
    if (!call) continue;
    const panic = call.pkg === null && call.name === 'panic';
    if (!panic && !isErrorsNew(call) && !(call.pkg === 'fmt' && call.name === 'Errorf')) continue;
    if (!panic && insideMessageCall(n)) continue;
    const message = call.args[0];
    if (!message) {
      out.skip('no-message', n);
      continue;
    }
    // errors.New and fmt.Errorf read as a whole (the format and its arguments); panic's argument.
    const read = (m: Node) => messageParts(m, enclosingFunction(n), n);
    // `errors.New(msgNotFound)` with the constant in another file of the package: read once every file is.
    const wholeName = (panic || isErrorsNew(call)) && message.type === 'identifier' && call.args.length === 1 && !isParameter(n, message.text, GO_FUNCTIONS) && !read(panic ? message : n);
    const imported: ImportedMessage | null = wholeName ? { name: message.text, spec: '', language: 'package' } : null;
    const parts = imported ? [] : out.message([panic ? message : n], read, n);
    if (!parts) continue;
    const context = siteContext(n, shapes);
    // A package-level sentinel: `var ErrClosed = errors.New("...")`.
    let sentinel: Node | null = null;
    if (!panic && !context.enclosing) {
      for (let a = n.parent; a; a = a.parent) if (a.type === 'var_spec' || a.type === 'const_spec') sentinel = a;
    }
    const sentinelName = sentinel?.childForFieldName('name')?.text ?? null;
    const declaration = sentinel?.parent?.type === 'var_declaration' ? sentinel.parent : sentinel?.parent?.parent;
    const doc = sentinel ? (commentsAbove(sentinel, shapes) ?? (declaration ? commentsAbove(declaration, shapes) : null)) : context.doc;
    if (sentinel && context.comment === doc) context.comment = null;
    out.sites.push({
      ...context,
      ...(sentinelName ? { enclosing: sentinelName, enclosingKind: 'variable' } : {}),
      doc,
      line: lineOf(n),
      endLine: endLineOf(n),
      form: panic ? 'panic' : `${call.pkg}.${call.name}`,
      kind: panic ? 'panic' : 'exception',
      errorClass: panic ? 'panic' : sentinelName,
      parts,
      ...(imported ? { imported } : {}),
    });
  }
  return out.result(packageConstants(root));
}

/** The file's package-level `const`/`var` names with a literal string value: the other files of the package see them. */
function packageConstants(root: Node): Record<string, MessagePart[]> {
  const out: Record<string, MessagePart[]> = {};
  for (const declaration of root.namedChildren) {
    if (declaration?.type !== 'const_declaration' && declaration?.type !== 'var_declaration') continue;
    for (const spec of declaration.descendantsOfType(['const_spec', 'var_spec'])) {
      const names = spec?.childrenForFieldName('name') ?? [];
      const values = spec?.childForFieldName('value')?.namedChildren ?? [];
      names.forEach((name, i) => {
        const value = values[i];
        const parts = name && value ? literalOnly(messageParts(value, null, value)) : null;
        if (name && parts) out[name.text] = parts;
      });
    }
  }
  return out;
}
