"""Game configuration: what the host chooses in the lobby. Validated once, then immutable."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .cards import deck_data, deck_variants

MILITARY = "military"  # 军情处, blue
LATENT = "latent"  # 潜伏战线, red
NEUTRAL = "neutral"  # 打酱油的, green
IDENTITIES = (MILITARY, LATENT, NEUTRAL)
FACTION_COLOUR = {MILITARY: "blue", LATENT: "red"}

MIN_PLAYERS = 3
MAX_PLAYERS = 9


class ConfigError(ValueError):
    """A configuration the rules do not allow."""


def identity_options(players: int) -> dict[str, tuple[int, int, int]]:
    """Every identity configuration (military, latent, neutral) the rules offer for a player count."""
    table = deck_data()["identity_table"]
    row = table["players"][str(players)]
    options = {"default": (row["military"], row["latent"], row["neutral"])}
    for name, alt in table["alternatives"].items():
        count, _, label = name.partition("_")
        if int(count) == players:
            options[label] = (alt["military"], alt["latent"], alt["neutral"])
    return options


@dataclass(frozen=True)
class GameConfig:
    players: int = 4
    identities: str = "novice"  # a key of identity_options(players)
    deck: str = "resolved"
    probe_draw: int = 2  # cards a "draw" 试探 gives on a yes (RULES.md §9.3: 2, option 1)
    characters: bool = False
    dead_share_win: bool = True  # RULES.md §8.3 [DECISION]
    discard_face_up: bool = False  # RULES.md §4 [DECISION]: face-down by default
    names: tuple[str, ...] = field(default=())
    character_choices: int = 3  # characters dealt to each seat to pick from (RULES.md §3.2; option 2)

    def identity_counts(self) -> tuple[int, int, int]:
        return identity_options(self.players)[self.identities]

    def validate(self, deal_characters: bool = True, fixed_deal: bool = False) -> None:
        """`deal_characters=False` when a fixed setup names every seat's character (scenarios), so the
        roster need not be large enough to deal choices from. `fixed_deal`: a fixed setup (a rule
        scenario) may use every row of the identity table (RULES.md §2.2), neutrals without
        characters included: the lobby refuses those only as advice (RULES.md §3 first game: no
        打酱油 without characters), since such a neutral can win only as the last one standing."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {self.players}")
        options = identity_options(self.players)
        if self.identities not in options:
            raise ConfigError(
                f"identity configuration {self.identities!r} does not exist for {self.players} players; "
                f"choose one of {', '.join(options)}"
            )
        if self.deck not in deck_variants():
            raise ConfigError(f"unknown deck {self.deck!r}; choose one of {', '.join(deck_variants())}")
        if self.character_choices not in (2, 3):
            raise ConfigError("character_choices must be 2 or 3")
        if self.probe_draw not in (1, 2):
            raise ConfigError("probe_draw must be 1 or 2")
        if self.characters and deal_characters:
            from .characters import roster

            if len(roster()) < 2 * self.players:
                raise ConfigError(f"only {len(roster())} characters are implemented: not enough for {self.players} seats")
        neutral = self.identity_counts()[2]
        if neutral and not self.characters and not fixed_deal:
            raise ConfigError(
                "a neutral (打酱油的) can only win through a character's secret task: "
                "without characters choose a configuration with no neutrals"
            )
        if self.names and len(self.names) != self.players:
            raise ConfigError("names must give one name per seat")

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["names"] = list(self.names)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> GameConfig:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        if "names" in known:
            known["names"] = tuple(known["names"])  # type: ignore[arg-type]
        return cls(**known)  # type: ignore[arg-type]


def playable_configs(characters: bool) -> list[tuple[int, str]]:
    """(players, identity configuration) pairs a game may be started with."""
    result = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for name, counts in identity_options(players).items():
            if characters or counts[2] == 0:
                result.append((players, name))
    return result
