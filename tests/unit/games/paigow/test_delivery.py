"""Stacks and the ten delivery styles, each checked against the regulation's words."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidDealError, InvalidTileError
from audit.games.paigow.delivery import (
    DEFAULT_STYLE,
    NJ_CITATIONS,
    PA_CITATIONS,
    STYLE_NAMES,
    DeliveryStyle,
    check_stacks,
    deliver,
    form_stacks,
)
from audit.games.paigow.tiles import TILES

# A hand-built row, named the way the text counts: R1 is "the first stack on the
# dealer's right" (stack 0), L1 "the first stack on the dealer's left" (stack 7).
# Each stack is listed top tile first.
R1 = (17, 3, 28, 9)
R2 = (0, 22, 14, 31)
R3 = (5, 26, 11, 19)
R4 = (30, 8, 24, 2)
L4 = (13, 27, 6, 20)
L3 = (1, 16, 29, 10)
L2 = (23, 7, 18, 25)
L1 = (12, 4, 21, 15)
ROW = (R1, R2, R3, R4, L4, L3, L2, L1)

S = DeliveryStyle

# Each expectation transcribes PA 621a.6(d) / 621a.7 (NJ 19:47-10.8(k)1-10): group k goes
# to the k-th position from the starting position. Within a group, tiles are listed
# stack by stack counting from the side the style starts from, each stack top first.
EXPECTED = {
    # "the first stack of four tiles, starting from the right side of the eight stacks"
    S.HOUSE_WAY_RIGHT: (R1, R2, R3, R4, L4, L3, L2, L1),
    # "the first stack of tiles on the dealer's left ... from the dealer's left to right"
    S.HOUSE_WAY_LEFT: (L1, L2, L3, L4, R4, R3, R2, R1),
    # "the top two tiles from each of the two stacks pushed forward to the starting
    # position. The four remaining tiles ... to the next position", then right to left.
    S.CUP_SAY_RIGHT: (
        R1[:2] + R2[:2], R1[2:] + R2[2:],
        R3[:2] + R4[:2], R3[2:] + R4[2:],
        L4[:2] + L3[:2], L4[2:] + L3[2:],
        L2[:2] + L1[:2], L2[2:] + L1[2:],
    ),
    S.CUP_SAY_LEFT: (
        L1[:2] + L2[:2], L1[2:] + L2[2:],
        L3[:2] + L4[:2], L3[2:] + L4[2:],
        R4[:2] + R3[:2], R4[2:] + R3[2:],
        R2[:2] + R1[:2], R2[2:] + R1[2:],
    ),
    # "the fourth stack ... from the dealer's right and the fourth ... from the dealer's
    # left (the two center stacks)"; then the remaining stacks are pushed together and
    # "the two new center stacks" follow: R3 and L3, then R2 and L2, then R1 and L1.
    S.JUNG_QUAT: (
        R4[:2] + L4[:2], R4[2:] + L4[2:],
        R3[:2] + L3[:2], R3[2:] + L3[2:],
        R2[:2] + L2[:2], R2[2:] + L2[2:],
        R1[:2] + L1[:2], R1[2:] + L1[2:],
    ),
    # "the first stack ... on the dealer's right and the first ... on the dealer's left",
    # then "the first stack remaining" on each side.
    S.CHEE_YEE: (
        R1[:2] + L1[:2], R1[2:] + L1[2:],
        R2[:2] + L2[:2], R2[2:] + L2[2:],
        R3[:2] + L3[:2], R3[2:] + L3[2:],
        R4[:2] + L4[:2], R4[2:] + L4[2:],
    ),
    # "the top tile from each of the first four stacks on the dealer's right to the
    # starting position", "the top tile from each of the first four stacks on the
    # dealer's left ... to the next position", then the next tiles the same way.
    S.PIN_SAY_RIGHT: (
        (R1[0], R2[0], R3[0], R4[0]), (L4[0], L3[0], L2[0], L1[0]),
        (R1[1], R2[1], R3[1], R4[1]), (L4[1], L3[1], L2[1], L1[1]),
        (R1[2], R2[2], R3[2], R4[2]), (L4[2], L3[2], L2[2], L1[2]),
        (R1[3], R2[3], R3[3], R4[3]), (L4[3], L3[3], L2[3], L1[3]),
    ),
    S.PIN_SAY_LEFT: (
        (L1[0], L2[0], L3[0], L4[0]), (R4[0], R3[0], R2[0], R1[0]),
        (L1[1], L2[1], L3[1], L4[1]), (R4[1], R3[1], R2[1], R1[1]),
        (L1[2], L2[2], L3[2], L4[2]), (R4[2], R3[2], R2[2], R1[2]),
        (L1[3], L2[3], L3[3], L4[3]), (R4[3], R3[3], R2[3], R1[3]),
    ),
    # R1 goes on R3 and R2 on R4, making two eight-tile stacks R1+R3 and R2+R4. "The top
    # two tiles in each of the eight-tile stacks" (the dragon head) to the starting
    # position; "the top tile from each of the four stacks ... to the dealer's left" (the
    # phoenix tail) to the next; head again, tail again; "repeated" for the last four.
    S.DRAGON_PHOENIX_RIGHT: (
        R1[0:2] + R2[0:2], (L4[0], L3[0], L2[0], L1[0]),
        R1[2:4] + R2[2:4], (L4[1], L3[1], L2[1], L1[1]),
        R3[0:2] + R4[0:2], (L4[2], L3[2], L2[2], L1[2]),
        R3[2:4] + R4[2:4], (L4[3], L3[3], L2[3], L1[3]),
    ),
    S.DRAGON_PHOENIX_LEFT: (
        L1[0:2] + L2[0:2], (R4[0], R3[0], R2[0], R1[0]),
        L1[2:4] + L2[2:4], (R4[1], R3[1], R2[1], R1[1]),
        L3[0:2] + L4[0:2], (R4[2], R3[2], R2[2], R1[2]),
        L3[2:4] + L4[2:4], (R4[3], R3[3], R2[3], R1[3]),
    ),
}  # fmt: skip

RIGHT_LEFT_TWINS = [
    (S.HOUSE_WAY_RIGHT, S.HOUSE_WAY_LEFT),
    (S.CUP_SAY_RIGHT, S.CUP_SAY_LEFT),
    (S.PIN_SAY_RIGHT, S.PIN_SAY_LEFT),
    (S.DRAGON_PHOENIX_RIGHT, S.DRAGON_PHOENIX_LEFT),
]

rows = st.permutations(TILES).map(form_stacks)


def test_hand_built_row_holds_the_full_set():
    assert check_stacks(ROW) == ROW


@pytest.mark.parametrize("style", list(DeliveryStyle), ids=lambda s: s.value)
def test_delivery_matches_the_regulation_text(style):
    assert deliver(ROW, style) == EXPECTED[style]


def test_every_style_has_a_hand_written_expectation():
    assert set(EXPECTED) == set(DeliveryStyle)


def test_default_style_is_the_standard_delivery():
    # PA 621a.9(i): "the dealer shall use the procedure in § 621a.6(d)"; NJ 10.8(i):
    # "the dealer shall use house way from the right".
    assert DEFAULT_STYLE is S.HOUSE_WAY_RIGHT
    assert PA_CITATIONS[DEFAULT_STYLE] == "PA 621a.6(d)"


def test_form_stacks_takes_four_tiles_per_stack_top_first():
    stacks = form_stacks(TILES)
    assert stacks[0] == (0, 1, 2, 3)
    assert stacks[7] == (28, 29, 30, 31)


def test_check_stacks_accepts_lists():
    assert check_stacks([list(stack) for stack in ROW]) == ROW


# --- Properties ------------------------------------------------------------------------


@given(rows, st.sampled_from(list(DeliveryStyle)))
def test_every_style_delivers_each_tile_exactly_once(stacks, style):
    groups = deliver(stacks, style)
    assert len(groups) == 8
    assert all(len(group) == 4 for group in groups)
    assert sorted(t for group in groups for t in group) == list(TILES)


@given(rows, st.sampled_from(RIGHT_LEFT_TWINS))
def test_from_the_left_is_from_the_right_on_the_mirrored_row(stacks, twins):
    from_right, from_left = twins
    assert deliver(stacks, from_left) == deliver(stacks[::-1], from_right)


@given(rows, st.sampled_from([S.JUNG_QUAT, S.CHEE_YEE]))
def test_symmetric_styles_give_the_same_hands_on_the_mirrored_row(stacks, style):
    # Jung Quat and Chee Yee name no side: mirroring the row only reorders within groups.
    mirrored = deliver(stacks[::-1], style)
    assert [set(g) for g in deliver(stacks, style)] == [set(g) for g in mirrored]


# --- Lookup tables ---------------------------------------------------------------------


@pytest.mark.parametrize("style", list(DeliveryStyle), ids=lambda s: s.value)
def test_every_style_has_a_name_and_both_citations(style):
    assert STYLE_NAMES[style]
    assert re.fullmatch(r"PA 621a\.(6\(d\)|7\([1-9]\))", PA_CITATIONS[style])
    assert re.fullmatch(r"NJ 19:47-10\.8\(k\)([1-9]|10)", NJ_CITATIONS[style])


def test_style_tables_cover_exactly_the_ten_styles():
    assert len(DeliveryStyle) == 10
    for table in (STYLE_NAMES, PA_CITATIONS, NJ_CITATIONS):
        assert list(table) == list(DeliveryStyle)
        assert len(set(table.values())) == 10


def test_citations_follow_the_order_of_the_rules():
    # NJ (k)1-10 and PA 621a.7(1)-(9) list the styles in the same order, PA's standard
    # delivery of 621a.6(d) standing in for NJ's house way from the right.
    styles = list(DeliveryStyle)
    assert [NJ_CITATIONS[s] for s in styles] == [f"NJ 19:47-10.8(k){n}" for n in range(1, 11)]
    assert [PA_CITATIONS[s] for s in styles[1:]] == [f"PA 621a.7({n})" for n in range(1, 10)]


@pytest.mark.parametrize("style", list(DeliveryStyle), ids=lambda s: s.value)
def test_style_names_round_trip_through_values(style):
    assert DeliveryStyle(style.value) is style


# --- Errors ----------------------------------------------------------------------------


def test_too_few_tiles_is_rejected():
    with pytest.raises(InvalidDealError, match=r"all 32 tiles, got 31: \(0, 1, 2"):
        form_stacks(TILES[:31])


def test_duplicate_tile_is_rejected():
    with pytest.raises(InvalidTileError, match="appears twice"):
        form_stacks((0, *TILES[:31]))


@pytest.mark.parametrize("bad", [32, -1, "6-6", None])
def test_non_tile_is_rejected(bad):
    with pytest.raises(InvalidTileError, match=re.escape(repr(bad))):
        form_stacks((bad, *TILES[1:]))


@pytest.mark.parametrize(
    ("stacks", "quoted"),
    [
        (ROW[:7], re.escape(repr(ROW[:7]))),
        ((*ROW, ROW[0]), "expected 8 stacks"),
        ((R1[:3], *ROW[1:]), re.escape(repr(R1[:3]))),
        (((*R1, 99), *ROW[1:]), re.escape(repr((*R1, 99)))),
        ((5, *ROW[1:]), "a stack must hold 4 tiles: 5"),
        (42, "42"),
    ],
)
def test_wrong_stack_shapes_are_rejected(stacks, quoted):
    with pytest.raises(InvalidDealError, match=quoted):
        check_stacks(stacks)
    with pytest.raises(InvalidDealError, match=quoted):
        deliver(stacks, DEFAULT_STYLE)


def test_duplicate_tile_across_stacks_is_rejected():
    with pytest.raises(InvalidTileError, match="appears twice"):
        deliver((R1, R1, *ROW[2:]), DEFAULT_STYLE)


@pytest.mark.parametrize("style", ["cup_say_right", 3, None])
def test_unknown_style_is_rejected(style):
    with pytest.raises(InvalidDealError, match=f"unknown delivery style: {style!r}"):
        deliver(ROW, style)
