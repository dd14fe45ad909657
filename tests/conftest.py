"""Every test, and every process a test starts, runs the engine's source: a compiled build in the
user's cache (`fengsheng engine build`) is never loaded into a test by chance
(tests/test_compiled_engine.py gives its processes their own cache and lifts this)."""

from __future__ import annotations

import os

os.environ["FENGSHENG_ENGINE"] = "interpreted"
