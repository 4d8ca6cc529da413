"""Settlement checks (audit/verification/paigow/settlement/), each from a hand-written
round: a clean variant, and one that breaks the rule with a known amount at stake."""

import random

import pytest

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_settlement import (
    CA,
    HALVES,
    SETTLEMENT_CODES,
    SHORTFALL,
    WINS_TOO,
    banked_round,
    ca_round,
    co_banked_round,
    dealer_round,
    found,
)
from tests.builders.paigow_table import (
    DEALER,
    WINS,
    Table,
    facts,
)

# --- Dealer-banked: outcome, payout, vigorish -----------------------------------------------------


def test_a_clean_dealer_banked_round_has_no_settlement_finding():
    assert found(dealer_round()) == []


def test_a_push_collected_as_a_loss_is_one_finding_under_the_push_paragraph():
    # One error, one money figure: the $30 wrongly collected is the wrong outcome's
    # evidence, not a second finding (PA 621a.8(h): a tie is returned).
    table = dealer_round({3: ("lose", {"collected": "30.00"})})
    assert found(table) == [("PG-SETTLE-OUTCOME", 3, "PA 621a.8(h)", "30.00")]


@pytest.mark.parametrize(
    ("rule_set", "rule"),
    [("pa-2012", "PA 621a.8(i)"), ("pa-2019", "PA 621a.8(i) (2019)"), ("nj", "NJ 19:47-10.7(j)")],
)
def test_a_winner_collected_as_a_loser_cites_the_win_paragraph(rule_set, rule):
    table = dealer_round({1: ("lose", {"collected": "25.00"})}, rule_set)
    assert found(table) == [("PG-SETTLE-OUTCOME", 1, rule, "50.00")]


def test_a_wrong_outcome_label_with_the_right_money_moves_no_money():
    table = dealer_round({3: ("lose", {"returned": "30.00"})})
    assert found(table) == [("PG-SETTLE-OUTCOME", 3, "PA 621a.8(h)", "0.00")]


@pytest.mark.parametrize(
    ("rule_set", "rule"),
    [("pa-2012", "PA 621a.8(k)"), ("pa-2019", "PA 621a.8(i) (2019)"), ("nj", "NJ 19:47-10.7(k)")],
)
def test_a_winner_paid_short_is_one_finding_under_the_payout_paragraph(rule_set, rule):
    table = dealer_round({1: ("win", {"paid": "20.00", "vigorish": "1.00"})}, rule_set)
    assert found(table) == [("PG-SETTLE-PAYOUT", 1, rule, "5.00")]


def test_a_loser_collected_short_cites_the_lose_paragraph():
    table = dealer_round({2: ("lose", {"collected": "40.00"})})
    assert found(table) == [("PG-SETTLE-PAYOUT", 2, "PA 621a.8(g)", "10.00")]


@pytest.mark.parametrize(
    ("vigorish", "code", "at_stake"),
    [("0.00", "PG-SETTLE-VIG-UNCOLLECTED", "1.25"), ("1.00", "PG-SETTLE-VIG-SHORT", "0.25"),
     ("2.00", "PG-SETTLE-VIG-OVER", "0.75")],
)  # fmt: skip
def test_vigorish_wrongly_taken(vigorish, code, at_stake):
    table = dealer_round({1: ("win", {"paid": "25.00", "vigorish": vigorish})})
    assert found(table) == [(code, 1, "PA 621a.8(k)", at_stake)]


@pytest.mark.parametrize(
    ("rule_set", "rule"), [("nj", "NJ 19:47-10.7(k)"), ("pa-2019", "PA 621a.11(a)")]
)
def test_vigorish_cites_each_jurisdiction(rule_set, rule):
    table = dealer_round({1: ("win", {"paid": "25.00"})}, rule_set)
    assert found(table) == [("PG-SETTLE-VIG-UNCOLLECTED", 1, rule, "1.25")]


def test_vigorish_rounded_up_to_the_quarter_where_the_table_says():
    def eleven_dollar_win(vigorish):
        table = Table("pa-2012", vig_rounding="quarter").start().wager(1, "11.00")
        table.hand(1, WINS)
        table.hand(0, DEALER, set_by="dealer")
        table.settle(1, "win", paid="11.00", vigorish=vigorish)
        return table.complete()

    assert found(eleven_dollar_win("0.75")) == []
    assert found(eleven_dollar_win("0.55")) == [("PG-SETTLE-VIG-SHORT", 1, "PA 621a.8(k)", "0.20")]


