"""Terminal UI benchmarks in a real terminal (tmux, 80×24): cold start and key-to-repaint latency.

    .venv/bin/python bench/tui_bench.py [--runs 5] [--presses 30] [--poll-ms 2]

Cold start: time from starting `fengsheng play` in a new tmux session until the table's text
appears in `capture-pane` (median of several runs; target ≤ 0.8 s).
Key to repaint: at the table, press `?` (help opens) and `?` again (help closes) in turn and
poll `capture-pane` until the screen shows the change (median and p95 over 30 presses, and for
opening and closing apart; target median ≤ 30 ms). Then a hand-card selection: in the first
response window of `--select-command` (seed 1: a 试探 played on us, 识破 in hand as card 2),
press `2` (the card is chosen: its target line shows) and Backspace (backed out) in turn. `--close-key Escape` measures Esc, which
also waits out Textual's ESCDELAY (100 ms) to tell a lone Esc from an escape sequence.

Bytecode: the game starts with its compiled modules cached (in the benchmark's own temporary
`PYTHONPYCACHEPREFIX`, filled by one start that is timed apart as "first start"), as after a
`pip install` or any earlier start; an environment with PYTHONDONTWRITEBYTECODE would otherwise
compile some hundred modules from source at every start and time that instead.

Load: the machine may be busy. Each figure is also given as a ratio to the same measurement of
bench/tui_reference.py (a bare Textual app with one line and a footer) taken in the same run, and
the load average is printed before and after.

The resolution is bounded by the polling: each poll is one `tmux capture-pane` process (its own
cost is measured and printed) plus `--poll-ms` of sleep. The key time also includes starting the
`tmux send-keys` client. Both figures are therefore upper bounds on what a player sees.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

FENGSHENG = str(Path(sys.executable).with_name("fengsheng"))
TABLE_MARKER = "刚才："  # the last-action banner: present once the table has painted
HELP_MARKER = "规则摘要"  # the help screen's first heading
RESPONSE_MARKER = "响应：数字选牌"  # our response prompt is open
CHOSEN_MARKER = "回车 确认，"  # a card is chosen: the prompt line asks to confirm its target (the footer says 回车 确认 too, without the comma)
ENV = {"TEXTUAL_ANIMATIONS": "none", "LANG": "C.UTF-8"}
REFERENCE = [sys.executable, str(Path(__file__).with_name("tui_reference.py"))]
REFERENCE_READY, REFERENCE_SHOWN = "REFERENCE READY", "REFERENCE HELP"
#: A new tmux socket for every session: a killed server's socket is not reused.
SOCKETS = itertools.count()


class Tmux:
    """One detached tmux session on a private socket."""

    def __init__(self, socket_path: Path) -> None:
        self.socket = str(socket_path)
        # Replays, journals and compiled modules of the benchmark go to its temporary directory.
        self.env = {**ENV, "XDG_DATA_HOME": str(socket_path.parent / "data"),
                    "PYTHONPYCACHEPREFIX": str(socket_path.parent / "pycache")}

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True, timeout=10
        ).stdout

    def start(self, command: list[str], width: int = 80, height: int = 24) -> None:
        env = [arg for key, value in self.env.items() for arg in ("-e", f"{key}={value}")]
        subprocess.run(
            [
                "tmux",
                "-S",
                self.socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "b",
                "-x",
                str(width),
                "-y",
                str(height),
                *env,
                shlex.join(["env", "-u", "PYTHONDONTWRITEBYTECODE", *command]),
            ],
            check=True,
            timeout=10,
        )

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", "b")

    def send(self, key: str) -> None:
        self.run("send-keys", "-t", "b", key)

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=10)


def poll_until(tmux: Tmux, test: Callable[[str], bool], poll: float, timeout: float = 15.0) -> str:
    deadline = time.perf_counter() + timeout
    while True:
        screen = tmux.capture()
        if test(screen):
            return screen
        if time.perf_counter() > deadline:
            raise TimeoutError(f"no matching screen after {timeout} s; last screen:\n{screen}")
        time.sleep(poll)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cold_start(workdir: Path, command: list[str], marker: str, runs: int, poll: float) -> list[float]:
    times = []
    for _ in range(runs):
        tmux = Tmux(workdir / f"cold-{next(SOCKETS)}.sock")
        try:
            started = time.perf_counter()
            tmux.start(command)
            poll_until(tmux, lambda screen: marker in screen, poll, timeout=60.0)  # a loaded machine
            times.append(time.perf_counter() - started)
        finally:
            tmux.kill()
    return times


def key_to_repaint(
    workdir: Path,
    command: list[str],
    marker: str | Callable[[str], bool],
    keys: tuple[str, str],
    shown: str,
    presses: int,
    poll: float,
) -> tuple[list[float], list[float]]:
    """Press `keys[0]` (shows the text `shown`) and `keys[1]` (hides it) in turn; time each repaint.

    Returns the opening and the closing times apart: opening builds a whole screen, closing only
    uncovers the table. Waiting for that text, not for any change, keeps bot moves and the
    once-a-second countdown from passing for a repaint.
    """
    tmux = Tmux(workdir / f"keys-{next(SOCKETS)}.sock")
    times: tuple[list[float], list[float]] = ([], [])
    try:
        tmux.start(command)
        ready = marker if callable(marker) else (lambda screen: marker in screen)
        poll_until(tmux, ready, poll)
        time.sleep(0.5)  # let the initial layout settle
        for press in range(presses):
            opening = press % 2 == 0

            def repainted(screen: str, opening: bool = opening) -> bool:
                return (shown in screen) == opening

            started = time.perf_counter()
            tmux.send(keys[press % 2])
            poll_until(tmux, repainted, poll, timeout=5.0)
            times[press % 2].append(time.perf_counter() - started)
            time.sleep(0.05)
    finally:
        tmux.kill()
    return times


def summary(seconds: list[float], reference: list[float] | None = None) -> str:
    ms = [t * 1000 for t in seconds]
    ratio = f"; {statistics.median(seconds) / statistics.median(reference):.2f}× the reference" if reference else ""
    return f"median {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, max {max(ms):.0f} ms{ratio}"


def load() -> str:
    return f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"


def capture_cost(workdir: Path, samples: int = 50) -> float:
    """Median seconds for one `tmux capture-pane` round trip: the floor of every measurement here."""
    tmux = Tmux(workdir / "cost.sock")
    try:
        tmux.start(["sleep", "30"])
        costs = []
        for _ in range(samples):
            started = time.perf_counter()
            tmux.capture()
            costs.append(time.perf_counter() - started)
        return statistics.median(costs)
    finally:
        tmux.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="cold starts to time (default 5)")
    parser.add_argument("--presses", type=int, default=30, help="key presses to time (default 30)")
    parser.add_argument("--poll-ms", type=float, default=2.0, help="sleep between polls, ms (default 2)")
    parser.add_argument("--marker", default=TABLE_MARKER, help="text that shows the table has painted")
    parser.add_argument("--open-key", default="?", help="tmux name of the key that opens help (default ?)")
    parser.add_argument(
        "--close-key", default="?", help="tmux name of the key that closes it (default ?; try Escape)"
    )
    parser.add_argument("--shown", default=HELP_MARKER, help="text present only while help is open")
    parser.add_argument("--command", default=f"{FENGSHENG} play --seed 1 --lang zh", help="the app to start")
    parser.add_argument("--select-command", default=f"{FENGSHENG} play --seed 1 --lang zh --timer response=600",
                        help="the app for the hand-card selection (its first prompt a response with card 2 usable)")
    args = parser.parse_args(argv)
    poll = args.poll_ms / 1000
    command = shlex.split(args.command)
    with tempfile.TemporaryDirectory(prefix="tui-bench-") as tmp:
        workdir = Path(tmp)
        print(f"load average before: {load()}")
        floor = capture_cost(workdir)
        print(f"one capture-pane round trip: median {floor * 1000:.1f} ms; poll sleep {args.poll_ms:g} ms")
        first = cold_start(workdir, command, args.marker, 1, poll)  # compiles and caches the bytecode
        reference_first = cold_start(workdir, REFERENCE, REFERENCE_READY, 1, poll)
        print(f"first start (compiling every module): {first[0]:.3f} s; reference {reference_first[0]:.3f} s")
        cold = cold_start(workdir, command, args.marker, args.runs, poll)
        reference = cold_start(workdir, REFERENCE, REFERENCE_READY, args.runs, poll)
        print(
            f"cold start to first table frame: median {statistics.median(cold):.3f} s "
            f"(min {min(cold):.3f}, max {max(cold):.3f}, {len(cold)} runs; target ≤ 0.8 s); "
            f"reference (bare Textual) median {statistics.median(reference):.3f} s: "
            f"{statistics.median(cold) / statistics.median(reference):.2f}× the reference"
        )
        ref_open, ref_close = key_to_repaint(workdir, REFERENCE, REFERENCE_READY, ("?", "?"), REFERENCE_SHOWN,
                                             args.presses, poll)
        ref_keys = ref_open + ref_close
        print(f"reference key to repaint (bare Textual, one line shown/hidden): {summary(ref_keys)}")
        keys = (args.open_key, args.close_key)
        opened, closed = key_to_repaint(workdir, command, args.marker, keys, args.shown, args.presses, poll)
        print(
            f"key to repaint, all {len(opened) + len(closed)} presses: {summary(opened + closed, ref_keys)} "
            "(target median ≤ 30 ms)"
        )
        print(f"  {keys[0]!r} shows {args.shown!r} ({len(opened)}): {summary(opened)}")
        print(f"  {keys[1]!r} hides it ({len(closed)}): {summary(closed)}")
        chosen, backed = key_to_repaint(workdir, shlex.split(args.select_command),
                                        lambda screen: RESPONSE_MARKER in screen, ("2", "BSpace"), CHOSEN_MARKER,
                                        args.presses, poll)
        print(f"hand-card selection, all {len(chosen) + len(backed)} presses: {summary(chosen + backed, ref_keys)} "
              "(target median ≤ 30 ms)")
        print(f"  '2' chooses the card ({len(chosen)}): {summary(chosen)}")
        print(f"  Backspace backs out ({len(backed)}): {summary(backed)}")
        print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
