#!/usr/bin/env bash
# Checks a running service answers the contract's fixed points: error records, never empty bodies.
set -euo pipefail
base=$1
code=$(curl -s -o /tmp/smoke.body -w '%{http_code}' "$base/nope")
[ "$code" = 404 ] && grep -q '"DATA_NOT_FOUND"' /tmp/smoke.body || { echo "unknown route: $code $(cat /tmp/smoke.body)"; exit 1; }
echo "smoke checks passed"
