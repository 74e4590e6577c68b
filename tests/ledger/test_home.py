from scoring import GAMES


def test_home_page_lists_every_game_with_its_player_counts(client):
    response = client.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    for game in GAMES.values():
        assert game.title in page
    assert "Ding Niu 顶牛</strong> — 4 players" in page
    assert "Tiu Yu</strong> — 2–3 players" in page
