"""The bank's cut and the whole deal."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidDealError
from audit.games.paigow.dealing import Cut, all_cuts, apply_cut, deal
from audit.games.paigow.delivery import DeliveryStyle, deliver, form_stacks
from audit.games.paigow.layout import (
    CALIFORNIA_LAYOUT,
    DEAD_HAND,
    DEALER,
    PA_NJ_LAYOUT,
    deal_order,
    starting_position,
)
from audit.games.paigow.tiles import TILES

ROW = form_stacks(TILES)  # stack k holds tiles 4k to 4k + 3, so stack k's top tile is 4k
S0, S1, S2, S3, S4, S5, S6, S7 = ROW

rows = st.permutations(TILES).map(form_stacks)
cuts = st.sampled_from(all_cuts())


# --- The cut, PA 621a.9(g) / NJ 19:47-10.8(g) ---------------------------------------------


@pytest.mark.parametrize(
    ("cut", "expected"),
    [
        # (1) "One or more adjacent stacks ... to the right or left end": the three stacks
        # on the dealer's left go to the right end, in their order.
        (Cut(5, 8, 3), (S5, S6, S7, S0, S1, S2, S3, S4)),
        # ... the two stacks on the dealer's right go to the left end.
        (Cut(0, 2, 0), (S2, S3, S4, S5, S6, S7, S0, S1)),
        # ... one stack from the middle to either end.
        (Cut(4, 5, 1), (S4, S0, S1, S2, S3, S5, S6, S7)),
        (Cut(4, 5, 0), (S0, S1, S2, S3, S5, S6, S7, S4)),
        # (2) "Two or more adjacent stacks, of which at least one stack is moved to one
        # end and the other stacks are moved to the opposite end": of S2, S3, S4, S2 goes
        # to the right end and S3, S4 to the left end.
        (Cut(2, 5, 1), (S2, S0, S1, S5, S6, S7, S3, S4)),
        # ... or, crossed, S4 goes to the right end and S2, S3 to the left end.
        (Cut(2, 5, 1, crossed=True), (S4, S0, S1, S5, S6, S7, S2, S3)),
        # ... the whole row split: the left part comes round to the right.
        (Cut(0, 8, 5, crossed=True), (S3, S4, S5, S6, S7, S0, S1, S2)),
    ],
)
def test_cut_moves_stacks_as_the_text_describes(cut, expected):
    assert apply_cut(ROW, cut) == expected


def test_no_cut_leaves_the_stacks():
    # PA 621a.9(g): "If the bank does not wish to cut the tiles, there may not be a cut."
    assert apply_cut(ROW, None) == ROW


def test_cut_forms():
    assert Cut(5, 8, 3).form == 1
    assert Cut(0, 2, 0).form == 1
    assert Cut(2, 5, 1).form == 2
    assert Cut(2, 5, 2, crossed=True).form == 2


def test_all_cuts_count():
    # Form (1): 36 blocks, each to the right end unless it starts at stack 0 (28) and to
    # the left end unless it ends at stack 7 (28). Form (2): a block of n stacks splits
    # n - 1 ways; over all blocks that is 84, all of them crossed, and 84 - 7 uncrossed
    # (splitting the whole row right part right, left part left moves nothing).
    cut_list = all_cuts()
    assert len(cut_list) == 28 + 28 + 77 + 84
    assert len(set(cut_list)) == len(cut_list)


def test_different_cuts_may_give_the_same_row():
    # Moving the two right stacks to the left end is the same row as moving the other
    # six to the right end; both are instructions the bank may give.
    assert apply_cut(ROW, Cut(0, 2, 0)) == apply_cut(ROW, Cut(2, 8, 6))


@pytest.mark.parametrize("cut", all_cuts(), ids=repr)
def test_every_cut_repr_round_trips(cut):
    assert eval(repr(cut), {"Cut": Cut}) == cut


@given(rows, cuts)
def test_every_legal_cut_permutes_whole_stacks(stacks, cut):
    cut_row = apply_cut(stacks, cut)
    assert sorted(cut_row) == sorted(stacks)
    assert cut_row != stacks


@given(cuts)
def test_every_cut_moves_its_parts_as_blocks_to_the_ends(cut):
    order = cut.order
    block = list(range(cut.start, cut.stop))
    moved_right = order[: cut.to_right]
    moved_left = order[len(order) - (len(block) - cut.to_right) :]
    assert sorted(moved_right + moved_left) == block
    # Each part is contiguous and keeps its order.
    for part in (moved_right, moved_left):
        if part:
            assert list(part) == list(range(part[0], part[0] + len(part)))
    # The stacks that were not lifted keep their order between the two parts.
    rest = order[cut.to_right : len(order) - (len(block) - cut.to_right)]
    assert list(rest) == [i for i in range(8) if i not in block]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((3, 3, 0), "adjacent stacks"),
        ((5, 2, 0), "adjacent stacks"),
        ((-1, 2, 0), "adjacent stacks"),
        ((0, 9, 0), "adjacent stacks"),
        ((2, 4, 3), "more stacks than it lifts"),
        ((2, 4, -1), "more stacks than it lifts"),
        ((2, 4, 2, True), "only a split block"),
        ((2, 4, 0, True), "only a split block"),
        ((0, 3, 3), "leaves every stack in place"),
        ((6, 8, 0), "leaves every stack in place"),
        ((0, 8, 3), "leaves every stack in place"),
        ((0, 8, 8), "leaves every stack in place"),
        (("2", 4, 0), "whole numbers"),
        ((2, 4.0, 0), "whole numbers"),
        ((True, 4, 0), "whole numbers"),
        ((2, 4, 1, 1), "crossed"),
    ],
)
def test_illegal_cut_is_rejected(fields, message):
    with pytest.raises(InvalidDealError, match=message) as caught:
        Cut(*fields)
    # The message quotes the cut as given.
    assert re.search(r"Cut\(start=.*\)$", str(caught.value))


def test_not_a_cut_is_rejected():
    with pytest.raises(InvalidDealError, match=r"not a cut: \(2, 5, 1\)"):
        apply_cut(ROW, (2, 5, 1))


def test_cut_checks_the_stacks():
    with pytest.raises(InvalidDealError, match="expected 8 stacks"):
        apply_cut(ROW[:7], Cut(5, 8, 3))


def test_cuts_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Cut(5, 8, 3).start = 0


# --- The deal ------------------------------------------------------------------------


def test_pa_deal_with_dice_fifteen():
    # PA 621a.6(c)(2), (d): the sixth wagering position takes the first stack from the
    # dealer's right, and counterclockwise the Dead Hand, the dealer, then positions 1-5.
    start = starting_position(15, PA_NJ_LAYOUT)
    hands = deal(ROW, DeliveryStyle.HOUSE_WAY_RIGHT, start, PA_NJ_LAYOUT)
    assert list(hands) == [6, DEAD_HAND, DEALER, 1, 2, 3, 4, 5]
    assert hands[6] == S0
    assert hands[DEAD_HAND] == S1
    assert hands[DEALER] == S2
    assert hands[5] == S7


def test_player_bank_deal_after_a_cut():
    # PA 621a.9(g), (i)-(k): the bank at position 2 cuts S6, S7 to the right end, picks
    # Cup Say From the Right, and the dice total 5, counted from the bank: 2, 3, 4, 5, 6.
    cut_row = apply_cut(ROW, Cut(6, 8, 2))
    start = starting_position(5, PA_NJ_LAYOUT, first=2)
    assert start == 6
    hands = deal(cut_row, DeliveryStyle.CUP_SAY_RIGHT, start, PA_NJ_LAYOUT)
    assert hands[6] == S6[:2] + S7[:2]
    assert hands[DEAD_HAND] == S6[2:] + S7[2:]
    assert hands[DEALER] == S0[:2] + S1[:2]


def test_california_deal_when_the_dice_hit_the_player_dealer():
    # CA: on 9 the player-dealer receives the first set of tiles; the deal then runs
    # counterclockwise: seat 7, seat 6, ... seat 1.
    start = starting_position(9, CALIFORNIA_LAYOUT)
    hands = deal(ROW, DeliveryStyle.HOUSE_WAY_RIGHT, start, CALIFORNIA_LAYOUT)
    assert list(hands) == [DEALER, 7, 6, 5, 4, 3, 2, 1]
    assert hands[DEALER] == S0
    assert hands[1] == S7


@given(rows, st.sampled_from(list(DeliveryStyle)), st.integers(0, 7))
def test_deal_gives_every_position_four_tiles_and_uses_each_tile_once(stacks, style, start):
    for layout in (PA_NJ_LAYOUT, CALIFORNIA_LAYOUT):
        hands = deal(stacks, style, start, layout)
        assert tuple(hands) == deal_order(start, layout)
        assert tuple(hands.values()) == deliver(stacks, style)
        assert sorted(t for hand in hands.values() for t in hand) == list(TILES)


def test_deal_rejects_a_bad_start():
    with pytest.raises(InvalidDealError, match="invalid position: 8"):
        deal(ROW, DeliveryStyle.HOUSE_WAY_RIGHT, 8, PA_NJ_LAYOUT)
