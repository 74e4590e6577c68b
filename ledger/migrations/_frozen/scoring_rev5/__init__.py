# A frozen copy of scoring/__init__.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""The scoring engine as the migrations run it: a frozen copy of ``scoring/`` at commit 4f8c0c1
(rules revision 5; ``scoring/`` is the same through 94da68f). Never edit it.

A migration must do tomorrow what it did when it was written, whatever the engine becomes by
then, so no migration imports ``scoring`` (tests/ledger/test_migrations_stand_alone.py). This
copy is the one engine they share: 0007 (``names.canonical``), 0008, 0010, 0024 and 0036
(``options.as_played``), 0012 (``whole_number``), 0015 and 0030 (which score every stored
table again) and 0037 (a table's chip, read from its options). Its modules are scoring's,
word for word, but for this docstring, the two lines that head each module, ``__main__``
left out, and ``from scoring.x import`` written ``from .x import``.

One copy serves migrations written under earlier revisions of the rules because a revision
changed what a stored table pays only by a default that changed or an option now refused,
and ``options.as_played`` lists each (``CHANGED_DEFAULTS``, ``IGNORED_UNTIL``): a table's
options read ``as_played(game, options, played=N)`` are scored here as the engine of revision
N scored them. So 0015, written under revision 3, reads every table as played under 3, and
0030, written under 4, as played under 4: the options they meet are pinned up to that
revision by the migrations before them (0008, 0010; 0024), and no further. 0008, 0010, 0024
and 0036 ask ``as_played`` only about the revisions between theirs, whose entries never
changed; ``canonical`` and ``whole_number`` are what they were when 0007 and 0012 were
written. One change of revision 4 holds for every table, played before or not, so nothing
pins it: a table for points only pays nothing, declared doubles included (revision 3's engine
had Ce Deng's declared doubles at a chips table whose chip is 0 pay by the stake). There 0015
writes what today's engine reads from the table, nothing, and its rows agree with
``manage.py ledger_verify``. tests/tables/test_frozen_engine_migration.py stores tables of
each such kind in the schema before 0015 and holds every row, migrated, to today's engine, to
the cent.

A migration that needs an engine other than this one gets a frozen copy of its own beside
this one (``scoring_rev6``, ...), named for its revision, with the same header.
"""

from .document import (
    hand_document,
    parse_session,
    result_document,
    score,
    whole_number,
)
from .errors import ScoringError
from .games import (
    GAMES,
    SPECIAL_RULES,
    Game,
    Seat,
    SpecialRule,
    get_game,
    register,
    unregister,
)
from .model import (
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
from .options import OPTION_SPECS, Amount, OptionSpec
from .session import (
    check_open,
    explain,
    score_session,
    session_end,
    standing,
    totals,
    turn_order,
    won_from,
)
from .settlement import settle_up
from .tiles import Deck, Tile, pip_totals

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
