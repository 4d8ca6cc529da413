"""One hand-written round per finding code, each read from PA ch. 681a, producing exactly that
code with its citation, position and money; and a clean round producing none."""

from datetime import timedelta
from decimal import Decimal

import pytest

from audit.games.baccarat21.settlement import Bet
from audit.verification.baccarat21.kinds import KINDS
from tests.builders.baccarat21_rounds import Table, codes

P, B, T, BP, BB = Bet.PLAYER, Bet.BANKER, Bet.TIE, Bet.BONUS_PLAYER, Bet.BONUS_BANKER


def only(findings, code):
    assert codes(findings) == [code], [(f.code, f.recorded, f.expected) for f in findings]
    return findings[0]


def test_a_clean_round_has_no_finding():
    table = Table().open()
    table.round(
        [(1, P, 100_00), (1, BP, 5_00), (2, B, 25_00), (2, T, 5_00)],
        "P AS, B 6H, P KD, B 6C, B+ 4S",
    )
    table.round([(1, B, 100_00)], "P TS, B 2H, P 3D, B 2C, P 2S, B 3H")
    table.add("table_closed")
    assert table.findings() == []


def test_deal_order_player_banker_player_banker():
    """681a.7(e): Player, Banker, Player, Banker. Reported once for the round."""
    table = Table().open()
    table.round([(1, B, 100_00)], "P TS, P 5D, B 9H, B 9C, P 2S")
    finding = only(table.findings(), "B21-DEAL-ORDER")
    assert finding.rule == "PA 681a.7(e)"
    assert finding.recorded == "card 2, 5D, to the Player's Hand"


def test_the_banker_may_draw_before_the_player():
    """681a.7(g) draws "one additional card ... to the Player or Banker Hand" and gives no
    order; only the first four cards have one (681a.7(e))."""
    table = Table().open()
    table.round([(1, B, 100_00)], "P TS, B 2H, P 3D, B 2C, B 3H, P 2S")
    assert table.findings() == []


def test_after_a_natural_either_bonus_card_may_come_first():
    """681a.7(f)(2): one card "to the Player's Hand or Banker's Hand", no order either."""
    table = Table().open()
    table.round([(1, P, 10_00), (1, BP, 5_00)], "P AS, B 9H, P AD, B 5C, B+ 2C, P+ 2S")
    assert table.findings() == []


def test_the_player_first_is_a_house_procedure_option():
    table = Table(draw_order="player_first").open()
    table.round([(1, B, 100_00)], "P TS, B 2H, P 3D, B 2C, B 3H, P 2S")
    finding = only(table.findings(), "B21-DEAL-ORDER")
    assert finding.rule == "PA 681a.7(g) (which gives no order; the house's draw_order option)"
    assert finding.recorded == "card 5, 3H, to the Banker's Hand"


def test_a_card_drawn_to_a_17_is_discarded_and_does_not_count():
    """681a.9(b): "has 17 and the dealer accidentally draws an additional card, the card shall
    be placed in the discard rack". Settled on 17 against 17, the tie stands."""
    table = Table().open()
    table.round([(3, P, 50_00)], "P TS, B 9H, P 7D, B 8C, P 4S", settle_as="P TS, B 9H, P 7D, B 8C")
    finding = only(table.findings(), "B21-DRAW-EXTRA")
    assert finding.rule == "PA 681a.9(b)"
    assert (finding.round_id, finding.table_id, finding.position) == ("B21-01-r1", "B21-01", None)
    assert finding.at_stake == Decimal("50.00")


