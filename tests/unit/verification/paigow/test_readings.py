"""One reading of who banks a Pai Gow round, shared by the checks, the settlement and the replay.

A bank is a player's (PA 621a.9(c), NJ 19:47-10.8(c)): the dealer offers it to each
player and marks the one who accepts, at that player's betting position; "if no player
accepts the bank, the round of play shall proceed" as the dealer's. A ``bank_accepted``
recorded at a position no player sits at (the dealer's spot, the Dead
Hand) is no player bank: the round is the dealer's, and every reader says so.
"""

from __future__ import annotations

import pytest

from audit.events.paigow import play
from audit.games.paigow.rulesets import get_rule_set
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow.readings import banking
from audit.verification.paigow.replay import StepKind, replay_round
from audit.verification.paigow.round_view import view_round
from consumers.replay_text import step_lines
from projections.hand_history import COLUMNS, hand_rows
from tests.builders.paigow_rounds import BANK_PLAYER, ROUND, clean_round


def lines_of(replay, kind):
    return step_lines(replay, replay.step(kind))


def _accepted_at(position: int, rule_set: str = "pa-2019"):
    """A clean dealer-banked round whose record also says a bank was accepted at ``position``."""
    rnd = clean_round(rule_set)
    formed = rnd.first("stacks_formed")
    offered = rnd.insert_after(formed, play.BankOffered, position=position)
    rnd.insert_after(offered, play.BankAccepted, position=position, player_id=BANK_PLAYER,
                     chips_on_table="5000.00")  # fmt: skip
    return rnd


def _not_betting(rule_set: str) -> list[int]:
    layout = get_rule_set(rule_set).layout
    positions = {layout.dealer}
    if layout.dead_hand is not None:
        positions.add(layout.dead_hand)
    return sorted(p for p in positions if p not in layout.betting)


@pytest.mark.parametrize("rule_set", ["pa-2019", "nj"])
def test_a_bank_accepted_at_no_betting_position_is_read_as_the_dealers_everywhere(rule_set):
    for position in _not_betting(rule_set):
        rnd = _accepted_at(position, rule_set)
        replay = replay_round(rnd.events, ROUND)
        assert "banking: the dealer banks for the house" in lines_of(replay, StepKind.ROUND)
        # The money was settled as the dealer's round: no settlement finding, and no mark
        # of the replay's says otherwise.
        money = [f.code for f in replay.findings if f.code.startswith(("PG-SETTLE", "PG-BANK"))]
        assert money == [], (position, money)
        marked = [f for step in replay.steps for f in step.facts if f.same is False]
        assert marked == [], (position, marked)


def test_the_replays_marks_agree_with_the_findings_when_the_bank_is_real():
    """The control: a bank at a betting position is a player bank, its flows unsettled here
    (clean_round records dealer-banked money), and both the marks and the findings say so."""
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00"})
    replay = replay_round(rnd.events, ROUND)
    assert any(
        line.startswith("banking: player bank at") for line in lines_of(replay, StepKind.ROUND)
    )
    money = [f for f in replay.findings if f.code.startswith(("PG-SETTLE", "PG-BANK"))]
    marked = [f for f in replay.step(StepKind.SETTLEMENT).facts if f.same is False]
    assert money
    assert marked


def test_who_banks_reads_the_rule_set_and_the_bank_once():
    pa = get_rule_set("pa-2019")
    dealer = view_round(_accepted_at(pa.layout.dealer).events[4:])
    assert banking(dealer, pa).mode is BankingMode.DEALER
    assert banking(dealer, pa).bank is None
    player = view_round(clean_round("pa-2019", bank=2, wagers_at={1: "25.00"}).events[4:])
    assert banking(player, pa).mode is BankingMode.PLAYER_BANK
    assert banking(player, pa).bank == 2
    assert 2 in banking(player, pa).wagered
    california = get_rule_set("california")
    seated = view_round(clean_round("california", bank=4).events[4:])
    assert banking(seated, california).mode is BankingMode.CALIFORNIA
    assert banking(seated, california).bank is None  # CA counts from the player-dealer's spot


@pytest.mark.parametrize("position", _not_betting("pa-2019"))
def test_the_hand_history_reads_the_same_bank(position):
    """The hand history's banking column is verification's reading, not a fifth of its own."""
    pa = get_rule_set("pa-2019")
    view = view_round(_accepted_at(position).events[4:])
    rows = [dict(zip(COLUMNS, row, strict=True)) for row in hand_rows(view, pa, 1)]
    assert {row["banking"] for row in rows} == {"dealer"}
    assert {row["bank_position"] for row in rows} == {pa.layout.dealer}
    assert [row["position"] for row in rows if row["is_bank"]] == [pa.layout.dealer]
    assert all(row["player_id"] != BANK_PLAYER for row in rows)
    player = view_round(clean_round("pa-2019", bank=2, wagers_at={1: "25.00"}).events[4:])
    banked = [dict(zip(COLUMNS, row, strict=True)) for row in hand_rows(player, pa, 1)]
    assert {row["banking"] for row in banked} == {"player bank"}
    assert [row["player_id"] for row in banked if row["is_bank"]] == [BANK_PLAYER]
