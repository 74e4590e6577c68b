"""How games, options and specials are presented: names in both scripts, one-line help."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring import GAMES, Deck, Game, Special

NAMES_ZH = {
    "jie-long": "接龙",
    "ce-deng": "斜钉",
    "tsair-deng": "斜钉（谭氏）",
    "kkoribuchigi": "꼬리붙이기",
    "ding-niu": "顶牛",
    "tiu-yu": "钓鱼",
}

# Shown in both scripts in every language: players know them by either name.
SPECIAL_NAMES: dict[str, tuple[str, str]] = {
    Special.PASS: ("pass", "通"),
    Special.HEAD_SEVEN: ("head-seven", "头七"),
    Special.TAIL_EIGHT: ("tail-eight", "尾八"),
    Special.HEAD_SIX: ("head-six", "头六"),
    Special.TAIL_SEVEN: ("tail-seven", "尾七"),
    Special.SUANZHANG: ("SuanZhang creator", "算张"),
    "redeal": ("redeal", "重洗"),
    "declared_doubles": ("declared doubles", "八对"),
    "blocked": ("blocked", "死局"),
}


@dataclass(frozen=True)
class OptionField:
    name: str
    label: Promise
    help: Promise
    choices: tuple[tuple[str, Promise], ...] = ()  # empty: a decimal amount
    default: str = "1"


OPTION_FIELDS = {
    "stake": OptionField("stake", _("Stake"), _("Money per point of difference.")),
    "chip": OptionField("chip", _("Chip value"), _("What one chip is worth.")),
    "head_tail": OptionField(
        "head_tail",
        _("Head and tail"),
        _("7/8: head-seven and tail-eight pay double; 6/7 also counts head-six and tail-seven."),
        (("7/8", _("7/8 (usual)")), ("6/7", _("6/7 (stricter)"))),
        "7/8",
    ),
    "redeal_doubles": OptionField(
        "redeal_doubles",
        _("Redeal at"),
        _("How many doubles dealt to one player allow a redeal."),
        (("7", _("7 doubles (usual)")), ("6", _("6 doubles"))),
        "7",
    ),
    "payment": OptionField(
        "payment",
        _("Chip payment"),
        _("each: every loser pays the winner a chip; highest: last place and anyone over 30."),
        (("each", _("each loser pays")), ("highest", _("last and over 30 pay"))),
        "each",
    ),
    "next_first": OptionField(
        "next_first",
        _("Next lead"),
        _("winner: the hand's winner leads next; rotate: the lead passes to the next seat."),
        (("winner", _("the winner")), ("rotate", _("the next seat"))),
        "winner",
    ),
}


def title(game: Game) -> str:
    return f"{game.title} {NAMES_ZH[game.key]}"


def special_label(special: str) -> str:
    english, chinese = SPECIAL_NAMES[special]
    return f"{english} {chinese}"


def deck_limits(game: Game, players: int) -> dict[str, int]:
    """How many of each tile the deck holds, for the tile picker."""
    deck: Deck = game.deck(players)
    return {str(tile): count for tile, count in deck.counts.items()}


def game_choices() -> list[tuple[str, str]]:
    return [(key, title(game)) for key, game in GAMES.items()]
