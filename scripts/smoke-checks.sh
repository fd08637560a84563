#!/usr/bin/env bash
# Checks a running service answers the contract's fixed points: error records, never empty bodies.
set -euo pipefail
base=$1
code=$(curl -s -o /tmp/smoke.body -w '%{http_code}' "$base/nope")
[ "$code" = 404 ] && grep -q '"DATA_NOT_FOUND"' /tmp/smoke.body || { echo "unknown route: $code $(cat /tmp/smoke.body)"; exit 1; }
code=$(curl -s -o /tmp/smoke.body -w '%{http_code}' "$base/v1/companies?limit=abc")
[ "$code" = 400 ] && grep -q '"INVALID_REQUEST"' /tmp/smoke.body || { echo "bad limit: $code $(cat /tmp/smoke.body)"; exit 1; }
code=$(curl -s -o /tmp/smoke.body -w '%{http_code}' "$base/v1/me/holdings")
[ "$code" = 401 ] && grep -q '"UNAUTHORIZED"' /tmp/smoke.body || { echo "holdings without a key: $code $(cat /tmp/smoke.body)"; exit 1; }
echo "error records checked"
