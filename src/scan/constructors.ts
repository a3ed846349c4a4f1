/**
 * The message a class's constructor hands its base (Java's `super("No entry for " + id)`, Kotlin's
 * `class NotFoundException(id: String) : RuntimeException("No entry for $id")`, C#'s
 * `: base($"No entry for {id}")`), for `new X(...)`/`X(...)` that passes only arguments. The readers
 * (java.ts, kotlin.ts, csharp.ts) say what each class's constructors hand their base; this chooses
 * the constructor a raise calls by the count of its arguments, and names the class as another file
 * of the tree finds it (imports.ts, `class`).
 */
import { hasLiteralWords, type MessagePart } from './message.ts';
import type { BuiltMessage } from './site.ts';

export interface ClassConstructor {
  /** How many arguments it takes: parameters with a default value (Kotlin, C#) may be left out. */
  min: number;
  max: number;
  varargs: boolean;
  /** The message it hands its base, when that has literal words. */
  parts: MessagePart[] | null;
  /** It calls its base's constructor without arguments (`super()`, or no `super(...)`/`this(...)` at all). */
  plainSuper: boolean;
}

export interface ClassInfo {
  /** Its name in the file, outer classes first: `Errors.NotFoundException`. */
  path: string;
  /** Its qualified name, package or namespace first: `acme.Errors.NotFoundException`. */
  qualified: string;
  /** The simple name of the class it extends. */
  base: string | null;
  /** Its constructors (none declared: the one the language gives it, which takes no arguments). */
  constructors: ClassConstructor[];
  /** It sets its message another way (its own `getMessage`, a `message` or `Message` property): none is taken. */
  ownMessage: boolean;
}

/** A file's classes by simple name; null: a name the file declares otherwise, or twice, or inside a function. */
export type ClassTable = ReadonlyMap<string, ClassInfo | null>;

/** A class without constructors of its own has one taking no arguments that calls its base's. */
const IMPLICIT: ClassConstructor = { min: 0, max: 0, varargs: false, parts: null, plainSuper: true };

const constructorsOf = (cls: ClassInfo) => (cls.constructors.length > 0 ? cls.constructors : [IMPLICIT]);

/**
 * The message `new <cls>(…)` with `arity` arguments gets from the class's constructor: the
 * constructors that hand their base literal words all hand the same message, and of those that can
 * take that many arguments there is one, which hands it that message, or calls without arguments the
 * constructor of a base of the same file that builds one without arguments.
 */
export function builtMessage(cls: ClassInfo, arity: number, classes: ClassTable, seen = new Set<ClassInfo>()): MessagePart[] | null {
  if (cls.ownMessage || seen.has(cls) || cls.constructors.some((c) => c.varargs)) return null;
  seen.add(cls);
  if (new Set(cls.constructors.filter((c) => c.parts).map((c) => JSON.stringify(c.parts))).size > 1) return null;
  const ctors = constructorsOf(cls).filter((c) => c.min <= arity && arity <= c.max);
  if (ctors.length !== 1) return null;
  const [ctor] = ctors as [ClassConstructor];
  if (ctor.parts) return ctor.parts;
  const base = ctor.plainSuper && cls.base ? classes.get(cls.base) : null;
  return base ? builtMessage(base, 0, classes, seen) : null;
}

/**
 * How another file names the message the constructor of a class taking `arity` arguments builds
 * (constants of FileSites): the class's qualified name, then `<init>` (the JVM's name for a
 * constructor) and the count: `com.acme.NotFoundException.<init>(1)`.
 */
const constructorKey = (qualified: string, arity: number) => `${qualified}.<init>(${arity})`;

/** The messages the file's classes build, under the keys another file looks them up by. */
export function builtConstants(classes: ClassTable, into: Record<string, MessagePart[]>): Record<string, MessagePart[]> {
  for (const cls of classes.values()) {
    if (!cls) continue;
    const arities = new Set(constructorsOf(cls).flatMap((c) => Array.from({ length: Math.min(c.max - c.min, 8) + 1 }, (_, i) => c.min + i)));
    for (const arity of arities) {
      const parts = builtMessage(cls, arity, classes);
      if (parts) into[constructorKey(cls.qualified, arity)] = parts;
    }
  }
  return into;
}

/** What the imports and the package (or namespaces) around a raise make of a class name. */
export interface TypeNames {
  /** Each class an import names, by the name it has here (an alias, else its simple name): its qualified name. */
  imported: ReadonlyMap<string, string>;
  /**
   * Where a name that no import names is looked for, in turn, each with a dot after it: Java's and
   * Kotlin's own package then the on-demand imports (`acme.errors.*`); C#'s enclosing namespaces,
   * innermost first, then the global one (empty), then the `using` namespaces.
   */
  prefixes: readonly string[];
}

/**
 * The message the class a raise names (`type` as written: `NotFoundException`, `Errors.NotFound`,
 * `acme.errors.NotFoundException`) builds for `arity` arguments: a class of this file, else the class
 * the name resolves to as the compiler resolves it (an import of it, then `names.prefixes` in turn),
 * read where it is declared once every file is read.
 */
export function builtFor(type: string, arity: number, classes: ClassTable, names: TypeNames): BuiltMessage | null {
  const written = type.replace(/^global::/, '').replace(/<[\s\S]*$/, '').replace(/\s+/g, '');
  const [head, ...rest] = written.split('.');
  const simple = rest.at(-1) ?? head!;
  const local = classes.get(simple);
  if (local && (written === simple || written === local.path || written === local.qualified)) {
    const parts = builtMessage(local, arity, classes);
    return parts ? { parts, builtBy: simple } : null;
  }
  // A name this file declares: its own class named otherwise, or one it cannot tell.
  if (local !== undefined || /^[a-z]/.test(simple)) return null;
  const tail = rest.length > 0 ? `.${rest.join('.')}` : '';
  const imported = names.imported.get(head!);
  const qualified = /^[a-z]/.test(head!) ? [written] : imported ? [`${imported}${tail}`] : names.prefixes.map((p) => `${p}${written}`);
  // An imported class is named as it is declared, not by its alias.
  return { parts: [], builtBy: imported && rest.length === 0 ? imported.split('.').at(-1)! : simple, imported: { name: `<init>(${arity})`, spec: qualified.join(' '), language: 'class' } };
}

/**
 * The message a constructor hands its base: its first argument (`Exception(String message, Throwable
 * cause)`), when that has literal words and no other argument has (then which one is the message is
 * not known here).
 */
export function superMessage<N>(args: readonly N[], read: (arg: N) => MessagePart[] | null): MessagePart[] | null {
  const parts = args[0] !== undefined ? read(args[0]) : null;
  return parts && hasLiteralWords(parts) && !args.slice(1).some((a) => hasLiteralWords(read(a) ?? [])) ? parts : null;
}
