#!/usr/bin/env bash
# CI for the Python package: a fresh virtual environment, the wheel built and installed from this
# folder as a user would (`pip install ./crates/mettle-py`), and its tests. Run from anywhere; the
# comparisons with the native command read target/debug/mettle (built by `cargo test` before).
# `MATURIN_PEP517_ARGS="--profile dev"` builds the wheel unoptimised (what .ci/run does, for time).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$(mktemp -d)/venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
start=$(date +%s)
"$venv/bin/python" -m pip install --quiet "$here" pytest icepool
echo "mettle-py: wheel built and installed in $(( $(date +%s) - start ))s"
cd "$here"
CI="${CI:-true}" METTLE_BIN="${METTLE_BIN:-$root/target/debug/mettle}" "$venv/bin/python" -m pytest -q tests