def test_a_card_called_for_the_player_laid_on_the_banker_is_judged_on_the_player():
    """The Player's 12 is owed a card (681a.7(g)), the Banker's 18 none; the dealer lays the
    Player's card, 9S, on the Banker and stops. The rules send it to the Player (681a.7(b)):
    Player 21 beats Banker 18, and so it was settled."""
    table = Table().open()
    table.round(
        [(1, B, 10_00), (2, P, 10_00)],
        "P TS, B 9H, P 2D, B 9C, B 9S",
        settle_as="P TS, B 9H, P 2D, B 9C, P 9S",
    )
    found = table.findings()
    assert codes(found) == ["B21-CARD-WRONG-HAND"], [(f.code, f.recorded) for f in found]
    wrong = found[0]
    assert (wrong.rule, wrong.at_stake) == ("PA 681a.7(b)", 0)
    assert wrong.expected == (
        "the card called for the Player's Hand, which took no other: judged there, at hard 21"
    )


def test_a_card_laid_on_the_wrong_hand_settled_as_laid():
    """Settled as laid (Banker 18 + 5S = 23, over), the Player's 12 wins; where the rules send
    the card, the Player's 17 loses to 18. The settlement findings carry the money."""
    table = Table().open()
    table.round([(1, B, 10_00), (2, P, 10_00)], "P TS, B 9H, P 2D, B 9C, B 5S")
    found = table.findings()
    assert codes(found) == ["B21-CARD-WRONG-HAND", "B21-SETTLE-OUTCOME", "B21-SETTLE-OUTCOME"]
    assert [f.at_stake for f in found] == [0, Decimal("20.00"), Decimal("20.00")]


def test_a_card_on_the_wrong_hand_then_the_called_hand_takes_its_own():
    """Then the misplaced card was drawn to a hand that must stand: 681a.9(b)."""
    table = Table().open()
    table.round(
        [(1, B, 10_00)],
        "P TS, B 9H, P 2D, B 9C, B 9S, P 5S",
        settle_as="P TS, B 9H, P 2D, B 9C, P 5S",
    )
    finding = only(table.findings(), "B21-DRAW-EXTRA")
    assert finding.rule == "PA 681a.9(b)"


def test_one_additional_card_then_the_hand_stands():
    """681a.7(g), read as written: "one additional card"; a second is a draw error."""
    table = Table().open()
    table.round(
        [(1, B, 10_00)],
        "P TS, B 9H, P 2D, B 8C, P 3S, P 2H",
        settle_as="P TS, B 9H, P 2D, B 8C, P 3S",
    )
    finding = only(table.findings(), "B21-DRAW-EXTRA")
    assert finding.rule == "PA 681a.7(g)"


def test_a_hand_under_17_left_standing():
    """681a.7(g): a hand "less than a soft or hard 17" draws."""
    table = Table().open()
    table.round([(1, B, 10_00)], "P TS, B 9H, P 5D, B 8C")
    finding = only(table.findings(), "B21-DRAW-STOOD")
    assert finding.rule == "PA 681a.7(g)"
    assert finding.recorded == "the Player's Hand stood at hard 15"


def test_no_card_after_a_natural_without_a_bonus_wager():
    """681a.7(f)(1): "no additional cards may be dealt to either hand"."""
    table = Table().open()
    table.round([(1, P, 10_00)], "P AS, B 9H, P KD, B 5C, B 4S", settle_as="P AS, B 9H, P KD, B 5C")
    finding = only(table.findings(), "B21-DRAW-AFTER-NATURAL")
    assert finding.rule == "PA 681a.7(f)(1)"


def test_a_bonus_only_card_counted_for_the_main_wager():
    """681a.7(f)(2): after a natural, the card "shall count only for purposes of the Bonus
    Wager". The settlement shows it counted: the Banker's 14 + 9S = 23 lost to the Player's
    natural 12 (two aces), where 14 beats 12."""
    table = Table().open()
    table.round(
        [(1, P, 10_00), (2, B, 10_00), (2, BB, 5_00)], "P AS, B 9H, P AD, B 5C, P+ 2S, B 9S"
    )
    found = table.findings()
    assert codes(found) == ["B21-BONUS-CARD-COUNTED", "B21-SETTLE-OUTCOME", "B21-SETTLE-OUTCOME"]
    finding = found[0]
    assert finding.rule == "PA 681a.7(f)(2)"
    assert finding.at_stake == Decimal("20.00")
    assert finding.recorded == "9S counted for the Banker's Hand after a natural: settled on 23"


