/**
 * Messages held in a constant: `static final String MSG = "..."`, a module-level `MSG = "..."`, a
 * Go `const`. A raise that names one (`throw new X(MSG)`) reads the value it is declared with, when
 * the declaration is in the same file and outside any function (a local is the readers' own look-up).
 */
import type { Node } from 'web-tree-sitter';
import type { MessagePart } from './message.ts';

const rootOf = (n: Node): Node => {
  let r = n;
  while (r.parent) r = r.parent;
  return r;
};

/**
 * The value of the file-level declaration (`types`) that `valueIn` finds for the name, or null; the
 * one in a class around the site, then the closest, wins when the name is declared more than once.
 */
export function fileConstant(site: Node, types: string | string[], valueIn: (declaration: Node) => Node | null, functions: ReadonlySet<string>): Node | null {
  let best: Node | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const d of declarations(site, types, functions)) {
    const value = valueIn(d);
    if (!value || value.startIndex <= site.startIndex && value.endIndex >= site.endIndex) continue;
    // Prefer a declaration in a class that encloses the site, then the closest one.
    const distance = (encloses(d.parent, site) ? 0 : 1e9) + Math.abs(site.startIndex - d.startIndex);
    if (distance < bestDistance) {
      best = value;
      bestDistance = distance;
    }
  }
  return best;
}

/** A file's declarations outside functions, per syntax tree: listed once, however many names are looked up. */
const cache = new WeakMap<object, Map<string, Node[]>>();

function declarations(site: Node, types: string | string[], functions: ReadonlySet<string>): Node[] {
  let byTypes = cache.get(site.tree);
  if (!byTypes) cache.set(site.tree, (byTypes = new Map()));
  const key = String(types);
  let found = byTypes.get(key);
  if (!found) {
    found = rootOf(site)
      .descendantsOfType(types)
      .filter((d): d is Node => d !== null && !insideFunction(d, functions));
    byTypes.set(key, found);
  }
  return found;
}

function insideFunction(n: Node, functions: ReadonlySet<string>): boolean {
  for (let a = n.parent; a; a = a.parent) if (functions.has(a.type)) return true;
  return false;
}

const encloses = (outer: Node | null, inner: Node): boolean => outer !== null && inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;

/** True when a function around the site takes a parameter of that name (which hides a file constant). */
export function isParameter(site: Node, name: string, functions: ReadonlySet<string>): boolean {
  const word = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$')}([^\\w$]|$)`);
  for (let a = site.parent; a; a = a.parent) {
    if (functions.has(a.type) && word.test(a.childForFieldName('parameters')?.text ?? a.childForFieldName('parameter')?.text ?? '')) return true;
  }
  return false;
}

/**
 * Each class's constants whose value is literal text, as `Class.NAME`: what another file names as
 * `Class.NAME` (scan.ts resolves it, imports.ts). `constantsIn` gives a class member's constants.
 */
export function classConstants(root: Node, classTypes: string[], constantsIn: (member: Node) => [string, Node][], read: (value: Node) => MessagePart[] | null): Record<string, MessagePart[]> {
  const out: Record<string, MessagePart[]> = {};
  for (const cls of root.descendantsOfType(classTypes)) {
    // `class Acme::Errors` is known as `Errors`, as `Errors::X` names it.
    const name = cls?.childForFieldName('name')?.text.split(/::|\.|\\/).at(-1);
    const body = cls?.childForFieldName('body') ?? cls?.namedChildren.find((c) => c?.type === 'class_body');
    if (!name || !body) continue;
    for (const member of members(body)) {
      for (const [constant, value] of constantsIn(member)) {
        const parts = literalOnly(read(value));
        if (parts) out[`${name}.${constant}`] = parts;
      }
    }
  }
  return out;
}

/** A class body's members, those inside preprocessor blocks (C#'s `#if`, `#region`) too. */
function members(body: Node): Node[] {
  return body.namedChildren.flatMap((m) => (!m ? [] : m.type.startsWith('preproc') ? members(m) : [m]));
}

/**
 * A constant's parts when they are literal text only, else null: a placeholder would stand for a
 * value of the declaring file, not of the raise that names the constant (scan.ts, imports.ts).
 */
export function literalOnly(parts: MessagePart[] | null): MessagePart[] | null {
  return parts && parts.every((p) => p.kind === 'text') ? parts : null;
}
