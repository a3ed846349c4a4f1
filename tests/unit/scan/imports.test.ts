import { describe, expect, it } from 'vitest';
import { importedFiles } from '../../../src/scan/imports.ts';
import { scan } from '../../../src/scan/scan.ts';
import { fixtureRepo } from './fixture-repo.ts';
import { expectSound } from './records.ts';

describe('scan: messages held in another file’s constant', () => {
  it('follows Python imports (relative, absolute, aliased, two levels up) to the constant’s value', async () => {
    const r = await scan({ dir: fixtureRepo('python-imports') });
    const at = (m: string) => r.records.filter((x) => x.errorMessage === m).map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass}`);
    expect(at('no entry with that key')).toEqual(['acme/store.py:8 KeyError']);
    expect(at('the value is larger than the store allows')).toEqual(['acme/store.py:9 ValueError']);
    expect(at('the store is read-only')).toEqual(['acme/store.py:13 PermissionError', 'acme/sub/deep.py:5 PermissionError']);
    // A parameter of that name, a constant that is not literal, a module the tree lacks: not read.
    expect(r.summary.skippedSites).toEqual(['acme/store.py:17 not-literal', 'acme/store.py:21 not-literal', 'acme/store.py:25 not-literal']);
    expectSound(r.records);
  });

  it('reads the message a Python error class’s __init__ builds, for a raise that passes it only arguments, here or where the class is imported', async () => {
    const r = await scan({ dir: fixtureRepo('python-constructors') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'acme/env.py:8 VersionNotFoundError Could not find the python executable {expected}',
      "acme/env.py:10 IncorrectEnvError Env {env_name} doesn't belong to this project.",
      'acme/env.py:12 LegacyError cannot read the legacy file {path}',
      'acme/env.py:14 VersionNotFoundError Could not find the python executable {expected}',
      // A literal argument is what the constructor builds the message from, not the message.
      "acme/env.py:19 IncorrectEnvError Env {env_name} doesn't belong to this project.",
      // A class of a module the tree lacks: the raise's own message.
      'acme/env.py:23 RemoteError the remote store refused the write',
      'acme/errors.py:33 TooManyError too many items: {n}',
      // Given as `message=`, by keyword arguments.
      'acme/errors.py:47 MissingBuildRequiresError Can not process {package}',
      // A class with no `__init__` of its own builds its message with its base's.
      'acme/errors.py:55 MissingBackendError Can not process {package}',
    ]);
    expect(r.records[0]!.documentation).toContain('Its message is built by the `VersionNotFoundError` constructor from the arguments passed here; its placeholders are named as in that constructor.');
    // A constructor whose message is not literal; a class of a module the tree lacks, raised without arguments.
    // A parameter the constructor hands on is the raise's (here not literal), whatever its default.
    // Constructors that hand their base two messages, a base that builds its own around the one handed
    // to it, a class printed by its own `__str__`: another message than the one handed on, so none.
    expect(r.summary.skippedSites).toEqual([
      'acme/env.py:16 not-literal',
      'acme/env.py:18 no-message',
      'acme/errors.py:66 not-literal',
      'acme/errors.py:97 not-literal',
      'acme/errors.py:99 not-literal',
      'acme/errors.py:100 not-literal',
    ]);
    expectSound(r.records);
  });

  it('reads the message a JavaScript/TypeScript error class’s constructor hands `super(…)`, for `throw new X(…)` that passes it only arguments, here or where its import names it', async () => {
    const r = await scan({ dir: fixtureRepo('typescript-constructors') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/router.ts:15 NotFoundError No route for {id}',
      // Imported under another name; through a local of the constructor.
      'src/router.ts:16 Timeout The request timed out after {ms} ms',
      // A class without a constructor of its own builds its message with its base's (in its file, or here).
      'src/router.ts:17 GatewayTimeoutError The request timed out after {ms} ms',
      'src/router.ts:18 RouteError Cannot {method} {path}',
      'src/router.ts:19 MethodError Cannot {method} {path}',
      // A literal argument is what the constructor builds the message from, not the message.
      'src/router.ts:20 NotFoundError No route for {id}',
      // A default import.
      'src/router.ts:21 ConfigError Missing configuration key {key}',
    ]);
    expect(r.records[1]!.documentation).toContain('Its message is built by the `TimeoutError` constructor from the arguments passed here; its placeholders are named as in that constructor.');
    // Two messages; one the class sets itself; a package's class; a file the tree lacks, raised without arguments.
    // The last: a parameter the constructor hands on is the raise's (here not literal), whatever its default.
    expect(r.summary.skippedSites).toEqual(['src/router.ts:22 not-literal', 'src/router.ts:23 not-literal', 'src/router.ts:24 not-literal', 'src/router.ts:25 no-message', 'src/router.ts:29 not-literal']);
    expectSound(r.records);
  });

  it('reads the message a Java exception class’s constructor hands its base, for `throw new X(…)` that passes it only arguments, here or where the class’s package is', async () => {
    const r = await scan({ dir: fixtureRepo('java-constructors') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/main/java/acme/Store.java:26 ClosedException The store {name} is closed',
      // Imported; then the file's own package, without an import.
      'src/main/java/acme/Store.java:27 NotFoundException No entry for {id}',
      'src/main/java/acme/Store.java:28 QuotaException Quota exceeded: {used} of {limit} bytes used',
      // A constant of the class; a class without constructors calls its base's without arguments.
      'src/main/java/acme/Store.java:29 LockedException The store is locked by another process',
      'src/main/java/acme/Store.java:30 ReadOnlyException The store is locked by another process',
      // A literal argument is what the constructor builds the message from, not the message.
      'src/main/java/acme/Store.java:35 ClosedException The store {name} is closed',
      // The constructor taking two arguments builds the same message.
      'src/main/java/acme/Store.java:39 NotFoundException No entry for {id}',
      // Named by its package: not acme.errors' class of that name.
      'src/main/java/acme/Store.java:44 NotFoundException The legacy store has no {id}',
    ]);
    expect(r.records[0]!.documentation).toContain('Its message is built by the `ClosedException` constructor from the arguments passed here; its placeholders are named as in that constructor.');
    expect(r.records[3]!.documentation).toContain('Its message is built by the `LockedException` constructor. ');
    // Constructors building two messages; a class with its own getMessage; a class of a package the tree lacks, with arguments and without.
    expect(r.summary.skippedSites).toEqual(['src/main/java/acme/Store.java:31 not-literal', 'src/main/java/acme/Store.java:32 not-literal', 'src/main/java/acme/Store.java:33 not-literal', 'src/main/java/acme/Store.java:34 no-message']);
    expectSound(r.records);
  });

  it('reads the message a Kotlin exception class’s constructor hands its base, for `throw X(…)` that passes it only arguments, here or where the class’s package is', async () => {
    const r = await scan({ dir: fixtureRepo('kotlin-constructors') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/main/kotlin/acme/Store.kt:18 ClosedException The store {name} is closed',
      // Imported under another name (a parameter with a default value may be left out); then the file's own package.
      'src/main/kotlin/acme/Store.kt:19 Missing No entry for {id}',
      'src/main/kotlin/acme/Store.kt:20 QuotaException Quota exceeded: {used} of {limit} bytes used',
      // A constant of the file; a class whose constructor calls its base's without arguments.
      'src/main/kotlin/acme/Store.kt:21 LockedException The store is locked by another process',
      'src/main/kotlin/acme/Store.kt:22 ReadOnlyException The store is locked by another process',
      // A literal argument is what the constructor builds the message from, not the message.
      'src/main/kotlin/acme/Store.kt:27 ClosedException The store {name} is closed',
      'src/main/kotlin/acme/Store.kt:31 Missing No entry for {id}',
      // Named by its package: not acme.errors' class of that name.
      'src/main/kotlin/acme/Store.kt:35 NotFoundException The legacy store has no {id}',
    ]);
    expect(r.records[1]!.documentation).toContain('Its message is built by the `NotFoundException` constructor from the arguments passed here; its placeholders are named as in that constructor.');
    // Constructors building two messages; a class with its own message; a class of a package the tree lacks, with arguments and without.
    expect([...r.summary.skippedSites].sort()).toEqual(['src/main/kotlin/acme/Store.kt:23 not-literal', 'src/main/kotlin/acme/Store.kt:24 not-literal', 'src/main/kotlin/acme/Store.kt:25 not-literal', 'src/main/kotlin/acme/Store.kt:26 no-message']);
    expectSound(r.records);
  });

  it('reads the message a C# exception class’s constructor hands `base(…)`, for `throw new X(…)` that passes it only arguments, here or where the class’s namespace is', async () => {
    const r = await scan({ dir: fixtureRepo('csharp-constructors') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/Acme/Store.cs:25 ClosedException The store {name} is closed',
      // A `using` namespace (an optional parameter may be left out); then the namespace around the raise.
      'src/Acme/Store.cs:26 NotFoundException No entry for {id}',
      'src/Acme/Store.cs:27 QuotaException Quota exceeded: {used} of {limit} bytes used',
      // A constant of the class around; a class without constructors calls its base's without arguments.
      'src/Acme/Store.cs:28 LockedException The store is locked by another process',
      'src/Acme/Store.cs:29 ReadOnlyException The store is locked by another process',
      // A literal argument is what the constructor builds the message from, not the message.
      'src/Acme/Store.cs:34 ClosedException The store {name} is closed',
      'src/Acme/Store.cs:42 NotFoundException No entry for {id}',
      // `Legacy.` below the namespace `Acme`, a primary constructor: not Acme.Errors' class of that name.
      'src/Acme/Store.cs:46 NotFoundException The legacy store has no {id}',
    ]);
    expect(r.records[1]!.documentation).toContain('Its message is built by the `NotFoundException` constructor from the arguments passed here; its placeholders are named as in that constructor.');
    // Constructors building two messages; a class with its own Message; a class the tree lacks (by an alias), with arguments and without; a parameter's name handed to ArgumentNullException.
    expect([...r.summary.skippedSites].sort()).toEqual([
      'src/Acme/Store.cs:30 not-literal',
      'src/Acme/Store.cs:31 not-literal',
      'src/Acme/Store.cs:32 not-literal',
      'src/Acme/Store.cs:33 no-message',
      'src/Acme/Store.cs:35 not-literal',
    ]);
    expectSound(r.records);
  });

  it('follows JavaScript/TypeScript imports of a path (`.js` naming a `.ts` source), not a package’s', async () => {
    const r = await scan({ dir: fixtureRepo('typescript-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/router.ts:5 Error no route matches the request',
      'src/router.ts:6 RangeError too many open connections',
    ]);
    expect(r.summary.skippedSites).toEqual(['src/router.ts:10 not-literal', 'src/router.ts:14 not-literal']);
    expectSound(r.records);
  });

  it('reads a Java class constant of another file, by `Class.NAME` or a static import', async () => {
    const r = await scan({ dir: fixtureRepo('java-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/main/java/acme/Store.java:7 IllegalArgumentException no ledger entry with that id',
      'src/main/java/acme/Store.java:8 IllegalStateException the ledger is closed',
      'src/main/java/acme/Store.java:12 IllegalStateException too many open ledgers',
    ]);
    // A constant computed at run time; an instance's field.
    expect([...r.summary.skippedSites].sort()).toEqual(['src/main/java/acme/Store.java:16 not-literal', 'src/main/java/acme/Store.java:20 not-literal']);
    expectSound(r.records);
  });

  it('reads a C# constant of another class, of a partial class declared in its other file, or of a base class', async () => {
    const r = await scan({ dir: fixtureRepo('csharp-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/Acme.Ledger/Ledger.Conversion.cs:13 NotSupportedException Converting a ledger is not supported.',
      'src/Acme.Ledger/Ledger.cs:9 ArgumentException No ledger entry has that id.',
      'src/Acme.Ledger/Ledger.cs:10 InvalidOperationException The ledger is closed.',
      'src/Acme.Ledger/Ledger.cs:13 NotSupportedException Converting a ledger is not supported.',
    ]);
    // A static field that is not read-only can change: not a constant.
    expect(r.summary.skippedSites).toEqual(['src/Acme.Ledger/Ledger.cs:15 not-literal']);
    expectSound(r.records);
  });

  it('reads a PHP class constant of another file (`Messages::NOT_FOUND`, qualified or not)', async () => {
    const r = await scan({ dir: fixtureRepo('php-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/Ledger.php:10 InvalidArgumentException No ledger entry has that id.',
      'src/Ledger.php:12 LogicException The ledger is closed.',
    ]);
    expect(r.summary.skippedSites).toEqual(['src/Ledger.php:17 not-literal']);
    expectSound(r.records);
  });

  it('reads a Ruby constant of another module (`Errors::NOT_FOUND`, nested or not)', async () => {
    const r = await scan({ dir: fixtureRepo('ruby-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'lib/acme/ledger.rb:4 ArgumentError no ledger entry with that id',
      'lib/acme/ledger.rb:5 LedgerError the ledger is closed',
    ]);
    expect(r.summary.skippedSites).toEqual(['lib/acme/ledger.rb:9 not-literal']);
    expectSound(r.records);
  });

  it("reads a Kotlin constant of another file's object or companion object (`Messages.NOT_FOUND`)", async () => {
    const r = await scan({ dir: fixtureRepo('kotlin-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/main/kotlin/acme/Pool.kt:5 IllegalArgumentException no pool with that name',
      'src/main/kotlin/acme/Pool.kt:6 IllegalStateException too many open pools',
    ]);
    // A `val` that is not `const`: computed when the object is made.
    expect(r.summary.skippedSites).toEqual(['src/main/kotlin/acme/Pool.kt:7 not-literal']);
    expectSound(r.records);
  });

  it("reads a Go constant of another file of the same package, not another package's", async () => {
    const r = await scan({ dir: fixtureRepo('go-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'store/store.go:7 null no entry with that key',
      'store/store.go:9 panic the store is closed',
    ]);
    expect([...r.summary.skippedSites].sort()).toEqual(['store/store.go:13 not-literal', 'store/store.go:17 not-literal']);
    expectSound(r.records);
  });

  it('reads a Rust constant of another module that fills a format placeholder (a `crate::` path or a `use`d name)', async () => {
    const r = await scan({ dir: fixtureRepo('rust-imports') });
    expect(r.records.map((x) => `${x.filePath}:${x.lineNumber} ${x.errorClass} ${x.errorMessage}`)).toEqual([
      'src/runtime/mod.rs:5 panic the thread-local runtime context was destroyed',
      'src/runtime/mod.rs:7 panic there is no reactor running, must be called from the context of a runtime',
      'src/runtime/mod.rs:11 panic the thread-local runtime context was destroyed (code {code})',
    ]);
    expect(r.summary.skippedSites).toEqual(['src/runtime/mod.rs:15 not-literal']);
    expectSound(r.records);
  });

  it('names the files an import can come from', () => {
    const paths = new Set(['a/b/errors.py', 'a/__init__.py', 'src/pkg/errors.py', 'web/msg.ts', 'web/lib/index.ts']);
    expect(importedFiles('a/b/c.py', { name: 'X', spec: '.errors', language: 'python' }, paths)).toEqual(['a/b/errors.py']);
    expect(importedFiles('a/b/c.py', { name: 'X', spec: '..', language: 'python' }, paths)).toEqual(['a/__init__.py']);
    expect(importedFiles('tools/x.py', { name: 'X', spec: 'pkg.errors', language: 'python' }, paths)).toEqual(['src/pkg/errors.py']);
    expect(importedFiles('web/app/x.ts', { name: 'X', spec: '../msg.js', language: 'javascript' }, paths)).toEqual(['web/msg.ts']);
    expect(importedFiles('web/x.ts', { name: 'X', spec: './lib', language: 'javascript' }, paths)).toEqual(['web/lib/index.ts']);
    expect(importedFiles('web/x.ts', { name: 'X', spec: 'lodash', language: 'javascript' }, paths)).toEqual([]);
    const rust = new Set(['tokio/src/lib.rs', 'tokio/src/util/error.rs', 'tokio/src/runtime/mod.rs', 'tokio/src/runtime/handle.rs', 'tokio/src/runtime/context.rs']);
    expect(importedFiles('tokio/src/runtime/handle.rs', { name: 'X', spec: 'crate::util::error', language: 'rust' }, rust)).toEqual(['tokio/src/util/error.rs']);
    expect(importedFiles('tokio/src/runtime/handle.rs', { name: 'X', spec: 'super::context', language: 'rust' }, rust)).toEqual(['tokio/src/runtime/context.rs']);
    expect(importedFiles('tokio/src/runtime/mod.rs', { name: 'X', spec: 'self::context', language: 'rust' }, rust)).toEqual(['tokio/src/runtime/context.rs']);
    expect(importedFiles('tokio/src/runtime/mod.rs', { name: 'X', spec: 'other_crate::errors', language: 'rust' }, rust)).toEqual([]);
  });
});
