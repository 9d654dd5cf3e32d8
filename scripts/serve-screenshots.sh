#!/usr/bin/env bash
# Regenerates docs/serve.png (the live page of `flower serve` with the demo's run and a run in progress, its
# context gauge mid-run) and docs/serve-fleet.png (a fleet's queue, one run cancelled from the page). The two
# browser tests drive them through the built CLI (the offline kit, a throwaway PostgreSQL), open the page in
# the system's headless Chromium and, with FLOWER_SERVE_SCREENSHOTS set, save it.
#
#   npm run build && bash scripts/serve-screenshots.sh
#
# Needs Debian's `chromium` (apt-get install -y chromium) or FLOWER_CHROMIUM=/path/to/chromium. The PNG is
# reduced to a palette when `pngquant` is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
FLOWER_SERVE_SCREENSHOTS="$out" npx vitest run test/e2e/cli/serve-browser.test.ts test/integration/serve/serve-fleet-browser.test.ts
for file in "$out"/*.png; do
  if command -v pngquant >/dev/null; then pngquant --force --quality 60-90 --output "$file" "$file"; fi
  cp "$file" "docs/$(basename "$file")"
  echo "docs/$(basename "$file") $(($(stat -c %s "$file") / 1024)) KB"
done
