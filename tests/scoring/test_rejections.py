"""What every game must reject (RULES.md, last section): a ScoringError at the bad field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring import ScoringError, score

from .documents import FOUR, THREE, TWO, hand, rejected, session, special, tiles

SEED = {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18}
DING = ("Adam", "Boris", "Celine", "Dominik")
DING_SCORES = {"Adam": 10, "Boris": 6, "Celine": 6, "Dominik": 10}


def jie_long(results: dict[str, Any], seating: tuple[str, ...] = FOUR, **options: Any) -> Any:
    return session("jie-long", seating, [hand(results)], **options)


def ce_deng(results: dict[str, Any], seating: tuple[str, ...] = FOUR, **options: Any) -> Any:
    return session("ce-deng", seating, [hand(results)], **options)


def ding_niu(results: dict[str, Any], **options: Any) -> Any:
    return session("ding-niu", DING, [hand(DING_SCORES | results)], **options)


def tiu_yu(results: dict[str, Any], **options: Any) -> Any:
    return session("tiu-yu", TWO, [hand(results)], **options)


def fish(large: int, red: int) -> dict[str, int]:
    return {"large_fish_pips": large, "small_fish_red": red}


def case(document: Any, path: str, *words: str, id: str) -> Any:
    return pytest.param(document, path, words, id=id)


def without(document: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != key}


def check(document: Any, path: str, words: tuple[str, ...]) -> None:
    error = rejected(document)
    assert error.path == path, error.message
    for word in words:
        assert word.casefold() in error.message.casefold(), error.message
    assert "Traceback" not in error.message
    said = error.as_dict()
    assert (said["error"], said["path"]) == (error.message, path)
    assert said["errors"][0] == {"error": error.message, "path": path}


GAMES_AND_SEATS = [
    case({**jie_long(SEED), "game": "mahjong"}, "game", "mahjong", "game", id="unknown game"),
    case(without(jie_long(SEED), "game"), "game", "game", "missing", id="no game"),
    case({**jie_long(SEED), "game": 3}, "game", "expected", id="game not a name"),
    case(jie_long(SEED, speed=2), "options.speed", "speed", "option", id="unknown option"),
    case(
        session("tiu-yu", ("A", "B"), [], chip=1),
        "options.chip",
        "chip",
        "Tiu Yu",
        id="tiu-yu chip",
    ),
    case(jie_long(SEED, head_tail="6/7"), "options.head_tail", "head_tail", id="jl head_tail"),
    case(jie_long(SEED, payment="each"), "options.payment", "payment", id="jie-long payment"),
    case(ce_deng(SEED, payment="each"), "options.payment", "payment", id="ce-deng payment"),
    case(
        session("tsair-deng", FOUR, [hand(SEED)], redeal_doubles=6),
        "options.redeal_doubles",
        "redeal_doubles",
        id="redeal_doubles for tsair-deng",
    ),
    case(
        session("tsair-deng", FOUR, [hand(SEED)], head_tail="7/8"),
        "options.head_tail",
        "head_tail",
        id="head_tail for tsair-deng",
    ),
    case(ding_niu({}, stake=1), "options.stake", "stake", "Ding Niu", id="stake for ding-niu"),
    case(ding_niu({}, payment="each"), "options.payment", "payment", id="payment for ding-niu"),
    case(
        session("kkoribuchigi", FOUR, [hand(SEED)], stake=1),
        "options.stake",
        "stake",
        id="stake for kkoribuchigi",
    ),
    case(
        tiu_yu({"Anna": fish(8, 0), "Bob": fish(0, 0)}, chip=1),
        "options.chip",
        "chip",
        id="chip for tiu-yu",
    ),
    case({**jie_long(SEED), "options": [1]}, "options", "object", id="options not an object"),
    case({**jie_long(SEED), "seating": "Anna, Bob"}, "seating", "list", id="seating not a list"),
    case({**jie_long(SEED), "colour": "red"}, "colour", "colour", id="unknown top-level field"),
]

PLAYER_COUNTS = [
    case(session(game, names, []), "seating", "players", str(len(names)), id=f"{game} {n}")
    for game, counts in [
        ("jie-long", (1, 5)),
        ("ce-deng", (1, 5)),
        ("tsair-deng", (1, 5)),
        ("kkoribuchigi", (1, 5)),
        ("ding-niu", (2, 3, 5)),
        ("tiu-yu", (1, 4)),
    ]
    for n in counts
    for names in [tuple(f"P{i}" for i in range(n))]
] + [
    case(session("ding-niu", THREE, []), "seating", "exactly 4", id="ding-niu says exactly 4"),
    case(session("tiu-yu", FOUR, []), "seating", "2 to 3", id="tiu-yu says 2 to 3"),
    case(session("jie-long", ("Anna",), []), "seating", "2 to 4", id="jie-long says 2 to 4"),
]

NAMES = [
    case(
        session("jie-long", ("Anna", "Bob", "Anna"), []),
        "seating[2]",
        "Anna",
        "twice",
        id="duplicate name",
    ),
    case(
        session("jie-long", ("Anna", "ANNA"), []),
        "seating[1]",
        "ANNA",
        "twice",
        id="names differing only in case",
    ),
    case(session("jie-long", ("Anna", " "), []), "seating[1]", "empty", id="blank name"),
    case(
        {**session("jie-long", TWO, []), "seating": ["Anna", 7]},
        "seating[1]",
        "name",
        id="name not a string",
    ),
    case(jie_long(SEED | {"Zed": 4}), "hands[0].results.Zed", "Zed", "not seated", id="unknown"),
    case(jie_long(SEED | {"anna": 4}), "hands[0].results.anna", "anna", id="wrong case"),
    case({**jie_long(SEED), "first": "Zed"}, "first", "Zed", "not seated", id="unknown first"),
    case(
        session("jie-long", FOUR, [hand(SEED, first="Zed")]),
        "hands[0].first",
        "Zed",
        id="unknown hand first",
    ),
    case(
        session("ce-deng", FOUR, [{"redeal": "Zed"}]),
        "hands[0].redeal",
        "Zed",
        id="unknown redeal",
    ),
    case(
        session("ce-deng", FOUR, [{"declared_doubles": "Zed", "results": {}}]),
        "hands[0].declared_doubles",
        "Zed",
        id="unknown declared_doubles",
    ),
]

MISSING_ONE: list[tuple[str, tuple[str, ...], list[Any]]] = [
    ("jie-long", FOUR, [2, 12, 34]),
    ("ce-deng", FOUR, [2, 12, 34]),
    ("tsair-deng", THREE, [2, 12]),
    ("kkoribuchigi", TWO, [2]),
    ("ding-niu", DING, [10, 6, 6]),
    ("tiu-yu", TWO, [{"large_fish_pips": 8, "small_fish_red": 0}]),
]

MISSING = [
    case(
        session(game, seating, [hand(dict(zip(seating[:-1], scores, strict=False)))]),
        f"hands[0].results.{seating[-1]}",
        seating[-1],
        "missing",
        id=f"{game}",
    )
    for game, seating, scores in MISSING_ONE
] + [
    case(
        session(
            "ce-deng",
            FOUR,
            [
                {
                    "declared_doubles": "Celine",
                    "results": {"Bob": {"pips": 30}, "Dominic": {"pips": 28}},
                }
            ],
        ),
        "hands[0].results.Anna",
        "Anna",
        "missing",
        id="declared doubles without Anna",
    ),
    case(jie_long(SEED | {"Bob": {}}), "hands[0].results.Bob", "pips", id="a result of nothing"),
    case(
        jie_long(SEED | {"Bob": {"pips": 4, "tiles": ["2:2"]}}),
        "hands[0].results.Bob",
        "pips",
        "tiles",
        id="both pips and tiles",
    ),
    case({**jie_long(SEED), "hands": {}}, "hands", "list", id="hands not a list"),
    case({**jie_long(SEED), "hands": [5]}, "hands[0]", "object", id="a hand that is a number"),
]

SCORES = [
    case(jie_long(SEED | {"Bob": -2}), "hands[0].results.Bob.pips", "-2", id="negative"),
    case(jie_long(SEED | {"Bob": {"pips": 12.5}}), "hands[0].results.Bob.pips", "12.5", id="frac"),
    case(jie_long(SEED | {"Bob": {"pips": "abc"}}), "hands[0].results.Bob.pips", "abc", id="abc"),
    case(jie_long(SEED | {"Bob": {"pips": True}}), "hands[0].results.Bob.pips", id="true"),
    case(jie_long(SEED | {"Bob": {"pips": None}}), "hands[0].results.Bob.pips", id="null"),
    case(
        jie_long(SEED | {"Bob": 1}),
        "hands[0].results.Bob.pips",
        "Bob",
        "impossible",
        id="1 (no tile has 1 pip)",
    ),
    # chinese-32 from the top: 12 12 11 11 10 10 10 10 | 9 9 | 8 8 8 8 | 7 7 7 7 ...
    case(
        jie_long(SEED | {"Bob": 87}),
        "hands[0].results.Bob.pips",
        "87",
        "impossible",
        id="4 players: 87 is over 8 tiles' 86",
    ),
    case(
        jie_long(SEED | {"Anna": 77}),
        "hands[0].results.Anna.pips",
        "77",
        "impossible",
        id="4 players: the first player's 77 is over 7 tiles' 76",
    ),
    case(
        jie_long({"Anna": 96, "Bob": 4, "Celine": 4}, THREE),
        "hands[0].results.Anna.pips",
        "impossible",
        id="3 players: first over 9 tiles' 95",
    ),
    case(
        jie_long({"Anna": 4, "Bob": 105, "Celine": 4}, THREE),
        "hands[0].results.Bob.pips",
        "impossible",
        id="3 players: over 10 tiles' 104",
    ),
    case(
        jie_long({"Anna": 144, "Bob": 4}, TWO),
        "hands[0].results.Anna.pips",
        "impossible",
        id="2 players: first over 15 tiles' 143",
    ),
    case(
        jie_long({"Anna": 4, "Bob": 151}, TWO),
        "hands[0].results.Bob.pips",
        "impossible",
        id="2 players: over 16 tiles' 150",
    ),
    case(
        ce_deng(SEED | {"Anna": special(22, "head_seven")}),
        "hands[0].results.Anna.pips",
        "impossible",
        id="head_seven 22: 7 tiles make at least 2+2+3+4+4+4+4 = 23",
    ),
    case(
        ce_deng(SEED | {"Anna": special(77, "head_seven")}),
        "hands[0].results.Anna.pips",
        "impossible",
        id="head_seven 77: 7 tiles make at most 76",
    ),
    case(
        ce_deng(SEED | {"Anna": special(0, "head_seven")}),
        "hands[0].results.Anna.pips",
        "impossible",
        id="head_seven 0",
    ),
    case(
        ce_deng(SEED | {"Bob": special(27, "tail_eight")}),
        "hands[0].results.Bob.pips",
        "impossible",
        id="tail_eight 27: 8 tiles make at least 23+5 = 28",
    ),
    case(
        session("tsair-deng", FOUR, [hand(SEED | {"Celine": 1})]),
        "hands[0].results.Celine.pips",
        "impossible",
        id="tsair-deng 1",
    ),
    case(
        session("kkoribuchigi", FOUR, [hand(SEED | {"Celine": 1})]),
        "hands[0].results.Celine.pips",
        "impossible",
        id="kkoribuchigi 1",
    ),
    case(
        ding_niu({"Celine": 5}),
        "hands[0].results.Celine.pips",
        "impossible",
        id="ding-niu 5: every tile under 7 pips is even",
    ),
    case(
        tiu_yu({"Anna": fish(7, 0), "Bob": fish(0, 0)}),
        "hands[0].results.Anna.large_fish_pips",
        "7",
        id="tiu-yu large fish of 7 pips",
    ),
    case(
        tiu_yu({"Anna": fish(273, 0), "Bob": fish(0, 0)}),
        "hands[0].results.Anna.large_fish_pips",
        "273",
        id="tiu-yu large fish over 272",
    ),
    case(
        tiu_yu({"Anna": fish(0, 49), "Bob": fish(0, 0)}),
        "hands[0].results.Anna.small_fish_red",
        "49",
        id="tiu-yu small fish: 2 x 24 = 48 red spots at most",
    ),
    case(
        tiu_yu({"Anna": fish(-8, 0), "Bob": fish(0, 0)}),
        "hands[0].results.Anna.large_fish_pips",
        id="tiu-yu negative",
    ),
    case(
        tiu_yu({"Anna": {"large_fish_pips": 8}, "Bob": fish(0, 0)}),
        "hands[0].results.Anna",
        "small_fish_red",
        id="tiu-yu one total only",
    ),
    case(
        tiu_yu({"Anna": fish(8, 0) | {"tiles": ["4:4"]}, "Bob": fish(0, 0)}),
        "hands[0].results.Anna",
        "tiles",
        id="tiu-yu tiles and totals",
    ),
    case(
        tiu_yu({"Anna": {"pips": 8}, "Bob": fish(0, 0)}),
        "hands[0].results.Anna.pips",
        "pips",
        id="tiu-yu pips",
    ),
    case(
        jie_long(SEED | {"Bob": {"pips": "1e5000"}}),
        "hands[0].results.Bob.pips",
        id="a huge score",
    ),
]

NINE_TILES = ["1:1", "1:1", "1:2", "1:3", "1:3", "1:4", "1:5", "1:5", "1:6"]

TILES = [
    case(
        jie_long(SEED | {"Bob": tiles("7:1")}),
        "hands[0].results.Bob.tiles[0]",
        "7:1",
        "tile",
        id="7:1",
    ),
    case(jie_long(SEED | {"Bob": tiles("2:2", "0:3")}), "hands[0].results.Bob.tiles[1]", id="0:3"),
    case(jie_long(SEED | {"Bob": tiles("6-4")}), "hands[0].results.Bob.tiles[0]", id="6-4"),
    case(jie_long(SEED | {"Bob": tiles("1:2:3")}), "hands[0].results.Bob.tiles[0]", id="1:2:3"),
    case(jie_long(SEED | {"Bob": {"tiles": [64]}}), "hands[0].results.Bob.tiles[0]", id="64"),
    case(
        jie_long(SEED | {"Bob": tiles("²:1")}),
        "hands[0].results.Bob.tiles[0]",
        "tile",
        id="a superscript two is not a half",
    ),
    case(jie_long(SEED | {"Bob": {"tiles": "6:4"}}), "hands[0].results.Bob.tiles", id="not list"),
    case(
        ding_niu({"Boris": tiles("2:2", "1:2")}),
        "hands[0].results.Boris.tiles[1]",
        "1:2",
        "Ding Niu",
        id="ding-niu has no 1:2",
    ),
    case(
        jie_long(SEED | {"Bob": tiles("1:2"), "Celine": tiles("2:2", "1:2")}),
        "hands[0].results.Celine.tiles[1]",
        "1:2",
        "only one",
        id="a military tile twice across players",
    ),
    case(
        jie_long(SEED | {"Bob": tiles("6:6", "6:6"), "Celine": tiles("6:6")}),
        "hands[0].results.Celine.tiles[0]",
        "6:6",
        "only 2",
        id="a civil tile three times across players",
    ),
    case(
        ding_niu({"Boris": tiles("2:6", "6:2")}),
        "hands[0].results.Boris.tiles[1]",
        "2:6",
        "only one",
        id="ding-niu 2:6 twice, written both ways",
    ),
    case(
        tiu_yu({"Anna": tiles("6:6", "6:6", "6:6"), "Bob": tiles("6:6", "6:6")}),
        "hands[0].results.Bob.tiles[1]",
        "6:6",
        "only 4",
        id="tiu-yu 6:6 five times",
    ),
    case(
        jie_long(SEED | {"Bob": tiles(*NINE_TILES)}),
        "hands[0].results.Bob.tiles",
        "Bob",
        "9",
        id="9 tiles for a player dealt 8",
    ),
    case(
        jie_long(SEED | {"Anna": tiles(*NINE_TILES[:8])}),
        "hands[0].results.Anna.tiles",
        "Anna",
        "8",
        id="8 tiles for the player who led one of 8",
    ),
]

SPECIALS = [
    case(
        ce_deng(SEED | {"Bob": special(12, "double")}),
        "hands[0].results.Bob.specials[0]",
        "double",
        id="unknown special",
    ),
    case(
        ce_deng(SEED | {"Bob": {"pips": 12, "specials": "pass"}}),
        "hands[0].results.Bob.specials",
        "list",
        id="specials not a list",
    ),
    case(
        ce_deng(SEED | {"Bob": special(0, "pass", "pass")}),
        "hands[0].results.Bob.specials",
        "twice",
        id="special listed twice",
    ),
    case(
        ce_deng(SEED | {"Bob": special(12, "suanzhang")}),
        "hands[0].results.Bob.specials[0]",
        "suanzhang",
        "Ce Deng",
        id="suanzhang in ce-deng",
    ),
    case(
        jie_long(SEED | {"Bob": special(0, "pass")}),
        "hands[0].results.Bob.specials[0]",
        "pass",
        "Jie Long",
        id="pass in jie-long",
    ),
    case(
        session("kkoribuchigi", FOUR, [hand(SEED | {"Bob": special(0, "pass")})]),
        "hands[0].results.Bob.specials[0]",
        "pass",
        id="pass in kkoribuchigi",
    ),
    case(
        session("tsair-deng", FOUR, [hand(SEED | {"Anna": special(30, "head_seven")})]),
        "hands[0].results.Anna.specials[0]",
        "head_seven",
        "Tsair Deng",
        id="head_seven in tsair-deng",
    ),
    case(
        ding_niu({"Boris": special(0, "pass")}),
        "hands[0].results.Boris.specials[0]",
        "pass",
        id="pass in ding-niu",
    ),
    case(
        tiu_yu({"Anna": fish(8, 0) | {"specials": ["pass"]}, "Bob": fish(0, 0)}),
        "hands[0].results.Anna.specials[0]",
        "Tiu Yu",
        id="pass in tiu-yu",
    ),
    case(
        ce_deng(SEED | {"Bob": special(30, "head_seven")}),
        "hands[0].results.Bob.specials",
        "head-seven",
        "Anna",
        id="head on a non-first player",
    ),
    case(
        ce_deng(SEED | {"Anna": special(40, "tail_eight")}),
        "hands[0].results.Anna.specials",
        "tail-eight",
        "Anna",
        id="tail on the first player",
    ),
    case(
        ce_deng(SEED | {"Bob": special(19, "head_six")}, head_tail="6/7"),
        "hands[0].results.Bob.specials",
        "head-six",
        id="head_six on a non-first player",
    ),
    case(
        ce_deng(SEED | {"Anna": special(23, "tail_seven")}, head_tail="6/7"),
        "hands[0].results.Anna.specials",
        "tail-seven",
        id="tail_seven on the first player",
    ),
    case(
        ce_deng(SEED | {"Anna": special(0, "pass", "head_seven")}),
        "hands[0].results.Anna.specials",
        "pass",
        "head-seven",
        id="pass and head at once",
    ),
    case(
        ce_deng(SEED | {"Bob": special(12, "pass")}),
        "hands[0].results.Bob.pips",
        "Bob",
        "0",
        id="ce-deng pass with a score",
    ),
    case(
        session("tsair-deng", FOUR, [hand(SEED | {"Bob": special(12, "pass")})]),
        "hands[0].results.Bob.pips",
        "Bob",
        "0",
        id="tsair-deng pass with a score",
    ),
    case(
        ce_deng(SEED | {"Bob": {"tiles": ["2:2"], "specials": ["pass"]}}),
        "hands[0].results.Bob.tiles",
        "Bob",
        id="pass with tiles discarded",
    ),
    case(
        ding_niu({"Boris": special(6, "suanzhang"), "Dominik": special(10, "suanzhang")}),
        "hands[0].results.Dominik.specials",
        "Boris",
        "Dominik",
        id="two suanzhang players",
    ),
]

OPTION_VALUES = [
    case(jie_long(SEED, stake=-0.01), "options.stake", "-0.01", id="stake -0.01"),
    case(jie_long(SEED, stake=-1), "options.stake", "-1", id="stake -1"),
    case(jie_long(SEED, stake="-0.50"), "options.stake", id="stake -0.50"),
    case(jie_long(SEED, stake="abc"), "options.stake", "abc", id="stake abc"),
    case(jie_long(SEED, stake="0.00001"), "options.stake", "decimal", id="stake 5 decimals"),
    case(jie_long(SEED, stake=True), "options.stake", id="stake true"),
    case(jie_long(SEED, stake=None), "options.stake", id="stake null"),
    case(jie_long(SEED, stake="NaN"), "options.stake", id="stake NaN"),
    case(jie_long(SEED, stake="Infinity"), "options.stake", id="stake Infinity"),
    case(jie_long(SEED, stake=[1]), "options.stake", id="stake list"),
    case(ding_niu({}, chip=-1), "options.chip", id="chip -1"),
    case(ding_niu({}, chip="1.23456"), "options.chip", "decimal", id="chip 5 decimals"),
    case(ce_deng(SEED, head_tail="8/9"), "options.head_tail", "8/9", "6/7", id="head_tail 8/9"),
    case(ce_deng(SEED, redeal_doubles=8), "options.redeal_doubles", "6", id="redeal_doubles 8"),
    case(ce_deng(SEED, redeal_doubles="six"), "options.redeal_doubles", id="redeal_doubles six"),
    case(
        session("kkoribuchigi", FOUR, [hand(SEED)], payment="most"),
        "options.payment",
        "most",
        "highest",
        id="payment most",
    ),
    case(jie_long(SEED, next_first="left"), "options.next_first", "rotate", id="next_first"),
]

EVENTS = [
    case(
        session("ce-deng", FOUR, [{"redeal": "Bob", "results": {"Bob": {"pips": 4}}}]),
        "hands[0].results",
        "Bob",
        "redeal",
        id="a redeal with results",
    ),
    case(
        session("jie-long", FOUR, [{"redeal": "Bob"}]),
        "hands[0].redeal",
        "Jie Long",
        "redeal",
        id="redeal in jie-long",
    ),
    case(
        session("tsair-deng", FOUR, [{"declared_doubles": "Bob", "results": {}}]),
        "hands[0].declared_doubles",
        "Tsair Deng",
        id="declared doubles in tsair-deng",
    ),
    case(
        session("tiu-yu", TWO, [hand({"Anna": fish(8, 0), "Bob": fish(0, 0)}, blocked=True)]),
        "hands[0].blocked",
        "Tiu Yu",
        id="blocked in tiu-yu",
    ),
    case(
        session("ce-deng", FOUR, [{"redeal": "Bob", "blocked": True}]),
        "hands[0].blocked",
        "redeal",
        "blocked",
        id="a redeal that is blocked",
    ),
    case(
        session("ce-deng", FOUR, [{"redeal": "Bob", "declared_doubles": "Anna"}]),
        "hands[0].declared_doubles",
        "redeal",
        id="a redeal with declared doubles",
    ),
    case(
        session(
            "ce-deng",
            FOUR,
            [hand({"Anna": 30, "Bob": 41, "Celine": 0, "Dominic": 28}, declared_doubles="Celine")],
        ),
        "hands[0].results.Celine",
        "Celine",
        id="the holder of declared doubles enters a result",
    ),
    case(
        session(
            "ce-deng",
            FOUR,
            [hand({"Anna": 30, "Bob": 41, "Dominic": 22}, declared_doubles="Celine")],
        ),
        "hands[0].results.Dominic.pips",
        "impossible",
        id="declared doubles: 22 is less than 8 tiles make (the CONTRACT example)",
    ),
    case(
        session(
            "ce-deng",
            FOUR,
            [
                hand(
                    {"Anna": special(0, "pass"), "Bob": 41, "Dominic": 28},
                    declared_doubles="Celine",
                )
            ],
        ),
        "hands[0].results.Anna.specials",
        "Anna",
        id="declared doubles: nobody else has a special",
    ),
    case(
        session("jie-long", FOUR, [hand(SEED, blocked="yes")]),
        "hands[0].blocked",
        "true",
        id="blocked yes",
    ),
    case(
        session("jie-long", FOUR, [hand(SEED, direction="up")]),
        "hands[0].direction",
        "ccw",
        id="direction up",
    ),
    case(
        session("jie-long", FOUR, [hand(SEED, winner="Anna")]),
        "hands[0].winner",
        "winner",
        id="unknown hand field",
    ),
    case(
        jie_long(SEED | {"Bob": {"pips": 12, "bonus": 2}}),
        "hands[0].results.Bob.bonus",
        "bonus",
        id="unknown result field",
    ),
]


@pytest.mark.parametrize(("document", "path", "words"), GAMES_AND_SEATS)
def test_games_and_options_must_be_known(document: Any, path: str, words: tuple[str]) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), PLAYER_COUNTS)
def test_a_table_must_have_as_many_players_as_the_game_allows(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), NAMES)
def test_names_must_be_distinct_and_seated(document: Any, path: str, words: tuple[str]) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), MISSING)
def test_every_seated_player_has_exactly_one_result(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), SCORES)
def test_negative_fractional_and_impossible_scores_are_rejected(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), TILES)
def test_tiles_must_exist_in_the_deck_as_often_as_entered(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), SPECIALS)
def test_specials_must_belong_to_the_game_and_the_player(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), OPTION_VALUES)
def test_option_values_must_make_sense(document: Any, path: str, words: tuple[str]) -> None:
    check(document, path, words)


@pytest.mark.parametrize(("document", "path", "words"), EVENTS)
def test_hand_events_and_fields_must_fit_the_game(
    document: Any, path: str, words: tuple[str]
) -> None:
    check(document, path, words)


def test_a_later_hand_is_pointed_at_by_its_index() -> None:
    document = session("jie-long", FOUR, [hand(SEED), hand(SEED), hand(SEED | {"Bob": 1})])
    assert rejected(document).path == "hands[2].results.Bob.pips"


def test_a_rejection_is_a_value_error() -> None:
    assert issubclass(ScoringError, ValueError)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(jie_long(SEED | {"Bob": 1}), id="impossible score"),
        pytest.param(ce_deng(SEED | {"Bob": special(30, "head_seven")}), id="head on Bob"),
        pytest.param(ding_niu({"Boris": tiles("1:2")}), id="tile not in deck"),
        pytest.param(jie_long(SEED, stake=-1), id="stake -1"),
    ],
)
def test_a_rejected_document_leaves_nothing_behind(bad: Any) -> None:
    good = ce_deng(SEED | {"Anna": special(0, "pass")})
    before = score(good)
    untouched = copy.deepcopy(bad)
    with pytest.raises(ScoringError):
        score(bad)
    assert bad == untouched
    assert score(good) == before
    with pytest.raises(ScoringError):
        score(bad)
