"""The Pai Gow money reader: who banks a round is read as verification reads it.

A player bank sends the players' money through the centre, the house keeping only
vigorish; a dealer-banked round's wagers are the house's own. A bank recorded at a
position no player sits at (PA 621a.9(c): the bank is a player's, at the player's
betting position) is no player bank: the round is the dealer's.
"""

from __future__ import annotations

import pytest

from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.accounting.paigow import PaiGowMoney
from audit.games.paigow.rulesets import get_rule_set
from tests.builders.paper_day import DAY, Stream


def _round(bank_at: int | None, *, co_bank: bool = False, rule_set: str = "pa-2019"):
    """One round: position 1 loses 200, position 3 wins 100 (vigorish 5)."""
    t = Stream("PG-07")
    t("table_opened", rule_set=rule_set, gaming_day=DAY, dealer_id="dealer-1")
    t("round_started", "r1", round_number=2, dealer_id="dealer-1")
    if bank_at is not None:
        t("bank_accepted", "r1", position=bank_at, player_id="P-BANK")
    if co_bank:
        t("co_bank_requested", "r1", position=bank_at if bank_at is not None else 2)
    t("wager_placed", "r1", position=1, amount="200.00", kind="pai_gow")
    t("wager_placed", "r1", position=3, amount="100.00", kind="pai_gow")
    t("wager_settled", "r1", position=1, outcome="lose", collected="200.00")
    t("wager_settled", "r1", position=3, outcome="win", paid="100.00", vigorish="5.00")
    t("round_completed", "r1")
    money, replay = PaiGowMoney(), ReplayedWin()
    for event in t.events:
        money.observe(event, replay, HoldBand())
    return replay


def test_a_dealer_banked_round_is_the_houses_and_a_player_bank_pays_only_vigorish():
    dealer, player = _round(None), _round(2)
    assert dealer.wagers == 200_00 - 100_00  # the house took the loser and paid the winner
    assert player.wagers == 0  # the centre's, with the bank
    assert dealer.vigorish == player.vigorish == 5_00


_PA = get_rule_set("pa-2019").layout


@pytest.mark.parametrize("position", [p for p in _PA.ring if p not in _PA.betting])
def test_a_bank_at_no_betting_position_is_the_dealers_round(position):
    assert position in (_PA.dealer, _PA.dead_hand)
    assert _round(position) == _round(None)
    assert _round(position, co_bank=True) == _round(None)


def test_a_round_never_completed_leaves_with_its_tables_session():
    """#16: a round left open (cut off, never completed) does not stay in the reader, and so
    in the reconciliation's checkpoint, for good: it leaves at its table's close, or at an
    opening after a close never recorded. The checkpointed reader weighs the same after one
    such session and after a hundred."""
    from projections.checkpoint import dumps

    def sessions(count: int) -> PaiGowMoney:
        money, replay = PaiGowMoney(), ReplayedWin()
        for n in range(count):
            t = Stream("PG-07")
            t("table_opened", rule_set="pa-2019", gaming_day=DAY, dealer_id="dealer-1")
            t("round_started", f"r{n:03d}", round_number=2, dealer_id="dealer-1")
            t("bank_accepted", f"r{n:03d}", position=2, player_id="P-BANK")
            t("wager_placed", f"r{n:03d}", position=1, amount="200.00", kind="pai_gow")
            if n % 2:
                t("table_closed")  # every other session's close is never recorded
            for event in t.events:
                money.observe(event, replay, HoldBand())
        return money

    assert len(dumps({"money": sessions(100)})) == len(dumps({"money": sessions(2)}))
    assert len(dumps({"money": sessions(101)})) == len(dumps({"money": sessions(3)}))