@pytest.mark.parametrize(
    ("recorded", "flag"), [("B", "as counting"), ("B?", "without the Bonus-only flag")]
)
def test_a_bonus_only_card_not_flagged_but_not_counted_is_a_data_note(recorded, flag):
    """The flag is the device's and optional: settled as the rules say, the card was not
    counted, whatever the flag. Recorded as counting, or not flagged at all, it is a note."""
    table = Table().open()
    table.round(
        [(1, P, 10_00), (2, B, 10_00), (2, BB, 5_00)],
        f"P AS, B 9H, P AD, B 5C, P+ 2S, {recorded} 9S",
        settle_as="P AS, B 9H, P AD, B 5C, P+ 2S, B+ 9S",
    )
    finding = only(table.findings(), "B21-BONUS-FLAG")
    assert (finding.severity.value, finding.rule, finding.at_stake) == (
        "info",
        "PA 681a.7(f)(2)",
        0,
    )
    assert finding.recorded == f"9S to the Banker's Hand after a natural recorded {flag}"


def test_a_counting_card_with_no_flag_is_no_finding():
    table = Table().open()
    table.round([(1, B, 10_00)], "P? TS, B? 9H, P? 5D, B? 8C, P? 2S")
    assert table.findings() == []


def test_a_counting_card_recorded_as_bonus_only():
    """With no natural, 681a.7(g)'s card counts for every wager."""
    table = Table().open()
    table.round([(1, B, 10_00)], "P TS, B 9H, P 5D, B 8C, P+ 9S")
    finding = only(table.findings(), "B21-BONUS-CARD-MISMARKED")
    assert finding.rule == "PA 681a.7(f)(2)"


def test_the_bonus_card_owed_after_a_natural():
    """681a.7(f)(2): with a Bonus Wager, a hand under 17 gets one card for the Bonus."""
    table = Table().open()
    table.round([(1, P, 10_00), (2, BB, 5_00), (2, B, 10_00)], "P AS, B 9H, P KD, B 5C")
    finding = only(table.findings(), "B21-BONUS-CARD-MISSING")
    assert (finding.at_stake, finding.exposure) == (0, Decimal("5.00"))


def test_a_face_up_card_used():
    """681a.9(a): "A card found face up in the shoe may not be used in that round"."""
    table = Table().open()
    table.round(
        [(1, P, 10_00)],
        "P 9C, B 9H, P 8D, B 8C",
        before_cards=[("card_found_face_up", {"card": "9C", "disposition": "dealt"})],
    )
    finding = only(table.findings(), "B21-SHOE-FACE-UP-USED")
    assert finding.rule == "PA 681a.9(a)"
    assert finding.at_stake == Decimal("10.00")


def test_a_face_up_card_discarded_is_no_finding():
    table = Table().open()
    table.round(
        [(1, P, 10_00)],
        "P 9C, B 9H, P 8D, B 8C",
        before_cards=[("card_found_face_up", {"card": "2S", "disposition": "discarded"})],
    )
    assert table.findings() == []


def test_no_burn_after_loading():
    """681a.7(c): "the dealer shall remove the first card and place it in the discard rack"."""
    table = Table().open(burn=False)
    table.round([(1, P, 10_00)], "P 9C, B 9H, P 8D, B 8C")
    assert only(table.findings(), "B21-SHOE-NO-BURN").rule == "PA 681a.7(c)"


def test_a_new_dealer_burns():
    table = Table().open()
    table.add("dealer_changed", outgoing_dealer_id="dealer-1", incoming_dealer_id="dealer-2")
    table.round([(1, P, 10_00)], "P 9C, B 9H, P 8D, B 8C")
    finding = only(table.findings(), "B21-SHOE-NO-BURN")
    assert finding.dealer_id == "dealer-1"  # the round_started dealer as recorded


