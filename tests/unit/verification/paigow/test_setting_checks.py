"""Setting checks (audit/verification/paigow/setting_checks.py), each from a hand-written round
built with tests/builders/paigow_table.py."""

import random

import pytest

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_table import (
    DEALER,
    LOSES,
    LOSES_TOO,
    WINS,
    Table,
    facts,
)

SETTING_CODES = ("PG-SET-MISORDERED", "PG-SET-HOUSE-WAY", "PG-SET-DEALER-RULE",
                 "PG-SET-SURRENDER-LATE")  # fmt: skip


def dealer_banked(rule_set="pa-2012", dealer=DEALER, player=WINS, **options):
    """A dealer-banked round with one $25 wager at position 1, settled as the hands say."""
    table = Table(rule_set, **options).start().wager(1, "25.00")
    table.hand(1, player)
    table.hand(0, dealer, set_by="dealer")
    table.reveal(1)
    table.settle(1, "win", paid="25.00", vigorish="1.25")
    return table.complete()


# --- PG-SET-MISORDERED -------------------------------------------------------------------------


def test_a_clean_round_has_no_setting_finding():
    assert dealer_banked().findings(*SETTING_CODES) == []


def test_a_player_hand_set_low_over_high():
    table = dealer_banked(player="6-6a 5-6a / 4-6a 4-6b")  # 7 high over a Ping pair low
    [finding] = table.findings("PG-SET-MISORDERED")
    assert facts(finding) == ("PG-SET-MISORDERED", 1, "PA 621a.8(a)", "25.00")
    assert finding.expected == "4-6a 4-6b / 6-6a 5-6a"


def test_two_hands_of_equal_rank_may_be_set_either_way():
    for player in ("4-5 1-4 / 3-6 2-3", "3-6 2-3 / 4-5 1-4"):  # both 4, a Chop Gow on top
        assert dealer_banked(player=player).findings("PG-SET-MISORDERED") == []


def test_misordered_cites_nj():
    table = dealer_banked("nj", player="6-6a 5-6a / 4-6a 4-6b")
    [finding] = table.findings("PG-SET-MISORDERED")
    assert finding.rule == "NJ 19:47-10.7(a)"


def test_a_hand_with_a_repeated_tile_is_left_to_the_tile_checks():
    table = dealer_banked(player="6-6a 6-6a / 4-6a 4-6b")
    assert table.findings(*SETTING_CODES) == []


# --- PG-SET-HOUSE-WAY and PG-SET-DEALER-RULE -----------------------------------------------------


def test_a_dealer_off_the_house_way_and_the_dealer_rule():
    table = dealer_banked(dealer="1-1a 3-3a / 2-6 1-5a")  # 8 / 4: the Day Gong broken up
    found = {f.code: f for f in table.findings(*SETTING_CODES)}
    assert sorted(found) == ["PG-SET-DEALER-RULE", "PG-SET-HOUSE-WAY"]
    assert facts(found["PG-SET-HOUSE-WAY"]) == ("PG-SET-HOUSE-WAY", 0, "PA 621a.10(f)", "25.00")
    assert facts(found["PG-SET-DEALER-RULE"]) == ("PG-SET-DEALER-RULE", 0, "PA 621a.8(d)", "25.00")
    assert found["PG-SET-HOUSE-WAY"].expected.startswith(DEALER)


def test_house_way_and_dealer_rule_cite_nj():
    table = dealer_banked("nj", dealer="1-1a 3-3a / 2-6 1-5a")
    rules = sorted(f.rule for f in table.findings(*SETTING_CODES))
    assert rules == ["NJ 19:47-10.7(d)", "NJ 19:47-10.9(f)"]


def test_tiles_listed_in_another_order_within_a_hand_are_the_same_setting():
    assert dealer_banked(dealer="2-6 1-1a / 1-5a 3-3a").findings(*SETTING_CODES) == []


