"""The settlement check's shortcuts (settlement_checks._dealer_banked_clean): where one says a
round is clean, the parts it skips find nothing; rounds it must refuse still get their findings."""

import random

import pytest

from audit.simulation.irregular_money import MONEY_KINDS
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.verification.paigow import settlement_checks, verify
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.settlement_checks import expect_settlement, read_settlement
from tests.unit.verification.test_setting_checks import DEALER, LOSES, WINS, Table
from tests.unit.verification.test_settlement_checks import dealer_round, found


def judged_rounds(events, monkeypatch):
    """Return each round's view and table context, as the stream judged them."""
    judged = []

    def spy(view, context, emit):
        judged.append((view, context.snapshot()))
        settlement_checks._settlement(view, context, emit)

    checks = tuple(spy if c is settlement_checks._settlement else c for c in verify.CHECKS)
    monkeypatch.setattr(verify, "CHECKS", checks)
    list(verify.verify_stream(events))
    return judged


def skipped_parts_find(view, context):
    """Return what the parts a shortcut skips (wagers, bank, balance, order) find in a round."""
    emit = Emit(view, context)
    facts = read_settlement(view, context.ruleset)
    expected = expect_settlement(view, context.ruleset, facts)
    settlement_checks._wagers(view, context, emit, facts, expected)
    settlement_checks._bank(view, context, emit, facts, expected)
    settlement_checks._balance(view, context, emit, facts)
    settlement_checks._order(view, context, emit, facts)
    return emit.findings


@pytest.mark.parametrize("seed", [3, 4])
def test_where_a_shortcut_takes_a_round_the_parts_it_skips_find_nothing(seed, monkeypatch):
    """Careless shifts, every irregularity of money at half the rounds: taken or refused, never
    taken where the full comparison finds something."""
    config = ShiftConfig(tables=6, rounds_per_table=30)
    events, _ = careless_shift(config, random.Random(seed), 0.5, kinds=MONEY_KINDS)
    taken = refused = 0
    for view, context in judged_rounds(list(events), monkeypatch):
        facts = read_settlement(view, context.ruleset)
        if settlement_checks._dealer_banked_clean(view, context.ruleset, facts):
            taken += 1
            assert skipped_parts_find(view, context) == [], view.round_id
        else:
            refused += 1
    assert taken > 20
    assert refused > 20


# --- Rounds the dealer-banked shortcut must refuse -----------------------------------------------


def test_a_misordered_dealer_hand_leaves_the_recorded_outcomes_to_judge():
    """The banker's hands cannot decide any wager: the arithmetic is still checked."""
    table = Table("pa-2012").start().wager(1, "25.00").wager(2, "50.00")
    table.hand(1, WINS)
    table.hand(2, LOSES)
    table.hand(0, "3-3a 1-5a / 1-1a 2-6", set_by="dealer")  # DEALER with its hands swapped
    table.settle(1, "lose", collected="25.00")  # the hands would have it win: not judged
    table.settle(2, "win", paid="50.00", vigorish="1.00")
    assert found(table.complete()) == [("PG-SETTLE-VIG-SHORT", 2, "PA 621a.8(k)", "1.50")]


def test_a_surrender_settled_as_a_loss():
    table = Table("pa-2012").start().wager(1, "25.00").wager(2, "50.00")
    table.hand(1, WINS)
    table.hand(2, LOSES)
    table.hand(0, DEALER, set_by="dealer")
    table.add("surrendered", position=2)
    table.settle(1, "win", paid="25.00", vigorish="1.25")
    table.settle(2, "lose", collected="50.00")
    assert found(table.complete()) == [("PG-SETTLE-OUTCOME", 2, "PA 621a.8(g)-(k)", "50.00")]


def test_a_settlement_of_the_right_outcome_with_the_vigorish_of_another_rounding():
    table = dealer_round({1: ("win", {"paid": "25.00", "vigorish": "1.50"})})
    assert found(table) == [("PG-SETTLE-VIG-OVER", 1, "PA 621a.8(k)", "0.25")]
