/** `npm run build -- --help`: every option and setting of the build (scripts/build.ts reads the command line). */
export const BUILD_HELP = `Usage: npm run build [-- options]

Options:
  --skip-invalid[=FILE]   build the valid records; list every skipped one and why in FILE
                          (default skipped-records.json)
  --strict                warnings (records built with an uncertainty shown) fail the build too
  --no-cache              highlight and render everything, ignoring the build cache (and refreshing it)
  --report=FILE           write each stage's time, memory and output as JSON (npm run bench reads it)
  --no-ledger-update      read the URL ledger but do not write it (preview builds, tests)
  --max-fragments=N       at most N Pagefind fragment files (Pagefind bundles them)
  --max-index-files=N     at most N message index files (larger files: more bytes per paste)
  --host=NAME             check the site against a host's limits before publishing: github-pages,
                          cloudflare-pages (the Free plan), netlify, static (no limits but those given)
  --host-limit NAME=N     set one of the host's limits (repeatable): files, bytes, file-bytes,
                          folder-files, redirects (e.g. --host-limit files=100000 for a paid plan)
  --trim-redirects        keep only the rules of _redirects the host applies (its HTML redirect pages
                          redirect the others)
  --wait-for-lock         while another build writes to the output folder, wait (default: fail at once)
  --allow-mass-removal    publish even when more than half the published error pages would go
  --shard i/n             build shard i of n (from 1) for npm run merge: its records' error pages and
                          its full-text parts, into a folder of its own (docs/scale.md)
  --out DIR               with --shard: that folder (default shard-i-of-n)
  --help                  this text

Environment: ERRDEX_DATA (catalog folder, default data/), ERRDEX_DIST (output folder, default dist/),
ERRDEX_CACHE_DIR (build cache, default .errdex/cache), ERRDEX_WORKERS (render processes and highlight
threads at a time; default one per core), ERRDEX_PARTITION_RECORDS (records per render process above one
partition, default 50,000), ERRDEX_EARLY_HIGHLIGHT_BYTES (catalog files above this size are highlighted
from the build's start, default 128 MiB). Site settings: errdex.config.mjs.`;

/** `npm run merge -- --help`. */
export const MERGE_HELP = `Usage: npm run merge -- <shard folder>… [options]

Joins the folders that npm run build -- --shard i/n wrote (every shard of one split, built from the
same catalog by the same code) and builds the site from them into ERRDEX_DIST: the shards' error pages
and full-text parts are reused, the site-wide pages, record files and indexes are made once, and the
site is published with every check, the same site a build on one machine makes (docs/scale.md).

Options: those of npm run build (npm run build -- --help) but --shard and --no-cache.`;