def test_no_reshuffle_after_the_cover_card():
    """681a.7(d): the round the cover card came out in is completed, then reshuffle."""
    table = Table().open()
    table.round(
        [(1, P, 10_00)], "P 9C, B 9H, P 8D, B 8C", before_cards=[("cover_card_appeared", {})]
    )
    table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    finding = only(table.findings(), "B21-SHOE-NO-RESHUFFLE")
    assert (finding.rule, finding.round_id) == ("PA 681a.5(f), 681a.7(d)", "B21-01-r2")


def test_a_reshuffle_after_the_cover_card_is_clean():
    table = Table().open()
    table.round(
        [(1, P, 10_00)], "P 9C, B 9H, P 8D, B 8C", before_cards=[("cover_card_appeared", {})]
    )
    table.load()
    table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    assert table.findings() == []


def test_two_batches_alternate():
    """681a.3(b)(4): "each batch being used for every other dealing shoe"."""
    table = Table(batches="true").open(batch=0)
    table.load(batch=0)
    finding = only(table.findings(), "B21-SHOE-BATCH")
    assert (finding.rule, finding.round_id) == ("PA 681a.3(b)", None)


def test_a_paytable_for_eight_decks_at_a_four_deck_table():
    """681a.8(c): paytables A-C go with four decks, D-F with eight. Reported when the table
    opens, and the table is judged with the paytable it pays: a straight at 11 to 1 on E."""
    table = Table(decks="4", paytable="E").open()
    table.round(
        [(1, P, 10_00), (1, BP, 10_00)],
        "P 5S, B 9H, P 6D, B 8C, P 7S",
        settled={(1, BP): ("win", 110_00, 0, 0)},
    )
    finding = only(table.findings(), "B21-TABLE-OPTIONS")
    assert (finding.rule, finding.round_id, finding.at_stake) == ("PA 681a.8(c)", None, 0)
    assert finding.recorded == "paytable E with 4 decks"
    assert finding.event_ids == (str(table.events[0].event_id),)


def test_an_option_the_rules_do_not_allow_is_reported_not_refused():
    """681a.3(a): four or eight decks. Six is left out, and the table judged with eight."""
    table = Table(decks="6").open(decks=8)
    finding = only(table.findings(), "B21-TABLE-OPTIONS")
    assert (finding.rule, finding.recorded) == ("PA 681a.3(a)", "decks '6'")
    assert finding.expected == "judged with decks 8"


def test_an_unknown_option_is_reported_and_the_thresholds_are_known():
    table = Table(paytabel="B", variance_report_over="10").open()
    finding = only(table.findings(), "B21-TABLE-OPTIONS")
    assert finding.recorded == "option paytabel='B'"
    assert "ignored" in finding.expected


def test_the_decks_of_the_table():
    table = Table().open(decks=4)
    assert only(table.findings(), "B21-SHOE-DECKS").rule == "PA 681a.3(a)"


def test_a_fifth_ace_of_spades_from_four_decks():
    """681a.3(a): four decks hold the ace of spades four times. The burn's card counts; the
    fifth ace is the card the shoe cannot hold, with the round's wagers at stake."""
    table = Table(decks="4", paytable="A").open(burn=False)
    table.add("card_burned", card="AS")
    table.round([(1, P, 10_00)], "P AS, B 9H, P 5D, B 8C, P AS")
    round_id = table.round([(2, B, 30_00), (2, T, 5_00)], "P 9C, B AS, P 8D, B AS")
    finding = only(table.findings(), "B21-SHOE-CARD-EXCESS")
    assert (finding.rule, finding.round_id, finding.at_stake) == (
        "PA 681a.3(a)",
        round_id,
        Decimal("35.00"),
    )
    assert finding.recorded == "AS out of the shoe, copy 5 since the shoe was loaded"
    assert finding.expected == "each card at most 4 times from 4 decks (PA 681a.3(a))"


def test_eight_decks_hold_eight_and_a_new_shoe_starts_the_count_again():
    table = Table().open()
    for _ in range(4):
        table.round([(1, P, 10_00)], "P AS, B 9H, P 5D, B 8C, P AS")
    table.load()
    table.round([(1, P, 10_00)], "P AS, B 9H, P 5D, B 8C, P AS")
    assert table.findings() == []


