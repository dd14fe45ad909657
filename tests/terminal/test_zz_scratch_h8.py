import subprocess, time
def test_tmux(tmux_panes):
    p = tmux_panes(["python3", "-c", "import os,sys; print('hello', os.get_terminal_size(), os.environ.get('TEXTUAL_ANIMATIONS')); sys.stdin.readline(); print('got')" ])
    s = p.wait_for("hello")
    print(s)
    p.send("x", "Enter")
    p.wait_for("got", timeout=3) if p.alive() else None

def test_ssh(sshd):
    r = subprocess.run(sshd.ssh_args("echo $TEXTUAL_ANIMATIONS $LANG; tty", tty=False), capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    print(r)
    assert "none" in r.stdout
    r = subprocess.run(sshd.ssh_args("tty", tty=True), capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    print(r)
    assert "/dev/pts" in r.stdout

def test_exit(tmux_panes):
    p = tmux_panes(["sh", "-c", "echo bye; sleep 0.3; exit 3"])
    p.wait_gone(3)
    assert "bye" in p.history()
    assert p.exit_status() == 3
