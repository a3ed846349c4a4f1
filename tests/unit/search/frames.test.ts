import { describe, expect, it } from 'vitest';
import { commonSuffix, orderBySite, pasteFrames, pathParts, siteFit, siteMissed } from '../../../src/search/frames.ts';
import { normalisePaste } from '../../../src/search/normalise.ts';

const frames = (paste: string) => normalisePaste(paste).frames;

describe('stack frames of a paste, innermost first', () => {
  it('Python: the last frame is the innermost', () => {
    const f = frames('Traceback (most recent call last):\n  File "/app/main.py", line 9, in <module>\n    run()\n  File "/usr/lib/python3.12/site-packages/pkg/mod.py", line 42, in check\n    raise ValueError(x)\nValueError: bad');
    expect(f[0]).toEqual({ path: '/usr/lib/python3.12/site-packages/pkg/mod.py', line: 42, fn: 'check' });
    expect(f[1]).toEqual({ path: '/app/main.py', line: 9, fn: null });
  });

  it('IPython and Jupyter: the last frame is the innermost', () => {
    const f = frames('Cell In[3], line 5\n----> 5 run()\n\nFile ~/venv/lib/python3.11/site-packages/pkg/a.py:10, in run()\n---> 10 check(1)\n\nFile ~/venv/lib/python3.11/site-packages/pkg/b.py:42, in Checker.check(self, x)\n---> 42 raise ValueError(x)\n\nValueError: bad');
    expect(f).toEqual([
      { path: '~/venv/lib/python3.11/site-packages/pkg/b.py', line: 42, fn: 'check' },
      { path: '~/venv/lib/python3.11/site-packages/pkg/a.py', line: 10, fn: 'run' },
      { path: 'Cell In[3]', line: 5, fn: null },
    ]);
  });

  it("pytest's short tracebacks: the last frame is the innermost", () => {
    const f = frames('tests/test_m.py:12: in test_model\n    class M(BaseModel):\n.venv/lib/python3.12/site-packages/pydantic/_internal/_fields.py:330: in collect_model_fields\n    raise PydanticUserError(\nE   pydantic.errors.PydanticUserError: bad');
    expect(f).toEqual([
      { path: '.venv/lib/python3.12/site-packages/pydantic/_internal/_fields.py', line: 330, fn: 'collect_model_fields' },
      { path: 'tests/test_m.py', line: 12, fn: 'test_model' },
    ]);
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

  it('says a trace missed the raise site only when its frames show where the error was raised', () => {
    const user = frames('Traceback (most recent call last):\n  File "/home/me/app/main.py", line 12, in <module>\n    x()\nAttributeError: bad');
    const site = { file: 'pydantic/main.py', scope: 'BaseModel.__getattr__' };
    // The file name alone is not the record's file.
    expect(siteMissed(site, user)).toBe(true);
    expect(siteMissed(site, frames('  File "/venv/lib/python3.12/site-packages/pydantic/main.py", line 9, in f\nAttributeError: bad'))).toBe(false);
    // In the site's function, or in a one-file module installed as it is.
    expect(siteMissed(site, frames('  File "/home/me/app/main.py", line 12, in __getattr__\nAttributeError: bad'))).toBe(false);
    expect(siteMissed({ file: 'six.py', scope: null }, frames('  File "/usr/lib/python3/dist-packages/six.py", line 718, in reraise\nValueError: bad'))).toBe(false);
    // Raised in another file of the record's own package (named as its repository): the code moved
    // between the version pasted and the one catalogued. Not so for a package of another name.
    const moved = { file: 'lib/sqlalchemy/sql/selectable.py', scope: 'Select._join_determine_implicit_left_side', repo: 'sqlalchemy/sqlalchemy' };
    const old = frames('  File "/venv/lib/python3.10/site-packages/sqlalchemy/orm/query.py", line 2200, in _join_determine_implicit_left_side\nInvalidRequestError: bad');
    expect(siteMissed({ ...moved, scope: null }, old)).toBe(false);
    expect(siteMissed({ ...moved, scope: null, repo: 'acme/orm' }, old)).toBe(true);
    expect(siteMissed({ ...site, repo: 'pydantic/pydantic' }, user)).toBe(true);
    // A folder of the user's named like the package is not the package.
    expect(siteMissed({ ...moved, scope: null }, frames('  File "/home/me/sqlalchemy/orm/query.py", line 2200, in f\nInvalidRequestError: bad'))).toBe(true);
    // Ruby and Java keep their folders too.
    expect(siteMissed({ file: 'lib/store/repo.rb', scope: 'save' }, frames("/app/gems/store-1.2/lib/store/repo.rb:12:in 'load': bad (ArgumentError)"))).toBe(false);
    expect(siteMissed({ file: 'src/main/java/com/acme/Repo.java', scope: 'Repo.save' }, frames('java.lang.IllegalStateException: bad\n\tat com.acme.web.Handler.run(Handler.java:8)'))).toBe(true);
    // Bundled JavaScript, Rust's unwrapped errors, a site of another language: no evidence.
    expect(siteMissed({ file: 'packages/vite/src/node/server/index.ts', scope: 'createServer' }, frames('Error: bad\n    at f (/app/node_modules/vite/dist/node/chunks/dep-a1b2.js:12:3)'))).toBe(false);
    expect(siteMissed({ file: 'tokio/src/time/sleep.rs', scope: null }, frames("thread 'main' panicked at src/main.rs:12:10:\nbad"))).toBe(false);
    expect(siteMissed({ file: 'pydantic-core/src/errors.rs', scope: null }, user)).toBe(false);
    expect(siteMissed(site, [])).toBe(false);
    // A notebook's cell is Python code: Python's own error raised in it is not the record's.
    expect(siteMissed(site, frames("Cell In[3], line 2\n      1 raw = 'x'\n----> 2 raw.decode()\n\nAttributeError: 'str' object has no attribute 'decode'"))).toBe(true);
    expect(siteMissed(site, frames('  File "<ipython-input-3-5f2c>", line 2, in <module>\n    raw.decode()\nAttributeError: bad'))).toBe(true);
  });
});
