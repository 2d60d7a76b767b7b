#!/usr/bin/env bash
# Renders the reference card of every shipped ruleset to HTML, then to PNG (the first page, at A4
# size in pixels) and PDF with headless Chromium, to look at how they print. Not run in CI.
#
#   scripts/render-cards.sh [OUT_DIR]     (default: target/cards)
#
# Needs chromium (`apt-get install -y chromium`). The PNGs and PDFs are for looking at, not for
# committing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/target/cards"}
mkdir -p "$out"
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
  echo "render-cards: chromium not found; install it with: apt-get install -y chromium" >&2
  exit 1
fi

cargo build --quiet --manifest-path "$root/Cargo.toml"
mettle="$root/target/debug/mettle"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

for ruleset in "$root"/rulesets/*.mettle; do
  name=$(basename "$ruleset" .mettle)
  "$mettle" card "$ruleset" -o "$out/$name.html"
  for shot in "--screenshot=$out/$name.png --window-size=1240,1754" "--print-to-pdf=$out/$name.pdf --no-pdf-header-footer"; do
    # shellcheck disable=SC2086 # each `shot` is two flags
    "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$profile" $shot "file://$out/$name.html" 2>/dev/null
  done
  echo "$out/$name.png $out/$name.pdf"
done
