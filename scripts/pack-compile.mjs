// `npm pack` runs this before packing (prepack) and with --clean after (postpack): the code Node runs
// itself is compiled to .js beside its .ts (tsconfig.pack.json says why), then those .js files go.
// Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Every X.js beside an X.ts under scripts/ and src/: what the compile writes (no such .js is committed). */
function compiled(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return compiled(path);
    return e.name.endsWith('.js') && existsSync(path.replace(/\.js$/, '.ts')) ? [path] : [];
  });
}

const clean = () => {
  for (const f of [...compiled('scripts'), ...compiled('src')]) rmSync(f);
};

clean();
if (!process.argv.includes('--clean')) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.pack.json'], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    clean();
    process.exit(tsc.status ?? 1);
  }
}
