"""SSH door benchmark: time from `ssh` to the table lobby on screen, and memory per guest.

    .venv/bin/python bench/door_bench.py              # 2×5 timed logins, then 8 guests at once
    .venv/bin/python bench/door_bench.py --logins 10 --guests 8 --json

Real parts only: a `fengsheng host --ssh` on loopback, the OpenSSH client in tmux (the guest's
terminal). A login is timed from starting `ssh` to the name prompt on screen, and from Enter to
the table lobby showing the guest's seat: Enter pressed at once (the client starts from nothing),
and after `--pause` seconds at the prompt (the door's spare client has loaded meanwhile, as it has
for a guest who reads the prompt or types his name).
Memory is read from /proc for each guest's client process (RSS, and PSS, which splits shared
pages fairly) and for the host process before and after the guests came in.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENGSHENG = str(Path(sys.executable).with_name("fengsheng"))
PROMPT = "名字 Name: "


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process in KiB."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


class Tmux:
    """One private tmux server; each guest is a session on it (80×24)."""

    def __init__(self, folder: Path) -> None:
        self.socket = str(folder / "tmux.sock")

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", *args], capture_output=True,
                              text=True, check=True, timeout=10).stdout

    def start(self, name: str, command: list[str]) -> None:
        import shlex

        self.run("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-e", "TEXTUAL_ANIMATIONS=none",
                 shlex.join(command))

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def wait(self, name: str, want: str, timeout: float = 30.0) -> float:
        start = time.perf_counter()
        while want not in self.screen(name):
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"{name}: no {want!r} after {timeout} s:\n{self.screen(name)}")
            time.sleep(0.01)
        return time.perf_counter()

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def ssh_command(port: int, user: str, key: Path) -> list[str]:
    return ["ssh", "-F", "/dev/null", "-p", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "SetEnv=TEXTUAL_ANIMATIONS=none", f"{user}@127.0.0.1"]


def start_host(folder: Path, players: int) -> tuple[subprocess.Popen[str], Path, int]:
    log = folder / "host.log"
    process = subprocess.Popen(
        [FENGSHENG, "host", "--no-advertise", "--interface", "127.0.0.1", "--port", "0", "--players", str(players),
         "--data-dir", str(folder / "data"), "--ssh", "127.0.0.1:0", "--ssh-limits", "16,32,120"],
        stdin=subprocess.DEVNULL, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "LC_MESSAGES": "zh_CN.UTF-8"},  # guests start in the host locale's language
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = re.search(r"ssh door on port (\d+)", log.read_text())
        if found:
            return process, log, int(found[1])
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("the host did not open its door:\n" + log.read_text())


def keygen(path: Path) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path


def client_pid(log: Path, name: str, timeout: float = 10.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(rf"plays as '{name}' \(client pid (\d+)", log.read_text())
        if found:
            return int(found[1])
        time.sleep(0.02)
    raise TimeoutError(f"no client for {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logins", type=int, default=5, help="timed logins, one after the other")
    parser.add_argument("--guests", type=int, default=8, help="guests in the lobby at once for memory")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds a guest reads the prompt (every other login)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not shutil.which("tmux") or not shutil.which("ssh"):
        print("needs tmux and the OpenSSH client", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key = keygen(folder / "key")
        tmux = Tmux(folder)
        process, log, port = start_host(folder, max(args.guests, 2) + 1)
        try:
            to_prompt: list[float] = []
            to_lobby: dict[float, list[float]] = {0.0: [], args.pause: []}
            for i in range(args.logins * 2):
                name = f"t{i}"
                pause = args.pause if i % 2 else 0.0
                start = time.perf_counter()
                tmux.start(name, ssh_command(port, name, key))
                prompt = tmux.wait(name, PROMPT)
                time.sleep(pause)
                pressed = time.perf_counter()
                tmux.run("send-keys", "-t", name, "C-u", name, "Enter")
                lobby = tmux.wait(name, f"{name} (你)")
                to_prompt.append(prompt - start)
                to_lobby[pause].append(lobby - pressed)
                tmux.run("send-keys", "-t", name, "q")
                tmux.wait(name, "y 退出")
                tmux.run("send-keys", "-t", name, "y")
                time.sleep(0.3)
            base_rss, base_pss = memory_kib(process.pid)
            pids = []
            for i in range(args.guests):
                name = f"g{i}"
                tmux.start(name, ssh_command(port, name, key))
                tmux.wait(name, PROMPT)
                tmux.run("send-keys", "-t", name, "C-u", name, "Enter")
                tmux.wait(name, f"{name} (你)")
                pids.append(client_pid(log, name))
            time.sleep(1.0)
            clients = [memory_kib(pid) for pid in pids]
            host_rss, host_pss = memory_kib(process.pid)
        finally:
            tmux.kill()
            process.terminate()
            process.wait(timeout=10)
    at_once, paused = to_lobby[0.0], to_lobby[args.pause]
    result = {
        "logins": len(to_prompt),
        "ssh_to_prompt_s": {"median": statistics.median(to_prompt), "max": max(to_prompt)},
        "enter_at_once_to_lobby_s": {"median": statistics.median(at_once), "max": max(at_once)},
        "enter_after_pause_to_lobby_s": {"pause": args.pause, "median": statistics.median(paused),
                                         "max": max(paused)},
        "guests": args.guests,
        "client_rss_mib": {"mean": statistics.mean(r for r, _ in clients) / 1024,
                           "all": sum(r for r, _ in clients) / 1024},
        "client_pss_mib": {"mean": statistics.mean(p for _, p in clients) / 1024,
                           "all": sum(p for _, p in clients) / 1024},
        "host_rss_mib": {"before": base_rss / 1024, "with_guests": host_rss / 1024,
                         "per_guest": (host_rss - base_rss) / 1024 / args.guests},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"ssh → name prompt:          median {result['ssh_to_prompt_s']['median']:.2f} s "
          f"(max {result['ssh_to_prompt_s']['max']:.2f}), {len(to_prompt)} logins")
    print(f"Enter at once → lobby:      median {statistics.median(at_once):.2f} s (max {max(at_once):.2f})")
    print(f"Enter after {args.pause:g} s → lobby:   median {statistics.median(paused):.2f} s "
          f"(max {max(paused):.2f}): the spare client had time to load")
    rss, pss, host = result["client_rss_mib"], result["client_pss_mib"], result["host_rss_mib"]
    print(f"per guest client:           RSS {rss['mean']:.1f} MiB, PSS {pss['mean']:.1f} MiB")
    print(f"{args.guests} guests at once:           RSS {rss['all']:.0f} MiB in all (PSS {pss['all']:.0f} MiB)")
    print(f"host process:               RSS {host['before']:.1f} → {host['with_guests']:.1f} MiB "
          f"({host['per_guest']:.2f} MiB per guest: the SSH connection and pty)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
