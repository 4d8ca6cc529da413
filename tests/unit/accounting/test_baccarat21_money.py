"""The 21 Baccarat money reader: a wager settled twice is no win or loss of the cards."""

from __future__ import annotations

from audit.accounting.baccarat21 import Baccarat21Money
from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.games.baccarat21.settlement import Bet
from tests.builders.baccarat21_rounds import Table


def _read(table: Table) -> tuple[ReplayedWin, HoldBand]:
    money, replay, band = Baccarat21Money(), ReplayedWin(), HoldBand()
    for event in table.events:
        money.observe(event, replay, band)
    return replay, band


def _paid_twice(times: int) -> Table:
    table = Table().open()
    round_id = table.round(
        [(3, Bet.PLAYER, 40_00), (1, Bet.BANKER, 10_00)], "P TS, B 9H, P 9D, B 8C", complete=False
    )
    for _ in range(times - 1):
        table.settle(round_id, 3, Bet.PLAYER, "win", paid=40_00)
    table.add("round_completed", round_id)
    return table


def test_the_second_payout_is_kept_apart_from_the_wagers_won_and_lost():
    once, once_band = _read(_paid_twice(1))
    twice, twice_band = _read(_paid_twice(2))
    assert (once.wagers, once.repeated_settlements) == (-40_00 + 10_00, 0)
    assert (twice.wagers, twice.repeated_settlements) == (once.wagers, -40_00)
    # The chips did leave the tray: the win by replay counts them, so the win by accounting
    # agrees and the round's B21-SETTLE-TWICE finding alone carries the money.
    assert twice.total == once.total - 40_00
    assert (twice_band.observed, twice_band.wagered) == (once_band.observed, once_band.wagered)


def test_a_repeat_is_judged_within_its_round():
    table = _paid_twice(1)
    table.round([(3, Bet.PLAYER, 40_00)], "P TS, B 9H, P 9D, B 8C")  # the same area, a new round
    replay, _ = _read(table)
    assert (replay.wagers, replay.repeated_settlements) == (-40_00 + 10_00 - 40_00, 0)


def test_a_wager_taken_back_is_no_longer_staked_in_the_band():
    table = Table().open()
    table.round(
        [(1, Bet.BANKER, 10_00), (1, Bet.TIE, 5_00)],
        "P TS, B 9H, P 9D, B 8C",
        removed=[(1, Bet.TIE, 5_00)],
        settled={(1, Bet.TIE): None},
    )
    replay, band = _read(table)
    assert (band.wagered, replay.wagers) == (10_00, 10_00)


def test_a_round_never_completed_leaves_with_its_tables_session():
    """#16: a round's stakes and settlements, left open, leave at the table's next opening:
    the reader weighs the same after one such session and after fifty."""
    from projections.checkpoint import dumps

    def sessions(count: int) -> Baccarat21Money:
        money, replay, band = Baccarat21Money(), ReplayedWin(), HoldBand()
        for _ in range(count):
            table = Table().open()
            table.round([(3, Bet.PLAYER, 40_00)], "P TS, B 9H, P 9D, B 8C", complete=False)
            for event in table.events:
                money.observe(event, replay, band)
        return money

    assert len(dumps({"money": sessions(50)})) == len(dumps({"money": sessions(1)}))
