"""The SSH door's client process ends on a hang-up even when its host ignored hang-ups.

`nohup fengsheng host --ssh` (or a service manager doing the same) makes every child inherit an
ignored SIGHUP; a guest whose pty then hangs up would run on for good, spinning on a dead terminal.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def test_a_guest_client_started_ignoring_sighup_still_ends_on_a_hang_up() -> None:
    read, write = os.pipe()  # the door's pipe: kept open, so the client waits for its guest
    child = subprocess.Popen(
        [sys.executable, "-m", "fengsheng_tui.doors.ssh_guest", str(read)],
        pass_fds=(read,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    os.close(read)
    try:
        deadline = time.monotonic() + 30
        # Waiting for its guest, the client has set its signals and imported the game: it reads the pipe.
        while "pipe" not in _blocked_on(child.pid):
            assert child.poll() is None, child.stderr.read() if child.stderr else ""
            assert time.monotonic() < deadline, "the client never waited for its guest"
            time.sleep(0.05)
        os.killpg(child.pid, signal.SIGHUP)
        assert child.wait(timeout=10) == -signal.SIGHUP
    finally:
        os.close(write)
        if child.poll() is None:
            child.kill()
            child.wait()


def _blocked_on(pid: int) -> str:
    """What the process's main thread sleeps in (for the pipe read: `pipe_read` or `pipe_wait`)."""
    try:
        return open(f"/proc/{pid}/wchan").read()
    except OSError:
        return ""
