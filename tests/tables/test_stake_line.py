"""What a table plays for, in one line on every page that shows the table (issue 37, item 3),
and the saved hand saying why a special its number proves was applied (item 7)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger.models import Group, TableChange, TableSession
from ledger.tables import services
from scoring import GAMES
from tests.tables.conftest import IN_PLACE, SEATING, empty_database, form_post, plain_hand

pytestmark = pytest.mark.django_db

HONG_KONG = "Asia/Hong_Kong"


def stake_of(page: str) -> str:
    found = re.search(r'<p class="stake" id="stake">(.*?)</p>', page)
    assert found, "the page has no stake line"
    return found.group(1).replace("&#x27;", "'")


def pages(table: TableSession, client: Client, language: str = "en") -> list[str]:
    """The table page, its summary and its shared (read-only) summary."""
    return [
        client.get(reverse(name, args=[token]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for name, token in (
            ("table", table.token),
            ("summary", table.token),
            ("shared", table.read_token),
        )
    ]


def table(game: str = "ce-deng", **options: str) -> TableSession:
    seating = SEATING[: GAMES[game].player_counts[-1]]
    return services.session_create(game=game, options=options, seating=seating, first="Anna")


@pytest.mark.parametrize(
    ("game", "options", "line"),
    [
        (
            "ce-deng",
            {},
            "1 a point, pairwise · head/tail 7/8",
        ),
        (
            "ce-deng",
            {"stake": "0.5", "head_tail": "6/7", "play_to": "500"},
            "0.50 a point, pairwise · head/tail 6/7 · to 500 points",
        ),
        (
            "jie-long",
            {"payment": "chips", "chip": "2", "hands": "12"},
            "A chip of 2 from each loser · 12 hands",
        ),
        ("jie-long", {"stake": "0", "hands": "1"}, "Points only, nothing paid · 1 hand"),
        ("ce-deng", {"stake": "0"}, "Points only, nothing paid · head/tail 7/8"),
        ("ding-niu", {"chip": "0.25", "hands": "8"}, "A chip is worth 0.25 · 8 hands"),
        ("kkoribuchigi", {}, "A chip of 1 from the last and anyone over 30"),
        ("tiu-yu", {"stake": "2", "play_to": "1"}, "2 a point · to 1 point"),
    ],
)
def test_the_table_its_summary_and_shared_summary_say_what_the_table_plays_for(
    client, game, options, line
):
    played = table(game, **options)

    assert [stake_of(page) for page in pages(played, client)] == [line] * 3


def test_a_table_that_ends_by_time_says_until_when_in_its_own_time_zone(client):
    at = timezone.now() + timedelta(hours=2)
    played = services.session_create(
        game="ce-deng",
        options={"play_to": "300"},
        seating=SEATING,
        first="Anna",
        ends_at=at,
        time_zone=HONG_KONG,
    )
    until = at.astimezone(ZoneInfo(HONG_KONG)).strftime("%H:%M")

    assert {stake_of(page) for page in pages(played, client)} == {
        f"1 a point, pairwise · head/tail 7/8 · to 300 points · until {until}"
    }


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("ko", "점당 0.50, 두 사람씩 정산 · 머리·꼬리 6/7 · 목표 500점"),
        ("zh-hans", "每点 0.50，两两结算 · 头尾 6/7 · 打到 500 分"),
    ],
)
def test_the_stake_line_is_in_the_readers_language(client, language, line):
    played = table("ce-deng", stake="0.5", head_tail="6/7", play_to="500")

    assert {stake_of(page) for page in pages(played, client, language)} == {line}


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "A chip of 2 from each loser · 12 hands"),
        ("ko", "패자마다 2짜리 칩 하나 · 12판"),
        ("zh-hans", "每个输家付一个 2 的筹码 · 12 局"),
    ],
)
def test_chips_and_a_number_of_hands_in_every_language(client, language, line):
    played = table("jie-long", payment="chips", chip="2", hands="12")

    assert {stake_of(page) for page in pages(played, client, language)} == {line}


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Points only, nothing paid · head/tail 7/8"),
        ("ko", "점수만 계산, 돈은 오가지 않음 · 머리·꼬리 7/8"),
        ("zh-hans", "只计分，不付钱 · 头尾 7/8"),
    ],
)
def test_points_only_in_every_language(client, language, line):
    assert {stake_of(page) for page in pages(table(stake="0"), client, language)} == {line}


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "0.50 a point, pairwise"),
        ("ko", "점당 0.50, 두 사람씩 정산"),
    ],
)
def test_the_group_page_says_what_the_group_usually_plays_for(client, language, line):
    response = client.post(
        "/groups/new/", {"name": "Thursday teahouse", "game": "jie-long", "stake": "0.50"}
    )
    group = Group.objects.get()
    assert response.status_code == 302

    member = Client()  # the organiser's line ends with the way to its settings
    page = member.get(f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert stake_of(page) == line


# -- the saved hand says why ------------------------------------------------------------------

# Ce Deng led by Anna: Bob's 80 pips can only be all 8 tiles, a tail-eight.
PROVEN_EN = "Bob's 80 pips need 8 tiles, so Bob has tail-eight 尾八"
PROVEN = {
    "en": PROVEN_EN,
    "ko": "Bob의 80점은 8장이 필요하므로 Bob 님은 꼬리 8(尾八)입니다",
    "zh-hans": "Bob 的 80 点需要 8 张牌，所以 Bob 是尾八",
}


def reasons(page: str) -> list[str]:
    return [
        text.replace("&#x27;", "'") for text in re.findall(r'<p class="proven">(.*?)</p>', page)
    ]


@pytest.mark.parametrize("ticked", [True, False], ids=["form-ticked", "number-proved"])
@pytest.mark.parametrize("language", ["en", "ko", "zh-hans"])
def test_the_saved_hand_says_why_80_pips_are_a_tail_eight_whoever_ticked_it(
    client, ticked, language
):
    played = table()
    fields = {"pips_1": "80", "specials_1": "tail_eight"} if ticked else {"pips_1": "80"}

    saved = client.post(
        reverse("hand_save", args=[played.token]),
        form_post(1, **fields),
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    ).content.decode()
    in_place = client.post(
        reverse("hand_save", args=[played.token]),
        form_post(2, direction="cw", **fields),
        HTTP_ACCEPT_LANGUAGE=language,
        **IN_PLACE,
    ).content.decode()

    assert reasons(saved) == [PROVEN[language]]
    assert reasons(in_place) == [PROVEN[language]]
    assert played.hands.get(number=1).named["results"]["Bob"]["specials"] == ["tail_eight"]


def test_a_special_ticked_that_the_number_does_not_prove_gives_no_reason(client):
    played = table()

    saved = client.post(
        reverse("hand_save", args=[played.token]),
        form_post(1, pips_1="60", specials_1="tail_eight"),
        follow=True,
    ).content.decode()

    assert "Hand 1 saved." in saved and reasons(saved) == []


def test_a_hand_with_no_special_gives_no_reason(client):
    played = table()

    saved = client.post(
        reverse("hand_save", args=[played.token]), form_post(1), follow=True
    ).content.decode()

    assert "Hand 1 saved." in saved and reasons(saved) == []


def test_the_stake_line_comes_before_the_hand_form(client):
    page = pages(table(stake="0.5"), client)[0]

    assert page.index('id="stake"') < page.index('id="hand-form"')


def test_a_time_zone_s_day_does_not_change_the_line(client):
    # A time is shown as the table's clock reads it, never as a date.
    at = datetime(2030, 1, 1, 23, 30, tzinfo=ZoneInfo(HONG_KONG))
    played = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", ends_at=at, time_zone=HONG_KONG
    )

    assert stake_of(pages(played, client)[0]).endswith("until 23:30")


# -- a change of how the table ends shows in its history ----------------------------------------
# These depend on the database: the history merges two tables' changes by time (a UNION).


def organiser_of(played: TableSession) -> Client:
    client = Client()
    client.get(reverse("organise", args=[played.token, played.organiser_token]))
    return client


def history(played: TableSession, language: str = "en") -> str:
    page = Client().get(reverse("history", args=[played.token]), HTTP_ACCEPT_LANGUAGE=language)
    return page.content.decode()


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Where the game ends changed", "to 100 points", "to 200 points", "Anna"]),
        ("ko", ["끝나는 조건 변경", "목표 100점", "목표 200점"]),
        ("zh-hans", ["结束条件已更改", "打到 100 分", "打到 200 分"]),
    ],
)
def test_raising_the_target_shows_in_the_history_before_and_after(language, words):
    played = table(play_to="100")
    services.hand_record(session=played, number=1, data=plain_hand())
    organiser = organiser_of(played)

    answer = organiser.post(
        reverse("ends", args=[played.token]),
        {"play_to": "200", "hands": "", "device": "Anna"},
    )

    assert answer.status_code == 302
    page = history(played, language)
    before, after = re.findall(r"<dd>(.*?)</dd>", page.split('id="options-')[1])[:2]
    assert words[1] in before and words[1] not in after and words[2] in after
    assert words[0] in page
    # Newest first: the change of the target above the hand recorded before it.
    assert page.index('id="options-') < page.index('id="change-')
    assert TableChange.objects.get(session=played).before == {"play_to": "100"}


@pytest.mark.both_databases
def test_a_time_set_shows_in_the_history_as_the_table_s_clock_reads_it():
    played = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", time_zone=HONG_KONG
    )

    organiser_of(played).post(
        reverse("ends", args=[played.token]), {"play_to": "", "hands": "", "until": "23:30"}
    )

    page = history(played)
    assert "1 a point, pairwise · head/tail 7/8</dd>" in page and "until 23:30" in page


@pytest.mark.both_databases
def test_sending_the_same_end_again_is_no_change():
    played = table(play_to="100")

    organiser_of(played).post(reverse("ends", args=[played.token]), {"play_to": "100", "hands": ""})

    assert not TableChange.objects.exists() and 'id="options-' not in history(played)


@pytest.mark.both_databases
def test_a_backup_keeps_the_changes_of_where_a_table_ends(tmp_path, capsys):
    played = table(play_to="100")
    at = datetime(2030, 1, 1, 23, 30, tzinfo=ZoneInfo(HONG_KONG))
    services.table_ends(session=played, play_to=200, hands=None, ends_at=at, device="Anna")
    before = history(played).split('id="options-')[1]
    call_command("ledger_export")
    backup = tmp_path / "backup.json"
    backup.write_text(capsys.readouterr().out, encoding="utf-8")
    empty_database()

    call_command("ledger_import", str(backup))

    change = TableChange.objects.get()
    assert (change.before, change.after, change.ends_after, change.device) == (
        {"play_to": "100"},
        {"play_to": 200},
        at,
        "Anna",
    )
    assert history(played).split('id="options-')[1].split('"', 1)[1] == before.split('"', 1)[1]
