"""The terminal game in a real terminal: tmux at 80×24, driven by `send-keys` alone.

Pilot tests run the app headless; these prove the installed `fengsheng` command paints, reads keys
and exits in a pty, and that two players joined to one host each see only their own hand.
"""

from __future__ import annotations

import re
import subprocess
import time

from .conftest import FENGSHENG, play_until_over

HAND_CARD = re.compile(r"(\d) (\S+?\[\S+?\])")


def test_play_without_a_terminal_says_use_ssh_t() -> None:
    """With stdin not a tty a full-screen app would hang; it must exit and say what to do."""
    done = subprocess.run(
        [FENGSHENG, "play"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20
    )
    assert done.returncode != 0
    assert "ssh -t" in done.stdout + done.stderr


def test_play_to_game_over_with_keys_only(tmux_panes) -> None:
    """Bots answer at once (`--bot-delay 0`), so any game ends within the timeout; the seed only
    keeps the run repeatable."""
    pane = tmux_panes([FENGSHENG, "play", "--seed", "386", "--lang", "en", "--bot-delay", "0"])
    # At 80 columns the status line gives the title up for the fields after it (whose turn, phase).
    table = pane.wait_for(lambda s: "Hand" in s and "Turn 1 · " in s, timeout=10)
    assert "Last:" in table
    over, answers = play_until_over(pane, "en")
    assert answers > 0
    assert "Game over" in over and "Winners:" in over
    pane.send("q")
    assert pane.wait_gone(timeout=5) == 0


def hand_panel(screen: str) -> list[str]:
    """The text lines inside the 手牌 (hand) panel of a table screen."""
    lines = screen.splitlines()
    # A heavy frame while the move is ours, a light one otherwise.
    start = next(i for i, line in enumerate(lines) if line.startswith(("╭─ 手牌", "┏━ 手牌")))
    inside = []
    for line in lines[start + 1 :]:
        if line.startswith(("╰", "┗")):
            break
        inside.append(line.strip("│┃ "))
    return [line for line in inside if line]


def seat_row(screen: str, name: str) -> str:
    """The seat box on the ring of the player called `name` (as another player sees it): the
    columns under his name on its line and the two lines below, joined."""
    from rich.cells import cell_len

    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if i < 2:
            continue  # the status line and the banner name players too
        match = re.search(rf"(▶ )?(✉ )?{name}(?![(\w])", line)
        if match:
            start = cell_len(line[: match.start()])
            return " ".join(cells(row, start, start + 18) for row in lines[i: i + 3])
    raise AssertionError(f"no seat box for {name}:\n{screen}")


def cells(line: str, start: int, end: int) -> str:
    """The characters of `line` between screen columns `start` and `end` (a CJK character is two)."""
    from rich.cells import cell_len

    out, column = [], 0
    for ch in line:
        if start <= column < end:
            out.append(ch)
        column += cell_len(ch)
    return "".join(out)


#: The first player's play phase; not the turn-start window before it (the draw comes between).
PLAY_PHASE = re.compile(r"风声 · 第1回合 · \S+ · 出牌阶段")


def same_moment(mine: str, theirs: str, me: str) -> bool:
    """Both screens in the play phase, and `theirs` counts for me the cards my hand panel shows."""
    if PLAY_PHASE.search(mine) is None or PLAY_PHASE.search(theirs) is None:
        return False
    try:
        cards = [card for line in hand_panel(mine) for _, card in HAND_CARD.findall(line)]
        return re.search(rf"\b{len(cards)}张", seat_row(theirs, me)) is not None
    except (StopIteration, AssertionError):  # a panel or a seat box not painted yet
        return False


def test_two_players_at_one_host_each_see_only_their_own_hand(game_host, tmux_panes) -> None:
    """Two terminals join one `fengsheng host`; bots take the other seats. Bots wait 30 s and the
    play phase lasts 30 s, so both screens show the same moment of the game."""
    host = game_host("--players", "4", "--bots", "2", "--start", "--seed", "5", "--bot-delay", "30")
    names = ("Alice", "Bob")
    panes = {name: tmux_panes([FENGSHENG, "join", host.address, "--name", name]) for name in names}
    for pane in panes.values():
        pane.wait_for(lambda s: PLAY_PHASE.search(s) is not None and ("━ 手牌" in s or "等待 " in s), timeout=15)
    # The status line can paint a frame before the hand panel does: read both screens until they
    # show one moment (each hand as many cards as the other screen counts for it).
    deadline = time.monotonic() + 10
    while True:
        screens = {name: pane.capture() for name, pane in panes.items()}
        if all(same_moment(screens[me], screens[other], me) for me, other in (names, names[::-1])) \
                or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for me, other in (names, names[::-1]):
        mine, theirs = screens[me], screens[other]
        assert f"{me}（你）" in mine and f"{me}（你）" not in theirs
        hand = hand_panel(mine)
        cards = [card for line in hand for _, card in HAND_CARD.findall(line)]
        assert cards, f"{me} sees no hand:\n{mine}"
        for line in hand:
            assert line not in theirs, f"{other}'s screen shows {me}'s hand line {line!r}:\n{theirs}"
        # The other player sees how many cards I hold, and no card faces in my log lines.
        assert re.search(rf"\b{len(cards)}张", seat_row(theirs, me)), seat_row(theirs, me)
        for line in theirs.splitlines():
            line = line.split("刚才：", 1)[-1]  # the banner's own label is no card face
            if f"{me}获得" in line or f"{me}摸了" in line:
                assert "：" not in line and "[" not in line, line
