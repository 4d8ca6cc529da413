"""A floor of two games: Pai Gow and 21 Baccarat tables in one stream, judged and reconciled."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from audit.simulation.irregularities import careless_shift
from audit.simulation.scoring import score, verify_for_scoring
from audit.simulation.shift import InvalidShiftConfigError, ShiftConfig, simulate_shift
from consumers.cli import main

MIXED = (("paigow", 0.75), ("baccarat21", 0.25))


def test_a_mixed_floor_shares_its_tables_and_is_clean():
    config = ShiftConfig(tables=8, rounds_per_table=30, shifts=2, games=MIXED)
    events = list(simulate_shift(config, random.Random(4)))
    games = Counter(e.game for e in events if e.type_name() == "table_opened")
    assert games == {"paigow": 6, "baccarat21": 2}
    assert list(verify_for_scoring(events)) == []


def test_a_careless_mixed_floor_scores_perfectly():
    config = ShiftConfig(tables=8, rounds_per_table=30, shifts=2, games=MIXED)
    events, labels = careless_shift(config, random.Random(6), 0.2)
    played = list(events)
    report = score(verify_for_scoring(played), labels)
    assert report.perfect, report.lines()
    baccarat = {e.table_id for e in played if e.type_name() == "table_opened"
                and e.game == "baccarat21"}  # fmt: skip
    assert baccarat
    assert {label.table_id for label in labels} - {"CAGE"} - baccarat  # Pai Gow labels


def test_an_unknown_game_is_refused():
    with pytest.raises(InvalidShiftConfigError, match="unknown game"):
        ShiftConfig(games=(("craps", 1.0),))


def test_simulate_game_baccarat21(tmp_path):
    out = tmp_path / "b21.jsonl"
    assert main(["simulate", "--game", "baccarat21", "--tables", "2", "--rounds", "5",
                 "--out", str(out)]) == 0  # fmt: skip
    facts = [json.loads(line) for line in out.read_text().splitlines()]
    assert {f["game"] for f in facts if f["type"] == "table_opened"} == {"baccarat21"}
    assert any(f["type"] == "b21_card_dealt" for f in facts)


def test_a_careless_mixed_floor_simulates_from_the_command_line(tmp_path):
    """21 Baccarat tables have no dice: a mixed careless floor names only Pai Gow shakers."""
    out = tmp_path / "mixed.jsonl"
    assert main(["simulate", "--game", "mixed", "--tables", "4", "--rounds", "5",
                 "--irregularities", "0.2", "--loaded-dice", "1",
                 "--out", str(out)]) == 0  # fmt: skip
    facts = [json.loads(line) for line in out.read_text().splitlines()]
    games = {f["table_id"]: f["game"] for f in facts if f["type"] == "table_opened"}
    assert set(games.values()) == {"paigow", "baccarat21"}
    labels = [json.loads(line) for line in (tmp_path / "mixed.labels.jsonl").open()]
    dice = [label["table_id"] for label in labels if label["kind"] == "loaded_dice"]
    assert len(dice) == 1
    assert games[dice[0]] == "paigow"
