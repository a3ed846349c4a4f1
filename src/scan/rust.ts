/**
 * Rust: `#[error("...")]` (thiserror) on enum variants and structs, and the message macros:
 * `panic!`, `unreachable!`, `todo!`, `unimplemented!`, `assert!(cond, ...)` (panics) and anyhow's
 * `bail!`, `anyhow!`, `format_err!`, `ensure!(cond, ...)`. Format strings follow `format!`; an
 * argument that names a `const`/`static` string of the file is its text. `.expect("...")` on an
 * Option or Result panics with its message.
 */
import type { Node } from 'web-tree-sitter';
import { commentsAbove, contains, oneLine, siteContext, type Shapes } from './context.ts';
import { decodeEscapes } from './escapes.ts';
import { braceParts, hasLiteralWords, text, type MessagePart } from './message.ts';
import { endLineOf, lineOf, SiteCollector, type FileSites, type ImportedMessage } from './site.ts';

const PANICS = new Set(['panic', 'unreachable', 'todo', 'unimplemented', 'assert', 'debug_assert']);
const ERRORS = new Set(['bail', 'anyhow', 'format_err', 'ensure']);
/** Macros whose first argument is a condition, the message coming after it. */
const CONDITIONED = new Set(['assert', 'debug_assert', 'ensure']);

const typeName = (t: string | undefined): string | null => (t ? t.replace(/<[\s\S]*$/, '').trim() || null : null);

const shapes: Shapes = {
  definition(n) {
    switch (n.type) {
      case 'function_item': {
        const inImpl = n.parent?.type === 'declaration_list' && (n.parent.parent?.type === 'impl_item' || n.parent.parent?.type === 'trait_item');
        return { kind: inImpl ? 'method' : 'function', name: n.childForFieldName('name')?.text ?? null, isFunction: true };
      }
      case 'closure_expression':
        return { kind: 'closure', name: null, isFunction: true };
      case 'impl_item':
        return { kind: 'impl', name: typeName(n.childForFieldName('type')?.text), isFunction: false };
      case 'trait_item':
      case 'mod_item':
      case 'enum_item':
      case 'struct_item':
        return { kind: n.type.replace('_item', ''), name: n.childForFieldName('name')?.text ?? null, isFunction: false };
      default:
        return null;
    }
  },
  guard(a, child) {
    if (a.type === 'if_expression') {
      const consequence = a.childForFieldName('consequence');
      const condition = a.childForFieldName('condition');
      const code = condition ? oneLine(condition.text) : '';
      if (consequence && contains(consequence, child)) return { kind: 'if', code };
      if (child.type === 'else_clause') return { kind: 'else', code };
    }
    if (a.type === 'match_arm') {
      const pattern = a.childForFieldName('pattern');
      if (pattern && !contains(pattern, child)) return { kind: 'case', code: oneLine(pattern.text) };
    }
    if (a.type === 'let_declaration' && a.childForFieldName('alternative') && contains(a.childForFieldName('alternative')!, child)) {
      return { kind: 'else', code: oneLine(`let ${a.childForFieldName('pattern')?.text ?? ''} = ${a.childForFieldName('value')?.text ?? ''}`) };
    }
    return null;
  },
  doc(def) {
    return commentsAbove(def, shapes, new Set(['attribute_item']), true);
  },
  commentTypes: new Set(['line_comment', 'block_comment']),
  blockTypes: new Set(['block', 'source_file', 'declaration_list', 'enum_variant_list', 'field_declaration_list']),
  separator: '::',
};

