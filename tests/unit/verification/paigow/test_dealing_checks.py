"""Dealing and tile-integrity checks, each from a hand-written round, and none on a clean floor.

The default round (``rounds.clean_round``) is a PA 2019 table, $25 at position 1
and $40 at position 3, dice 3-1-5 (nine: the dealer takes the first stack), the
tiles stacked in set order and delivered house way from the right.
"""

import random
from dataclasses import replace
from decimal import Decimal

import pytest

from audit.events.paigow import play, wagers
from audit.games.paigow.dealing import Cut
from audit.games.paigow.delivery import DeliveryStyle
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_rounds import WAGER_CODES, carried, clean_round

DEAL_CODES = (
    "PG-DEAL-BEFORE-NO-MORE-BETS",
    "PG-DEAL-SHAKES",
    "PG-DEAL-DICE-TOTAL",
    "PG-DEAL-NO-ROLL",
    "PG-DEAL-START",
    "PG-DEAL-SETTLED-AFTER-WRONG-DEAL",
    "PG-DEAL-STACK-ORDER",
    "PG-DEAL-STYLE",
    "PG-DEAL-UNWAGERED",
    "PG-DEAL-NO-SHAKE-AFTER",
    "PG-DEAL-EXPOSED-NOT-VOIDED",
)
TILE_CODES = ("PG-TILE-DUPLICATE", "PG-TILE-MISSING", "PG-TILE-HAND-MISMATCH")
MINE = DEAL_CODES + TILE_CODES
ACTION = Decimal("65.00")
"""The default round's Pai Gow wagers."""


def summary(finding):
    return finding.code, finding.rule, finding.position, carried(finding)


@pytest.mark.parametrize(
    "options",
    [
        {"rule_set": "pa-2012"},
        {"rule_set": "nj"},
        {"rule_set": "pa-2019", "rng": 13},
        {"bank": 2, "wagers_at": {1: "25.00", 5: "10.00"}},
        {"bank": 2, "dealer_wager": "25.00", "style": DeliveryStyle.PIN_SAY_LEFT,
         "cut": Cut(2, 5, 1, crossed=True), "row": random.Random(3).sample(range(32), 32)},
        {"rule_set": "nj", "bank": 4, "style": DeliveryStyle.CHEE_YEE, "dice": (6, 6, 5)},
        {"rule_set": "pa-2019", "style": DeliveryStyle.DRAGON_PHOENIX_RIGHT, "dice": (1, 1, 1)},
        {"rule_set": "california", "bank": 4, "wagers_at": {1: "25.00", 7: "10.00"}},
        {"void_at_dealer": True},
    ],
)  # fmt: skip
def test_clean_rounds_draw_no_dealing_or_tile_finding(options):
    assert clean_round(**options).findings(*MINE) == []


# --- PG-DEAL-BEFORE-NO-MORE-BETS ----------------------------------------------------------------


def test_dice_read_with_no_call_at_all():
    rnd = clean_round("pa-2019")
    rnd.remove(rnd.first("no_more_bets"))
    [finding] = rnd.findings(*MINE, *WAGER_CODES)
    assert summary(finding) == ("PG-DEAL-BEFORE-NO-MORE-BETS", "PA 621a.5(c)", None, Decimal(0))
    assert finding.recorded == 'dice_revealed before "no more bets" (never called)'


def test_the_call_after_the_deal_puts_later_wagers_at_stake_on_a_new_jersey_table():
    rnd = clean_round("nj")
    rnd.move_after(rnd.first("no_more_bets"), rnd.all("stack_delivered")[-1])
    rnd.insert_after(rnd.first("dice_revealed"), wagers.WagerPlaced, position=5,
                     amount=Decimal("30.00"), kind=wagers.WagerKind.PAI_GOW)  # fmt: skip
    [finding] = rnd.findings(*MINE, *WAGER_CODES)
    assert summary(finding) == (
        "PG-DEAL-BEFORE-NO-MORE-BETS", "NJ 19:47-10.5(c)", None, Decimal("30.00"),
    )  # fmt: skip


# --- PG-DEAL-SHAKES -----------------------------------------------------------------------------


def test_dice_read_after_two_shakes():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("shaker_shaken"), count=2)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-SHAKES", "PA 621a.6(a)(2)", None, ACTION)
    assert finding.recorded == "dice read after 2 shakes"


