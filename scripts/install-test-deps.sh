#!/usr/bin/env bash
# The system packages the test suite needs, installed only where missing (Debian, as root). `npm test`
# runs this first (pretest), so `npm ci && npm test` is the whole set-up on a fresh machine; when all is
# there it prints nothing and exits at once. Not root and something missing: it says the command, fails.
# - PostgreSQL 15: the shared-store tests start a throwaway server of their own (initdb + postgres);
# - Chromium: the HTML report is opened in a real headless browser;
# - tmux: the live view is watched on a real terminal (what the screen shows while a reply is slow).
# Neither is downloaded by npm; both come from Debian's packages.
set -euo pipefail
missing=()
if ! command -v pg_config >/dev/null 2>&1 || [ ! -x "$(pg_config --bindir)/initdb" ]; then
  missing+=(postgresql-15)
fi
if ! command -v chromium >/dev/null 2>&1; then
  missing+=(chromium)
fi
if ! command -v tmux >/dev/null 2>&1; then
  missing+=(tmux)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-deps: the tests need ${missing[*]}, which this machine lacks, and installing needs root." >&2
  echo "Install them with: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  echo "then run npm test again." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
