"""The optional compiled engine: the same pure `engine/` source, compiled to C by mypyc into the
user's cache, verified against the interpreted engine, and imported instead of it where it exists.

- `loader.py`: which engine this process runs (`activate`, called first by every entry point), the
  cache layout and the key of a build; cheap, and imports no engine;
- `build.py`: `fengsheng engine build` and bench/compiled.py: compile, verify, mark usable;
- `check.py`: the games both engines must play alike, run by `build.py` in child processes.

Nothing imports the engine at this package's import, so the loader can choose before anyone does.
"""
