"""The careless 21 Baccarat dealer: each irregularity, forced on every round it fits, yields
exactly the finding codes its label names; a careless mixed floor scores perfectly; rate 0 is
the clean shift."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pytest

from audit.accounting.controls import STATISTICAL_CODES
from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.simulation.baccarat21.careless import KINDS, Plan
from audit.simulation.irregularities import careless_shift
from audit.simulation.labels import Label
from audit.simulation.scoring import score, verify_for_scoring
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.baccarat21.kinds import KINDS as FINDING_KINDS
from audit.verification.record_kinds import RECORD_KINDS

SEED = 20261121
BACCARAT = (("baccarat21", 1.0),)
FORCED = ShiftConfig(tables=4, rounds_per_table=200, games=BACCARAT)
MIXED = ShiftConfig(tables=8, rounds_per_table=40, games=(("paigow", 0.5), ("baccarat21", 0.5)))


@cache
def forced(kind: type[Plan]) -> tuple[list[Event], list[Label], list[Finding]]:
    """Play the irregularity on every round it fits; return events, labels and findings."""
    events, labels = careless_shift(
        FORCED, random.Random(SEED), 1.0, b21_kinds=(kind,), variances=False
    )
    played = list(events)
    return played, labels, list(verify_for_scoring(played))


def mismatches(labels: list[Label], findings: list[Finding]) -> list[str]:
    """Return each round whose findings are not exactly its label's codes (at its position)."""
    found: dict[tuple[str, str | None], list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.code not in STATISTICAL_CODES:
            found[(finding.table_id, finding.round_id)].append(finding)
    labelled = {(label.table_id, label.round_id): label for label in labels}
    wrong = []
    for key in sorted(set(found) | set(labelled), key=str):
        label, got = labelled.get(key), found.get(key, [])
        codes = sorted({f.code for f in got})
        misplaced = [f for f in got if label and label.position not in (None, f.position)]
        if label is None or codes != list(label.codes) or misplaced:
            wrong.append(f"{key}: labelled {label}, found {[(f.code, f.position) for f in got]}")
    return wrong


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_each_kind_yields_exactly_its_labelled_codes(kind):
    _, labels, findings = forced(kind)
    assert labels, f"{kind.name} found no round to go wrong in"
    assert {label.kind for label in labels} == {kind.name}
    assert mismatches(labels, findings) == []
    assert score(findings, labels).perfect


def test_the_kinds_inject_exactly_the_kinds_the_catalogue_marks_injectable():
    covered = {code for kind in KINDS for label in forced(kind)[1] for code in label.codes}
    # The record's kinds, shared by both games, are injected at Pai Gow tables
    # (tests/unit/simulation/test_irregularities.py).
    own = {code: kind for code, kind in FINDING_KINDS.items() if code not in RECORD_KINDS}
    assert covered == {code for code, kind in own.items() if kind.injectable}
    assert {"B21-SHOE-DECKS", "B21-SHOE-CUT", "B21-SHOE-BATCH"}.isdisjoint(covered)


def test_a_counted_card_is_labelled_with_the_settlement_it_upsets():
    drawn_to_17 = next(kind for kind in KINDS if kind.name == "card_drawn_to_17")
    codes = {label.codes for label in forced(drawn_to_17)[1]}
    assert ("B21-DRAW-EXTRA",) in codes
    assert any("B21-SETTLE-OUTCOME" in c or "B21-SETTLE-PAYOUT" in c for c in codes)


def test_a_careless_mixed_floor_scores_perfectly_and_covers_21_baccarat():
    events, labels = careless_shift(MIXED, random.Random(SEED), 0.3)
    played = list(events)
    report = score(verify_for_scoring(played), labels)
    assert report.perfect, report.lines()
    baccarat = {code for code in report.codes if code.startswith("B21-")}
    assert len(baccarat) >= 8, sorted(baccarat)
    assert all(report.codes[code].tp for code in baccarat)
    assert {label.table_id[:3] for label in labels} >= {"PG-", "B21"}


def test_a_clean_21_baccarat_shift_is_the_simulated_one():
    config = ShiftConfig(tables=3, rounds_per_table=60, shifts=2, games=BACCARAT)
    events, labels = careless_shift(config, random.Random(SEED), 0.0)
    assert list(events) == list(simulate_shift(config, random.Random(SEED)))
    assert labels == []


def test_the_careless_shift_is_seeded():
    config = ShiftConfig(tables=2, rounds_per_table=40, games=BACCARAT)
    first, first_labels = careless_shift(config, random.Random(3), 0.5)
    again, again_labels = careless_shift(config, random.Random(3), 0.5)
    assert list(first) == list(again)
    assert first_labels == again_labels


def test_a_21_baccarat_label_round_trips():
    label = Label("B21-03", "B21-03-20261121-0007", "wager_late", ("B21-WAGER-LATE",), 4)
    assert Label.from_dict(label.as_dict()) == label
