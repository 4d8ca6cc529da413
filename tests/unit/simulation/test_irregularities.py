"""The careless dealer: each irregularity, forced on every round it fits, yields exactly the
finding codes its label names, and nothing else; a clean shift yields neither labels nor
findings; a mixed run scores precision and recall 1.0 for every code."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pytest

from audit.accounting.controls import STATISTICAL_CODES
from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.simulation import Frequencies, ShiftConfig, simulate_shift
from audit.simulation.irregularities import (
    KINDS,
    InvalidRateError,
    careless_shift,
    kind_named,
)
from audit.simulation.labels import InvalidLabelError, Label
from audit.simulation.scoring import score, verify_for_scoring
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS

SEED = 20261121
# Generous banking, co-banking and Pair Fortunes, so the rarer irregularities find rounds.
BUSY = Frequencies(accepts_bank=0.8, co_bank=0.5, pair_fortunes_player=0.8, potential_banker=0.8)
EVERY_RULE_SET = (("pa-2019", 0.5), ("nj", 0.25), ("california", 0.25))
FORCED = ShiftConfig(tables=4, rounds_per_table=20, frequencies=BUSY, rule_set_mix=EVERY_RULE_SET)

# The catalogue's rows say which kinds the careless dealer injects (``injectable``).
INJECTABLE = {code for code, kind in FINDING_KINDS.items() if kind.injectable}


@cache
def forced(name: str) -> tuple[list[Event], list[Label], list[Finding]]:
    """Play the irregularity on every round it fits; return events, labels and findings."""
    events, labels = careless_shift(
        FORCED, random.Random(SEED), 1.0, kinds=(kind_named(name),), variances=False
    )
    played = list(events)
    return played, labels, list(verify_for_scoring(played))


def mismatches(labels: list[Label], findings: list[Finding]) -> list[str]:
    """Return each round whose findings are not exactly its label's codes (at its position)."""
    found: dict[tuple[str, str | None], list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.code not in STATISTICAL_CODES:  # review prompts, never labelled
            found[(finding.table_id, finding.round_id)].append(finding)
    labelled = {(label.table_id, label.round_id): label for label in labels}
    wrong = []
    for key in sorted(set(found) | set(labelled), key=str):
        label, got = labelled.get(key), found.get(key, [])
        codes = sorted({f.code for f in got})
        misplaced = [
            f for f in got if label is not None and label.position not in (None, f.position)
        ]
        if label is None or codes != list(label.codes) or misplaced:
            shown = [(f.code, f.position) for f in got]
            wrong.append(f"{key}: labelled {label}, found {shown}")
    return wrong


@pytest.mark.parametrize("name", [kind.name for kind in KINDS])
def test_each_kind_yields_exactly_its_labelled_codes(name):
    _, labels, findings = forced(name)
    assert labels, f"{name} found no round to go wrong in"
    assert {label.kind for label in labels} == {name}
    assert mismatches(labels, findings) == []
    report = score(findings, labels)
    assert report.perfect, report.lines()


def test_the_kinds_inject_exactly_the_kinds_the_catalogue_marks_injectable():
    covered = {code for kind in KINDS for label in forced(kind.name)[1] for code in label.codes}
    assert covered == INJECTABLE
    # A table plays about 250 rounds (some 8 hours) a shift: tiles are never kept 12 hours
    # nor dice 24 within it, so no careless round can leave them overdue.
    assert {"PG-EQ-TILES-OVERDUE", "PG-EQ-DICE-OVERDUE"}.isdisjoint(INJECTABLE)


def test_labels_name_every_code_of_a_compound_irregularity():
    by_kind = {kind.name: {label.codes for label in forced(kind.name)[1]} for kind in KINDS}
    settled = ("PG-DEAL-SETTLED-AFTER-WRONG-DEAL", "PG-DEAL-START")
    assert settled in by_kind["wrong_start"]
    assert ("PG-DEAL-DICE-TOTAL", *settled) in by_kind["counted_from_miscall"]
    assert ("PG-SETTLE-OUTCOME",) in by_kind["wrong_outcome"]  # its wrong money is evidence
    assert ("PG-BANK-SHORTFALL", "PG-SETTLE-UNBALANCED") in by_kind["bank_shortfall_short"]
    assert ("PG-TILE-DUPLICATE", "PG-TILE-HAND-MISMATCH") in by_kind["tile_duplicated"]
    assert ("PG-TILE-DUPLICATE", "PG-TILE-MISSING") in by_kind["tile_set_tampered"]
    assert ("PG-SET-DEALER-RULE", "PG-SET-HOUSE-WAY") in by_kind["dealer_off_house_way"]


def test_a_seeded_clean_shift_has_no_labels_and_no_findings():
    config = ShiftConfig(tables=6, rounds_per_table=30)
    events, labels = careless_shift(config, random.Random(SEED), 0.0)
    played = list(events)
    assert played == list(simulate_shift(config, random.Random(SEED)))
    assert labels == []
    assert list(verify_for_scoring(played)) == []


def test_a_mixed_careless_shift_scores_precision_and_recall_1():
    config = ShiftConfig(tables=6, rounds_per_table=40)
    events, labels = careless_shift(config, random.Random(SEED), 0.3)
    played = list(events)
    report = score(verify_for_scoring(played), labels)
    assert report.perfect, report.lines()
    assert 50 <= len(labels) <= 100  # about 0.3 x 240 rounds
    assert len(report.codes) >= 25
    assert all(s.tp and not s.fp and not s.fn for s in report.codes.values())


def test_the_shift_is_seeded():
    config = ShiftConfig(tables=3, rounds_per_table=15)
    first, first_labels = careless_shift(config, random.Random(3), 0.5)
    again, again_labels = careless_shift(config, random.Random(3), 0.5)
    assert list(first) == list(again)
    assert first_labels == again_labels


def test_an_irregularity_changes_only_its_own_round_and_leaves_the_table_consistent():
    # Every round irregular, every kind: the stream still parses round after round.
    config = ShiftConfig(tables=3, rounds_per_table=30, frequencies=BUSY)
    events, labels = careless_shift(config, random.Random(11), 1.0)
    played = list(events)
    by_table: dict[str, list[Event]] = defaultdict(list)
    for event in played:
        by_table[event.table_id].append(event)
    for stream in by_table.values():
        times = [e.occurred_at for e in stream]
        assert times == sorted(times)
    assert score(verify_for_scoring(played), labels).perfect


@pytest.mark.parametrize("rate", [-0.1, 1.5, float("nan"), True])
def test_a_rate_must_be_a_probability(rate):
    with pytest.raises(InvalidRateError):
        careless_shift(ShiftConfig(tables=1, rounds_per_table=1), random.Random(1), rate)


def test_kinds_have_unique_names_and_are_found_by_name():
    names = [kind.name for kind in KINDS]
    assert len(names) == len(set(names))
    assert all(names)
    assert kind_named("wrong_start").name == "wrong_start"
    with pytest.raises(ValueError, match="no irregularity"):
        kind_named("honest_dealer")


def test_a_label_round_trips_and_a_bad_one_is_refused():
    label = Label("PG-01", "PG-01-20261121-0001", "wrong_payout", ("PG-SETTLE-PAYOUT",), 3)
    assert Label.from_dict(label.as_dict()) == label
    for bad in (
        {"table_id": "PG-01", "round_id": "R", "kind": "k"},
        {**label.as_dict(), "codes": ["PG-NOT-A-CODE"]},
        {**label.as_dict(), "position": "3"},
        {**label.as_dict(), "table_id": ""},
        ["not", "a", "label"],
    ):
        with pytest.raises(InvalidLabelError):
            Label.from_dict(bad)


def test_a_player_banked_round_left_open_is_found_and_nothing_else():
    config = ShiftConfig(tables=6, rounds_per_table=60)
    events, labels = careless_shift(
        config, random.Random(3), 0.5, kinds=(kind_named("round_not_completed"),),
        variances=False,
    )  # fmt: skip
    played = list(events)
    banked = {e.round_id for e in played if e.type_name() == "bank_accepted"}
    assert {label.round_id for label in labels} & banked  # player banks left open too
    assert score(verify_for_scoring(played), labels).perfect
