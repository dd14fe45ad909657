# Sourced by scripts/play and scripts/test: create .venv and install the project once per pyproject
# change. The caller sets `extras` (scripts/test: "test"); playing installs the game's own
# dependencies only, so a first game does not wait for the test tools.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
extras=${extras:-}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "fengsheng needs Python 3.11 or newer (found: $("$PY" --version 2>&1))." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "fengsheng: creating .venv (once) ..." >&2
  "$PY" -m venv .venv || { echo "Could not create a venv: install python3-venv (apt-get install python3-venv)." >&2; exit 1; }
fi
sum=$(cksum < pyproject.toml | cut -d' ' -f1)
stamp=.venv/.installed${extras:+-$extras}-$sum
# A venv with the test tools also has everything playing needs.
if [ ! -f "$stamp" ] && { [ -n "$extras" ] || [ ! -f ".venv/.installed-test-$sum" ]; }; then
  spec=.${extras:+[$extras]}
  echo "fengsheng: installing $spec into .venv (once; pip's progress follows) ..." >&2
  set +e
  .venv/bin/python -m pip install --disable-pip-version-check --progress-bar on -e "$spec" 2>&1 \
    | grep --line-buffered -v "is ignored: it is neither a file nor a directory" >&2
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "fengsheng: pip could not install $spec (see its messages above)." >&2; exit 1; }
  find .venv -maxdepth 1 -name '.installed*' ! -name ".installed*-$sum" -delete
  touch "$stamp"
fi
