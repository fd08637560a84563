#!/usr/bin/env bash
# Two service processes over one PostgreSQL: B starts on an empty database, A imports the bundled pack; B must
# serve the new data within a few seconds of A reporting it installed (the market version moves; B rebuilds).
# Usage: bash scripts/convergence.sh [admin-url]   (default postgres://postgres@127.0.0.1:5432/postgres)
set -euo pipefail
admin=${1:-postgres://postgres@127.0.0.1:5432/postgres}
db="psx_converge_$$"
url="${admin%/*}/$db"
psql "$admin" -qc "CREATE DATABASE $db"
pa=$((21000 + RANDOM % 2000)); pb=$((pa + 1))
cleanup() { kill "${A:-}" "${B:-}" 2>/dev/null || true; wait 2>/dev/null || true; psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true; }
trap cleanup EXIT
DATABASE_URL=$url PSX_AUTO_IMPORT=false PORT=$pb PSX_READ_MODEL_POLL_MS=500 LOG_LEVEL=Warn node src/main.ts serve > /dev/null 2>&1 &
B=$!
for _ in $(seq 1 120); do curl -sf -m 5 "http://127.0.0.1:$pb/ready" > /dev/null && break; sleep 0.5; done
code=$(curl -s -m 5 -o /dev/null -w "%{http_code}" "http://127.0.0.1:$pb/v1/quotes/HUBC?allow_stale=true" || true)
[ "$code" = 404 ] || { echo "instance B answered $code before any ingest"; exit 1; }
DATABASE_URL=$url PORT=$pa LOG_LEVEL=Warn node src/main.ts serve > /dev/null 2>&1 &
A=$!
installed=0
for _ in $(seq 1 240); do
  if curl -s -m 5 "http://127.0.0.1:$pa/ready" | grep -q '"installed"'; then installed=1; break; fi
  sleep 2
done
[ $installed = 1 ] || { echo "instance A did not install the pack"; exit 1; }
start=$(date +%s.%N)
for _ in $(seq 1 60); do
  code=$(curl -s -m 5 -o /dev/null -w "%{http_code}" "http://127.0.0.1:$pb/v1/quotes/HUBC?allow_stale=true" || true)
  if [ "$code" = 200 ]; then
    a=$(curl -s -m 5 "http://127.0.0.1:$pa/v1/quotes/HUBC?allow_stale=true")
    b=$(curl -s -m 5 "http://127.0.0.1:$pb/v1/quotes/HUBC?allow_stale=true")
    [ "$a" = "$b" ] || { echo "the two instances answer differently"; exit 1; }
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "convergence: instance B served the ingest %.1f s after instance A reported it installed\n", e - s }'
    exit 0
  fi
  sleep 0.25
done
echo "instance B did not serve the ingest within 15 s"; exit 1