def test_only_the_shakes_after_the_last_no_roll_count():
    rnd = clean_round("nj")
    shake = rnd.first("shaker_shaken")
    rnd.replace(shake, count=1)
    before = rnd.events[rnd.events.index(rnd.first("shaker_shaken")) - 1]
    first = rnd.insert_after(before, play.ShakerShaken, count=5)
    bad = rnd.insert_after(first, play.DiceRevealed, faces=(2, 3, 4), all_flat=False)
    rnd.insert_after(bad, play.NoRollCalled, reason="not_flat")
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-SHAKES", "NJ 19:47-10.6(a)", None, ACTION)


def test_a_no_roll_then_three_fresh_shakes_and_the_shake_after_the_deal_are_clean():
    rnd = clean_round("pa-2019")
    before = rnd.events[rnd.events.index(rnd.first("shaker_shaken")) - 1]
    first = rnd.insert_after(before, play.ShakerShaken, count=3)
    bad = rnd.insert_after(first, play.DiceRevealed, faces=(2, 3, 4), all_in_shaker=False)
    rnd.insert_after(bad, play.NoRollCalled, reason="fell_out")
    assert rnd.all("shaker_shaken")[-1].count == 1  # after the deal (621a.6(f)): not counted
    assert rnd.findings(*MINE) == []


def test_california_states_no_number_of_shakes():
    rnd = clean_round("california")
    rnd.replace(rnd.first("shaker_shaken"), count=1)
    assert rnd.findings(*MINE) == []


# --- PG-DEAL-NO-SHAKE-AFTER ----------------------------------------------------------------------


def test_a_shaker_left_unshaken_after_the_deal():
    rnd = clean_round("pa-2019")
    rnd.remove(rnd.all("shaker_shaken")[-1])
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-NO-SHAKE-AFTER", "PA 621a.6(f)", None, Decimal(0))
    assert finding.recorded == "the shaker shaken 0 times after the deal"
    assert finding.exposure == Decimal(0)  # no wager rides on it


def test_a_shaker_shaken_twice_after_the_deal_under_nj():
    rnd = clean_round("nj")
    after = rnd.all("shaker_shaken")[-1]
    rnd.insert_after(after, play.ShakerShaken, count=1)
    [finding] = rnd.findings(*MINE)
    assert (finding.code, finding.rule) == ("PG-DEAL-NO-SHAKE-AFTER", "NJ 19:47-10.6(f)")
    assert finding.recorded == "the shaker shaken 2 times after the deal"


@pytest.mark.parametrize(
    "options", [{"rule_set": "california"}, {"rule_set": "pa-2019", "rng": 13}]
)
def test_no_shake_after_the_deal_is_asked_of_california_or_of_an_rng_count(options):
    rnd = clean_round(**options)
    shakes = rnd.all("shaker_shaken")
    if len(shakes) > 1:  # the dice's own shakes stay: only the one after the deal goes
        rnd.remove(shakes[-1])
    assert [f.code for f in rnd.findings(*MINE)] == []


# --- PG-DEAL-DICE-TOTAL and PG-DEAL-NO-ROLL -----------------------------------------------------


def test_a_total_announced_wrongly():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), announced_total=10)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-DICE-TOTAL", "PA 621a.6(c)", None, ACTION)
    assert (finding.recorded, finding.expected) == (
        "dice [3, 1, 5] announced as 10",
        "announced as 9",
    )


def test_no_announced_total_recorded_is_no_finding():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), announced_total=None)
    assert rnd.findings(*MINE) == []


@pytest.mark.parametrize("fault", [{"all_flat": False}, {"all_in_shaker": False}])
def test_dice_not_flat_or_out_of_the_shaker_played_without_a_no_roll(fault):
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), **fault)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-NO-ROLL", "PA 621a.10(a)", None, ACTION)


def test_a_no_roll_on_a_new_jersey_table():
    rnd = clean_round("nj")
    rnd.replace(rnd.first("dice_revealed"), all_flat=False)
    [finding] = rnd.findings(*MINE)
    assert finding.rule == "NJ 19:47-10.9(a)"


# --- PG-DEAL-START and PG-DEAL-SETTLED-AFTER-WRONG-DEAL -----------------------------------------


