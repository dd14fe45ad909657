"""The layers import only downwards: engine <- net <- fengsheng_tui, and bots see views only."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Anything that does I/O, keeps time or touches the network has no place in the rules.
ENGINE_FORBIDDEN = (
    "asyncio", "socket", "selectors", "ssl", "time", "datetime", "os", "io", "sys", "subprocess",
    "threading", "multiprocessing", "pathlib", "shutil", "tempfile", "logging", "msgpack", "textual",
    "zeroconf", "net", "bots", "fengsheng_tui",
)
BOTS_FORBIDDEN = ("engine.game", "engine.state", "engine.functions", "net.server", "net.session", "fengsheng_tui")


def imports(path: Path) -> Iterator[str]:
    """Every absolute module name a file imports (relative imports resolved against its package)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            yield module
            for alias in node.names:
                yield f"{module}.{alias.name}"


def offending(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imports(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    return found


def test_the_engine_does_no_io_and_knows_no_upper_layer() -> None:
    assert offending("engine", ENGINE_FORBIDDEN) == []


def test_net_imports_nothing_from_the_terminal_app() -> None:
    assert offending("net", ("fengsheng_tui", "textual")) == []


def test_bots_decide_from_views_only() -> None:
    assert offending("bots", BOTS_FORBIDDEN) == []


def test_the_import_walker_sees_relative_and_nested_imports() -> None:
    path = ROOT / "engine" / "functions" / "burn.py"
    names = set(imports(path))
    assert "engine.cards.BLACK" in names and "engine.state.StackItem" in names


def test_the_core_loads_without_textual() -> None:
    modules = ["engine", "bots", "engine.selfplay", "net.records"]
    if (ROOT / "net" / "protocol.py").exists():
        modules.append("net.protocol")
    code = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'fengsheng_tui')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_command_chooses_its_engine_before_anything_imports_one() -> None:
    """The loader puts a compiled build ahead of the source only if no engine module is loaded yet:
    the command's module and the loader import none (fengsheng_tui.compiled.loader)."""
    code = ("import sys, fengsheng_tui.cli, fengsheng_tui.compiled.loader, fengsheng_tui.doors.guest, "
            "fengsheng_tui.doors.ssh_guest\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'bots', 'net')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("layer", ["engine", "net", "bots"])
def test_every_layer_has_code_to_check(layer: str) -> None:
    assert list((ROOT / layer).glob("*.py"))
