#!/usr/bin/env bash
# Create the environment (once) and start the dashboard on the bundled sample data.
# Usage: bash scripts/run.sh [extra streamlit options]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec .venv/bin/python -m streamlit run app.py --browser.gatherUsageStats=false "$@"
