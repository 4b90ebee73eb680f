#!/usr/bin/env bash
# Create the environment (once) and start the dashboard on the bundled sample data.
# Usage: bash scripts/run.sh [extra streamlit options]
#   e.g. bash scripts/run.sh --server.port 8502
#        bash scripts/run.sh --server.address 0.0.0.0   # serve to the network (docs/deployment.md, "Serving to a network")
#        ROCCI_DATA_DIR=/srv/scores bash scripts/run.sh   # offer the files of a directory as "Large data (server)"
# The dashboard listens on 127.0.0.1 (this computer only) unless told otherwise (.streamlit/config.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== %s\n' "$*"; }

if [ ! -x .venv/bin/python ]; then
  if ! command -v python3 >/dev/null; then
    say "python3 was not found: install Python 3.11 or later, then run this script again."
    exit 1
  fi
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    say "rocci needs Python 3.11 or later; python3 is $(python3 -V 2>&1)."
    exit 1
  fi
  say "First run: creating the Python environment in .venv/"
  python3 -m venv .venv
fi

# Install when requirements.txt changed since the last successful install (a stamp in .venv/ records it).
stamp=.venv/.rocci-requirements
if [ ! -f "$stamp" ] || ! cmp -s requirements.txt "$stamp"; then
  if [ -f "$stamp" ]; then
    say "requirements.txt changed: updating the packages in .venv/"
  else
    say "Installing the packages (numpy, scipy, pandas, streamlit, plotly...): about two minutes the first time"
  fi
  log=.venv/pip-install.log
  set +e
  .venv/bin/python -m pip install --disable-pip-version-check --progress-bar off -r requirements.txt 2>&1 \
    | tee "$log" \
    | while IFS= read -r line; do
        line="${line%% (from *}"
        case "$line" in
          Collecting*) printf '   %s\n' "$line" ;;
          Processing*) wheel="${line##*/}"; rest="${wheel#*-}"; printf '   Collecting %s %s\n' "${wheel%%-*}" "${rest%%-*}" ;;
          "Installing collected packages"*) printf '   Installing them (the longest step)...\n' ;;
          "Successfully installed"*) printf '   Installed.\n' ;;
        esac
      done
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$log"
    say "Installing the packages failed (full log: $log)."
    exit "$status"
  fi
  cp requirements.txt "$stamp"
  say "Packages ready."
fi

# Where the server will listen: the last --server.address / --server.port given, else the config's.
address=127.0.0.1 port=8501 prev=""
for arg in "$@"; do
  case "$prev" in
    --server.address) address="$arg" ;;
    --server.port) port="$arg" ;;
  esac
  case "$arg" in
    --server.address=*) address="${arg#*=}" ;;
    --server.port=*) port="${arg#*=}" ;;
  esac
  prev="$arg"
done
case "$address" in
  127.*|localhost|::1) where="this computer only"; url="http://localhost:$port" ;;
  0.0.0.0|::) where="every network interface"; url="http://<this machine's name or address>:$port" ;;
  *) where="$address"; url="http://$address:$port" ;;
esac
say "Starting the dashboard ($where): open $url in a browser. Ctrl+C stops it."
if [ -n "${ROCCI_DATA_DIR:-}" ]; then
  say "Large data (server): the Data page offers the files under $ROCCI_DATA_DIR (nothing outside it is read)."
fi
# glibc: give large freed buffers back to the system (memory returns to its baseline after big
# uploads; bench/README.md, "Load test"). Kept if already set.
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}" MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# One BLAS thread per computation: sessions already share the cores, and on a busy 2-core machine a threaded
# dot product ran 30-40x slower than a single-threaded one (bench/README.md, compare_cost). Kept if set.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}" OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
exec .venv/bin/python -m streamlit run app.py --browser.gatherUsageStats=false "$@"
