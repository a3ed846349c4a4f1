#!/usr/bin/env bash
# Before the browser tests: makes sure a Chromium or Chrome is there (tests/support/browser.ts finds it:
# CHROMIUM_PATH, the system's, then Playwright's installed browsers). Only when none is found and this
# user may (root with apt-get) does it install the distribution's chromium; otherwise it says how to
# provide one and fails. Never downloads a browser of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
# npm scripts put the project's own Node (24, which runs TypeScript) first on the PATH; run by hand, use it too.
NODE=node
if [ -x node_modules/.bin/node ]; then NODE=node_modules/.bin/node; fi
find_chromium() { "$NODE" tests/support/browser.ts; }

if find_chromium 2>/dev/null; then exit 0; fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "No Chromium found: installing the distribution's chromium with apt-get for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-browser >/dev/null \
    || true
fi
find_chromium