def test_a_settlement_with_no_wager_behind_it():
    table = dealer_round({5: ("win", {"paid": "40.00", "vigorish": "2.00"})})
    assert found(table) == [("PG-SETTLE-PAYOUT", 5, "PA 621a.8(k)", "40.00")]


def test_hands_that_cannot_decide_are_judged_on_the_recorded_outcome():
    table = Table().start().wager(1, "25.00").wager(2, "50.00")
    table.hand(1, WINS)  # position 2 never set; the dealer's hand never recorded
    table.settle(1, "win", paid="25.00")
    table.settle(2, "lose", collected="50.00")
    assert found(table.complete()) == [("PG-SETTLE-VIG-UNCOLLECTED", 1, "PA 621a.8(k)", "1.25")]


def test_an_unsettled_round_is_not_judged():
    table = Table().start().wager(1, "25.00").wager(2, "50.00")
    table.hand(1, WINS)
    assert found(table) == []


# --- Voided rounds --------------------------------------------------------------------------------


def voided_round(second):
    table = Table().start().wager(1, "25.00").wager(2, "50.00")
    table.add("tile_exposed", position=0, tile="1-1a")
    table.add("round_voided", reason="banker_tile_exposed")
    table.settle(1, "returned", returned="25.00")
    outcome, money = second
    table.settle(2, outcome, **money)
    return table.complete()


def test_a_voided_round_returns_every_wager_whole():
    assert found(voided_round(("returned", {"returned": "50.00"}))) == []
    table = voided_round(("lose", {"collected": "50.00"}))
    assert found(table) == [("PG-SETTLE-PAYOUT", 2, "PA 621a.10(e)", "50.00")]


# --- Player bank ----------------------------------------------------------------------------------


SURPLUS = [("bank_surplus_settled", {"surplus": "20.00", "vigorish": "1.00",
                                     "paid_to_bank": "19.00"})]  # fmt: skip


def test_clean_player_banked_rounds():
    assert found(banked_round("100.00", flows=SHORTFALL)) == []
    assert found(banked_round("50.00", flows=SURPLUS)) == []


def test_a_wrong_shortfall_leaves_the_centre_unbalanced():
    table = banked_round("100.00", flows=[("bank_shortfall_collected", {"amount": "20.00"})])
    assert found(table) == [
        ("PG-BANK-SHORTFALL", 2, "PA 621a.9(o)", "10.00"),
        ("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(o)", "10.00"),
    ]


def test_a_surplus_paid_over_to_the_bank():
    surplus = [("bank_surplus_settled", {"surplus": "20.00", "vigorish": "1.00",
                                         "paid_to_bank": "25.00"})]  # fmt: skip
    assert found(banked_round("50.00", flows=surplus)) == [
        ("PG-BANK-SURPLUS", 2, "PA 621a.9(o)", "6.00"),
        ("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(o)", "6.00"),
    ]


def test_surplus_vigorish_not_taken_balances_but_is_wrong():
    surplus = [("bank_surplus_settled", {"surplus": "20.00", "vigorish": "0.00",
                                         "paid_to_bank": "20.00"})]  # fmt: skip
    assert found(banked_round("50.00", flows=surplus)) == [
        ("PG-BANK-SURPLUS", 2, "PA 621a.9(o)", "1.00"),
    ]


def test_a_winner_against_the_bank_pays_vigorish_under_9q():
    table = banked_round("100.00", flows=SHORTFALL, vig="0.00")
    assert found(table) == [("PG-SETTLE-VIG-UNCOLLECTED", 1, "PA 621a.9(q)", "5.00")]


def test_a_wager_left_unsettled_leaves_the_centre_unjudged():
    table = banked_round("100.00", flows=SHORTFALL)
    table.events = [e for e in table.events if not (e.type == "wager_settled" and e.position == 3)]
    assert found(table) == []  # the flows still match the engine; the centre is not complete


def test_the_dealers_wager_over_the_banks_last_wager():
    table = banked_round("100.00", dealer_wager="60.00",
                         flows=[("bank_shortfall_collected", {"amount": "10.00"})])  # fmt: skip
    assert found(table) == [("PG-BANK-DEALER-WAGER-LIMIT", 2, "PA 621a.9(h)", "20.00")]


def test_the_dealers_wager_settled_the_wrong_way():
    table = banked_round("100.00", flows=SHORTFALL, dealer_settled="win")
    codes = {f[0]: f for f in found(table)}
    assert codes["PG-SETTLE-OUTCOME"] == ("PG-SETTLE-OUTCOME", 0, "PA 621a.9(n)", "40.00")
    assert codes["PG-SETTLE-PAYOUT"] == ("PG-SETTLE-PAYOUT", 0, "PA 621a.9(n)", "80.00")


