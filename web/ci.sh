#!/usr/bin/env bash
# What CI runs for the playground, right after crates/mettle-wasm/ci.sh, on a Debian machine with
# Rust (rustup), node 20+, npm and Debian's chromium at /usr/bin/chromium: bundle the page around the
# engine's npm package, then use the page in a real browser.
# The package is the one crates/mettle-wasm/ci.sh has just built (crates/mettle-wasm/npm/dist): it is
# built here only when there is none, so run `npm run build:wasm` yourself after changing the engine.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
if [ -f ../crates/mettle-wasm/npm/dist/mettle_bg.wasm ]; then
  echo "web/ci.sh: using the package already built in crates/mettle-wasm/npm/dist"
else
  npm run build:wasm
fi
npm run build:page
PLAYGROUND_NO_BUILD=1 node --test --test-reporter=spec test/
