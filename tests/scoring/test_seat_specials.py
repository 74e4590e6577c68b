"""Which specials a seat may have: what a form offers is exactly what the rules accept."""

from __future__ import annotations

import itertools

import pytest

from scoring import GAMES, SPECIAL_RULES, Game, HeadTail, Options, Result, ScoringError, Special
from scoring.games.base import Table, check_player
from scoring.tiles import pip_totals

from .documents import FOUR

S = Special
# What the table page's hand form offered each seat before the engine knew (ledger hand_rows):
# the game's specials, heads only to the leader, tails only to the others, head-six and
# tail-seven only with head_tail "6/7", in the order of their values.
OFFERED = [
    ("ce-deng", True, "7/8", (S.HEAD_SEVEN, S.PASS)),
    ("ce-deng", False, "7/8", (S.PASS, S.TAIL_EIGHT)),
    ("ce-deng", True, "6/7", (S.HEAD_SEVEN, S.HEAD_SIX, S.PASS)),
    ("ce-deng", False, "6/7", (S.PASS, S.TAIL_EIGHT, S.TAIL_SEVEN)),
    ("tsair-deng", True, "7/8", (S.PASS,)),
    ("tsair-deng", False, "7/8", (S.PASS,)),
    ("ding-niu", True, "7/8", (S.SUANZHANG,)),
    ("ding-niu", False, "7/8", (S.SUANZHANG,)),
    ("jie-long", True, "7/8", ()),
    ("kkoribuchigi", False, "7/8", ()),
    ("tiu-yu", True, "7/8", ()),
]


@pytest.mark.parametrize(("key", "leads", "head_tail", "offered"), OFFERED)
def test_a_seat_is_offered_the_specials_the_hand_form_offered(
    key: str, leads: bool, head_tail: str, offered: tuple[Special, ...]
) -> None:
    game = GAMES[key]
    options = Options(head_tail=HeadTail(head_tail))
    for players in game.player_counts:
        assert game.seat_specials(players, leads=leads, options=options) == offered


@pytest.mark.parametrize("special", list(Special))
def test_a_special_s_seat_is_the_one_its_name_gives(special: Special) -> None:
    """The form tells heads from tails by ``Seat``, whose values it writes into the page."""
    seat = SPECIAL_RULES[special].seat
    assert seat == next((s for s in ("head", "tail") if special.startswith(s)), "any")


def _score_for(game: Game, players: int, special: Special) -> int:
    """A score that the special itself allows, so that only the special can be refused."""
    if special is Special.PASS:
        return 0
    keeps = SPECIAL_RULES[special].keeps
    deck, dealt = game.deck(players), game.tiles_each(players)
    count = (dealt - keeps, dealt - keeps) if keeps is not None else (1, 1)
    return min(pip_totals(deck, *count))


CASES = [
    pytest.param(
        game,
        players,
        leads,
        head_tail,
        special,
        id=f"{key}-{players}-{leads}-{head_tail}-{special}",
    )
    for key, game in GAMES.items()
    for players in game.player_counts
    for leads, head_tail, special in itertools.product((True, False), HeadTail, Special)
]


@pytest.mark.parametrize(("game", "players", "leads", "head_tail", "special"), CASES)
def test_check_player_accepts_exactly_the_specials_a_seat_is_offered(
    game: Game, players: int, leads: bool, head_tail: HeadTail, special: Special
) -> None:
    options = Options(head_tail=head_tail)
    table = Table(FOUR[:players], options, "hands[0]")
    name = table.order[0] if leads else table.order[1]
    result = Result(pips=_score_for(game, players, special), specials=frozenset({special}))
    if special in game.seat_specials(players, leads=leads, options=options):
        assert special in check_player(game, name, result, table)
    else:
        with pytest.raises(ScoringError) as caught:
            check_player(game, name, result, table)
        assert caught.value.path == f"hands[0].results.{name}.specials"
