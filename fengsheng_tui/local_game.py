"""A real game server on this machine, with bots in every other seat: what `fengsheng play` opens.

The server runs in the same event loop as the app (one process, nothing to clean up), but the
player is an ordinary client over TCP on loopback: the UI has no privileged view of the game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_BOT_LEVEL = "normal"


def playable_player_counts(characters: bool = False) -> list[int]:
    from engine import playable_configs

    return sorted({players for players, _ in playable_configs(characters)})


def needs_characters(players: int, identities: str | None = None) -> bool:
    """Whether this table can only be played with characters: its identity configuration (by
    default the first without a neutral) has a neutral, who wins only through a secret task."""
    from engine import identity_options

    try:
        options = identity_options(players)
    except KeyError:
        return False
    if identities is not None:
        return identities in options and options[identities][2] > 0
    return all(counts[2] for counts in options.values())


@dataclass
class LocalTable:
    server: Any
    table: Any
    host_token: str
    port: int
    replay_dir: Path | None
    advertiser: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    async def close(self) -> None:
        if self.advertiser is not None:
            await self.advertiser.stop()
        await self.server.close()


async def start_local_table(
    players: int = 4,
    *,
    lan: bool = False,
    seed: int | None = None,
    bot_level: str = DEFAULT_BOT_LEVEL,
    bot_delay: float = 0.6,
    replay_dir: Path | None = None,
    timers: dict[str, float] | None = None,
    table_name: str = "play",
    port: int = 0,
    characters: bool | None = None,
    identities: str | None = None,
    character_choices: int = 3,
    open_seats: bool | None = None,
) -> LocalTable:
    """Start a server with one table whose other seats are bots; it starts when the player joins.

    With `lan` the seats stay open for friends instead: the player (who joins with `host_token`
    and so may send host commands) adds bots and starts from the table lobby. `characters=None`
    plays with characters exactly when the table needs them (`needs_characters`: 5 players, say).
    `open_seats` (default: `lan`) keeps the seats open without advertising: guests of a door come
    in over loopback.
    """
    from net.server import GameServer
    from net.table import Table

    if characters is None:
        characters = needs_characters(players, identities)
    if players not in playable_player_counts(characters):
        if not characters and players in playable_player_counts(True):
            raise ValueError(f"{players} players can only play with characters (every line-up has a neutral)")
        counts = ", ".join(map(str, playable_player_counts(characters)))
        raise ValueError(f"no game for {players} players; choose {counts}")
    host_token = secrets.token_urlsafe(18)
    server = GameServer("0.0.0.0" if lan else "127.0.0.1", port)
    if open_seats is None:
        open_seats = lan
    table = Table(table_name, players=players, identities=identities, characters=characters,
                  character_choices=character_choices, data_dir=replay_dir, bot_delay=bot_delay,
                  auto_start=not open_seats, seed=seed, host_token=host_token, timers=timers)
    if not open_seats:
        for _ in range(players - 1):
            table.add_bot(bot_level)
    server.add_table(table)
    await server.start()
    local = LocalTable(server, table, host_token, server.port, replay_dir)
    if lan:
        from net.discovery import Advertiser, DiscoveryError, make_txt

        advertiser = Advertiser()
        try:
            await advertiser.start(table_name, server.port, make_txt(table_name, 1, players, "lobby", False))
            local.advertiser = advertiser
        except DiscoveryError as exc:
            local.extra["lan_error"] = str(exc)
    return local