def test_a_house_way_outside_the_dealer_rule_fires_only_the_rule():
    # A PA casino whose Rules Submission adopts the California way: it splits the Teens.
    tiles_set_by_ca_way = "6-6b 1-2 / 6-6a 1-3a"
    table = dealer_banked(dealer=tiles_set_by_ca_way, player="4-6a 4-6b / 5-5a 1-6a",
                          house_way="california-posted")  # fmt: skip
    [finding] = table.findings(*SETTING_CODES)
    assert facts(finding) == ("PG-SET-DEALER-RULE", 0, "PA 621a.8(d)", "25.00")
    assert finding.expected == "6-6a 6-6b / 1-3a 1-2"


def test_the_dealer_rule_way_on_a_california_way_table_fires_only_the_house_way():
    table = dealer_banked(dealer="6-6a 6-6b / 1-3a 1-2", player="4-6a 4-6b / 5-5a 1-6a",
                          house_way="california-posted")  # fmt: skip
    [finding] = table.findings(*SETTING_CODES)
    assert facts(finding) == ("PG-SET-HOUSE-WAY", 0, "PA 621a.10(f)", "25.00")


def co_banked(bank_hand):
    table = Table().start(bank=2, co_bank=True).wager(1, "40.00").wager(3, "60.00")
    table.hand(1, WINS)
    table.hand(3, LOSES)
    table.hand(2, bank_hand, set_by="dealer")  # PA 621a.9(e): the dealer sets the co-bank's hand
    return table.complete()


def test_the_co_banks_hand_is_set_by_the_house_way():
    assert co_banked(DEALER).findings(*SETTING_CODES) == []
    [finding] = co_banked("1-1a 3-3a / 2-6 1-5a").findings(*SETTING_CODES)
    assert facts(finding) == ("PG-SET-HOUSE-WAY", 2, "PA 621a.10(f)", "100.00")


def test_a_player_banks_hand_is_the_players_own():
    table = Table().start(bank=2).wager(1, "40.00")
    table.hand(1, WINS)
    table.hand(2, "1-1a 3-3a / 2-6 1-5a")
    assert table.complete().findings(*SETTING_CODES) == []


def test_the_dealers_hand_against_a_player_bank_stakes_the_dealers_wager():
    table = Table().start(bank=2, dealer_wager="30.00").wager(1, "40.00")
    table.hand(1, WINS)
    table.hand(2, LOSES_TOO)
    table.hand(0, "1-1a 3-3a / 2-6 1-5a", set_by="dealer")
    found = {f.code: f for f in table.complete().findings(*SETTING_CODES)}
    assert str(found["PG-SET-HOUSE-WAY"].exposure) == "30.00"
    assert found["PG-SET-DEALER-RULE"].position == 0


def test_a_california_player_dealer_sets_freely():
    table = Table("california").start().wager(0, "50.00").wager(3, "40.00")
    table.hand(3, WINS)
    table.hand(0, "1-1a 3-3a / 2-6 1-5a")
    assert table.complete().findings(*SETTING_CODES) == []


def test_a_reset_hand_is_judged_as_reset():
    table = Table().start().wager(1, "25.00")
    table.hand(1, WINS)
    table.hand(0, "1-1a 3-3a / 2-6 1-5a", set_by="dealer")
    table.hand(0, DEALER, set_by="dealer")  # PA 621a.10(f): reset by the house way
    assert table.complete().findings(*SETTING_CODES) == []


# --- PG-SET-SURRENDER-LATE ---------------------------------------------------------------------


def surrender(rule_set, after_reveal):
    table = Table(rule_set).start().wager(2, "50.00")
    table.hand(2, LOSES)
    table.hand(0, DEALER, set_by="dealer")
    if after_reveal:
        table.reveal(2)
    table.add("surrendered", position=2)
    table.settle(2, "surrendered", collected="50.00")
    return table.complete()


@pytest.mark.parametrize(("rule_set", "rule"), [("pa-2012", "PA 621a.8(e)"),
                                                ("pa-2019", "PA 621a.8(e) (2019)"),
                                                ("nj", "NJ 19:47-10.7(f)")])  # fmt: skip
