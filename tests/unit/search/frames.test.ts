import { describe, expect, it } from 'vitest';
import { commonSuffix, orderBySite, pasteFrames, pathParts, siteFit } from '../../../src/search/frames.ts';
import { normalisePaste } from '../../../src/search/normalise.ts';

const frames = (paste: string) => normalisePaste(paste).frames;

describe('stack frames of a paste, innermost first', () => {
  it('Python: the last frame is the innermost', () => {
    const f = frames('Traceback (most recent call last):\n  File "/app/main.py", line 9, in <module>\n    run()\n  File "/usr/lib/python3.12/site-packages/pkg/mod.py", line 42, in check\n    raise ValueError(x)\nValueError: bad');
    expect(f[0]).toEqual({ path: '/usr/lib/python3.12/site-packages/pkg/mod.py', line: 42, fn: 'check' });
    expect(f[1]).toEqual({ path: '/app/main.py', line: 9, fn: null });
  });

  it('reads a frame whose spaces a copy doubled', () => {
    expect(frames('  File  "/usr/lib/python3.12/site-packages/pkg/mod.py",  line 42, in  check\nValueError: bad')).toEqual([{ path: '/usr/lib/python3.12/site-packages/pkg/mod.py', line: 42, fn: 'check' }]);
  });

  it('JavaScript (V8 and Firefox)', () => {
    expect(frames('Error: bad\n    at Server.listen (/app/node_modules/vite/dist/node/server.js:12:3)\n    at async main (file:///app/cli.mjs:4:1)')).toEqual([
      { path: '/app/node_modules/vite/dist/node/server.js', line: 12, fn: 'listen' },
      { path: '/app/cli.mjs', line: 4, fn: 'main' },
    ]);
    expect(pasteFrames(['render@http://localhost:5173/src/App.tsx:20:7'])).toEqual([{ path: 'http://localhost:5173/src/App.tsx', line: 20, fn: 'render' }]);
  });

  it('Java and Kotlin: the class names the path', () => {
    expect(frames('java.lang.IllegalStateException: bad\n\tat com.acme.store.Repo.save(Repo.java:88)\n\tat com.acme.Main.main(Main.java:3)')[0]).toEqual({ path: 'com/acme/store/Repo.java', line: 88, fn: 'save' });
  });

  it('Rust: the panic location, and backtrace frames with their function', () => {
    const f = frames("thread 'main' panicked at tokio/src/runtime/park.rs:271:11:\nbad state\nstack backtrace:\n   0: tokio::runtime::park::Inner::park\n             at ./tokio/src/runtime/park.rs:271:11");
    expect(f[0]).toEqual({ path: 'tokio/src/runtime/park.rs', line: 271, fn: null });
    expect(f[1]).toEqual({ path: './tokio/src/runtime/park.rs', line: 271, fn: 'park' });
  });

  it('Go: the function on the line before its file', () => {
    expect(frames('panic: bad\n\ngoroutine 1 [running]:\nmain.(*Server).Start(0xc000010000)\n\t/app/server.go:42 +0x1d')).toEqual([{ path: '/app/server.go', line: 42, fn: 'Start' }]);
  });

  it('Ruby', () => {
    expect(frames("/app/lib/store.rb:12:in 'save': bad (ArgumentError)\n\tfrom /app/bin/run.rb:3:in '<main>'")[0]).toEqual({ path: '/app/lib/store.rb', line: 12, fn: 'save' });
  });
});

describe('raise sites against frames', () => {
  it('compares installed and built paths with repository paths by their common suffix', () => {
    expect(commonSuffix(pathParts('lib/sqlalchemy/orm/mapper.py'), pathParts('/usr/lib/python3.12/site-packages/sqlalchemy/orm/mapper.py'))).toBe(3);
    expect(commonSuffix(pathParts('packages/vite/src/node/build.ts'), pathParts('/app/node_modules/vite/dist/node/build.js'))).toBe(3);
    expect(commonSuffix(pathParts('src/a/x.ts'), pathParts('/app/src/a/y.ts'))).toBe(0);
  });

  it('puts the record raised where the frames say first among records printing the same message', () => {
    const entry = (file: string, line: number, scope: string | null) => ({ entry: { template: 'Unknown type: {t}', file, line, scope } });
    const results = [entry('pkg/a.py', 10, 'A.f'), entry('pkg/b.py', 20, 'B.g'), entry('pkg/b.py', 60, 'B.h'), { entry: { template: 'other {x}', file: 'pkg/c.py', line: 1, scope: null } }];
    const f = frames('  File "/site-packages/pkg/b.py", line 61, in h\n    raise X()\nX: Unknown type: 3');
    expect(orderBySite(results, f).map((r) => `${r.entry.file}:${r.entry.line}`)).toEqual(['pkg/b.py:60', 'pkg/b.py:20', 'pkg/a.py:10', 'pkg/c.py:1']);
    expect(siteFit({ file: 'pkg/b.py', line: 60, scope: 'B.h' }, f)).toBeGreaterThan(siteFit({ file: 'pkg/b.py', line: 20, scope: 'B.g' }, f));
    // Without frames, the order stays.
    expect(orderBySite(results, [])).toEqual(results);
  });
});
