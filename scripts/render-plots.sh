#!/usr/bin/env bash
# Draws the odds charts of `mettle odds --plot` for a few shipped checks (one check with its target,
# a sweep over one input as lines, over two as a heat map, over three as bars, a long title, a bare
# dice expression), then renders each SVG to PNG with headless Chromium, to look at them. Not run in
# CI.
#
#   scripts/render-plots.sh [OUT_DIR]     (default: target/plots)
#
# Needs chromium (`apt-get install -y chromium`). The PNGs are for looking at, not for committing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/target/plots"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
  echo "render-plots: chromium not found; install it with: apt-get install -y chromium" >&2
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
    --hide-scrollbars --user-data-dir="$profile" "$@" 2>/dev/null
}

cd "$root"
f=rulesets/infinite_frontiers.mettle
t=rulesets/traveller_morale.mettle
plot() {
  local name=$1
  shift
  "$mettle" odds "$@" --plot "$out/$name.svg" > /dev/null
}
plot one "$f" morale --set spi=2 --set leadership=1
plot lines "$f" morale --sweep spi=0..6 --group fail=broken,shaken
plot heat "$f" morale --sweep spi=0..6 --sweep leadership=0..3 --group fail=broken,shaken
plot heat_outcome "$f" morale --sweep spi=0..6 --sweep comms --plot-of steady
plot bars "$f" morale --sweep spi=0..2 --sweep leadership=0..1 --sweep comms
plot long_title "$f" morale --set spi=0 --set leadership=1 --set comms=yes --set inspired=yes --option bonus_die=extra_d6 --sweep steadying
plot names "$t" morale --set dm=0 --sweep difficulty
"$mettle" odds --dice '4d6kh3' --plot "$out/dice.svg" > /dev/null

for svg in "$out"/*.svg; do
  name=$(basename "$svg" .svg)
  # The picture's own size, so the screenshot shows all of it and nothing else.
  height=$(grep -o 'height="[0-9.]*"' "$svg" | head -1 | grep -o '[0-9.]*' | cut -d. -f1)
  printf '<!doctype html><body style="margin:0">%s</body>' "$(cat "$svg")" > "$out/$name.html"
  shoot --screenshot="$out/$name.png" --window-size="820,$height" "file://$out/$name.html"
  echo "$out/$name.png"
done
