#!/bin/sh
# Runs Deno (opt-in: not a dependency of the default install). The first call installs the pinned
# release from the npm registry into .data/deno; later calls reuse it. Usage: sh scripts/deno.sh run -A src/main.ts serve
set -e
dir="$(cd "$(dirname "$0")/.." && pwd)/.data/deno"
if [ ! -x "$dir/node_modules/.bin/deno" ]; then
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error deno@2.9.5 >&2
fi
exec "$dir/node_modules/.bin/deno" "$@"
