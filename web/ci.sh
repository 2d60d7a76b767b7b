#!/usr/bin/env bash
# What CI runs for the playground on a fresh Debian machine with node 20+, npm, Debian's chromium at
# /usr/bin/chromium, and the wasm toolchain that crates/mettle-wasm/ci.sh installs: build the engine's
# npm package and the page from source, then use the page in a real browser.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run build
PLAYGROUND_NO_BUILD=1 node --test --test-reporter=spec test/
