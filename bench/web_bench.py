"""Browser door benchmark: page open to lobby on screen, and what each browser guest costs the host.

    .venv/bin/python bench/web_bench.py                 # 5 page opens, then 8 guests at once
    .venv/bin/python bench/web_bench.py --runs 10 --guests 8 --json

A real `fengsheng host --web` on loopback (9 seats, characters, so that 8 guests can sit). Timing:
headless Chromium over the DevTools protocol opens the page, waits for the name prompt, types a
name and Enter, and waits for the table lobby with our seat on it; each run is a fresh tab (a
fresh client process). Memory: each guest is one client process on the host, so guests are
opened as plain WebSockets that type a name (the host cannot tell them from a browser); RSS and
PSS (shared pages split between the processes that map them) are read from /proc per guest,
and for all of them at once. The browser's own memory is on the guest's device, not reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from tests.browser.cdp import CHROMIUM, Chromium  # noqa: E402

FENGSHENG = str(Path(sys.executable).with_name("fengsheng"))


def start_host(data: Path) -> tuple[subprocess.Popen[str], Path, str]:
    log = data / "host.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [FENGSHENG, "host", "--port", "0", "--web", "0", "--interface", "127.0.0.1", "--no-advertise",
             "--players", "9", "--characters", "--data-dir", str(data / "tables")],
            stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True,
            env={**os.environ, "TEXTUAL_ANIMATIONS": "none", "PYTHONUNBUFFERED": "1"},
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"guests with a browser open: (\S+)", log.read_text())
        if found:
            return proc, log, found.group(1)
        time.sleep(0.1)
    raise RuntimeError(log.read_text())


def stop_host(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process, in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        pss = int(re.search(r"Pss:\s+(\d+)", rollup).group(1))
    except (OSError, AttributeError):
        pss = rss
    return rss, pss


def guest_pids(host_pid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    return [int(line.split()[0]) for line in out.splitlines()
            if "fengsheng_tui.doors.guest" in line and int(line.split()[1]) == host_pid]


async def page_to_lobby(url: str, runs: int) -> dict[str, list[float]]:
    browser = Chromium(1100, 750)
    prompt, lobby = [], []
    try:
        for run in range(runs):
            page = await browser.new_page()
            start = time.perf_counter()
            await page.open(url)
            await page.wait_for("你的名字", 60)
            prompt.append(time.perf_counter() - start)
            await page.type_text(f"bench{run}")
            await page.key("Enter")
            await page.wait_for(f"bench{run} (你)", 60)
            lobby.append(time.perf_counter() - start)
            await page.call("Page.close")
            await page.close()
            await asyncio.sleep(1.0)  # the door ends the tab's client; let it go before the next
    finally:
        await browser.close()
    return {"prompt": prompt, "lobby": lobby}


async def guests_memory(url: str, log: Path, host_pid: int, count: int) -> dict[str, object]:
    ws_url = url.replace("http://", "ws://").rstrip("/") + "/ws?width=100&height=30"
    host_before = memory_kib(host_pid)
    sessions, sockets, samples = [], [], []
    try:
        for n in range(count):
            # One loopback source address per guest, as from n machines (the door caps each address).
            http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{n + 2}", 0)))
            sessions.append(http)
            ws = await http.ws_connect(ws_url)
            sockets.append(ws)
            async with asyncio.timeout(60):
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY and "你的名字".encode() in message.data:
                        break
            await ws.send_str(json.dumps(["stdin", f"guest{n}\r"]))
            deadline = time.monotonic() + 60
            while f"guest{n} took seat" not in log.read_text():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"guest{n} did not sit down")
                await asyncio.sleep(0.1)
            asyncio.create_task(drain(ws))
            await asyncio.sleep(1.5)  # the lobby painted, the client idle
            pids = guest_pids(host_pid)
            samples.append({"guests": len(pids), "per_guest": [memory_kib(pid) for pid in pids],
                            "host": memory_kib(host_pid)})
    finally:
        for ws in sockets:
            await ws.close()
        for http in sessions:
            await http.close()
    last = samples[-1]
    per_guest = last["per_guest"]
    return {
        "one_guest_rss_kib": samples[0]["per_guest"][0][0], "one_guest_pss_kib": samples[0]["per_guest"][0][1],
        "guests": last["guests"],
        "per_guest_rss_kib": [r for r, _ in per_guest], "per_guest_pss_kib": [p for _, p in per_guest],
        "all_guests_rss_kib": sum(r for r, _ in per_guest), "all_guests_pss_kib": sum(p for _, p in per_guest),
        "host_rss_kib_before": host_before[0], "host_rss_kib_after": last["host"][0],
    }


async def drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Keep reading the guest's screen, as a browser would (else its output backs up)."""
    async for _ in ws:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="page opens timed (default: 5)")
    parser.add_argument("--guests", type=int, default=8, help="guests at once for memory (default: 8)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if CHROMIUM is None:
        print("web_bench: chromium is not installed (apt-get install -y chromium fonts-wqy-zenhei)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        proc, log, url = start_host(Path(tmp))
        try:
            timing = asyncio.run(page_to_lobby(url, args.runs))
            memory = asyncio.run(guests_memory(url, log, proc.pid, args.guests))
        finally:
            stop_host(proc)
    result = {"runs": args.runs, "timing_s": timing, "memory": memory}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for key, label in (("prompt", "page open → name prompt"), ("lobby", "page open → table lobby (name typed)")):
        values = timing[key]
        print(f"{label}: median {statistics.median(values):.2f} s, min {min(values):.2f}, max {max(values):.2f} "
              f"({len(values)} runs)")
    mib = 1024
    print(f"one guest: RSS {memory['one_guest_rss_kib'] / mib:.1f} MiB, PSS {memory['one_guest_pss_kib'] / mib:.1f} MiB")
    rss, pss = memory["per_guest_rss_kib"], memory["per_guest_pss_kib"]
    assert isinstance(rss, list) and isinstance(pss, list)
    print(f"{memory['guests']} guests at once: RSS {memory['all_guests_rss_kib'] / mib:.1f} MiB in all "
          f"(per guest median {statistics.median(rss) / mib:.1f}), PSS {memory['all_guests_pss_kib'] / mib:.1f} MiB "
          f"(per guest median {statistics.median(pss) / mib:.1f})")
    print(f"host process: RSS {memory['host_rss_kib_before'] / mib:.1f} MiB before, "
          f"{memory['host_rss_kib_after'] / mib:.1f} MiB with the guests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
