#!/usr/bin/env node
// The `errdex` command. errdex is TypeScript run by Node's type stripping, which Node 22.18 and 23.6
// on have by default; an older Node (a system's 20) hands the command to the Node 24 that errdex
// brings (the `node` package it depends on), so `npx errdex` works wherever npm does.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
const strips = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
let node = process.execPath;
if (!strips) {
  let bundled = null;
  try {
    bundled = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node');
  } catch {}
  if (!bundled || !existsSync(bundled)) {
    console.error(`errdex needs Node 22.18 or newer (this is ${process.versions.node}), or its bundled Node: run npm install where errdex is installed.`);
    process.exit(2);
  }
  node = bundled;
}
// Installed, errdex runs its code compiled to .js (Node does not strip types under node_modules: tsconfig.pack.json).
const scripts = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts');
const entry = existsSync(join(scripts, 'errdex.js')) ? join(scripts, 'errdex.js') : join(scripts, 'errdex.ts');
const run = spawnSync(node, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