def test_a_player_bank_payout_cites_9o():
    table = banked_round("100.00", flows=SHORTFALL, third="25.00")
    assert found(table) == [
        ("PG-SETTLE-PAYOUT", 3, "PA 621a.9(o)", "5.00"),
        ("PG-SETTLE-UNBALANCED", 2, "PA 621a.9(o)", "5.00"),
    ]


# --- Co-bank --------------------------------------------------------------------------------------


def test_a_co_bank_shortfall_and_surplus_split_in_halves():
    assert found(co_banked_round(HALVES)) == []
    surplus = {"surplus_to_house": "27.50", "surplus_vigorish": "1.38",
               "surplus_to_co_bank": "26.12"}  # fmt: skip
    assert found(co_banked_round(surplus, first="25.00", third="80.00")) == []


def test_the_co_bank_paying_the_whole_shortfall():
    table = co_banked_round({"shortfall_from_co_bank": "70.00"})
    assert found(table) == [("PG-COBANK-SPLIT", 2, "PA 621a.9(r)", "35.00")]


def test_the_dealer_wagering_against_a_co_bank():
    table = co_banked_round(HALVES, dealer_wager="25.00")
    assert found(table) == [("PG-BANK-DEALER-WAGER-CO-BANK", 2, "PA 621a.9(e)", "25.00")]


def test_co_bank_findings_cite_nj():
    table = Table("nj").start(bank=2, co_bank=True).wager(1, "100.00")
    table.hand(1, WINS)
    table.hand(2, DEALER, set_by="dealer")
    table.settle(1, "win", paid="100.00", vigorish="5.00")
    table.add("co_bank_split", shortfall_from_co_bank="100.00")
    assert found(table.complete()) == [("PG-COBANK-SPLIT", 2, "NJ 19:47-10.8(p)", "50.00")]


def late_raise_round(**settled):
    """$25 at seat 1 before "no more bets", raised by $25 after it; seat 1 wins."""
    table = Table("pa-2012").start().wager(1, "25.00")
    table.add("no_more_bets")
    table.wager(1, "25.00")
    table.hand(1, WINS)
    table.hand(0, DEALER, set_by="dealer")
    table.reveal(1)
    table.settle(1, "win", **settled)
    return table.complete()


def past_posts_and_settlements(table):
    codes = (*SETTLEMENT_CODES, "PG-WAGER-PAST-POST")
    return sorted((facts(f) for f in table.findings(*codes)), key=str)


PAST_POST = ("PG-WAGER-PAST-POST", 1, "PA 621a.5(c)", "25.00")


@pytest.mark.parametrize(
    "late_part", [{}, {"returned": "25.00"}], ids=["handed back apart", "returned with it"]
)
def test_a_late_raise_is_settled_on_the_amount_legally_in_action(late_part):
    # PA 621a.5(c): the raise was never in action. Paying the $25 wager alone is right.
    table = late_raise_round(paid="25.00", vigorish="1.25", **late_part)
    assert past_posts_and_settlements(table) == [PAST_POST]


def test_a_late_raise_paid_is_a_payout_finding_for_the_raise():
    table = late_raise_round(paid="50.00", vigorish="2.50")
    assert past_posts_and_settlements(table) == [
        ("PG-SETTLE-PAYOUT", 1, "PA 621a.8(k)", "25.00"),
        PAST_POST,
    ]


def test_a_wager_made_entirely_after_the_call_and_handed_back_is_only_a_past_post():
    table = Table("pa-2012").start().wager(1, "25.00")
    table.add("no_more_bets")
    table.wager(2, "25.00")
    table.hand(1, WINS)
    table.hand(0, DEALER, set_by="dealer")
    table.reveal(1)
    table.settle(1, "win", paid="25.00", vigorish="1.25")
    table.settle(2, "push", returned="25.00")
    assert past_posts_and_settlements(table.complete()) == [
        ("PG-WAGER-PAST-POST", 2, "PA 621a.5(c)", "25.00")
    ]


# --- California -----------------------------------------------------------------------------------


def test_a_clean_california_round():
    assert found(ca_round()) == []


