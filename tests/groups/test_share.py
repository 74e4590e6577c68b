"""Share the evening (issue 37, item 10): a finished table's page, its summary and the group's
page carry the text *Share* sends, the result and the settle-up with the read-only summary's
link, in the reader's language and with the page's exact figures."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from ledger.groups import services
from ledger.models import TableSession
from ledger.tables import services as table_services

# Depends on the database: the group's balances are the database's decimal sums.
pytestmark = pytest.mark.both_databases

NAMES = {
    "en": ["Anna", "Bob", "Celine"],
    "zh-hans": ["王芳", "李娜", "张伟"],
    "ko": ["민준", "서연", "지호"],
}


def evening(language: str) -> TableSession:
    """A group's table of two hands: Anna -12, Bob +18, Celine -6 (by the names of
    ``language``)."""
    a, b, c = NAMES[language]
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    table = services.table_start(group=group, seating=[a, b, c], first=a)
    for number, pips in enumerate([(2, 12, 20), (30, 0, 8)], start=1):
        hand = {"results": {name: {"pips": p} for name, p in zip((a, b, c), pips, strict=True)}}
        table_services.hand_record(session=table, number=number, data=hand)
    return table


def shared_text(client: Client, url: str, language: str, link: str = "") -> str:
    """The text to share on the page at ``url``, and the link the phone adds to it (a
    table's read-only summary, made whole there: templates/web/_share.html)."""
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None, "no text to share"
    button = re.search(r'<button type="button" id="share-button"[^>]*>', page)
    assert button is not None
    assert (f' data-link="{link}"' in button[0]) if link else "data-link" not in button[0]
    return html.unescape(found[1])


def test_the_summary_shares_the_result_and_settle_up_with_the_read_only_link(db):
    table = evening("en")
    link = f"/s/{table.read_token}/"
    text = shared_text(Client(), f"/t/{table.token}/summary/", "en", link)
    assert text.splitlines() == [
        "Jie Long 接龙",
        "Anna −12 · Bob +18 · Celine −6",
        "Settle up: Anna pays Bob 12 · Celine pays Bob 6",
    ]
    assert shared_text(Client(), link, "en", link) == text


def test_the_group_page_shares_the_evening_and_where_everyone_stands(db):
    table = evening("en")
    text = shared_text(Client(), f"/g/{table.group.token}/", "en")
    assert text.splitlines() == [
        "Teahouse",
        "",
        "Jie Long 接龙: 2 hands",
        "Anna −12 · Bob +18 · Celine −6",
        f"http://testserver/s/{table.read_token}/",
        "",
        "Balances: Anna −12 · Bob +18 · Celine −6",
        "Settle up: Anna pays Bob 12 · Celine pays Bob 6",
    ]


def test_a_tables_page_offers_share_once_it_is_finished(db):
    table = evening("en")
    client = Client()
    assert 'id="share-text"' not in client.get(f"/t/{table.token}/").content.decode()
    table_services.table_lock(session=table, locked=True)
    link = f"/s/{table.read_token}/"
    text = shared_text(client, f"/t/{table.token}/", "en", link)
    assert "Settle up: Anna pays Bob 12 · Celine pays Bob 6" in text
    # in the live part, which every phone at the table is sent when the table ends
    assert shared_text(client, f"/t/{table.token}/live/", "en", link) == text


def test_a_game_over_says_who_won(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "1"})
    table = services.table_start(
        group=group, seating=["Anna", "Bob"], first="Anna", options={"stake": "1", "hands": 1}
    )
    hand = {"results": {"Anna": {"pips": 0}, "Bob": {"pips": 12}}}
    table_services.hand_record(session=table, number=1, data=hand)
    text = shared_text(Client(), f"/t/{table.token}/", "en", f"/s/{table.read_token}/")
    assert text.splitlines()[:2] == ["Jie Long 接龙", "Game over: Anna wins."]


@pytest.mark.parametrize(
    ("language", "summary", "group"),
    [
        (
            "zh-hans",
            ["接龙", "王芳 −12 · 李娜 +18 · 张伟 −6", "结账：王芳 付给 李娜 12 · 张伟 付给 李娜 6"],
            ["接龙：2 局", "结余：张伟 −6 · 李娜 +18 · 王芳 −12"],
        ),
        (
            "ko",
            [
                "Jie Long(接龍)",
                "민준 −12 · 서연 +18 · 지호 −6",
                "정산: 민준 님이 서연 님에게 12 냅니다 · 지호 님이 서연 님에게 6 냅니다",
            ],
            ["Jie Long(接龍): 2판", "잔액: 민준 −12 · 서연 +18 · 지호 −6"],
        ),
    ],
)
def test_the_text_to_share_is_in_the_readers_language(db, language, summary, group):
    table = evening(language)
    client = Client()
    link = f"/s/{table.read_token}/"
    text = shared_text(client, f"/t/{table.token}/summary/", language, link)
    assert text.splitlines() == summary
    evening_text = shared_text(client, f"/g/{table.group.token}/", language)
    for line in group:
        assert line in evening_text.splitlines()
    # No English but the game's own name, the group's and the links.
    for words in (text, evening_text):
        words = words.replace("Jie Long", "").replace("Teahouse", "")
        words = re.sub(r"http://testserver/s/\S+/", "", words)  # the group's tables' links
        assert not re.search("[A-Za-z]", words), words
