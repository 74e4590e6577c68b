"""A group's new table in a tap or two, and the group's first screen (issue 37, items 2 and 4).

The group's players are offered as ticks, the last table's players ticked in their seats first;
the ticked sit in the order sent and a name typed sits after them and joins the group. A count
of players the game is not for is refused in the reader's language, and nothing is stored. The
page shows Play again, the last evening's result and the balances before the new table's form
and the list of tables.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from ledger.groups import services
from ledger.groups.models import Group
from ledger.models import Player, TableSession
from ledger.tables import services as table_services

pytestmark = pytest.mark.both_databases


@pytest.fixture
def group(db) -> Group:
    """Thursday teahouse (Jie Long, 0.50 a point): Dan played once, long ago; then Bob, Celine
    and Anna, in those seats."""
    group = services.group_create(
        name="Thursday teahouse", game="jie-long", options={"stake": "0.50"}
    )
    earlier = services.table_start(group=group, seating=["Anna", "Dan"], first="Anna")
    TableSession.objects.filter(pk=earlier.pk).update(created=earlier.created - timedelta(days=7))
    last = services.table_start(group=group, seating=["Bob", "Celine", "Anna"], first="Bob")
    # 0.50 a point, pairwise: Bob 2, Celine 12, Anna 20 -> Bob +14, Celine -1, Anna -13.
    results = {"Bob": {"pips": 2}, "Celine": {"pips": 12}, "Anna": {"pips": 20}}
    table_services.hand_record(session=last, number=1, data={"results": results})
    return group


def ids(group: Group) -> dict[str, int]:
    return dict(Player.objects.filter(group=group).values_list("name", "pk"))


def offered(page: str) -> list[tuple[str, bool]]:
    """The players the new table's form offers, in its order, and whether each is ticked."""
    choices = re.search(r'<ol class="chips seats-taken">(.*?)</ol>', page, re.S)[1]
    return [
        (name, checked == " checked")
        for checked, name in re.findall(r'name="seat" value="\d+"( checked)?>([^<]+)<', choices)
    ]


def start(group: Group, *, seat: list[int], language: str = "en", **fields: str):
    data = {"game": "ce-deng", "first": "0", "key": "k" * 22, "seat": seat, **fields}
    return Client().post(f"/g/{group.token}/tables/new/", data, HTTP_ACCEPT_LANGUAGE=language)


def test_the_new_table_offers_the_last_tables_players_in_their_seats_and_the_usual_game(group):
    page = Client().get(f"/g/{group.token}/").content.decode()

    assert offered(page) == [("Bob", True), ("Celine", True), ("Anna", True), ("Dan", False)]
    assert re.search(r'name="game" value="jie-long" id="id_game_\d+" checked', page)
    assert len(re.findall(r'name="game" value="[\w-]+" id="id_game_\d+" checked', page)) == 1


def test_the_ticked_sit_in_the_order_sent_and_a_typed_name_sits_after_them_and_joins(group):
    player = ids(group)

    response = start(group, seat=[player["Dan"], player["Celine"], player["Anna"]], player_0="Dong")

    table = TableSession.objects.get(token=response["Location"].split("/")[2])
    assert table.seating == ["Dan", "Celine", "Anna", "Dong"]
    assert table.first == "Dan" and table.game == "ce-deng" and table.group == group
    # another game: that game's usual rules, for what the group plays for (issue 47)
    assert table.options == {"stake": "0.50"}
    assert Player.objects.get(group=group, name="Dong")  # the new name joined the group


def test_the_group_s_usual_game_keeps_its_usual_options(group):
    player = ids(group)

    response = start(group, seat=[player["Anna"], player["Bob"]], game="jie-long")

    table = TableSession.objects.get(token=response["Location"].split("/")[2])
    assert table.seating == ["Anna", "Bob"] and table.options == {"stake": "0.50"}


@pytest.mark.parametrize(
    ("game", "seated", "language", "message"),
    [
        ("ding-niu", 2, "en", "Ding Niu 顶牛 is for exactly 4 players, not 3"),
        ("tiu-yu", 3, "en", "is for 2 to 3 players, not 4"),
        ("ding-niu", 2, "ko", "4"),
        ("ding-niu", 2, "zh-hans", "4"),
    ],
)
def test_a_count_of_players_the_game_is_not_for_is_refused_in_the_readers_language(
    group, game, seated, language, message
):
    player = ids(group)
    seat = [player[name] for name in ["Bob", "Celine", "Anna", "Dan"][:seated]]
    before = (TableSession.objects.count(), Player.objects.count())

    response = start(group, seat=seat, game=game, language=language, player_3="Dong")

    assert response.status_code == 400
    page = response.content.decode()
    error = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', page, re.S)[1]
    assert message in error
    if language != "en":  # said in the reader's language, not in English
        assert not re.search(r"[A-Za-z]{3,}", re.sub(r"Ding Niu|Dong|<[^>]+>", "", error))
    assert (TableSession.objects.count(), Player.objects.count()) == before  # Dong did not join
    assert 'value="Dong"' in page
    # The form comes back as it was sent: the same ticks in the same seats, the same game.
    assert offered(page)[:seated] == [(name, True) for name in ["Bob", "Celine", "Anna"][:seated]]
    assert re.search(rf'name="game" value="{game}" id="id_game_\d+" checked', page)


def test_a_player_of_another_group_cannot_be_ticked_and_nothing_is_stored(group):
    other = services.group_create(name="Sunday club", game="jie-long", options={})
    services.table_start(group=other, seating=["Zed", "Yan"], first="Zed")
    zed = Player.objects.get(group=other, name="Zed")
    before = TableSession.objects.count()

    response = start(group, seat=[ids(group)["Anna"], zed.pk], game="jie-long")

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert TableSession.objects.count() == before


def test_the_first_screen_shows_play_again_the_last_evening_and_balances_before_the_tables(
    group,
):
    page = Client().get(f"/g/{group.token}/").content.decode()

    order = [
        page.index(f'id="{part}"')
        for part in ("play-again", "last-evening", "balances", "new-table", "latest-tables")
    ]
    assert order == sorted(order)
    evening = re.search(r'<section id="last-evening">(.*?)</section>', page, re.S)[1]
    # Only the last evening's table (not Dan's of a week ago), its biggest winner first.
    said = " ".join(re.sub(r"<[^>]+>", "", evening).split())
    assert said.endswith("Jie Long 接龙: Bob +14 · Celine \u22121 · Anna \u221213")
    assert "Dan" not in said
    assert 'href="#settle-money"' in page  # the settle-up a tap away


def test_the_last_evening_is_live_with_the_balances(group):
    page = Client().get(f"/g/{group.token}/", HTTP_HX_REQUEST="true").content.decode()

    assert '<section id="last-evening" hx-swap-oob="true">' in page
    assert "Bob +14" in page


@pytest.mark.parametrize("language", ["zh-hans", "ko"])
def test_the_new_table_and_the_first_screen_read_in_the_readers_language(group, language):
    page = Client().get(f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for part in ("again", "last-evening", "new-table"):
        html = re.search(rf'<\w+ id="{part}".*?</(section|details)>', page, re.S)[0]
        text = re.sub(r"<[^>]+>", " ", html)
        # Only the players' names and the games' own names are in Latin letters.
        spoken = re.sub(
            r"Anna|Bob|Celine|Dan|Jie Long|Ce Deng|Tsair Deng|Kko-li-but-i-gi|Ding Niu|Tiu Yu",
            "",
            text,
        )
        assert not re.search(r"[A-Za-z]{2,}", spoken), (part, spoken)
