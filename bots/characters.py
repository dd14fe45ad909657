"""What a bot knows of the 25 base characters: how much it likes to pick each, and what a neutral's
secret task asks for, in a form its scoring can use.

This is rules knowledge (CHARACTERS.md), written down for the bots rather than read from the
engine, so the bots stay on their side of the view. Identities are dealt after the pick, so a
pick can only weigh skill strength: skills that draw cards, burn blacks or steer messages by
themselves score high; skills that cost the identity card or need a rare moment score low.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Kinds of secret task, by what the neutral has to steer towards.
MESSAGES = "messages"  # `need` colours in front of itself ("true": red or blue, "any": any colour)
HAND = "hand"  # `need` colours in its hand ("any": hand size)
DIE_RED_HAND = "die_red_hand"  # 老鬼: die holding 3 red cards
KILL_BOTH = "kill_both"  # a 潜伏 and a 军情 player dead
DIE_FIRST = "die_first"  # 小白: be the first to die (or a whole side out)
DIE_LATER = "die_later"  # 浮萍: die after someone else
KILL_BARE = "kill_bare"  # 闪灵: kill a player with no true messages
KILL_RICH = "kill_rich"  # 黑玫瑰: kill a player with 3+ true messages
KILL_LATER = "kill_later"  # 职业杀手: kill anyone but the first to die
SURVIVE = "survive"  # 大美女, 礼服蒙面人, 蝮蛇: stay in the game until someone declares
NONE = "none"  # 致命香水: no task; only 临危受命 gives it a side

KILLS = (KILL_BOTH, KILL_BARE, KILL_RICH, KILL_LATER)


@dataclass(frozen=True)
class Profile:
    strength: float  # pick preference, 0–5
    task: str
    need: dict[str, int] = field(default_factory=dict)


PROFILES: dict[str, Profile] = {
    "beileimao": Profile(2.5, HAND, {"red": 3, "blue": 3}),
    "daili": Profile(3.0, MESSAGES, {"blue": 3}),
    "dameinv": Profile(4.0, SURVIVE),
    "daofeng": Profile(4.0, KILL_BOTH),
    "emeifeng": Profile(3.5, MESSAGES, {"blue": 3}),
    "fuermosi": Profile(3.0, MESSAGES, {"red": 3}),
    "fuping": Profile(3.5, DIE_LATER),
    "fushe": Profile(2.5, SURVIVE),
    "gangtietegong": Profile(4.0, MESSAGES, {"red": 3}),
    "guaidaojiujiu": Profile(3.0, HAND, {"any": 9}),
    "heimeigui": Profile(3.0, KILL_RICH),
    "huangque": Profile(3.5, KILL_BOTH),
    "laogui": Profile(3.5, DIE_RED_HAND),
    "laojin": Profile(4.5, HAND, {"red": 3, "blue": 3}),
    "laoqiang": Profile(2.5, MESSAGES, {"red": 3}),
    "lifumengmianren": Profile(4.0, SURVIVE),
    "liujie": Profile(3.5, MESSAGES, {"any": 6}),
    "qibai": Profile(4.0, MESSAGES, {"true": 5}),
    "qingbaochuzhang": Profile(4.0, MESSAGES, {"red": 3}),
    "shanling": Profile(4.5, KILL_BARE),
    "xiaobai": Profile(1.5, DIE_FIRST),
    "xiaomage": Profile(3.0, KILL_BOTH),
    "yidianyuan": Profile(3.5, MESSAGES, {"blue": 3}),
    "zhimingxiangshui": Profile(3.0, NONE),
    "zhiyeshashou": Profile(3.0, KILL_LATER),
}

UNKNOWN = Profile(2.0, NONE)


def profile(character_id: object) -> Profile:
    return PROFILES.get(str(character_id), UNKNOWN)


# Skills that work as a card's function: they are scored like that card.
COUNTS_AS = {"警觉": "识破", "声东击西": "调虎离山"}

# Triggered skills whose use is a plain gain (cards drawn, a hidden card covered again).
FREE_GAINS = frozenset({"运筹帷幄", "英雄", "拷问", "嗜血", "弃卒保帅", "隔墙有耳", "攻守兼备", "联动", "洞悉",
                        "就计", "搜取", "后著", "弹药无限"})

# Skills that show the identity card: the bot's secret is part of their price.
REVEALS = frozenset({"合谋", "爱情", "黄雀在后", "救美"})
