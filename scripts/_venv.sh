# Sourced by scripts/play and scripts/test: create .venv and install the project once per pyproject change.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "fengsheng needs Python 3.11 or newer (found: $("$PY" --version 2>&1))." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv || { echo "Could not create a venv: install python3-venv (apt-get install python3-venv)." >&2; exit 1; }
fi
stamp=.venv/.installed-$(cksum < pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
  rm -f .venv/.installed-* && touch "$stamp"
fi
