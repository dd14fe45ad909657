"""How a printed command names this program, so that the line can be typed as it stands.

README's quick start runs the game as `.venv/bin/fengsheng` (scripts/play keeps it in the
checkout's venv, off the PATH): a hint that says `fengsheng join …` there answers "command not
found". The program is named as it was run, unless the PATH finds that same file as `fengsheng`.
"""

from __future__ import annotations

import os
import shutil
import sys


def program(argv0: str | None = None) -> str:
    """`fengsheng` where the PATH finds the program being run under that name, else the path it was
    run by (`.venv/bin/fengsheng`, as typed); `fengsheng` when it was not run as a file at all."""
    ran = argv0 if argv0 is not None else sys.argv[0]
    if os.path.basename(ran) != "fengsheng" or not os.path.isfile(ran):
        return "fengsheng"  # `python -m …`, a test harness: no better name to give
    found = shutil.which("fengsheng")
    if found is not None and os.path.samefile(found, ran):
        return "fengsheng"
    return ran
