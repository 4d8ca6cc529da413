"""A floor of both games through ``/api/tables``, ``/api/floor``, ``/api/hands`` and the
console's floor page."""

import random

import pytest
from fastapi.testclient import TestClient

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from consumers.serve import Service
from tests.builders.web_app import login, make_app


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """A signed-in analyst's client over a floor of both games, and the floor's events."""
    path = tmp_path_factory.mktemp("mixed")
    config = ShiftConfig(2, 8, games=(("paigow", 0.5), ("baccarat21", 0.5)))
    events = list(simulate_shift(config, random.Random(5)))
    store = FactStore(StoreConfig.sqlite(path / "mixed.sqlite"))
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    Service(store).run_pass()
    client = TestClient(make_app(path, store=store), base_url="http://testserver")
    assert login(client, "ann").status_code == 303
    return client, events


def test_a_21_baccarat_table_shows_its_game_and_shoe(mixed):
    client, events = mixed

    tables = {t["table_id"]: t for t in client.get("/api/tables").json()}
    games = {e.table_id: e.game for e in events if e.type_name() == "table_opened"}
    assert {t: row["game"] for t, row in tables.items()} == games
    [b21] = [t for t, game in games.items() if game == "baccarat21"]
    loaded = [e for e in events if e.table_id == b21 and e.type_name() == "shoe_loaded"]
    assert tables[b21]["shoe_number"] == len(loaded)
    assert tables[b21]["shoe_since"] == loaded[-1].occurred_at.isoformat()
    assert tables[b21]["shoe_age_s"] > 0
    assert tables[b21]["tile_set_id"] is None
    pai_gow = next(row for t, row in tables.items() if t != b21)
    assert pai_gow["shoe_number"] is None
    assert pai_gow["tile_set_id"] is not None

    floor = {t["table_id"]: t for t in client.get("/api/floor").json()["tables"]}
    assert floor[b21]["shoe_rounds"] == tables[b21]["shoe_rounds"]
    page = client.get("/floor").text
    assert f"shoe {len(loaded)}" in page


def test_the_hands_of_both_games_are_listed_and_filtered(mixed):
    client, events = mixed
    games = {e.table_id: e.game for e in events if e.type_name() == "table_opened"}
    hands = client.get("/api/hands", params={"limit": 1000}).json()
    assert {h["game"] for h in hands} == {"paigow", "baccarat21"}
    assert all(h["game"] == games[h["table_id"]] for h in hands)
    [b21] = [t for t, game in games.items() if game == "baccarat21"]
    played = {
        e.round_id for e in events if e.table_id == b21 and e.type_name() == "round_completed"
    }
    cards = client.get("/api/hands", params={"table": b21, "limit": 1000}).json()
    assert {h["round_id"] for h in cards} == played
    assert all(h["player_cards"] and h["banker_cards"] and h["tiles"] is None for h in cards)
    one = cards[0]
    same = client.get("/api/hands", params={"round": one["round_id"]}).json()
    assert one in same
    assert {h["round_id"] for h in same} == {one["round_id"]}
    player = next(h["player_id"] for h in cards if h["player_id"])
    mine = client.get("/api/hands", params={"player": player}).json()
    assert mine
    assert {h["player_id"] for h in mine} == {player}
    assert len(client.get("/api/hands", params={"limit": 3}).json()) == 3
    assert client.get("/api/hands", params={"limit": 0}).status_code == 422
    assert client.get("/api/hands", params={"table": "no spaces"}).status_code == 422
