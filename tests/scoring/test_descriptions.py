"""What the engine tells a form about each game: names, how results are entered, options, events."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring import (
    GAMES,
    OPTION_SPECS,
    Entry,
    Hand,
    HandEvent,
    Options,
    OptionSpec,
    Result,
    Special,
    Tile,
    get_game,
    parse_session,
)
from scoring.options import ENDS
from scoring.text import N_

from .documents import FOUR, THREE, TWO, hand, rejected, session, tiles


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("jie-long", "Jie Long 接龙"),
        ("ce-deng", "Ce Deng 斜钉"),
        ("tsair-deng", "Tsair Deng"),  # the sources give it no characters
        ("kkoribuchigi", "Kko-li-but-i-gi 꼬리붙이기"),
        ("ding-niu", "Ding Niu 顶牛"),
        ("tiu-yu", "Tiu Yu"),  # nor this one
    ],
)
def test_a_game_is_named_in_english_and_in_its_own_script_where_the_sources_say(
    key: str, label: str
) -> None:
    game = get_game(key)
    assert game.label == label and label.startswith(game.title)


@pytest.mark.parametrize(
    ("named", "label"),
    [
        (Special.PASS, "pass 通"),
        (Special.HEAD_SEVEN, "head-seven 头七"),
        (Special.TAIL_EIGHT, "tail-eight 尾八"),
        (Special.HEAD_SIX, "head-six"),  # the sources name these in English only
        (Special.TAIL_SEVEN, "tail-seven"),
        (Special.SUANZHANG, "SuanZhang creator 算张"),
        (HandEvent.REDEAL, "redeal"),
        (HandEvent.DECLARED_DOUBLES, "declared doubles"),
        (HandEvent.BLOCKED, "blocked"),
    ],
)
def test_specials_and_events_are_named_in_english_and_as_the_sources_name_them(
    named: Special | HandEvent, label: str
) -> None:
    assert named.label == label


def test_the_marker_for_translation_gives_the_text_back_unchanged() -> None:
    assert N_("Stake") == "Stake"


# -- hand events ---------------------------------------------------------------------------


@pytest.mark.parametrize("event", list(HandEvent))
def test_every_event_is_the_hand_field_that_records_it(event: HandEvent) -> None:
    value: Any = True if event is HandEvent.BLOCKED else "Anna"
    recorded = Hand(**{event.value: value})
    assert recorded.events == (event,)
    assert event.has_caller is (event is not HandEvent.BLOCKED)


def test_a_hand_with_no_event_records_none() -> None:
    assert Hand().events == ()


def test_a_parsed_hand_gives_its_event_as_the_enum() -> None:
    parsed = parse_session(session("ce-deng", FOUR, [{"redeal": "Bob"}]))
    assert parsed.hands[0].events == (HandEvent.REDEAL,)


@pytest.mark.parametrize(
    ("key", "events"),
    [
        ("ce-deng", set(HandEvent)),
        ("jie-long", {HandEvent.BLOCKED}),
        ("ding-niu", {HandEvent.BLOCKED}),
        ("tiu-yu", set()),
    ],
)
def test_each_game_knows_its_events(key: str, events: set[HandEvent]) -> None:
    known = get_game(key).events
    assert known == events
    assert all(isinstance(event, HandEvent) for event in known)


# -- how results are entered ---------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_a_game_asks_for_pips_or_for_fish(key: str) -> None:
    game = get_game(key)
    assert game.entry is (Entry.FISH if key == "tiu-yu" else Entry.PIPS)


@pytest.mark.parametrize(
    ("entry", "keys", "tiles_label"),
    [
        (Entry.PIPS, ["pips"], "Or tap the tiles"),
        (Entry.FISH, ["large_fish_pips", "small_fish_red"], "Or tap the captured tiles"),
    ],
)
def test_an_entry_names_its_fields_as_the_document_does(
    entry: Entry, keys: list[str], tiles_label: str
) -> None:
    assert [field.key for field in entry.fields] == keys
    assert set(keys) <= set(Result._fields)
    assert entry.tiles_label == tiles_label
    for field in entry.fields:
        assert field.label and "\n" not in field.label
        assert field.help.endswith(".") and "\n" not in field.help


@pytest.mark.parametrize(("key", "seating"), [("jie-long", FOUR), ("tiu-yu", TWO)])
def test_a_result_made_of_its_entry_fields_is_read_from_the_document(
    key: str, seating: tuple[str, ...]
) -> None:
    fields = get_game(key).entry.fields
    results = {name: {field.key: 8 for field in fields} for name in seating}
    parsed = parse_session(session(key, seating, [hand(results)]))
    assert {getattr(parsed.hands[0].results["Anna"], field.key) for field in fields} == {8}


@pytest.mark.parametrize(
    ("captured", "large", "red"),
    [
        # 8 pips is a large fish, red spots and all; 7 pips is a small one.
        (("4:4", "3:4"), 8, 4),
        (("2:6", "1:6"), 8, 1),
        (("1:1", "6:6"), 12, 2),
        ((), 0, 0),
    ],
)
def test_tiu_yu_sorts_captured_tiles_into_large_and_small_fish(
    captured: tuple[str, ...], large: int, red: int
) -> None:
    tiu_yu = get_game("tiu-yu")
    result = tiu_yu.result_from_tiles(tuple(map(Tile.parse, captured)), frozenset())
    assert (result.large_fish_pips, result.small_fish_red, result.pips) == (large, red, 0)
    parsed = parse_session(session("tiu-yu", TWO, [hand({"Anna": tiles(*captured)})]))
    assert parsed.hands[0].results["Anna"] == result


def test_a_connecting_game_adds_up_the_pips_of_the_tiles() -> None:
    result = get_game("ce-deng").result_from_tiles(
        (Tile(4, 6), Tile(1, 2)), frozenset({Special.HEAD_SEVEN})
    )
    assert result == Result(
        pips=13, tiles=(Tile(4, 6), Tile(1, 2)), specials=frozenset({Special.HEAD_SEVEN})
    )


# -- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "names"),
    [
        ("jie-long", ["stake", "chip", "payment", "ties", "next_first", *ENDS]),
        (
            "ce-deng",
            [
                "stake",
                "chip",
                "head_tail",
                "redeal_doubles",
                "payment",
                "doubles",
                "next_first",
                *ENDS,
            ],
        ),
        ("tsair-deng", ["stake", "chip", "payment", "ties", "next_first", *ENDS]),
        ("kkoribuchigi", ["chip", "payment", "next_first", *ENDS]),
        ("ding-niu", ["chip", "next_first", *ENDS]),
        ("tiu-yu", ["stake", "chi_tsun", "next_first", *ENDS]),
    ],
)
def test_a_game_describes_the_options_it_accepts_in_display_order(
    key: str, names: list[str]
) -> None:
    game = get_game(key)
    assert [spec.name for spec in game.option_specs] == names
    assert set(names) == game.option_names


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("stake", "1"),
        ("chip", "1"),
        ("head_tail", "7/8"),
        ("redeal_doubles", "7"),
        ("payment", ""),  # each game's usual: Game.payment
        ("ties", "turn_order"),
        ("chi_tsun", "itself"),
        ("next_first", "winner"),
        ("play_to", ""),
        ("hands", ""),
    ],
)
def test_an_option_s_default_is_the_one_the_engine_applies(name: str, default: str) -> None:
    spec = OPTION_SPECS[name]
    assert spec.default == default == str(getattr(Options(), name) or "")
    assert (
        spec.default in spec.values
        or spec.amount is not None
        or spec.most is not None
        or (name == "payment")
    )


@pytest.mark.parametrize(
    ("key", "usual"),
    [("jie-long", "pairwise"), ("ce-deng", "pairwise"), ("kkoribuchigi", "highest")],
)
def test_each_game_pays_its_usual_way_unless_the_table_chooses(key: str, usual: str) -> None:
    game = get_game(key)
    assert game.option_values("payment")[0] == usual == game.payment(Options())


def _game_with(option: str, value: object = None) -> str:
    """A game that takes ``option`` (and, where one does, the value ``value``)."""
    takes = [key for key, game in GAMES.items() if option in game.option_names]
    offering = [key for key in takes if str(value) in GAMES[key].option_values(option)]
    return (offering or takes)[0]


def _options_document(option: str, value: Any) -> dict[str, Any]:
    key = _game_with(option, value)
    seating = THREE if get_game(key).player_counts != (4,) else FOUR
    options = {option: value}
    if option in ("chip", "doubles") and "stake" in get_game(key).option_names:
        # Where a game pays by the stake, a chip (and what declared doubles pay) needs its chips.
        options["payment"] = "chips"
    return {**session(key, seating, []), "options": options}


@pytest.mark.parametrize(
    ("name", "value"),
    [(spec.name, value) for spec in OPTION_SPECS.values() for value in spec.values],
)
def test_every_choice_a_form_offers_is_accepted(name: str, value: str) -> None:
    typed: Any = int(value) if name == "redeal_doubles" else value
    parsed = parse_session(_options_document(name, typed))
    assert str(getattr(parsed.options, name)) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [("head_tail", "8/9"), ("redeal_doubles", 8), ("payment", "most"), ("next_first", "left")],
)
def test_a_choice_a_form_does_not_offer_is_refused(name: str, value: Any) -> None:
    assert str(value) not in OPTION_SPECS[name].values
    assert rejected(_options_document(name, value)).path == f"options.{name}"


@pytest.mark.parametrize("name", ["stake", "chip"])
def test_an_amount_is_accepted_up_to_the_limits_its_spec_gives(name: str) -> None:
    amount = OPTION_SPECS[name].amount
    assert amount is not None
    smallest = Decimal(1).scaleb(-amount.places)
    for fine in (amount.most, smallest, Decimal(0)):
        assert getattr(parse_session(_options_document(name, str(fine))).options, name) == fine
    for wrong in (amount.most + smallest, smallest / 10, Decimal(-1)):
        assert rejected(_options_document(name, str(wrong))).path == f"options.{name}"


@pytest.mark.parametrize("name", ENDS)
def test_an_end_is_a_whole_number_up_to_the_most_its_spec_gives(name: str) -> None:
    most = OPTION_SPECS[name].most
    assert most is not None
    for fine in (1, most, str(most)):
        assert getattr(parse_session(_options_document(name, fine)).options, name) == int(fine)
    for wrong in (0, -1, most + 1, 2.5, "ten", True):
        error = rejected(_options_document(name, wrong))
        assert error.path == f"options.{name}"
        assert "whole number" in error.message


@pytest.mark.parametrize("spec", OPTION_SPECS.values(), ids=list(OPTION_SPECS))
def test_an_option_has_a_label_and_one_line_of_help(spec: OptionSpec) -> None:
    assert spec.label and spec.help.endswith(".")
    assert "\n" not in spec.label + spec.help
    assert [bool(spec.choices), spec.amount is not None, spec.most is not None].count(True) == 1
    assert all(label for _, label in spec.choices)
