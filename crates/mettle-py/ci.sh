#!/usr/bin/env bash
# CI for the Python package: the wheel built and installed from this folder as a user would
# (`pip install ./crates/mettle-py`) into a fresh virtual environment, then its tests. The comparisons
# with the native command read target/debug/mettle (built by `cargo test` before).
#
#   ci.sh              build and test, in a new environment
#   ci.sh build VENV   only build and install into VENV (.ci/run starts this early, in the background)
#   ci.sh test VENV    only the tests, with the package already in VENV
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
phase="${1:-all}"
venv="${2:-$(mktemp -d)/venv}"

if [ "$phase" = all ] || [ "$phase" = build ]; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  start=$(date +%s)
  "$venv/bin/python" -m pip install --quiet "$here" pytest icepool
  echo "mettle-py: wheel built and installed in $(( $(date +%s) - start ))s"
fi
if [ "$phase" = all ] || [ "$phase" = test ]; then
  cd "$here"
  CI="${CI:-true}" METTLE_BIN="${METTLE_BIN:-$root/target/debug/mettle}" "$venv/bin/python" -m pytest -q tests
fi
