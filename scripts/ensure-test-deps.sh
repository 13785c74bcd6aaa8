#!/usr/bin/env bash
# What the test suite needs beyond node_modules: Debian's chromium for the browser tests.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "> installing chromium from Debian's packages for the browser tests"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Chromium at /usr/bin/chromium: install it (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
  [ -n "${CHROMIUM_PATH:-}" ] || exit 1
fi
