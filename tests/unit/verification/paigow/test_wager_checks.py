"""Wager checks, each from a hand-written round: past-posting, a player's spots, the bank's spot."""

import random
from collections import defaultdict
from decimal import Decimal

import pytest

from audit.events.paigow import wagers
from audit.events.paigow.play import BankAccepted
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_rounds import BANK_PLAYER, WAGER_CODES, carried, clean_round

PAI_GOW = wagers.WagerKind.PAI_GOW


def summary(finding):
    return finding.code, finding.rule, finding.position, carried(finding)


# --- PG-WAGER-PAST-POST -------------------------------------------------------------------------


def test_a_clean_round_has_no_wager_findings():
    for rule_set in ("pa-2012", "pa-2019", "nj", "california"):
        assert clean_round(rule_set).findings(*WAGER_CODES) == []


def test_a_wager_placed_after_no_more_bets():
    rnd = clean_round("pa-2019")
    call = rnd.first("no_more_bets")
    late = rnd.insert_after(call, wagers.WagerPlaced, position=5, amount=Decimal("60.00"),
                            kind=PAI_GOW, player_id="P-5")  # fmt: skip
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-PAST-POST", "PA 621a.5(c)", 5, Decimal("60.00"))
    assert finding.event_ids == (str(late.event_id), str(call.event_id))


def test_a_wager_withdrawn_after_no_more_bets_on_a_new_jersey_table():
    rnd = clean_round("nj")
    rnd.insert_after(rnd.first("no_more_bets"), wagers.WagerWithdrawn, position=3,
                     amount=Decimal("40.00"))  # fmt: skip
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-PAST-POST", "NJ 19:47-10.5(c)", 3, Decimal("40.00"))


def test_a_wager_raised_or_withdrawn_before_the_call_is_no_finding():
    rnd = clean_round("pa-2019")
    call = rnd.first("no_more_bets")
    rnd.insert_after(rnd.first("wager_placed", position=3), wagers.WagerPlaced, position=3,
                     amount=Decimal("10.00"), kind=PAI_GOW, player_id="P-3")  # fmt: skip
    withdrawn = rnd.make(wagers.WagerWithdrawn, position=1, amount=Decimal("5.00"))
    rnd.events.insert(rnd.events.index(call), withdrawn)
    assert rnd.findings(*WAGER_CODES) == []


def test_the_dealers_wager_against_the_bank_is_not_a_player_wager():
    rnd = clean_round("pa-2019", bank=2, dealer_wager="25.00")
    rnd.move_after(rnd.first("dealer_wager_against_bank"), rnd.first("no_more_bets"))
    assert rnd.findings(*WAGER_CODES) == []


# --- PG-WAGER-SPOTS -----------------------------------------------------------------------------


def test_a_player_on_two_areas_that_are_not_adjacent():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 3: "40.00"}, players={1: "P-A", 3: "P-A"})
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-SPOTS", "PA 621a.5(d)", 3, Decimal("40.00"))
    assert finding.recorded == "player P-A wagered on Position 1, Position 3"


def test_a_player_on_three_adjacent_areas_on_a_new_jersey_table():
    rnd = clean_round("nj", wagers_at={2: "10.00", 3: "20.00", 4: "30.00"},
                      players={2: "P-A", 3: "P-A", 4: "P-A"})  # fmt: skip
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-SPOTS", "NJ 19:47-10.10", 4, Decimal("30.00"))


def test_two_adjacent_areas_are_allowed_where_the_table_allows_them():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 2: "40.00"}, players={1: "P-A", 2: "P-A"})
    assert rnd.findings(*WAGER_CODES) == []


def test_the_two_ends_of_the_layout_are_not_adjacent():
    # The dealer and the Dead Hand stand between position 6 and position 1.
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 6: "40.00"}, players={1: "P-A", 6: "P-A"})
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-SPOTS", "PA 621a.5(d)", 6, Decimal("40.00"))


def test_two_adjacent_areas_where_the_table_allows_only_one():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 2: "40.00"}, players={1: "P-A", 2: "P-A"})
    opened = rnd.first("table_opened")
    rnd.replace(opened, options={"adjacent_spots": "false"})
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-SPOTS", "PA 621a.5(d)", 2, Decimal("40.00"))


def test_a_second_area_withdrawn_before_the_call_is_no_finding():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 4: "40.00"}, players={1: "P-A", 4: "P-A"})
    withdrawn = rnd.make(wagers.WagerWithdrawn, position=4, amount=Decimal("40.00"))
    rnd.events.insert(rnd.events.index(rnd.first("no_more_bets")), withdrawn)
    assert rnd.findings(*WAGER_CODES) == []


def test_spots_are_judged_only_when_the_player_is_recorded():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 4: "40.00"})
    for event in rnd.all("wager_placed"):
        rnd.replace(event, player_id=None)
    assert rnd.findings(*WAGER_CODES) == []


def test_california_cites_no_spot_rule_so_draws_no_finding():
    # CA allows one area (adjacent_spots False) but its text states no rule to cite.
    rnd = clean_round("california", wagers_at={1: "25.00", 2: "40.00"},
                      players={1: "P-A", 2: "P-A"})  # fmt: skip
    assert rnd.findings(*WAGER_CODES) == []


# --- PG-WAGER-BANK-SPOTS ------------------------------------------------------------------------


def test_the_bank_wagering_on_a_second_area():
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00", 4: "30.00"},
                      players={4: BANK_PLAYER})  # fmt: skip
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-BANK-SPOTS", "PA 621a.9(f)", 4, Decimal("30.00"))
    assert finding.expected == "the bank on one betting area (Position 2)"


def test_the_bank_wagering_on_two_areas_on_a_new_jersey_table():
    rnd = clean_round("nj", bank=2, wagers_at={3: "20.00", 4: "30.00"},
                      players={3: BANK_PLAYER, 4: BANK_PLAYER})  # fmt: skip
    [finding] = rnd.findings(*WAGER_CODES)
    assert summary(finding) == ("PG-WAGER-BANK-SPOTS", "NJ 19:47-10.8(f)", 3, Decimal("50.00"))


def test_the_bank_on_its_own_area_only_is_no_finding():
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00", 2: "30.00"},
                      players={2: BANK_PLAYER})  # fmt: skip
    assert rnd.findings(*WAGER_CODES) == []


def test_a_california_player_dealer_stakes_position_zero_and_is_not_on_two_areas():
    rnd = clean_round("california", bank=4, wagers_at={1: "25.00", 2: "40.00"})
    assert rnd.findings(*WAGER_CODES) == []


# --- No false positives on the simulated floor --------------------------------------------------


@pytest.mark.parametrize("seed", [11, 29])
def test_a_simulated_shift_draws_no_wager_finding(seed):
    events = list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=30), random.Random(seed)))
    spots = defaultdict(set)
    for event in events:
        if isinstance(event, wagers.WagerPlaced) and event.player_id:
            spots[event.round_id, event.player_id].add(event.position)
    assert any(len(positions) == 2 for positions in spots.values())  # two adjacent areas occur
    assert any(isinstance(event, BankAccepted) for event in events)
    assert [f for f in verify_stream(events) if f.code in WAGER_CODES] == []
