#!/usr/bin/env bash
# Runs one fuzz target: `fuzz/run.sh TARGET [RUNS] [extra libFuzzer flags…]`.
# Copies the committed seeds into fuzz/corpus/TARGET (git-ignored), then runs libFuzzer on one core
# for RUNS executions (default 1,000,000), with debug assertions and overflow checks on, and the
# grammar's words as a dictionary. Safe Rust needs no address sanitizer, so it is off: the runs are
# several times faster. MAX_LEN (default 1024) caps the input size. Crashes, timeouts and
# out-of-memory inputs land in fuzz/artifacts/TARGET; the final statistics are printed at the end.
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). For a time limit instead
# of a count, add `-max_total_time=SECONDS`.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: fuzz/run.sh load|dice|save|repl|lsp|serve [RUNS] [libFuzzer flags…]}"
runs="${2:-1000000}"
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "corpus/$target"
cp -n seeds/"$target"/* "corpus/$target/" 2>/dev/null || true
exec cargo +nightly fuzz run --sanitizer none --debug-assertions "$target" "corpus/$target" -- \
  -dict=mettle.dict -runs="$runs" -max_len="${MAX_LEN:-1024}" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@"
