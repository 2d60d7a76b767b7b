#!/usr/bin/env bash
# What CI runs for the npm package (crates/mettle-wasm): the package builds for wasm32 (cargo, then
# the JavaScript glue by crates/mettle-bindgen, a small workspace binary that runs wasm-bindgen's
# library in-process: no wasm-bindgen-cli to install), its types are what the schemas give,
# and its tests pass against the native command (target/debug/mettle, built by `cargo test` before
# this runs).
set -euo pipefail
cd "$(dirname "$0")/../.."

rustup target add wasm32-unknown-unknown
# The crate has no code for wasm32 alone: `cargo clippy --workspace` on the host (in .ci/run) lints it.
test -x target/debug/mettle || cargo build -p mettle-cli --locked

cd crates/mettle-wasm/npm
npm ci --no-audit --no-fund
node scripts/types.mjs --check
npm run build
npm test