def test_paid_and_collected_beyond_the_player_dealers_wager():
    table = ca_round({4: ("win", {"paid": "30.00"}), 1: ("lose", {"collected": "20.00"})})
    assert found(table) == [
        ("PG-CA-COVERAGE", 1, f"{CA}, Type of Game", "20.00"),
        ("PG-CA-COVERAGE", 4, f"{CA}, Type of Game", "20.00"),
    ]


def test_a_covered_winner_paid_short_is_a_payout_finding():
    changes = {3: ("win", {"paid": "35.00"}), 4: ("win", {"paid": "15.00", "returned": "15.00"})}
    table = ca_round(changes)
    assert found(table) == [
        ("PG-CA-COVERAGE", 4, f"{CA}, Type of Game", "5.00"),
        ("PG-SETTLE-PAYOUT", 3, f"{CA}, How Winners are Determined and Paid", "5.00"),
    ]


def test_settled_out_of_clockwise_order_from_the_button():
    # Seat 1 first: its losing $20 takes $20 of the $50 of action, so seat 3 is covered
    # for $30 and seat 4 for nothing. Against the lawful order, seat 1 lost $20 and seats
    # 3 and 4 $10 each, all to the player-dealer: the order moved $40.
    changes = {
        1: ("lose", {"collected": "20.00"}),
        3: ("win", {"paid": "30.00", "returned": "10.00"}),
        4: ("win", {"returned": "30.00"}),
    }
    table = ca_round(changes, order=(1, 3, 4))
    assert found(table) == [("PG-CA-ORDER", 1, f"{CA}, Method used to Determine Action", "40.00")]


def test_a_player_dealer_paying_on_a_running_total_is_beyond_its_action():
    # Seat 1's collected $20 does not buy the player-dealer more action: in this order
    # seat 3 was covered for $30 of its $40 and seat 4 for nothing, yet both were paid.
    changes = {1: ("lose", {"collected": "20.00"}), 4: ("win", {"paid": "30.00"})}
    table = ca_round(changes, order=(1, 3, 4))
    assert found(table) == [
        ("PG-CA-COVERAGE", 3, f"{CA}, Type of Game", "10.00"),
        ("PG-CA-COVERAGE", 4, f"{CA}, Type of Game", "30.00"),
        ("PG-CA-ORDER", 1, f"{CA}, Method used to Determine Action", "40.00"),
    ]


def test_a_wrong_and_a_missing_collection_fee():
    table = ca_round(fees={3: "2.00", 4: "1.00", 1: "1.00"})
    rule = f"{CA}, Collection Rates Schedule"
    assert found(table) == [("PG-CA-FEE", 0, rule, "1.00"), ("PG-CA-FEE", 3, rule, "1.00")]


def test_vigorish_at_a_california_table_is_a_wrong_fee():
    table = ca_round({3: ("win", {"paid": "40.00", "vigorish": "2.00"})})
    assert found(table) == [("PG-CA-FEE", 3, f"{CA}, Collection Rates Schedule", "2.00")]


# --- Pair Fortunes --------------------------------------------------------------------------------


def pair_fortunes_round(paid):
    table = Table("pa-2019").start().wager(4, "25.00").wager(4, "5.00", kind="pair_fortunes")
    table.deliver(4, "1-4 2-3 3-5 1-2")  # a mixed pair (1-4 with 2-3): 4 to 1, illustratively
    table.deliver(0, "1-1a 2-6 3-3a 1-5a")
    table.hand(4, WINS_TOO)
    table.hand(0, DEALER, set_by="dealer")
    table.reveal(4)
    table.settle(4, "win", paid="25.00", vigorish="1.25")
    table.settle(4, "win", kind="pair_fortunes", paid=paid)
    return table.complete()


def test_pair_fortunes_paid_by_the_paytable():
    assert found(pair_fortunes_round("20.00")) == []
    assert found(pair_fortunes_round("15.00")) == [
        ("PG-PF-PAYOUT", 4, "PA 621a.8(j) (2019)", "5.00")
    ]


# --- No false positives on simulated play ---------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_simulated_shifts_raise_no_settlement_finding(seed):
    events = list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=30), random.Random(seed)))
    types = {e.type for e in events}
    rule_sets = {e.rule_set for e in events if e.type == "table_opened"}
    assert {"california", "nj", "pa-2019"} <= rule_sets
    assert {"collection_fee_taken", "co_bank_split", "dealer_wager_settled",
            "bank_surplus_settled", "surrendered"} <= types  # fmt: skip
    assert any(e.type == "wager_placed" and e.kind.value == "pair_fortunes" for e in events)
    assert [f for f in verify_stream(events) if f.code in SETTLEMENT_CODES] == []