def test_a_miscounted_deal_settled_instead_of_voided():
    rnd = clean_round("pa-2019")  # dealt from the dealer, as for nine
    rnd.replace(rnd.first("dice_revealed"), faces=(3, 1, 6), announced_total=10)
    start, settled = rnd.findings(*MINE)
    assert summary(start) == ("PG-DEAL-START", "PA 621a.6(c)", 0, ACTION)
    assert start.expected == "first stack to Position 1 (counting 10 from Dealer)"
    moved = sum(e.paid + e.collected + e.vigorish for e in rnd.all("wager_settled"))
    assert moved == Decimal("65.00")
    assert summary(settled) == ("PG-DEAL-SETTLED-AFTER-WRONG-DEAL", "PA 621a.10(c)", None, moved)


def test_a_miscounted_deal_voided_and_returned_is_only_the_miscount():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), faces=(3, 1, 6), announced_total=10)
    for event in rnd.all("wager_settled"):
        amount = rnd.first("wager_placed", position=event.position).amount
        rnd.replace(event, outcome="returned", collected=Decimal(0), returned=amount)
    rnd.insert_after(rnd.all("stack_delivered")[-1], play.RoundVoided, reason="wrong_deal")
    assert [f.code for f in rnd.findings(*MINE)] == ["PG-DEAL-START"]


@pytest.mark.parametrize(
    ("rule_set", "rule"), [("pa-2019", "PA 621a.9(j)"), ("nj", "NJ 19:47-10.8(j)")]
)
def test_a_bank_round_counted_from_the_dealer_instead_of_the_bank(rule_set, rule):
    rnd = clean_round(rule_set, bank=3, wagers_at={1: "25.00", 5: "15.00"})  # nine from 3: 3
    rnd.replace(rnd.first("dice_revealed"), faces=(3, 1, 6), announced_total=10)
    findings = rnd.findings("PG-DEAL-START")
    assert [summary(f) for f in findings] == [("PG-DEAL-START", rule, 3, Decimal("40.00"))]
    assert findings[0].expected == "first stack to Position 4 (counting 10 from Position 3)"


def test_an_rng_round_counts_the_number_shown():
    rnd = clean_round("pa-2019", rng=13)  # thirteen from the dealer: position 4
    rnd.replace(rnd.first("rng_number_shown"), number=14)
    [finding] = rnd.findings("PG-DEAL-START")
    assert summary(finding) == ("PG-DEAL-START", "PA 621a.6(c)", 4, ACTION)


def test_a_california_count_runs_clockwise_from_the_player_dealer():
    rnd = clean_round("california", bank=5, wagers_at={1: "25.00", 3: "40.00"}, dice=(2, 5, 5))
    assert rnd.first("stack_delivered", order=0).position == 3  # twelve lands on seat 3
    rnd.replace(rnd.first("dice_revealed"), faces=(2, 5, 6), announced_total=13)
    [finding] = rnd.findings("PG-DEAL-START")
    assert summary(finding) == (
        "PG-DEAL-START", "CA Pai Gow Tiles, Method used to Determine Action", 3, Decimal("165.00"),
    )  # fmt: skip
    assert finding.expected == "first stack to Seat 4 (counting 13 from Player-Dealer)"


# --- PG-DEAL-STACK-ORDER ------------------------------------------------------------------------


def test_two_stacks_delivered_swapped():
    rnd = clean_round("pa-2019")
    second, third = rnd.first("stack_delivered", order=2), rnd.first("stack_delivered", order=3)
    rnd.replace(second, tiles=third.tiles)
    rnd.replace(third, tiles=second.tiles)
    # One misdelivery, one finding: both stacks listed, the one wager touched counted once.
    [finding] = rnd.findings("PG-DEAL-STACK-ORDER")
    assert summary(finding) == ("PG-DEAL-STACK-ORDER", "PA 621a.6(d)", None, Decimal("40.00"))
    assert finding.expected.endswith(
        "; stack 4 to Position 3: 2-2a 2-2b 5-6a 5-6b (house_way_right)"
    )
    assert len(finding.event_ids) == 2


