import { describe, expect, it } from 'vitest';
import { enclosingScope, raiseSites } from '../../../src/search/raise-site.ts';

describe('the function around a raise', () => {
  it.each([
    ['Python method', 'class Pool:\n    def get(self, key):\n        if key is None:\n            raise KeyError(key)', 4, 'Pool.get'],
    ['Rust fn in impl', 'impl Parker {\n    pub(crate) fn park(&self) {\n        if bad {\n            panic!("inconsistent state: {}", n);\n        }\n    }\n}', 4, 'Parker.park'],
    ['Go method', 'func (s *Server) Start(addr string) error {\n\tif addr == "" {\n\t\tpanic("no address")\n\t}\n}', 3, 'Start'],
    ['JavaScript function', 'export async function resolveConfig(opts) {\n  if (!opts) {\n    throw new Error("no options");\n  }\n}', 3, 'resolveConfig'],
    ['TypeScript method', 'class Builder {\n  private build(input: string): void {\n    throw new Error(`bad ${input}`);\n  }\n}', 3, 'Builder.build'],
    ['arrow function', 'const check = (value) => {\n  throw new TypeError("bad");\n};', 2, 'check'],
    ['Java method', 'public class Repo {\n    public void save(Item item) throws IOException {\n        throw new IllegalStateException("closed");\n    }\n}', 3, 'Repo.save'],
  ])('%s', (_name, code, line, scope) => {
    expect(enclosingScope(code, 1, line)).toBe(scope);
  });

  it('is unknown when the excerpt does not show a definition', () => {
    expect(enclosingScope('        if x:\n            raise ValueError(x)', 1, 2)).toBeNull();
  });

  it('reads a definition from another record of the same file when the record\'s own excerpt starts below it', () => {
    const base = { repo: 'a/b', filePath: 'm.py' };
    const sites = raiseSites([
      { ...base, lineNumber: 3, sourceCodeStart: 1, sourceCode: 'class C:\n    def f(self):\n        raise A()\n        x = 1' },
      { ...base, lineNumber: 6, sourceCodeStart: 5, sourceCode: '        if y:\n            raise B()' },
    ]);
    expect(sites.map((s) => s.scope)).toEqual(['C.f', 'C.f']);
  });

  it('counts a tab as four columns and passes over lines of whitespace alone, Unicode spaces too', () => {
    // The raise's own line is blank (`raise X(` is on the line above): the walk starts above it. The
    // tab-indented definition is under the 8-space body; a line of no-break spaces is blank, not a step out.
    const code = 'class Pool:\n\tdef get(self, key):\n\u00a0\u00a0\n        raise KeyError(\n            \n';
    expect(enclosingScope(code, 10, 14)).toBe('Pool.get');
    expect(enclosingScope('def f():\n\u3000x = 1\n    raise E()', 1, 3)).toBe('f');
  });
});
