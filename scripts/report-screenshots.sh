#!/usr/bin/env bash
# Regenerates docs/report.png (the demo's run at 1400 px, the README's picture), docs/report-demo-800.png and
# docs/report-goal-not-met-{1400,800}.png: the demo test and the goal-not-met test record their runs with the
# built CLI, open `flower report <run>` in the system's headless Chromium at both widths and, with
# FLOWER_REPORT_SCREENSHOTS set, save the pages.
#
#   npm run build && bash scripts/report-screenshots.sh
#
# Needs Debian's `chromium` (apt-get install -y chromium) or FLOWER_CHROMIUM=/path/to/chromium. The PNGs
# are reduced to a palette when `pngquant` is installed (a few hundred KB each at most).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
FLOWER_REPORT_SCREENSHOTS="$out" npx vitest run test/e2e/cli/demo.test.ts test/e2e/cli/goal-not-met.test.ts
for file in "$out"/*.png; do
  if command -v pngquant >/dev/null; then pngquant --force --quality 60-90 --output "$file" "$file"; fi
  name="$(basename "$file")"
  [ "$name" = report-demo-1400.png ] && name=report.png
  cp "$file" "docs/$name"
  echo "docs/$name $(($(stat -c %s "$file") / 1024)) KB"
done