def test_a_stack_delivered_past_its_position():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("stack_delivered", order=3), position=4)
    rnd.replace(rnd.first("stack_delivered", order=4), position=3)
    [finding] = rnd.findings("PG-DEAL-STACK-ORDER")
    assert (finding.position, finding.at_stake) == (None, Decimal("40.00"))
    assert "to Position 4" in finding.recorded
    assert "to Position 3" in finding.recorded


def test_a_cut_and_a_bank_style_delivered_as_if_uncut():
    cut = Cut(start=5, stop=8, to_right=3)
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00", 4: "35.00"},
                      style=DeliveryStyle.CUP_SAY_LEFT, cut=cut)  # fmt: skip
    uncut = clean_round("pa-2019", bank=2, wagers_at={1: "25.00", 4: "35.00"},
                        style=DeliveryStyle.CUP_SAY_LEFT)  # fmt: skip
    for wrong, right in zip(uncut.all("stack_delivered"), rnd.all("stack_delivered"), strict=True):
        rnd.replace(right, tiles=wrong.tiles)
    [finding] = rnd.findings("PG-DEAL-STACK-ORDER")
    assert finding.rule == "PA 621a.7"
    assert finding.at_stake == Decimal("60.00")  # the two wagers, each once


def test_a_whole_delivery_in_the_wrong_style_is_one_finding_not_one_per_position():
    # The case: an NJ bank round delivered house way though cup say was chosen.
    chosen = clean_round("nj", bank=2, wagers_at={1: "25.00", 4: "35.00"},
                         style=DeliveryStyle.CUP_SAY_RIGHT)  # fmt: skip
    as_dealt = clean_round("nj", bank=2, wagers_at={1: "25.00", 4: "35.00"},
                           style=DeliveryStyle.HOUSE_WAY_RIGHT)  # fmt: skip
    for wrong, right in zip(as_dealt.all("stack_delivered"), chosen.all("stack_delivered"),
                            strict=True):  # fmt: skip
        chosen.replace(right, tiles=wrong.tiles)
    [finding] = chosen.findings("PG-DEAL-STACK-ORDER")
    assert finding.rule == "NJ 19:47-10.8(k)"
    assert finding.position is None
    assert finding.at_stake == Decimal("60.00")  # each wager once; dealer and Dead Hand none
    assert finding.recorded.count("stack ") == len(finding.event_ids) > 2


def test_stacks_not_a_full_set_are_left_to_the_tile_checks():
    rnd = clean_round("pa-2019")
    stacks = rnd.first("stacks_formed")
    rnd.replace(stacks, stacks=[*stacks.stacks[:7], ["6-6a", *stacks.stacks[7][1:]]])
    assert rnd.findings("PG-DEAL-STACK-ORDER") == []


# --- PG-DEAL-STYLE ------------------------------------------------------------------------------


def test_a_new_jersey_dealer_delivering_an_alternative_style():
    rnd = clean_round("nj", style=DeliveryStyle.CUP_SAY_RIGHT)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-STYLE", "NJ 19:47-10.6(d)", None, ACTION)
    assert finding.expected == "one of house_way_right"


def test_a_new_jersey_bank_may_name_an_alternative_style():
    rnd = clean_round("nj", bank=2, style=DeliveryStyle.CUP_SAY_RIGHT, wagers_at={3: "40.00"})
    assert rnd.findings(*MINE) == []


def test_a_pennsylvania_dealer_may_choose_an_alternative_style():
    assert clean_round("pa-2019", style=DeliveryStyle.JUNG_QUAT).findings(*MINE) == []


def test_a_california_table_offers_no_alternative_style():
    rnd = clean_round("california", style=DeliveryStyle.JUNG_QUAT)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == (
        "PG-DEAL-STYLE", "CA Pai Gow Tiles, Dealing Procedures and Round of Play", None,
        Decimal("165.00"),
    )  # fmt: skip


# --- PG-DEAL-UNWAGERED --------------------------------------------------------------------------


def test_an_unwagered_stack_left_in_play():
    rnd = clean_round("pa-2019")
    collected = rnd.first("unwagered_stacks_collected")
    assert collected.positions == [2, 4, 5, 6]
    rnd.replace(collected, positions=[4, 5, 6])
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-UNWAGERED", "PA 621a.6(e)", 2, Decimal(0))


