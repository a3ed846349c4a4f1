/**
 * What the code says around a raise site, read from the syntax tree: the enclosing definition (its
 * qualified name, for the id and the prose), its doc comment or docstring, the condition that guards
 * the site, and comments next to it. Each language describes its node types in a `Shapes`.
 */
import type { Node } from 'web-tree-sitter';

export interface Guard {
  /**
   * `if`: the condition holds; `else`: the condition does not hold; `catch`: handling an error;
   * `case`: a value matches; `default`: no other branch of a `when`/`switch` matches.
   */
  kind: 'if' | 'else' | 'catch' | 'case' | 'default';
  /** The condition, handled type or pattern as written, on one line (may be empty for a bare `catch`; for `default`, the construct's keyword). */
  code: string;
}

export interface SiteContext {
  /** Qualified name of the enclosing definitions, outermost first: `Client.send`, `Error::Io`. */
  enclosing: string | null;
  /** What the innermost definition is: `function`, `method`, `class`, … */
  enclosingKind: string | null;
  doc: string | null;
  guard: Guard | null;
  comment: string | null;
}

export interface Shapes {
  /** Definitions that name a scope: node type -> [kind, name] (name null for anonymous ones). */
  definition(node: Node): { kind: string; name: string | null; isFunction: boolean } | null;
  /** The guard an ancestor puts on the path down to `child`, if any. */
  guard(ancestor: Node, child: Node): Guard | null;
  /** The doc comment or docstring of a definition. */
  doc(definition: Node): string | null;
  commentTypes: ReadonlySet<string>;
  /** Node types whose children are statements: a site's statement is the child of one of these. */
  blockTypes: ReadonlySet<string>;
  /** Joins scope names: `.` or `::`. */
  separator: string;
}

/** Collapses white space and cuts long code on a word boundary. */
export function oneLine(code: string, max = 200): string {
  const s = code.replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(' ', max - 1);
  return `${s.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/** The first paragraph of a doc text, on one line. */
export function firstParagraph(doc: string, max = 400): string | null {
  const para = doc.trim().split(/\n\s*\n/)[0] ?? '';
  const s = oneLine(para, max);
  return s === '' ? null : s;
}

export function contains(outer: Node, inner: Node): boolean {
  return inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;
}

/**
 * The value last assigned to `name` before `site` inside `scope`: a message built in a variable and raised
 * later. `sides` reads an assignment node of the grammar (`kinds`) as its target and value.
 */
export function lastAssignedValue(name: string, scope: Node, site: Node, kinds: string[], sides: (assignment: Node) => { target: Node | null | undefined; value: Node | null | undefined }): Node | null {
  let best: Node | null = null;
  for (const a of scope.descendantsOfType(kinds)) {
    if (!a || a.startIndex >= site.startIndex) continue;
    if (sides(a).target?.text === name && (!best || a.startIndex > best.startIndex)) best = a;
  }
  return (best && sides(best).value) ?? null;
}

/** The statement a node sits in: its ancestor that is a child of a block. */
export function statementOf(node: Node, shapes: Shapes): Node {
  let n = node;
  while (n.parent && !shapes.blockTypes.has(n.parent.type)) n = n.parent;
  return n;
}

/** Comments right above a statement (no blank line between) and at the end of its first line. */
export function adjacentComment(statement: Node, shapes: Shapes): string | null {
  const lines: string[] = [];
  let row = statement.startPosition.row;
  for (let p = statement.previousSibling; p && shapes.commentTypes.has(p.type) && p.endPosition.row >= row - 1; p = p.previousSibling) {
    if (isDocComment(p.text)) break;
    lines.unshift(commentText(p.text));
    row = p.startPosition.row;
  }
  const next = statement.nextSibling;
  if (next && shapes.commentTypes.has(next.type) && next.startPosition.row === statement.startPosition.row) lines.push(commentText(next.text));
  const s = oneLine(lines.filter((l) => l !== '').join(' '), 300);
  return s === '' ? null : s;
}

const isDocComment = (t: string) => /^(\/\/\/|\/\*\*|\/\/!)/.test(t);

/** A comment's words without its markers (`#`, `//`, block comment marks, leading `*`). */
export function commentText(t: string): string {
  return t
    .replace(/^\/\*+!?|\*+\/$/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*(?:\/\/[/!]?|#+|\*(?!\/))\s?/, ''))
    .join('\n')
    .trim();
}

export function siteContext(site: Node, shapes: Shapes): SiteContext {
  const names: string[] = [];
  let enclosingKind: string | null = null;
  let docNode: Node | null = null;
  let guard: Guard | null = null;
  let inFunction = false;
  let child = site;
  for (let a = site.parent; a; child = a, a = a.parent) {
    if (!guard && !inFunction) guard = shapes.guard(a, child);
    const def = shapes.definition(a);
    if (!def) continue;
    if (def.name) names.unshift(def.name);
    if (enclosingKind === null) {
      enclosingKind = def.kind;
      docNode = a;
    }
    if (def.isFunction) inFunction = true;
  }
  const statement = statementOf(site, shapes);
  return {
    enclosing: names.length > 0 ? names.join(shapes.separator) : null,
    enclosingKind,
    doc: docNode ? shapes.doc(docNode) : null,
    guard,
    comment: adjacentComment(statement, shapes),
  };
}

/** Contiguous comments right above a node (skipping attributes/decorators), as one text. */
export function commentsAbove(node: Node, shapes: Shapes, skip: ReadonlySet<string> = new Set(), onlyDoc = false): string | null {
  const lines: string[] = [];
  let row = node.startPosition.row;
  for (let p = node.previousSibling; p && p.endPosition.row >= row - 1; p = p.previousSibling) {
    if (skip.has(p.type)) {
      row = p.startPosition.row;
      continue;
    }
    if (!shapes.commentTypes.has(p.type)) break;
    if (onlyDoc && !isDocComment(p.text)) break;
    lines.unshift(commentText(p.text));
    row = p.startPosition.row;
  }
  const text = lines.join('\n').trim();
  return text === '' ? null : firstParagraph(text.replace(/^\s*@\w+.*$/gm, ''));
}
