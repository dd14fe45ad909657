"""Recently joined servers, remembered in ~/.config/fengsheng/recent.json (newest first)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from .paths import DamagedFile, config_dir, load_json, set_aside, write_config

log = logging.getLogger("fengsheng.recent")

LIMIT = 8


def recent_path() -> Path:
    return config_dir() / "recent.json"


def load_recent(path: Path | None = None) -> list[tuple[str, int]]:
    path = path or recent_path()
    try:
        data = load_json(path)
    except FileNotFoundError:
        return []
    except DamagedFile as exc:
        set_aside(path, exc, "no recent servers are offered")
        return []
    except OSError as exc:
        log.warning("%s cannot be used (%s): no recent servers are offered", path, exc)
        return []
    if not isinstance(data, list):
        set_aside(path, "not a JSON list", "no recent servers are offered")
        return []
    out: list[tuple[str, int]] = []
    for item in data:
        if isinstance(item, dict) and isinstance(item.get("host"), str) and isinstance(item.get("port"), int):
            out.append((item["host"], item["port"]))
    return out[:LIMIT]


def remember(host: str, port: int, path: Path | None = None) -> None:
    """Put host:port first; a read-only home only loses the list, never the game."""
    path = path or recent_path()
    entries = [(h, p) for h, p in load_recent(path) if (h, p) != (host, port)]
    entries.insert(0, (host, port))
    try:
        write_config(path, json.dumps([{"host": h, "port": p} for h, p in entries[:LIMIT]]), 0o644)
    except OSError:
        pass


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """`host`, `host:port` or `[v6]:port`; raises ValueError on a bad port."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
        return host, int(port) if port else default_port
    if text.count(":") == 1:
        host, port = text.split(":")
        return host or "127.0.0.1", int(port)
    return text or "127.0.0.1", default_port
