"""The replay drawn as text (consumers/replay_text/): each game's steps of data as the lines
``tablewatch replay``, the API and the console show."""

from audit.games.baccarat21.settlement import Bet
from audit.verification.baccarat21 import replay as baccarat21_replay
from consumers.replay_text import step_lines
from consumers.replay_text.marks import MISMATCH, OK
from tests.builders.baccarat21_rounds import Table


def _lines(table: Table, round_id: str, kind: str) -> tuple[str, ...]:
    replay = baccarat21_replay.replay_round(table.events, round_id)
    return step_lines(replay, replay.step(kind))


def test_a_clean_baccarat_round_reads_card_by_card_and_settles_as_the_engine_does():
    table = Table().open()
    round_id = table.round([(1, Bet.PLAYER, 100_00)], "P AS, B 6H, P KD, B 6C")
    assert _lines(table, round_id, "wagers") == ("seat 1: player $100.00",)
    cards = _lines(table, round_id, "cards")
    assert cards[0] == f" 1. AS  to player               soft 11   rules: player               {OK}"
    assert [line.split()[-1] for line in cards] == [OK] * 4
    assert _lines(table, round_id, "result") == (
        "Player's Hand AS KD (soft 21), Banker's Hand 6H 6C (hard 12): player",
        "Bonus: Player nothing, Banker pair",
    )
    assert _lines(table, round_id, "settlement") == (
        f"seat 1 player $100.00: recorded win, paid $100.00; engine win, paid $100.00  {OK}",
    )


def test_a_misdealt_card_an_overpayment_and_a_card_owed_are_marked():
    table = Table().open()
    round_id = table.round(
        [(1, Bet.BANKER, 100_00)],
        "P TS, P 5D, B 9H",
        settled={(1, Bet.BANKER): ("win", 105_00, 0, 0)},
    )
    cards = _lines(table, round_id, "cards")
    assert cards[1].split()[-3:] == ["rules:", "banker", MISMATCH]  # PA 681a.7(e)
    assert cards[-1] == f"    no more cards; rules: banker was owed one   {MISMATCH}"
    assert _lines(table, round_id, "settlement") == (
        "seat 1 banker $100.00: recorded win, paid $105.00; "
        f"engine lose, collected $100.00  {MISMATCH}",
    )


def test_a_voided_round_says_so_and_expects_every_wager_returned():
    table = Table().open()
    round_id = table.round(
        [(2, Bet.PLAYER, 50_00)],
        "P AS, B 6H",
        settled={(2, Bet.PLAYER): ("returned", 0, 0, 50_00)},
        complete=False,
    )
    table.add("b21_round_voided", round_id, reason="misdeal")
    table.add("round_completed", round_id)
    assert _lines(table, round_id, "result")[-1] == "round voided: misdeal"
    assert _lines(table, round_id, "settlement") == (
        "seat 2 player $50.00: recorded returned, returned $50.00; "
        f"engine returned, returned $50.00  {OK}",
    )
