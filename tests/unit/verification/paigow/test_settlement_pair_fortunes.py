"""Pair Fortunes as the settlement checks judge it: the category of the four tiles named, then
the paytable's payout, held to settle_pair_fortunes on the parsed tiles; and which four tiles."""

from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import RulesError
from audit.games.paigow.pair_fortunes import (
    ILLUSTRATIVE_PAYTABLE,
    pair_fortunes_payout,
    settle_pair_fortunes,
)
from audit.games.paigow.tiles import TILE_NAMES, parse_tile
from audit.verification.paigow.settlement.pair_fortunes import category_of
from tests.builders.paigow_settlement import WINS_TOO, found
from tests.builders.paigow_table import DEALER, Table

# Canonical names (as events carry them), other spellings parse_tile reads, and names of no tile.
names = st.sampled_from([*TILE_NAMES, "2-1", "6-6", "1:3", " 4-5", "7-7", "6-6c", "x"])


@given(four=st.lists(names, min_size=4, max_size=4), amount=st.integers(1, 10**6))
def test_category_then_payout_is_settling_the_parsed_tiles(four, amount):
    """Repeated, unknown and differently spelt tiles included: no category where settling raises."""
    try:
        result = settle_pair_fortunes([parse_tile(n) for n in four], amount, ILLUSTRATIVE_PAYTABLE)
    except RulesError:
        expected = None
    else:
        expected = (result.paid, result.collected)
    category = category_of(four)
    got = (
        None if category is None else pair_fortunes_payout(category, amount, ILLUSTRATIVE_PAYTABLE)
    )
    assert got == expected


def test_no_tiles_named_no_category():
    assert category_of(None) is None


def pair_fortunes_round(deliveries, paid, collected="0.00"):
    """Position 4's $5 Pair Fortunes wager, its four tiles delivered as ``deliveries`` say."""
    table = Table("pa-2019").start().wager(4, "25.00").wager(4, "5.00", kind="pair_fortunes")
    for tiles in deliveries:
        table.deliver(4, tiles)
    table.deliver(0, "1-1a 2-6 3-3a 1-5a")
    table.hand(4, WINS_TOO)  # 1-4 2-3 / 3-5 1-2: a mixed pair, 4 to 1 illustratively
    table.hand(0, DEALER, set_by="dealer")
    table.reveal(4)
    table.settle(4, "win", paid="25.00", vigorish="1.25")
    outcome = "win" if paid != "0.00" else "lose"
    table.settle(4, outcome, kind="pair_fortunes", paid=paid, collected=collected)
    return table.complete()


def test_the_last_delivery_is_the_one_judged():
    redelivered = ["6-6a 1-1b 4-4a 5-6a", "1-4 2-3 3-5 1-2"]  # a mixed pair, redelivered
    assert found(pair_fortunes_round(redelivered, "20.00")) == []
    first_kept = ["1-4 2-3 3-5 1-2", "6-6a 1-1b 4-4a 5-6a"]  # no pair, delivered last
    assert found(pair_fortunes_round(first_kept, "20.00")) == [
        ("PG-PF-PAYOUT", 4, "PA 621a.8(j) (2019)", "25.00")
    ]


def test_unusable_delivered_tiles_leave_the_hand_as_set_to_judge():
    repeated = ["1-4 1-4 3-5 1-2"]  # a tile twice (PG-TILE-*): the hand's tiles decide
    assert found(pair_fortunes_round(repeated, "20.00")) == []
    assert found(pair_fortunes_round(repeated, "0.00", collected="5.00")) == [
        ("PG-PF-PAYOUT", 4, "PA 621a.8(j) (2019)", "25.00")
    ]