def test_a_face_up_card_dealt_is_one_card_out_of_the_shoe():
    table = Table(decks="4", paytable="A").open()
    table.round([(1, P, 10_00)], "P AS, B 9H, P 5D, B 8C, P AS")
    table.round(
        [(1, P, 10_00)],
        "P AS, B 9H, P 8D, B 8C",
        before_cards=[
            ("card_found_face_up", {"card": "AS", "disposition": "discarded"}),
            ("card_found_face_up", {"card": "AS", "disposition": "dealt"}),
        ],
    )
    assert codes(table.findings()) == ["B21-SHOE-FACE-UP-USED"]


def _dealt_at(table, hours: float) -> None:
    table.now += timedelta(hours=hours)


def test_the_decks_changed_every_24_hours():
    """681a.3(c): "changed at least once every 24 hours". Reported once for the decks."""
    table = Table().open(new_decks=True)
    table.round([(1, P, 10_00)], "P 9C, B 9H, P 8D, B 8C")
    _dealt_at(table, 24)
    stale = table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    finding = only(table.findings(), "B21-SHOE-DECKS-UNCHANGED")
    assert (finding.rule, finding.round_id) == ("PA 681a.3(c)", stale)


def test_new_decks_within_24_hours_are_clean():
    table = Table().open(new_decks=True)
    _dealt_at(table, 23)
    table.load(new_decks=True)
    _dealt_at(table, 23)
    table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    assert table.findings() == []


def test_decks_whose_opening_was_never_recorded_are_not_judged():
    table = Table().open()
    _dealt_at(table, 48)
    table.round([(1, P, 10_00)], "P 9S, B 9D, P 8H, B 8S")
    assert table.findings() == []


def test_the_cut_ten_cards_in():
    """681a.5(c): "at least ten cards in from the top or the bottom"."""
    table = Table().open(cut_at=5)
    assert only(table.findings(), "B21-SHOE-CUT").rule == "PA 681a.5(c)"


def test_the_cover_card_ten_cards_above_the_bottom():
    """681a.5(d): "at least 10 cards above the bottom of the stack"."""
    table = Table().open(cover_from_bottom=8)
    assert only(table.findings(), "B21-SHOE-COVER-CARD").rule == "PA 681a.5(d)"


def test_a_wager_after_the_first_card():
    """681a.6(b): "All wagers shall be placed prior to the first card being dealt"."""
    table = Table().open()
    table.round([(1, B, 10_00)], "P TS, B 9H, P 5D, B 8C, P 2S", late=[(2, P, 40_00)])
    finding = only(table.findings(), "B21-WAGER-LATE")
    assert (finding.rule, finding.position, finding.at_stake) == (
        "PA 681a.6(b)",
        2,
        Decimal("40.00"),
    )


def test_a_wager_taken_back_after_the_first_card():
    """681a.6(b): a player "may not ... remove ... any wagers that have been made until a
    decision has been rendered". What stayed on the layout is settled and judged."""
    table = Table().open()
    round_id = table.round(
        [(1, B, 10_00), (1, T, 5_00)], "P TS, B 9H, P 5D, B 8C, P 2S", complete=False
    )
    table.events = [e for e in table.events if e.type_name() != "b21_wager_settled"]
    table.add("b21_wager_removed", round_id, position=1, bet="tie", amount="5.00")
    table.settle(round_id, 1, B, "push", returned=10_00)  # Player 17, Banker 17
    table.add("round_completed", round_id)
    finding = only(table.findings(), "B21-WAGER-REMOVED")
    assert (finding.severity.value, finding.rule, finding.position, finding.at_stake) == (
        "critical",
        "PA 681a.6(b)",
        1,
        Decimal("5.00"),
    )