def test_no_collection_at_all_on_a_new_jersey_table():
    rnd = clean_round("nj")
    rnd.remove(rnd.first("unwagered_stacks_collected"))
    findings = rnd.findings(*MINE)
    assert [(f.rule, f.position) for f in findings] == [
        ("NJ 19:47-10.6(e)", p) for p in (2, 4, 5, 6)
    ]


def test_a_bank_round_without_a_dealer_wager_collects_the_dealers_stack():
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00"})
    collected = rnd.first("unwagered_stacks_collected")
    assert collected.positions == [0, 3, 4, 5, 6]
    rnd.replace(collected, positions=[3, 4, 5, 6])
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-UNWAGERED", "PA 621a.6(e)", 0, Decimal(0))


def test_a_dealer_wagering_against_the_bank_keeps_the_dealers_stack():
    rnd = clean_round("pa-2019", bank=2, wagers_at={1: "25.00"}, dealer_wager="25.00")
    assert rnd.first("unwagered_stacks_collected").positions == [3, 4, 5, 6]
    assert rnd.findings(*MINE) == []


def test_a_california_player_dealers_own_seat_is_unwagered():
    rnd = clean_round("california", bank=4, wagers_at={1: "25.00", 7: "10.00"})
    assert rnd.first("unwagered_stacks_collected").positions == [6, 5, 4, 3, 2]
    assert rnd.findings(*MINE) == []


# --- PG-DEAL-EXPOSED-NOT-VOIDED -----------------------------------------------------------------


@pytest.mark.parametrize(("position", "name"), [(0, "Dealer"), (7, "Dead Hand"), (2, "Position 2")])
def test_a_tile_exposed_that_voids_the_round_but_the_round_went_on(position, name):
    rnd = clean_round("pa-2019")
    stack = rnd.first("stack_delivered", position=position)
    rnd.insert_after(stack, play.TileExposed, position=position, tile=stack.tiles[0])
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-EXPOSED-NOT-VOIDED", "PA 621a.10(e)", position, ACTION)
    assert finding.recorded == f"tile exposed at {name} ({stack.tiles[0]}); round played on"


def test_the_banks_tile_exposed_on_a_new_jersey_table():
    rnd = clean_round("nj", bank=2, wagers_at={1: "25.00", 3: "40.00"})
    rnd.insert_after(rnd.first("stack_delivered", position=2), play.TileExposed, position=2)
    [finding] = rnd.findings(*MINE)
    assert summary(finding) == ("PG-DEAL-EXPOSED-NOT-VOIDED", "NJ 19:47-10.9(e)", 2, ACTION)


def test_a_players_tile_exposed_is_the_players_choice():
    rnd = clean_round("pa-2019")
    stack = rnd.first("stack_delivered", position=3)
    exposed = rnd.insert_after(stack, play.TileExposed, position=3, tile=stack.tiles[1])
    assert rnd.findings(*MINE) == []
    rnd.insert_after(exposed, play.HandVoided, position=3)  # PA 621a.10(d): the player's choice
    assert rnd.findings(*MINE) == []


# --- The tiles' integrity -----------------------------------------------------------------------


def test_a_hand_set_with_a_tile_dealt_to_another_player():
    rnd = clean_round("pa-2019")
    given = rnd.first("stack_delivered", position=1).tiles[0]
    hand = rnd.first("hand_set", position=3)
    rnd.replace(hand, high=[given, hand.high[1]])
    duplicate, mismatch = rnd.findings(*TILE_CODES)
    assert summary(duplicate) == ("PG-TILE-DUPLICATE", "PA 621a.3(a)", 3, ACTION)
    assert duplicate.recorded == f"{given} twice in the set hands (at Position 1, Position 3)"
    assert summary(mismatch) == ("PG-TILE-HAND-MISMATCH", "PA 621a.8(a)", 3, Decimal("40.00"))


def test_a_tile_delivered_twice():
    rnd = clean_round("nj")
    given = rnd.first("stack_delivered", position=1).tiles[2]
    stack = rnd.first("stack_delivered", position=3)
    rnd.replace(stack, tiles=[*stack.tiles[:3], given])
    [duplicate] = rnd.findings("PG-TILE-DUPLICATE")
    assert summary(duplicate) == ("PG-TILE-DUPLICATE", "NJ 19:47-10.2(a)", 3, ACTION)
    assert duplicate.recorded == f"{given} twice in the deliveries (at Position 1, Position 3)"


