#!/usr/bin/env bash
# Create the environment (Debian's Chromium and Java included) and run the whole test suite:
# backend, exact-bootstrap oracles, the shared test vectors, AppTest, the
# real-browser tests (Playwright driving /usr/bin/chromium), rocci.scan's
# Spark tests (PySpark in local mode, which needs Java 17 or later), the documentation
# site's strict build and the wheel (tests/test_docs.py, tests/test_wheel.py).
# Usage: bash scripts/test.sh [--quick] [pytest options]
#   --quick: only the quick tier (the core, the enumeration oracles, the doctests, the figures; a few
#   minutes): every test not marked slow, browser, apptest, spark or montecarlo (see conftest.py).
#   Without it every test runs, as CI does (.ci/run).  One tier: bash scripts/test.sh -m browser
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK_TIER="not slow and not browser and not apptest and not spark and not montecarlo"
quick=0
args=()
for arg in "$@"; do
  if [ "$arg" = "--quick" ]; then quick=1; else args+=("$arg"); fi
done

# Debian packages the tests need and the machine lacks: one `apt-get update` for all of them.
missing=()
if ! [ -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser tests"
  missing+=(chromium)
fi
if ! command -v java >/dev/null 2>&1; then
  echo "== installing Debian's Java (default-jre-headless) for the Spark tests"
  missing+=(default-jre-headless)
fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

# Anchors whose dependencies clash with rocci's pins (dcurves needs pandas < 3) get their own environment;
# the tests that use them run it in a subprocess (tests/anchors/).
if [ ! -x .venv-anchors/bin/python ]; then
  python3 -m venv .venv-anchors
fi
.venv-anchors/bin/python -m pip install --quiet --disable-pip-version-check -r tests/anchors/requirements-dcurves.txt

# The full tier builds the documentation site (tests/test_docs.py): its tools live in .venv-docs/, made
# from docs/requirements.txt by the script that builds the site. The quick tier does not need them.
if [ "$quick" -eq 0 ]; then
  bash scripts/docs.sh --setup
fi

# The browser, anchor and documentation tests must run, not be skipped, when this script runs them.
export ROCCI_REQUIRE_BROWSER=1
export ROCCI_ANCHOR_PYTHON="$PWD/.venv-anchors/bin/python"
if [ "$quick" -eq 1 ]; then
  exec .venv/bin/python -m pytest -m "$QUICK_TIER" ${args[@]+"${args[@]}"}
fi
exec .venv/bin/python -m pytest ${args[@]+"${args[@]}"}
