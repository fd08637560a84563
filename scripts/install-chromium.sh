#!/usr/bin/env bash
# Installs Debian's chromium for the website's browser tests (test/e2e) and
# `npm run screenshots`. Idempotent: does nothing when /usr/bin/chromium runs.
set -euo pipefail
if [ -x /usr/bin/chromium ] && /usr/bin/chromium --version >/dev/null 2>&1; then
  echo "chromium present: $(/usr/bin/chromium --version 2>/dev/null)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation
/usr/bin/chromium --version
