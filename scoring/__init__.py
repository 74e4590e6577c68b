"""Scoring for Chinese domino games: a pure library, no Django, no I/O.

The whole engine in one call, with the JSON document of CONTRACT.md:

>>> from scoring import score
>>> out = score({"game": "ding-niu", "seating": ["Adam", "Boris", "Celine", "Dominik"],
...              "first": "Adam", "hands": [{"results": {"Adam": {"pips": 10},
...              "Boris": {"pips": 6}, "Celine": {"pips": 6}, "Dominik": {"pips": 10}}}]})
>>> out["hands"][0]["ranking"], out["totals"]["net"]
(['Boris', 'Celine', 'Dominik', 'Adam'], {'Adam': -3, 'Boris': 6, 'Celine': -1, 'Dominik': -2})

Or with typed objects: ``score_session(Session(...))`` returns a ``SessionResult``.
"""

from scoring.document import (
    hand_document,
    parse_session,
    result_document,
    score,
    whole_number,
)
from scoring.errors import ScoringError
from scoring.games import (
    GAMES,
    SPECIAL_RULES,
    Game,
    Seat,
    SpecialRule,
    get_game,
    register,
    unregister,
)
from scoring.model import (
    ChipPayment,
    ChiTsun,
    Direction,
    Doubles,
    End,
    EndReason,
    Entry,
    Hand,
    HandEvent,
    HandResult,
    HeadTail,
    NextFirst,
    Options,
    Payment,
    Proof,
    Result,
    ResultField,
    Session,
    SessionResult,
    Special,
    Ties,
    Totals,
    Transfer,
)
from scoring.options import OPTION_SPECS, Amount, OptionSpec
from scoring.session import (
    check_open,
    explain,
    score_session,
    session_end,
    standing,
    totals,
    turn_order,
    won_from,
)
from scoring.settlement import settle_up
from scoring.tiles import Deck, Tile, pip_totals

__all__ = [
    "GAMES",
    "OPTION_SPECS",
    "SPECIAL_RULES",
    "Amount",
    "ChipPayment",
    "ChiTsun",
    "Deck",
    "Direction",
    "Doubles",
    "End",
    "EndReason",
    "Entry",
    "Game",
    "Hand",
    "HandEvent",
    "HandResult",
    "HeadTail",
    "NextFirst",
    "Proof",
    "OptionSpec",
    "Options",
    "Payment",
    "Result",
    "ResultField",
    "ScoringError",
    "Seat",
    "Session",
    "SessionResult",
    "Special",
    "SpecialRule",
    "Tile",
    "Ties",
    "Totals",
    "Transfer",
    "check_open",
    "explain",
    "get_game",
    "hand_document",
    "parse_session",
    "pip_totals",
    "register",
    "result_document",
    "score",
    "whole_number",
    "score_session",
    "session_end",
    "settle_up",
    "standing",
    "totals",
    "turn_order",
    "unregister",
    "won_from",
]
