#!/usr/bin/env bash
# Renders the reference card of every shipped ruleset to HTML, then with headless Chromium to PNG (the
# top of the page, at A4 size in pixels) and to PDF on Letter (Chromium's default paper) and on A4, to
# look at how they print. Not run in CI.
#
#   scripts/render-cards.sh [OUT_DIR]     (default: target/cards)
#
# Needs chromium (`apt-get install -y chromium`). The PNGs and PDFs are for looking at, not for
# committing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/target/cards"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
  echo "render-cards: chromium not found; install it with: apt-get install -y chromium" >&2
  exit 1
fi

cargo build --quiet --manifest-path "$root/Cargo.toml"
mettle="$root/target/debug/mettle"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# Headless Chromium with a throwaway profile and nothing fetched in the background.
shoot() {
  "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@" 2>/dev/null
}

# From the crate's folder, so that each card names its ruleset as `rulesets/NAME.mettle`.
cd "$root"
for ruleset in rulesets/*.mettle; do
  name=$(basename "$ruleset" .mettle)
  "$mettle" card "$ruleset" -o "$out/$name.html"
  # The same page with A4 paper asked for, to print the A4 PDF.
  sed 's/@page {/@page { size: A4;/' "$out/$name.html" > "$out/$name.a4.html"
  shoot --screenshot="$out/$name.png" --window-size=1240,1754 "file://$out/$name.html"
  shoot --print-to-pdf="$out/$name.pdf" --no-pdf-header-footer "file://$out/$name.html"
  shoot --print-to-pdf="$out/$name.a4.pdf" --no-pdf-header-footer "file://$out/$name.a4.html"
  echo "$out/$name.png $out/$name.pdf $out/$name.a4.pdf"
done
