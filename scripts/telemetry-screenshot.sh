#!/usr/bin/env bash
# Regenerates docs/telemetry-trace.png: the telemetry e2e test runs `flower demo` against a local OTLP/HTTP
# receiver, draws the trace it received as a waterfall (test/support/trace-waterfall.ts) in the system's
# headless Chromium and, with FLOWER_TELEMETRY_SCREENSHOT set, saves the page.
#
#   npm run build && bash scripts/telemetry-screenshot.sh
#
# Needs Debian's `chromium` (or FLOWER_CHROMIUM=/path/to/chromium); the PNG is reduced to a palette when
# `pngquant` is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
file="$(mktemp --suffix=.png)"
trap 'rm -f "$file"' EXIT
FLOWER_TELEMETRY_SCREENSHOT="$file" npx vitest run test/e2e/cli/telemetry-demo.test.ts
if command -v pngquant >/dev/null; then pngquant --force --quality 60-90 --output "$file" "$file"; fi
cp "$file" docs/telemetry-trace.png
echo "docs/telemetry-trace.png $(($(stat -c %s "$file") / 1024)) KB"
