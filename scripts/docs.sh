#!/usr/bin/env bash
# Build the documentation site into site/ (mkdocs.yml), strictly: a broken link, a missing reference,
# a docstring mkdocstrings cannot render, an example that raises or the notebook failing stops the build.
# Creates .venv-docs/ from docs/requirements.txt the first time (and again when that file changes).
# Usage: bash scripts/docs.sh [mkdocs build options]     e.g. bash scripts/docs.sh --site-dir /tmp/site
#        bash scripts/docs.sh --setup                      only make .venv-docs/ (scripts/test.sh, full tier)
#        .venv-docs/bin/mkdocs serve                       (after one build: a live preview on :8000)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== %s\n' "$*"; }

if [ ! -x .venv-docs/bin/python ]; then
  say "First run: creating the documentation environment in .venv-docs/"
  python3 -m venv .venv-docs
fi
stamp=.venv-docs/.rocci-docs-requirements
if [ ! -f "$stamp" ] || ! cmp -s docs/requirements.txt "$stamp"; then
  say "Installing the documentation tools (docs/requirements.txt)"
  .venv-docs/bin/python -m pip install --quiet --disable-pip-version-check -r docs/requirements.txt
  cp docs/requirements.txt "$stamp"
fi
if [ "${1:-}" = "--setup" ]; then
  exit 0
fi

# The examples (scripts/docs_hooks.py) and the notebook's kernel import rocci from this checkout; the
# kernel is the docs environment's own (its kernelspec, found first through JUPYTER_DATA_DIR).
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export JUPYTER_DATA_DIR="$PWD/.venv-docs/share/jupyter" JUPYTER_PLATFORM_DIRS=1
export NO_MKDOCS_2_WARNING=1 OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
start=$(date +%s)
.venv-docs/bin/mkdocs build --strict "$@"
say "Site built in $(( $(date +%s) - start )) s (open site/index.html, or the --site-dir given)."
