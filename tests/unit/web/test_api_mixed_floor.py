"""A floor of both games through ``/api/tables``, ``/api/floor`` and the console's floor page."""

import random

from fastapi.testclient import TestClient

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from consumers.serve import Service
from tests.unit.web.conftest import login, make_app


def test_a_21_baccarat_table_shows_its_game_and_shoe(tmp_path):
    config = ShiftConfig(2, 8, games=(("paigow", 0.5), ("baccarat21", 0.5)))
    events = list(simulate_shift(config, random.Random(5)))
    store = FactStore(StoreConfig.sqlite(tmp_path / "mixed.sqlite"))
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    Service(store).run_pass()
    client = TestClient(make_app(tmp_path, store=store), base_url="http://testserver")
    assert login(client, "ann").status_code == 303

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
