"""One row declares a finding (#19): its replay step and whether the simulator injects it sit
in the catalogue, the replays file findings by the row, and docs/findings.md is generated
from the rows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.floor.catalogue import ALL_KINDS
from audit.floor.reference import render_markdown
from audit.simulation.irregularities import careless_shift, loaded_dice_labels
from audit.simulation.shift import ShiftConfig
from audit.verification.baccarat21 import replay as b21_replay
from audit.verification.baccarat21.kinds import KINDS as B21_KINDS
from audit.verification.equipment import SCREEN_KINDS
from audit.verification.paigow import replay as paigow_replay
from audit.verification.paigow.kinds import KINDS as PAIGOW_KINDS

DOC = Path(__file__).resolve().parents[3] / "docs" / "findings.md"
GAMES = [
    (PAIGOW_KINDS, paigow_replay.step_for, {s.value for s in paigow_replay.StepKind}),
    (B21_KINDS, b21_replay.step_for, {kind for kind, _ in b21_replay.STEPS}),
]


@pytest.mark.parametrize(("kinds", "step_for", "steps"), GAMES, ids=["paigow", "baccarat21"])
def test_each_round_kind_names_a_step_of_its_games_replay_and_the_replay_files_it_there(
    kinds, step_for, steps
):
    assert {code for code, kind in kinds.items() if kind.step not in steps} == set()
    assert {code: str(step_for(code)) for code in kinds} == {c: k.step for c, k in kinds.items()}


def test_a_code_the_catalogue_does_not_hold_is_filed_under_other_findings():
    assert paigow_replay.step_for("COL-UNKNOWN") is paigow_replay.StepKind.OTHER
    assert b21_replay.step_for("COL-UNKNOWN") == "other"


def test_findings_of_no_one_round_have_no_replay_step():
    assert {kind.step for kind in {**ACCOUNTING_KINDS, **SCREEN_KINDS}.values()} == {None}


def test_a_card_on_the_wrong_hand_is_shown_with_the_cards():
    assert b21_replay.step_for("B21-CARD-WRONG-HAND") == "cards"


def test_every_label_of_a_careless_floor_names_an_injectable_kind():
    mixed = ShiftConfig(tables=6, rounds_per_table=30, games=(("paigow", 0.5), ("baccarat21", 0.5)))
    _, labels = careless_shift(mixed, random.Random(19), 0.5)
    loaded = ShiftConfig(tables=6, rounds_per_table=5, loaded_dice_tables=2)
    labels += loaded_dice_labels(loaded, random.Random(19))
    named = {code for label in labels for code in label.codes}
    assert named, "the floor injected nothing"
    assert {code for code in named if not ALL_KINDS[code].injectable} == set()
    assert "STAT-DICE-TOTALS" in named


def test_docs_findings_md_is_generated_from_the_catalogue():
    assert DOC.read_text() == render_markdown(), (
        "regenerate: tablewatch schema --findings > docs/findings.md"
    )


def test_docs_findings_md_has_a_row_for_every_kind():
    rows = [line for line in render_markdown().splitlines() if line.startswith("| `")]
    codes = [row.split("`")[1] for row in rows]
    assert sorted(c for c in codes if c in ALL_KINDS) == sorted(ALL_KINDS)