def test_stacks_with_a_tile_twice_and_one_missing():
    rnd = clean_round("pa-2019")
    stacks = rnd.first("stacks_formed")
    rnd.replace(stacks, stacks=[*stacks.stacks[:7], [*stacks.stacks[7][:3], "6-6a"]])
    duplicate, missing = rnd.findings(*TILE_CODES)
    assert summary(duplicate) == ("PG-TILE-DUPLICATE", "PA 621a.3(a)", 0, Decimal(0))
    assert duplicate.recorded == "6-6a twice in the stacks (at Dealer)"
    assert summary(missing) == ("PG-TILE-MISSING", "PA 621a.3(a)", None, ACTION)
    assert missing.recorded == "stacks without 1-2"


def test_a_hand_set_with_a_tile_never_in_play():
    rnd = clean_round("pa-2019")
    dead = rnd.first("stack_delivered", position=7).tiles[0]
    hand = rnd.first("hand_set", position=3)
    rnd.replace(hand, low=[hand.low[0], dead])
    [mismatch] = rnd.findings(*MINE)
    assert summary(mismatch) == ("PG-TILE-HAND-MISMATCH", "PA 621a.8(a)", 3, Decimal("40.00"))


def test_a_hand_set_the_other_way_round_holds_the_same_tiles():
    rnd = clean_round("pa-2019")
    hand = rnd.first("hand_set", position=1)
    rnd.replace(hand, high=[hand.low[1], hand.high[0]], low=[hand.low[0], hand.high[1]])
    assert rnd.findings(*TILE_CODES) == []


# --- No false positives on the simulated floor --------------------------------------------------


@pytest.mark.parametrize("seed", [7, 20261121, 404])
def test_a_simulated_shift_draws_none_of_these_findings(seed):
    events = list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=30), random.Random(seed)))
    types = {e.type_name() for e in events}
    assert {"stack_delivered", "hand_set", "no_roll_called", "tiles_cut"} <= types
    assert [f for f in verify_stream(events) if f.code in MINE + WAGER_CODES] == []


def test_the_simulated_floor_is_judged_by_these_checks():
    """The property above means something: one edit to a simulated round is caught."""
    events = list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=3), random.Random(7)))
    index = next(
        i for i, e in enumerate(events) if isinstance(e, play.DiceRevealed) and e.announced_total
    )
    events[index] = replace(events[index], **{"announced_total": 2})
    assert [f.code for f in verify_stream(events) if f.code in MINE] == ["PG-DEAL-DICE-TOTAL"]


def test_the_delivery_read_by_tile_names_is_the_engines_for_every_style_and_cut():
    """check_delivery reads canonical stacks by name: the groups must be the engine's."""
    from audit.games.paigow.dealing import apply_cut
    from audit.games.paigow.delivery import deliver, form_stacks
    from audit.games.paigow.tiles import TILE_NAMES, TILES
    from audit.verification.paigow.dealing_checks import _canonical_row, _delivery_order

    rng = random.Random(5)
    cuts = [None]
    for start in range(8):
        for stop in range(start + 1, 9):
            for to_right in range(stop - start + 1):
                for crossed in (False, True):
                    try:
                        cuts.append(Cut(start=start, stop=stop, to_right=to_right, crossed=crossed))
                    except ValueError:
                        continue
    for _ in range(40):
        tiles = list(TILES)
        rng.shuffle(tiles)
        stacks = form_stacks(tiles)
        names = [[TILE_NAMES[t] for t in stack] for stack in stacks]
        row = _canonical_row(names)
        assert row == tuple(TILE_NAMES[t] for t in tiles)
        for style in DeliveryStyle:
            for cut in rng.sample(cuts, 6):
                engine = deliver(apply_cut(stacks, cut), style)
                by_name = _delivery_order(cut, style)(row)
                assert by_name == tuple(TILE_NAMES[t] for g in engine for t in g)
    twice = [list(stack) for stack in names]
    twice[7][3] = twice[0][0]
    assert _canonical_row(twice) is None
    assert _canonical_row([*names[:7], [*names[7], names[7][0]]]) is None
    assert _canonical_row(names[:7]) is None
