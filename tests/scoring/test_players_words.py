"""Whatever a phone sends, the engine answers in the players' words: never a flag name, a deck
code, an option's key or a Python value, and every player a message is about is named."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings

from scoring import ScoringError, score
from tests.depth import examples

from .documents import phone_sessions

CODE_WORDS = re.compile(
    r"head_seven|tail_eight|head_six|tail_seven|suanzhang|declared_doubles"
    r"|chinese-32|ding-niu-24|kkori-24|double-64"
    r"|head_tail|redeal_doubles|next_first|play_to|large_fish_pips|small_fish_red"
    r"|Decimal|None|True|False|\b(?:dict|list|str|int|float)\b|Traceback"
)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phone_sessions())
def test_what_a_phone_can_send_is_answered_in_the_players_words(document: Any) -> None:
    try:
        score(document)
    except ScoringError as error:
        for problem in error.errors:
            assert not CODE_WORDS.search(problem.message), problem.message
            seated = re.match(r"hands\[\d+\]\.results\.(\w+)\.", problem.path)
            if seated:  # a problem in one player's result names that player
                assert seated[1] in problem.message, problem.message
