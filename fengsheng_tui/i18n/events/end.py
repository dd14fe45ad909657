"""The end of a game: why it ended, who declared, and for a faction its colour."""

from __future__ import annotations

from .base import Sentence

KINDS = frozenset({"game_over"})


def prepare(s: Sentence) -> None:
    ev, words = s.ev, s.words
    declarer = ev.get("declarer")
    identities = ev.get("identities")
    identity = identities[declarer] if isinstance(identities, list) and isinstance(declarer, int) \
        and 0 <= declarer < len(identities) else None
    s.values.update(who=s.seat(declarer), identity=words.identity(identity),
                    colour=words.colour_word({"military": "blue", "latent": "red"}.get(str(identity))))
    kind = f"game_over_{ev.get('reason')}"
    if words.event_template(kind) is not None:
        s.kind = kind
