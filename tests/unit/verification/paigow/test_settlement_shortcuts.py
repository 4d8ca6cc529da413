"""The settlement check's shortcuts (settlement/shortcuts.py: dealer_banked_clean, centre_clean,
california_clean):
where one says a round is clean, the parts it skips find nothing; rounds it must refuse still
get their findings."""

import random
from collections import Counter

import pytest

from audit.games.paigow.settlement import BankingMode
from audit.simulation.irregularities import careless_shift
from audit.simulation.paigow.careless.kinds import MONEY_KINDS
from audit.simulation.shift import ShiftConfig
from audit.verification.paigow import verify
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.settlement import bank, california, checks, shortcuts, wagers
from audit.verification.paigow.settlement.expected import expect_settlement
from audit.verification.paigow.settlement.facts import read_settlement
from tests.builders.paigow_settlement import (
    CA,
    HALVES,
    SHORTFALL,
    banked_round,
    ca_round,
    co_banked_round,
    dealer_round,
    found,
)
from tests.builders.paigow_table import DEALER, LOSES, WINS, Table


def judged_rounds(events, monkeypatch):
    """Return each round's view and table context, as the stream judged them."""
    judged = []

    def spy(view, context, emit):
        judged.append((view, context.snapshot()))
        checks.check_settlement(view, context, emit)

    spied = tuple(spy if c is checks.check_settlement else c for c in verify.CHECKS)
    monkeypatch.setattr(verify, "CHECKS", spied)
    list(verify.verify_stream(events))
    return judged


def skipped_parts_find(view, context):
    """Return what the parts a shortcut skips (wagers, bank, balance, order) find in a round."""
    emit = Emit(view, context)
    facts = read_settlement(view, context.ruleset)
    expected = expect_settlement(view, context.ruleset, facts)
    wagers.judge_wagers(view, context, emit, facts, expected)
    bank.judge_bank(view, context, emit, facts, expected)
    bank.judge_balance(view, context, emit, facts)
    california.judge_order(view, context, emit, facts)
    return emit.findings


@pytest.mark.parametrize("seed", [3, 4])
def test_where_a_shortcut_takes_a_round_the_parts_it_skips_find_nothing(seed, monkeypatch):
    """Careless shifts, every irregularity of money at half the rounds: taken or refused, never
    taken where the full comparison finds something."""
    config = ShiftConfig(tables=8, rounds_per_table=40)
    events, _ = careless_shift(config, random.Random(seed), 0.5, kinds=MONEY_KINDS)
    taken, refused = Counter(), Counter()
    for view, context in judged_rounds(list(events), monkeypatch):
        facts = read_settlement(view, context.ruleset)
        if (
            shortcuts.dealer_banked_clean(view, context.ruleset, facts)
            or shortcuts.centre_clean(view, context, facts)
            or shortcuts.california_clean(view, context.ruleset, facts)
        ):
            taken[facts.mode] += 1
            assert skipped_parts_find(view, context) == [], view.round_id
        else:
            refused[facts.mode] += 1
    for mode in BankingMode:
        assert taken[mode] > 2, mode
        assert refused[mode] > 2, mode


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
    # Collected whole either way (PA 621a.8(e)): the label is wrong, no money moved wrongly.
    assert found(table.complete()) == [("PG-SETTLE-OUTCOME", 2, "PA 621a.8(e)", "0.00")]


def test_a_settlement_of_the_right_outcome_with_the_vigorish_of_another_rounding():
    table = dealer_round({1: ("win", {"paid": "25.00", "vigorish": "1.50"})})
    assert found(table) == [("PG-SETTLE-VIG-OVER", 1, "PA 621a.8(k)", "0.25")]


# --- Rounds the player- and co-bank shortcut must refuse -----------------------------------------


def test_a_co_bank_split_recorded_in_a_player_banked_round_unbalances_the_centre():
    split = ("co_bank_split", {"surplus_to_house": "5.00"})
    table = banked_round("100.00", flows=[*SHORTFALL, split])
    assert found(table) == [("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(r)", "5.00")]


def test_a_surplus_recorded_in_a_co_banked_round_unbalances_the_centre():
    table = co_banked_round(HALVES)
    surplus = table.add("bank_surplus_settled", surplus="0.00", vigorish="0.00",
                        paid_to_bank="3.00")  # fmt: skip
    table.events.insert(len(table.events) - 2, table.events.pop())  # before round_completed
    assert surplus in table.events
    assert found(table) == [("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(r)", "3.00")]


def test_a_dealer_wager_pushed_with_money_moved():
    """The dealer's hands lose to the bank's: a push recorded with $40 moved is wrong twice."""
    table = banked_round("100.00", flows=SHORTFALL, dealer_settled="push")
    assert found(table) == [
        ("PG-SETTLE-OUTCOME", 0, "PA 621a.9(n)", "40.00"),
        ("PG-SETTLE-PAYOUT", 0, "PA 621a.9(n)", "40.00"),
        ("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(o)", "40.00"),
    ]


def test_a_stake_left_unsettled_still_has_the_banks_flows_judged():
    table = banked_round("100.00", flows=[("bank_shortfall_collected", {"amount": "20.00"})])
    table.events = [e for e in table.events if not (e.type == "wager_settled" and e.position == 3)]
    assert found(table) == [("PG-BANK-SHORTFALL", 2, "PA 621a.9(o)", "10.00")]


# --- Rounds the California shortcut must refuse ------------------------------------------------


def test_without_a_valid_throw_the_order_is_not_judged_but_the_coverage_is():
    """No action button: the lines are judged in the order settled, the order itself not."""
    changes = {
        1: ("lose", {"collected": "20.00"}),
        3: ("win", {"paid": "30.00", "returned": "10.00"}),
        4: ("win", {"returned": "30.00"}),
    }
    table = ca_round(changes, order=(1, 3, 4))
    table.events = [e for e in table.events if e.type != "dice_revealed"]
    assert found(table) == []  # seat 1's loss first takes $20 of the $50 of action
    table = ca_round(order=(1, 3, 4))  # settled as if the button were on seat 3
    table.events = [e for e in table.events if e.type != "dice_revealed"]
    assert found(table) == [
        ("PG-CA-COVERAGE", 1, f"{CA}, Type of Game", "20.00"),  # in action, not collected
        ("PG-CA-COVERAGE", 3, f"{CA}, Type of Game", "10.00"),  # covered for $30, paid $40
        ("PG-CA-COVERAGE", 4, f"{CA}, Type of Game", "10.00"),  # exhausted, yet paid $10
    ]


def test_a_california_hand_missing_leaves_its_recorded_outcome_to_judge():
    table = ca_round({1: ("win", {"paid": "20.00"})})  # seat 1's hands would have it lose
    table.events = [e for e in table.events if not (e.type == "hand_set" and e.position == 1)]
    assert found(table) == [("PG-CA-COVERAGE", 1, f"{CA}, Type of Game", "20.00")]
