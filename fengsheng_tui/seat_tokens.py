"""Seat tokens on disk, so that a new `fengsheng join` can take back a seat after its terminal died.

The server knows a returning player only by the token from the `welcome`; a dropped SSH session
takes the process, and its memory, with it. Tokens live in `seats.json` next to the keys file
($FENGSHENG_CONFIG's folder, else $XDG_CONFIG_HOME/fengsheng or ~/.config/fengsheng), readable by
the owner only (0600), keyed by server address, table and player name (friends who SSH into one
account share its config: the name keeps them from taking each other's seats). A token is kept across
games (the server keeps the seats of those who stay) and forgotten only when the server no longer
knows it; forgetting names the token itself, so one player's stale seat never drops a friend's.
Tokens are per client instance: each entry names the process that holds it (host name and pid),
and `find` skips an entry another running process on this machine holds, so two clients sharing a
config folder and a name never present one token (the second joins with its own seat); the
entry of a process that is gone is free again, which is how a new `fengsheng join` after a dead
terminal takes its seat back. A seat whose last view was a finished game is marked `over`: a player who left then is not taking
back a game in progress, and joins afresh, which gathers the table for the next game.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net import protocol as P

from .paths import DamagedFile, config_dir, load_json, set_aside, write_config

FILE_NAME = "seats.json"
LIMIT = 32  # seats kept at most; the oldest go first
_HELLO = P.CLIENT_MESSAGES["hello"]

log = logging.getLogger("fengsheng.seats")


def _sendable(entry: dict[str, Any]) -> bool:
    """An entry whose name, table and token a hello can carry (a damaged or edited file may hold
    anything: an entry the schema would refuse could never take its seat back)."""
    fits = (_HELLO["name"].check(entry.get("name")) is None and _HELLO["table"].check(entry.get("table")) is None
            and _HELLO["token"].check(entry.get("token")) is None)
    if not fits or not isinstance(entry.get("address"), str) or entry.get("token") is None:
        log.warning("seats.json: an entry that cannot be sent in a hello is dropped")
        return False
    return True


def tokens_path() -> Path:
    return config_dir() / FILE_NAME


@dataclass
class SeatTokens:
    """The saved seats; every failure to read or write only loses the memory, never the game."""

    path: Path | None = None

    @property
    def file(self) -> Path:
        return self.path or tokens_path()

    def _load(self) -> list[dict[str, Any]]:
        try:
            data = load_json(self.file)
        except FileNotFoundError:
            return []
        except DamagedFile as exc:
            set_aside(self.file, exc, "no saved seat is taken back")
            return []
        except OSError as exc:
            log.warning("%s cannot be used (%s): no saved seat is taken back", self.file, exc)
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            set_aside(self.file, 'not {"seats": [...]}', "no saved seat is taken back")
            return []
        return [e for e in entries if isinstance(e, dict) and _sendable(e)]

    def _save(self, entries: list[dict[str, Any]]) -> None:
        path = self.file
        try:
            tmp = path.with_name(path.name + ".tmp")
            with contextlib.suppress(FileNotFoundError):
                os.chmod(tmp, 0o600)  # a leftover of someone else's making: ours before it holds tokens
            write_config(path, json.dumps({"seats": entries[-LIMIT:]}, ensure_ascii=False))
            os.chmod(path, 0o600)
        except OSError:
            pass

    def find(self, address: str, name: str, table: str | None = None) -> str | None:
        """The newest token of player `name` at this server (and table, when one is asked for)
        that no other running client instance holds."""
        for entry in reversed(self._load()):
            if entry["address"] == address and entry["name"] == name and (table is None or entry["table"] == table):
                if _held_elsewhere(entry):
                    continue
                return str(entry["token"])
        return None

    def saved_name(self, address: str) -> str | None:
        """The name of the newest seat at this server that no running client holds: `fengsheng join
        ADDRESS` without `--name` plays under it, so it takes back the seat a join with `--name` (or
        in the other language's default name) left, and keeps its name for the next game."""
        for entry in reversed(self._load()):
            if entry["address"] == address and not _held_elsewhere(entry):
                return str(entry["name"])
        return None

    def held_elsewhere(self, address: str, name: str, table: str | None = None) -> bool:
        """Another running client instance holds a seat of player `name` at this server."""
        return any(e["address"] == address and e["name"] == name and (table is None or e["table"] == table)
                   and _held_elsewhere(e) for e in self._load())

    def remember(self, address: str, name: str, table: str, token: str, seat: int | None = None) -> None:
        """Keep `token`, held by this process; another instance's seat under the same name stays."""
        entries = [e for e in self._load() if (e["address"], e["name"], e["table"]) != (address, name, table)
                   or (_held_elsewhere(e) and e["token"] != token)]
        entries.append({"address": address, "name": name, "table": table, "token": token, "seat": seat,
                        "holder": _holder()})
        self._save(entries)

    def left_over(self, address: str, token: str) -> bool:
        """The seat holding `token` last saw its game over (and not the next one begin)."""
        return any(e["address"] == address and e["token"] == token and e.get("over") is True for e in self._load())

    def mark_over(self, address: str, token: str, over: bool) -> None:
        """Note whether the seat holding `token` now sees a finished game; written only on a change."""
        entries = self._load()
        changed = False
        for entry in entries:
            if entry["address"] == address and entry["token"] == token and (entry.get("over") is True) != over:
                changed = True
                if over:
                    entry["over"] = True
                else:
                    entry.pop("over", None)
        if changed:
            self._save(entries)

    def forget(self, address: str, token: str) -> None:
        """Drop the one seat at this server that holds `token` (the server refused it as unknown)."""
        entries = self._load()
        kept = [e for e in entries if not (e["address"] == address and e["token"] == token)]
        if len(kept) != len(entries):
            self._save(kept)


def _holder() -> list[Any]:
    return [socket.gethostname(), os.getpid()]


def _held_elsewhere(entry: dict[str, Any]) -> bool:
    """Another process on this machine that is still running saved this entry."""
    holder = entry.get("holder")
    if not (isinstance(holder, list) and len(holder) == 2 and isinstance(holder[1], int)):
        return False
    machine, pid = holder
    if machine != socket.gethostname() or pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True
