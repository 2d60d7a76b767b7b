#!/usr/bin/env bash
# What CI runs for the npm package (crates/mettle-wasm): the core builds for wasm32, the package
# builds (cargo, wasm-bindgen, wasm-opt), its types are what the schemas give, and its tests pass
# against the native command (target/debug/mettle, built by `cargo test` before this runs).
set -euo pipefail
cd "$(dirname "$0")/../.."

rustup target add wasm32-unknown-unknown
command -v wasm-bindgen >/dev/null && wasm-bindgen --version | grep -q ' 0.2.130' \
  || cargo install wasm-bindgen-cli --version 0.2.130 --locked
cargo check -p mettle --target wasm32-unknown-unknown --locked
cargo clippy -p mettle-wasm --target wasm32-unknown-unknown --locked -- -D warnings
test -x target/debug/mettle || cargo build -p mettle-cli --locked

cd crates/mettle-wasm/npm
npm ci
node scripts/types.mjs --check
npm run build
npm test