def test_a_wager_taken_back_before_the_first_card():
    """681a.6(b) names no moment before which a wager may be taken back: read as written, a
    warning before the first card. Half the Player Wager stays and is settled on its own."""
    table = Table().open()
    round_id = table.round(
        [(2, P, 40_00)],
        "P TS, B 9H, P 9D, B 8C",
        removed=[(2, P, 20_00)],
        settled={(2, P): ("win", 20_00, 0, 0)},
    )
    finding = only(table.findings(), "B21-WAGER-REMOVED-EARLY")
    assert (finding.severity.value, finding.round_id, finding.exposure) == (
        "warning",
        round_id,
        Decimal("20.00"),
    )


def test_an_optional_wager_needs_a_main_wager():
    """681a.6(d): optional wagers are offered "to each player who placed a wager in accordance
    with subsection (c)"."""
    table = Table().open()
    table.round([(1, B, 10_00), (3, T, 5_00)], "P TS, B 9H, P 5D, B 8C, P 2S")
    finding = only(table.findings(), "B21-WAGER-NO-MAIN")
    assert (finding.rule, finding.position) == ("PA 681a.6(d)", 3)


def test_the_wrong_outcome():
    """681a.7(i)(3): both hands over 21, the lower total wins."""
    table = Table().open()
    table.round(
        [(4, P, 20_00)],
        "P TS, B 9H, P 5D, B 5C, P 8S, B KS",
        settled={(4, P): ("lose", 0, 20_00, 0)},
    )
    finding = only(table.findings(), "B21-SETTLE-OUTCOME")
    assert (finding.rule, finding.position, finding.at_stake) == (
        "PA 681a.7(i)",
        4,
        Decimal("40.00"),
    )
    assert finding.recorded == "player lose: collected 20.00"
    assert finding.expected == "win: paid 20.00 (Player 23, Banker 24: 1 to 1)"


def test_a_win_on_17_pays_1_to_2():
    """681a.8(a): "except when the Player's Hand or Banker's Hand wins with a 17 which shall pay
    at odds of 1 to 2"."""
    table = Table().open()
    table.round(
        [(2, B, 100_00)], "P TS, B 9H, P 6D, B 8C, P 9S", settled={(2, B): ("win", 100_00, 0, 0)}
    )
    finding = only(table.findings(), "B21-SETTLE-PAYOUT")
    assert (finding.rule, finding.position, finding.at_stake) == (
        "PA 681a.8(a)",
        2,
        Decimal("50.00"),
    )
    assert finding.expected == "win: paid 50.00 (Player 25, Banker 17: 1 to 2 on a 17)"


def test_the_bonus_pays_from_the_tables_paytable():
    """681a.8(c): a three card straight pays 11 to 1 on paytable E (10 to 1 on D)."""
    table = Table(paytable="E").open()
    table.round(
        [(1, P, 10_00), (1, BP, 10_00)],
        "P 5S, B 9H, P 6D, B 8C, P 7S",
        settled={(1, BP): ("win", 100_00, 0, 0)},
    )
    finding = only(table.findings(), "B21-SETTLE-PAYOUT")
    assert finding.rule == "PA 681a.8(c)"
    assert finding.expected == "win: paid 110.00 (three card straight at 11 to 1, paytable E)"


def test_a_wager_never_settled():
    table = Table().open()
    table.round(
        [(1, B, 10_00), (2, T, 5_00), (2, P, 5_00)],
        "P TS, B 9H, P 5D, B 8C, P 2S",
        settled={(2, T): None},
    )
    finding = only(table.findings(), "B21-SETTLE-MISSING")
    assert (finding.position, finding.at_stake, finding.exposure) == (2, 0, Decimal("5.00"))


def test_a_settlement_with_no_wager():
    table = Table().open()
    round_id = table.round([(1, B, 10_00)], "P TS, B 9H, P 5D, B 8C, P 2S", complete=False)
    table.settle(round_id, 5, T, "win", paid=50_00)
    table.add("round_completed", round_id)
    finding = only(table.findings(), "B21-SETTLE-UNPLACED")
    assert (finding.position, finding.at_stake) == (5, Decimal("50.00"))