def test_a_surrender_after_the_hands_were_revealed(rule_set, rule):
    [finding] = surrender(rule_set, after_reveal=True).findings(*SETTING_CODES)
    assert facts(finding) == ("PG-SET-SURRENDER-LATE", 2, rule, "50.00")


def test_a_surrender_before_the_reveal_is_in_time():
    assert surrender("pa-2012", after_reveal=False).findings(*SETTING_CODES) == []


# --- No false positives on simulated play -------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_simulated_shifts_raise_no_setting_finding(seed):
    events = list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=30), random.Random(seed)))
    types = {e.type for e in events}
    assert {"surrendered", "co_bank_requested", "dealer_wager_against_bank"} <= types
    assert [f for f in verify_stream(events) if f.code in SETTING_CODES] == []


# --- Hands set again: PG-SET-RESET, -CORRECTED, -DEALER-RESET -----------------------------------

RESET_CODES = ("PG-SET-RESET", "PG-SET-CORRECTED", "PG-SET-DEALER-RESET")
WINS_OTHER_WAY = "4-6a 6-6a / 4-6b 5-6a"  # the same tiles as WINS, set another way


def reset_round(*hands, rule_set="pa-2012"):
    """A $25 wager at position 1; ``hands`` are (position, setting, set_by) in order."""
    table = Table(rule_set).start().wager(1, "25.00")
    for position, setting, set_by in hands:
        table.hand(position, setting, set_by=set_by)
    table.reveal(1)
    table.settle(1, "win", paid="25.00", vigorish="1.25")
    return table.complete()


def resets(table):
    return [facts(f) for f in table.findings(*RESET_CODES)]


def test_a_hand_set_once_leaves_no_trace():
    assert resets(reset_round((1, WINS, "player"), (0, DEALER, "dealer"))) == []


def test_a_player_setting_again_before_the_dealers_hand_is_a_breach_with_nothing_at_stake():
    table = reset_round((1, WINS_OTHER_WAY, "player"), (1, WINS, "player"), (0, DEALER, "dealer"))
    assert resets(table) == [("PG-SET-RESET", 1, "PA 621a.8(b)", "0.00")]
    [finding] = table.findings("PG-SET-RESET")
    assert finding.recorded == ("4-6a 6-6a / 4-6b 5-6a, then 4-6a 4-6b / 6-6a 5-6a by the player")
    assert len(finding.event_ids) == 2  # both settings kept as evidence


def test_a_player_setting_again_after_the_dealers_hand_puts_the_wager_at_stake():
    table = reset_round((1, WINS_OTHER_WAY, "player"), (0, DEALER, "dealer"), (1, WINS, "player"))
    assert resets(table) == [("PG-SET-RESET", 1, "PA 621a.8(b)", "25.00")]
    [finding] = table.findings("PG-SET-RESET")
    assert finding.recorded.endswith("after the banker's hands were set")


def test_the_dealer_setting_a_players_hand_again_is_a_trace():
    table = reset_round((1, WINS_OTHER_WAY, "player"), (1, WINS, "dealer"), (0, DEALER, "dealer"))
    assert resets(table) == [("PG-SET-CORRECTED", 1, "PA 621a.8(b)", "0.00")]


def test_the_dealer_resetting_its_own_hand_is_a_trace_under_10f():
    off_way = "1-1a 3-3a / 2-6 1-5a"
    table = reset_round((1, WINS, "player"), (0, off_way, "dealer"), (0, DEALER, "dealer"))
    assert resets(table) == [("PG-SET-DEALER-RESET", 0, "PA 621a.10(f)", "0.00")]
    assert table.findings("PG-SET-HOUSE-WAY") == []  # judged as reset


def test_nj_cites_its_own_paragraph():
    table = reset_round((1, WINS_OTHER_WAY, "player"), (1, WINS, "player"), (0, DEALER, "dealer"),
                        rule_set="nj")  # fmt: skip
    assert resets(table) == [("PG-SET-RESET", 1, "NJ 19:47-10.7(b)", "0.00")]
