#!/usr/bin/env bash
# Create the environment (Debian's Chromium included) and run the whole test suite:
# backend, exact-bootstrap oracles, the shared test vectors, AppTest and the
# real-browser tests (Playwright driving /usr/bin/chromium).
# Usage: bash scripts/test.sh [pytest options]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! [ -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser tests"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

# The browser tests must run, not be skipped, when this script runs them.
export ROCCI_REQUIRE_BROWSER=1
exec .venv/bin/python -m pytest "$@"