/** The text of a string literal token, escapes decoded (raw strings as written). */
function literalText(n: Node): string | null {
  if (n.type === 'string_literal') return decodeEscapes(n.text.replace(/^b?"|"$/g, ''), 'rust');
  if (n.type === 'raw_string_literal') return n.text.replace(/^b?r(#*)"([\s\S]*)"\1$/, '$2');
  return null;
}

/** A macro's arguments, split on top-level commas, each as source text and its tokens. */
function macroArguments(tree: Node): Node[][] {
  const args: Node[][] = [[]];
  const children = tree.children.slice(1, -1);
  for (const c of children) {
    if (!c) continue;
    if (c.type === ',') args.push([]);
    else args.at(-1)!.push(c);
  }
  return args.filter((a) => a.length > 0);
}

const argText = (tokens: Node[], source: string): string => oneLine(source.slice(tokens[0]!.startIndex, tokens.at(-1)!.endIndex), 80);

/** The file's `const NAME: &str = "..."` and `static` strings outside functions: name -> text. */
function stringConstants(root: Node): Map<string, string> {
  const found = new Map<string, string>();
  for (const item of root.descendantsOfType(['const_item', 'static_item'])) {
    const name = item?.childForFieldName('name')?.text;
    const value = item?.childForFieldName('value');
    if (!item || !name || !value || enclosingFunction(item)) continue;
    const text = literalText(value);
    if (text !== null) found.set(name, text);
  }
  return found;
}

function enclosingFunction(n: Node): Node | null {
  for (let a = n.parent; a; a = a.parent) if (a.type === 'function_item' || a.type === 'closure_expression') return a;
  return null;
}

/** Parts of `format!`-style arguments: a literal format string, then its arguments (a string constant's own text in its place). */
function formatParts(args: Node[][], source: string, constants: ReadonlyMap<string, string> = new Map()): MessagePart[] | 'no-message' | 'not-literal' {
  const first = args[0];
  if (!first) return 'no-message';
  const format = first.length === 1 ? literalText(first[0]!) : null;
  if (format === null) return 'not-literal';
  const positional: string[] = [];
  const named = new Map<string, string>();
  for (const a of args.slice(1)) {
    if (a.length >= 3 && a[0]!.type === 'identifier' && a[1]!.type === '=') named.set(a[0]!.text, argText(a.slice(2), source));
    else positional.push(argText(a, source));
  }
  return braceParts(format, positional, named).map((p) => (p.kind === 'hole' && constants.has(p.name) ? text(constants.get(p.name)!) : p));
}

function inTest(n: Node): boolean {
  for (let a = n.parent; a; a = a.parent) {
    if (a.type !== 'mod_item' && a.type !== 'function_item') continue;
    for (let p = a.previousNamedSibling; p?.type === 'attribute_item' || p?.type === 'line_comment'; p = p.previousNamedSibling) {
      if (p.type === 'attribute_item' && /^#\[(cfg\(test\)|(test|tokio::test|[\w:]*::test)\b)/.test(p.text.replace(/\s+/g, ''))) return true;
    }
  }
  return false;
}

function errorAttributeSite(attr: Node, source: string, out: SiteCollector): void {
  const tree = attr.namedChildren[0]?.childForFieldName('arguments');
  if (!tree) return;
  const parts = formatParts(macroArguments(tree), source);
  if (typeof parts === 'string') {
    out.skip(parts === 'not-literal' ? 'no-message' : parts, attr); // #[error(transparent)]
    return;
  }
  let item: Node | null = attr.nextNamedSibling;
  while (item && (item.type === 'attribute_item' || item.type === 'line_comment' || item.type === 'block_comment')) item = item.nextNamedSibling;
  if (!item) return;
  const enumItem = item.type === 'enum_variant' ? item.parent?.parent : null;
  const owner = item.type === 'enum_variant' ? typeName(enumItem?.childForFieldName('name')?.text) : typeName(item.childForFieldName('name')?.text);
  const name = item.type === 'enum_variant' ? `${owner}::${item.childForFieldName('name')?.text ?? ''}` : owner;
  if (!hasLiteralWords(parts)) {
    out.skip('no-words', attr);
    return;
  }
  const context = siteContext(attr, shapes);
  const doc = commentsAbove(attr, shapes, new Set(['attribute_item']), true) ?? (enumItem ? shapes.doc(enumItem) : null);
  const outer = context.enclosing && enumItem ? context.enclosing.replace(/(::)?[^:]+$/, '') : '';
  out.sites.push({
    ...context,
    enclosing: outer ? `${outer}::${name}` : name,
    enclosingKind: item.type === 'enum_variant' ? 'enum variant' : 'struct',
    doc,
    guard: null,
    line: lineOf(attr),
    endLine: endLineOf(attr),
    form: '#[error]',
    kind: 'exception',
    errorClass: name,
    parts,
  });
}

/**
 * Macro calls written inside another macro's tokens (`macro_rules!` bodies, `tokio::select!` arms):
 * the grammar leaves those as plain tokens, `name` `!` `(...)`, so they are read from the sequence.
 */
function nestedInvocations(tree: Node): { at: Node; name: string; tokens: Node }[] {
  const found: { at: Node; name: string; tokens: Node }[] = [];
  const children = tree.children;
  for (let i = 0; i + 2 < children.length; i++) {
    const [a, bang, t] = [children[i], children[i + 1], children[i + 2]];
    if (a?.type === 'identifier' && bang?.type === '!' && t?.type === 'token_tree' && (PANICS.has(a.text) || ERRORS.has(a.text))) {
      if (children[i - 1]?.type === '::' && children[i - 2]?.text !== 'std' && children[i - 2]?.text !== 'core' && children[i - 2]?.text !== 'anyhow') continue;
      found.push({ at: a, name: a.text, tokens: t });
    }
  }
  return found;
}

/** `x.expect("message")`: the message of the panic when `x` is None or Err (a file with its own `fn expect` is a parser's). */
function expectSites(root: Node, out: SiteCollector): void {
  const ownExpect = root.descendantsOfType('function_item').some((f) => f?.childForFieldName('name')?.text === 'expect');
  if (ownExpect) return;
  const found: { at: Node; name: Node; end: Node; args: Node[] }[] = [];
  for (const n of root.descendantsOfType(['call_expression', 'token_tree'])) {
    if (n?.type === 'token_tree') {
      // Inside a macro's tokens (`cfg_io! { ... }`, `macro_rules!` bodies): `.` `expect` `("...")`.
      const children = n.children;
      for (let i = 0; i + 2 < children.length; i++) {
        const [dot, name, tree] = [children[i], children[i + 1], children[i + 2]];
        if (dot?.type === '.' && name?.type === 'identifier' && name.text === 'expect' && tree?.type === 'token_tree') found.push({ at: name, name, end: tree, args: tree.children.slice(1, -1).filter((c): c is Node => c !== null) });
      }
      continue;
    }
    const fn = n?.childForFieldName('function');
    if (!n || fn?.type !== 'field_expression' || fn.childForFieldName('field')?.text !== 'expect') continue;
    const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'line_comment' && a.type !== 'block_comment');
    found.push({ at: n, name: fn.childForFieldName('field')!, end: n, args });
  }
  for (const { at, name, end, args } of found.sort((a, b) => a.name.startIndex - b.name.startIndex)) {
    const literal = args.length === 1 ? literalText(args[0]!) : null;
    if (literal === null) continue; // `.expect(&format!(...))`, `.expect(MSG)`: not read
    if (inTest(at)) {
      out.skip('in-test', at);
      continue;
    }
    // Not a format string: braces are printed as written.
    const parts = out.message([args[0]!], () => [text(literal)], at);
    if (parts) out.sites.push({ ...siteContext(at, shapes), line: lineOf(name), endLine: endLineOf(end), form: '.expect()', kind: 'panic', errorClass: 'panic', parts });
  }
}

export function rustSites(root: Node, source: string): FileSites {
  const out = new SiteCollector();
  const constants = stringConstants(root);
  const uses = useTable(root);
  expectSites(root, out);
  const calls: { at: Node; name: string; tokens: Node }[] = [];
  for (const n of root.descendantsOfType(['attribute_item', 'macro_invocation', 'token_tree'])) {
    if (!n) continue;
    if (n.type === 'token_tree') {
      calls.push(...nestedInvocations(n));
      continue;
    }
    if (n.type === 'attribute_item') {
      const attr = n.namedChildren[0];
      if (attr?.type === 'attribute' && attr.namedChildren[0]?.text === 'error') {
        if (inTest(n)) out.skip('in-test', n);
        else errorAttributeSite(n, source, out);
      }
      continue;
    }
    const macro = n.childForFieldName('macro');
    const name = macro?.type === 'scoped_identifier' ? macro.childForFieldName('name')?.text : macro?.text;
    if (!name || !(PANICS.has(name) || ERRORS.has(name))) continue;
    const tree = n.namedChildren.find((c) => c?.type === 'token_tree');
    if (tree) calls.push({ at: n, name, tokens: tree });
  }
  for (const { at: n, name, tokens: tree } of calls.sort((a, b) => a.at.startIndex - b.at.startIndex)) {
    let args = macroArguments(tree);
    if (CONDITIONED.has(name)) {
      if (args.length < 2) continue; // assert!(x) prints the condition, not a message
      args = args.slice(1);
    }
    if (inTest(n)) {
      out.skip('in-test', n);
      continue;
    }
    const parts = formatParts(args, source, constants);
    if (typeof parts === 'string') {
      out.skip(parts, n);
      continue;
    }
    // `panic!("{}", crate::util::error::DESTROYED)`: a constant of another module fills a placeholder (scan.ts).
    const elsewhere = parts.flatMap((p) => (p.kind === 'hole' ? (moduleConstant(p.name, uses) ?? []) : []));
    if (elsewhere.length === 1) {
      const panic = PANICS.has(name);
      const end = n.type === 'macro_invocation' ? n : tree;
      out.sites.push({ ...siteContext(n, shapes), line: lineOf(n), endLine: endLineOf(end), form: `${name}!`, kind: panic ? 'panic' : 'exception', errorClass: panic ? 'panic' : null, parts, imported: elsewhere[0]! });
      continue;
    }
    if (!hasLiteralWords(parts)) {
      out.skip('no-words', n);
      continue;
    }
    const panic = PANICS.has(name);
    const end = n.type === 'macro_invocation' ? n : tree;
    out.sites.push({ ...siteContext(n, shapes), line: lineOf(n), endLine: endLineOf(end), form: `${name}!`, kind: panic ? 'panic' : 'exception', errorClass: panic ? 'panic' : null, parts });
  }
  return out.result(Object.fromEntries([...constants].map(([k, v]) => [k, [text(v)]])));
}

/** `use crate::util::error::{A, B as C};`: each name brought in, by the name it has here, with its module path. */
function useTable(root: Node): Map<string, { name: string; path: string }> {
  const table = new Map<string, { name: string; path: string }>();
  const add = (n: Node | null, prefix: string[]) => {
    if (!n) return;
    if (n.type === 'scoped_identifier') {
      const path = n.childForFieldName('path')?.text;
      const name = n.childForFieldName('name')?.text;
      if (path && name) table.set(name, { name, path: [...prefix, path].join('::') });
    } else if (n.type === 'identifier' && prefix.length > 0) table.set(n.text, { name: n.text, path: prefix.join('::') });
    else if (n.type === 'use_as_clause') {
      const inner = n.childForFieldName('path');
      const alias = n.childForFieldName('alias')?.text;
      const scoped = inner?.type === 'scoped_identifier';
      const path = [...prefix, ...(scoped ? [inner.childForFieldName('path')?.text ?? ''] : [])].filter(Boolean);
      const name = scoped ? inner.childForFieldName('name')?.text : inner?.text;
      if (alias && name && path.length > 0) table.set(alias, { name, path: path.join('::') });
    } else if (n.type === 'scoped_use_list') {
      const path = n.childForFieldName('path')?.text;
      for (const item of n.childForFieldName('list')?.namedChildren ?? []) add(item, path ? [...prefix, path] : prefix);
    }
  };
  for (const u of root.descendantsOfType('use_declaration')) add(u?.childForFieldName('argument') ?? null, []);
  return table;
}

/** A placeholder naming a constant of another module of this crate: `crate::a::B`, `super::B`, or a `use`d name. */
function moduleConstant(hole: string, uses: ReadonlyMap<string, { name: string; path: string }>): ImportedMessage | null {
  const m = /^((?:crate|self|super)(?:::[A-Za-z_][A-Za-z0-9_]*)*)::([A-Z_][A-Z0-9_]*)$/.exec(hole);
  if (m) return { name: m[2]!, spec: m[1]!, language: 'rust', local: hole };
  const used = uses.get(hole);
  return used && /^(crate|self|super)\b/.test(used.path) ? { name: used.name, spec: used.path, language: 'rust', local: hole } : null;
}
