#!/usr/bin/env bash
# The GitHub Pages workflow's own commands (.github/workflows/pages.yml calls this script), so that
# they run, and are tested, anywhere: locally, in this project's CI (tests/site/deploy.test.ts), without
# `act`. The workflow adds only what needs GitHub: checkout, the cache, the upload and the deploy.
#
#   bash scripts/ci-pages.sh build [--install] [-- build options]
#       (npm ci,) npm run build -- --host=github-pages (the build checks GitHub Pages' published limit,
#       1 GB per site, before publishing; ERRDEX_PAGES_MAX_BYTES changes it), then checks that the
#       output is a valid Pages artifact and prints its files, bytes and largest file.
#   bash scripts/ci-pages.sh merge [--install] <shard folders…> [-- merge options]
#       as build, but the site is built from the shards of a sharded build (npm run merge:
#       .github/workflows/pages-sharded.yml, docs/scale.md).
#   bash scripts/ci-pages.sh commit-ledger
#       commits the URL ledger the build wrote back (if it changed) and pushes it to the branch built.
#
# Environment: ERRDEX_DATA (catalog, default data/), ERRDEX_DIST (output, default dist/),
# ERRDEX_SITE_URL / ERRDEX_BASE_PATH (the workflow sets them from actions/configure-pages),
# GITHUB_OUTPUT (the workflow's step outputs: dist, ledger, ledger-changed), GITHUB_REF_NAME (branch
# to push the ledger to; default the current branch), GITHUB_RUN_ID (named in the ledger commit).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA="${ERRDEX_DATA:-data}"
DIST="${ERRDEX_DIST:-dist}"
HOST=(--host=github-pages)
if [ -n "${ERRDEX_PAGES_MAX_BYTES:-}" ]; then HOST+=(--host-limit "bytes=$ERRDEX_PAGES_MAX_BYTES"); fi
if [ -d "$DATA" ]; then LEDGER="$DATA/url-ledger.json"; else LEDGER="$(dirname "$DATA")/url-ledger.json"; fi

# The project's own Node (24) when installed, as npm scripts use it.
NODE=node
if [ -x node_modules/.bin/node ]; then NODE="$PWD/node_modules/.bin/node"; fi

output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >>"$GITHUB_OUTPUT"; fi; }

# Files, bytes (apparent size, as the artifact's tar counts them) and the largest file of a folder.
measure() {
  "$NODE" -e '
    const { readdirSync, statSync } = require("node:fs");
    const { join, relative } = require("node:path");
    let files = 0, bytes = 0, max = 0, largest = "";
    const walk = (dir) => { for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) { const size = statSync(path).size; files++; bytes += size; if (size > max) { max = size; largest = relative(process.argv[1], path); } }
    } };
    walk(process.argv[1]);
    console.log(files, bytes, max, largest);' "$1"
}

# Whether the ledger differs from what is committed; "unknown" outside a git work tree.
ledger_state() {
  local dir
  dir="$(dirname "$LEDGER")"
  if ! git -C "$dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then echo unknown; return; fi
  if [ -n "$(git -C "$dir" status --porcelain -- "$(basename "$LEDGER")")" ]; then echo changed; else echo unchanged; fi
}

# build: npm run build; merge: npm run merge, of the shard folders named before `--`.
build() {
  local command="$1" install=0 shards=()
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --install) install=1; shift ;;
      --) shift; break ;;
      -*) echo "ci-pages.sh $command: unknown option $1 ($command options go after --)" >&2; exit 2 ;;
      *)
        if [ "$command" != merge ]; then echo "ci-pages.sh build: unexpected $1 (build options go after --)" >&2; exit 2; fi
        shards+=("$1"); shift ;;
    esac
  done
  if [ "$command" = merge ] && [ ${#shards[@]} -eq 0 ]; then echo "ci-pages.sh merge: name the shards' folders" >&2; exit 2; fi
  if [ "$install" = 1 ]; then npm ci --no-audit --no-fund; fi
  echo "Building $DATA into $DIST for ${ERRDEX_SITE_URL:-the configured site URL}${ERRDEX_BASE_PATH:-}${shards[0]:+ from ${#shards[@]} shards}"
  npm run -s "$command" -- ${shards[@]+"${shards[@]}"} "${HOST[@]}" "$@"

  if find "$DIST" -type l | grep -q .; then
    echo "The output holds symbolic links, which a Pages artifact may not:" >&2
    find "$DIST" -type l >&2
    exit 1
  fi
  local files bytes max largest
  read -r files bytes max largest < <(measure "$DIST")
  echo "Pages artifact: $files files, $bytes bytes, largest $largest ($max bytes)"
  output dist "$DIST"
  output ledger "$LEDGER"
  case "$(ledger_state)" in
    changed) echo "URL ledger changed: $LEDGER (the workflow commits it after the deploy)"; output ledger-changed true ;;
    unchanged) echo "URL ledger unchanged: $LEDGER"; output ledger-changed false ;;
    *) echo "URL ledger: $LEDGER is not in a git work tree; commit it wherever the catalog is kept"; output ledger-changed unknown ;;
  esac
}

commit_ledger() {
  local dir file branch
  dir="$(dirname "$LEDGER")"
  file="$(basename "$LEDGER")"
  case "$(ledger_state)" in
    unchanged) echo "URL ledger unchanged: nothing to commit."; return ;;
    unknown) echo "$LEDGER is not in a git work tree: nothing to commit it to." >&2; exit 1 ;;
  esac
  branch="${GITHUB_REF_NAME:-$(git -C "$dir" rev-parse --abbrev-ref HEAD)}"
  git -C "$dir" config user.name >/dev/null || git -C "$dir" config user.name 'github-actions[bot]'
  git -C "$dir" config user.email >/dev/null || git -C "$dir" config user.email '41898282+github-actions[bot]@users.noreply.github.com'
  git -C "$dir" add -- "$file"
  git -C "$dir" commit -q -m "URL ledger: the pages published${GITHUB_RUN_ID:+ by run $GITHUB_RUN_ID} [skip ci]" -- "$file"
  # Someone may have pushed while the site was building: put the ledger commit on top of theirs.
  for attempt in 1 2 3; do
    if git -C "$dir" push -q origin "HEAD:refs/heads/$branch"; then
      echo "URL ledger committed and pushed to $branch."
      return
    fi
    echo "Push refused (attempt $attempt): rebasing the ledger commit onto origin/$branch…" >&2
    git -C "$dir" pull -q --rebase origin "$branch"
  done
  echo "Could not push the URL ledger to $branch: commit $LEDGER by hand, or the next build forgets these URLs." >&2
  exit 1
}

command="${1:-build}"
if [ $# -gt 0 ]; then shift; fi
case "$command" in
  build | merge) build "$command" "$@" ;;
  commit-ledger) commit_ledger ;;
  *) echo "usage: ci-pages.sh build [--install] [-- build options] | merge [--install] <shard folders…> [-- options] | commit-ledger" >&2; exit 2 ;;
esac