def test_a_winning_wager_paid_twice():
    """681a.7(i)(2)(i), 681a.8(a): the winner is paid once at 1 to 1. The second payout is the
    money at stake, once; the first settlement is right and raises nothing."""
    table = Table().open()
    round_id = table.round([(3, P, 40_00)], "P TS, B 9H, P 9D, B 8C", complete=False)
    table.settle(round_id, 3, P, "win", paid=40_00)
    table.add("round_completed", round_id)
    finding = only(table.findings(), "B21-SETTLE-TWICE")
    assert (finding.rule, finding.position, finding.at_stake) == (
        "PA 681a.8(a)",
        3,
        Decimal("40.00"),
    )
    assert (finding.round_id, finding.table_id) == (round_id, "B21-01")
    assert finding.recorded == "player settled again: paid 40.00"
    assert len(finding.event_ids) == 2


def test_a_losing_wager_collected_twice_cites_the_outcome():
    table = Table().open()
    round_id = table.round([(1, T, 5_00), (1, B, 5_00)], "P TS, B 9H, P 9D, B 8C", complete=False)
    table.settle(round_id, 1, T, "lose", collected=5_00)
    table.add("round_completed", round_id)
    finding = only(table.findings(), "B21-SETTLE-TWICE")
    assert (finding.rule, finding.at_stake) == ("PA 681a.7(k)(1)", Decimal("5.00"))


def test_a_voided_round_returns_every_wager():
    table = Table().open()
    table.rounds += 1
    round_id = "B21-01-r1"
    table.add("round_started", round_id, round_number=1, dealer_id="dealer-1")
    table.add("b21_wager_placed", round_id, position=1, bet="banker", amount="10.00")
    table.add("b21_wager_placed", round_id, position=2, bet="player", amount="10.00")
    table.add("b21_card_dealt", round_id, card="TS", hand="player")
    table.add("b21_round_voided", round_id, reason="shuffler_malfunction")
    table.settle(round_id, 1, B, "returned", returned=10_00)
    table.settle(round_id, 2, P, "lose", collected=10_00)
    table.add("round_completed", round_id)
    finding = only(table.findings(), "B21-SETTLE-VOID")
    assert (finding.position, finding.at_stake) == (2, Decimal("20.00"))


def test_a_round_never_completed():
    table = Table().open()
    table.round([(1, B, 10_00)], "P TS, B 9H, P 5D, B 8C, P 2S", complete=False)
    table.add("table_closed")
    assert only(table.findings(), "DATA-ROUND-INCOMPLETE").rule.startswith("tablewatch")


def test_the_ingests_observations():
    table = Table().open()
    table.add(
        "sequence_gap_observed",
        recorded_by="tablewatch-ingest",
        expected_seq=9,
        observed_seq=11,
        observed_event_id="9d8c1b7e-2f4a-4c3d-8e5f-6a7b8c9d0e1f",
    )
    table.add(
        "event_id_reused",
        recorded_by="tablewatch-ingest",
        reused_event_id="9d8c1b7e-2f4a-4c3d-8e5f-6a7b8c9d0e1f",
        first_digest="a" * 64,
        conflicting_digest="b" * 64,
        conflicting_event={},
    )
    assert codes(table.findings()) == ["DATA-SEQ-GAP", "DATA-ID-REUSED"]


@pytest.mark.parametrize("code", sorted(KINDS))
def test_every_kind_cites_a_rule_of_pa_681a(code):
    from audit.games.baccarat21.rulesets import PA_681A

    assert PA_681A.cite(KINDS[code].rule_key)
    assert code.startswith(("B21-", "DATA-"))  # its own, or the record's shared ones


def test_docs_list_every_table_option():
    from pathlib import Path

    from audit.games.baccarat21.options import _PARSERS

    doc = (Path(__file__).resolve().parents[4] / "docs" / "baccarat21.md").read_text()
    for name in _PARSERS:
        assert f"| `{name}` |" in doc, name
