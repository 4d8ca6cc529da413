"""Positions, the starting count, the action button and the orders of dealing and settling."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidDealError
from audit.games.paigow.layout import (
    CALIFORNIA_LAYOUT,
    DEAD_HAND,
    DEALER,
    PA_NJ_LAYOUT,
    TableLayout,
    action_button,
    deal_order,
    dice_total,
    position_name,
    settlement_order,
    starting_position,
    unwagered_positions,
)

LAYOUTS = [PA_NJ_LAYOUT, CALIFORNIA_LAYOUT]
layouts = st.sampled_from(LAYOUTS)


class _IntSubclass(int):
    """An int of another class: a position or a face all the same, unlike a bool."""


# --- Regulation examples -------------------------------------------------------------


@pytest.mark.parametrize("rule", ["PA 621a.6(c)(1)", "NJ 19:47-10.6(c)1"])
def test_dice_total_nine_gives_the_dealer_the_first_stack(rule):
    assert starting_position(9, PA_NJ_LAYOUT) == DEALER


@pytest.mark.parametrize("rule", ["PA 621a.6(c)(2)", "NJ 19:47-10.6(c)2"])
def test_dice_total_fifteen_gives_the_sixth_wagering_position_the_first_stack(rule):
    assert starting_position(15, PA_NJ_LAYOUT) == 6
    assert position_name(PA_NJ_LAYOUT, 6) == "Position 6"


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        # Counted by hand from the bank at position 3, counterclockwise (PA 621a.9(j),
        # NJ 10.8(j)): 3 is one, 4 two, 5 three, 6 four, the Dead Hand five, the dealer
        # six, position 1 seven, position 2 eight, and the bank again nine.
        (4, 6),
        (5, DEAD_HAND),
        (6, DEALER),
        (7, 1),
        (9, 3),
        (18, 4),
    ],
)
def test_player_bank_count_starts_at_the_bank(total, expected):
    assert starting_position(total, PA_NJ_LAYOUT, first=3) == expected


def test_every_position_is_counted_with_or_without_a_wager():
    # PA 621a.6(c): the count passes the Dead Hand and every betting position, so
    # counts 2 to 8 from the dealer land on positions 1 to 6 and then the Dead Hand.
    landed = [starting_position(n, PA_NJ_LAYOUT, source="rng") for n in range(1, 9)]
    assert landed == [DEALER, 1, 2, 3, 4, 5, 6, DEAD_HAND]


@pytest.mark.parametrize("total", [9, 17])
def test_california_player_dealer_is_counted_nine_and_seventeen(total):
    assert starting_position(total, CALIFORNIA_LAYOUT) == DEALER


def test_california_player_dealer_is_counted_one():
    # Three dice never total 1, but the count itself still starts at the player-dealer.
    assert starting_position(1, CALIFORNIA_LAYOUT, source="rng") == DEALER


@pytest.mark.parametrize(("total", "seat"), [(10, 1), (11, 2), (12, 3), (16, 7), (18, 1)])
def test_california_count_runs_clockwise_over_the_seats(total, seat):
    # CA: "Other seats, in clockwise rotation around the table, respectively represent
    # the other numbers": seat 1 is 2 and 10, seat 7 is 8 and 16.
    assert starting_position(total, CALIFORNIA_LAYOUT) == seat
    assert action_button(total, CALIFORNIA_LAYOUT) == seat


@pytest.mark.parametrize("total", [9, 17])
def test_california_button_skips_the_player_dealer(total):
    assert action_button(total, CALIFORNIA_LAYOUT) == CALIFORNIA_LAYOUT.button_on_dealer == 1


def test_california_button_seat_is_a_layout_setting():
    layout = dataclasses.replace(CALIFORNIA_LAYOUT, button_on_dealer=7)
    assert action_button(9, layout) == 7
    assert action_button(12, layout) == 3


def test_california_deals_counterclockwise_from_the_button():
    # Seats are numbered clockwise, so counterclockwise from seat 3 come seats 2 and 1,
    # then the player-dealer, then seat 7.
    assert deal_order(3, CALIFORNIA_LAYOUT) == (3, 2, 1, DEALER, 7, 6, 5, 4)


def test_california_settles_clockwise_from_the_button():
    assert settlement_order(CALIFORNIA_LAYOUT, button=3) == (3, 4, 5, 6, 7, 1, 2)
    assert settlement_order(CALIFORNIA_LAYOUT, button=1) == (1, 2, 3, 4, 5, 6, 7)


def test_pa_nj_deal_runs_counterclockwise_through_dead_hand_and_dealer():
    # PA 621a.6(d): from the starting position, counterclockwise, "including the Dead
    # Hand and the dealer"; the Dead Hand sits on the dealer's left.
    assert deal_order(6, PA_NJ_LAYOUT) == (6, DEAD_HAND, DEALER, 1, 2, 3, 4, 5)
    assert deal_order(DEALER, PA_NJ_LAYOUT) == (DEALER, 1, 2, 3, 4, 5, 6, DEAD_HAND)


def test_pa_nj_settles_counterclockwise_from_the_dealers_right():
    # PA 621a.8(f), 621a.9(o): "starting with the player farthest to the dealer's right".
    assert settlement_order(PA_NJ_LAYOUT) == (1, 2, 3, 4, 5, 6)


def test_unwagered_stacks_go_to_the_dead_hand():
    # PA 621a.6(e): stacks at positions without a wager are collected.
    assert unwagered_positions(PA_NJ_LAYOUT, [1, 4, 5]) == (2, 3, 6)
    assert unwagered_positions(PA_NJ_LAYOUT, range(1, 7)) == ()
    assert unwagered_positions(PA_NJ_LAYOUT, []) == (1, 2, 3, 4, 5, 6)


def test_dealer_without_a_wager_against_the_bank_is_collected():
    # PA 621a.9(h), (l): the bank may direct that the dealer place no wager.
    assert unwagered_positions(PA_NJ_LAYOUT, [2, 3], dealer_plays=False) == (DEALER, 1, 4, 5, 6)


def test_dice_total_adds_three_faces():
    assert dice_total((1, 1, 1)) == 3
    assert dice_total([6, 6, 6]) == 18
    assert dice_total((3, 1, 5)) == 9


# --- Properties ------------------------------------------------------------------------


def _countable(layout, position):
    """Return the position if a count may begin there, else the dealer."""
    return position if position == layout.dealer or position in layout.betting else layout.dealer


@given(layouts, st.integers(min_value=1, max_value=10_000), st.integers(0, 7))
def test_starting_position_has_period_eight(layout, number, first):
    first = _countable(layout, first)
    a = starting_position(number, layout, first=first, source="rng")
    b = starting_position(number + 8, layout, first=first, source="rng")
    assert a == b


@given(layouts, st.integers(3, 10))
def test_dice_totals_eight_apart_land_alike(layout, total):
    assert starting_position(total, layout) == starting_position(total + 8, layout)


@given(layouts, st.integers(0, 7))
def test_deal_order_visits_every_position_once(layout, start):
    order = deal_order(start, layout)
    assert order[0] == start
    assert sorted(order) == list(range(8))


@given(layouts, st.integers(1, 7))
def test_settlement_order_visits_every_betting_position_once(layout, button):
    if layout.button_on_dealer is None:
        order = settlement_order(layout)
    else:
        order = settlement_order(layout, button=button)
        assert order[0] == button
    assert sorted(order) == sorted(layout.betting)


@given(layouts, st.integers(0, 7))
def test_count_steps_with_the_deal_in_pa_and_against_it_in_california(layout, position):
    first = _countable(layout, position)
    counted_second = starting_position(2, layout, first=first, source="rng")
    dealt = deal_order(first, layout)
    expected = dealt[-1] if layout.count_clockwise else dealt[1]
    assert counted_second == expected


# --- Lookup tables ---------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_position_has_a_distinct_name(layout):
    names = [position_name(layout, p) for p in range(8)]
    assert len(set(names)) == 8
    assert all(names)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_layout_repr_round_trips(layout):
    assert eval(repr(layout), {"TableLayout": TableLayout}) == layout


def test_pa_nj_layout_names():
    assert position_name(PA_NJ_LAYOUT, DEALER) == "Dealer"
    assert position_name(PA_NJ_LAYOUT, DEAD_HAND) == "Dead Hand"
    assert [position_name(PA_NJ_LAYOUT, p) for p in range(1, 7)] == [
        f"Position {p}" for p in range(1, 7)
    ]


def test_california_layout_names():
    assert position_name(CALIFORNIA_LAYOUT, DEALER) == "Player-Dealer"
    assert CALIFORNIA_LAYOUT.dead_hand is None
    assert [position_name(CALIFORNIA_LAYOUT, p) for p in range(1, 8)] == [
        f"Seat {p}" for p in range(1, 8)
    ]


# --- Errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "quoted"),
    [((0, 1, 2), "0"), ((1, 2, 7), "7"), ((1, 2), "(1, 2)"), ((1, 2, 3, 4), "(1, 2, 3, 4)"),
     ((True, 1, 1), "True"), ((1, "2", 3), "'2'"), ((1, 2.0, 3), "2.0")],
)  # fmt: skip
def test_bad_dice_are_rejected(faces, quoted):
    with pytest.raises(InvalidDealError, match=f"^[a-z].*{re.escape(quoted)}"):
        dice_total(faces)


def test_every_throw_of_three_is_totalled_or_rejected():
    """Exhaustively, faces 0 to 7 (and int subclasses, which are ints): the sum, or an error."""
    for faces in itertools.product(range(8), repeat=3):
        for thrown in (faces, tuple(_IntSubclass(f) for f in faces)):
            if all(1 <= f <= 6 for f in faces):
                assert dice_total(thrown) == sum(faces)
            else:
                with pytest.raises(InvalidDealError, match="invalid die face"):
                    dice_total(thrown)


@pytest.mark.parametrize("total", [2, 19, 0, -4, "9", 9.0, True])
def test_dice_total_out_of_range_is_rejected(total):
    with pytest.raises(InvalidDealError, match=re.escape(repr(total))):
        starting_position(total, PA_NJ_LAYOUT)


@pytest.mark.parametrize("number", [0, -1, "3", 2.5])
def test_bad_random_number_is_rejected(number):
    with pytest.raises(InvalidDealError, match=re.escape(repr(number))):
        starting_position(number, PA_NJ_LAYOUT, source="rng")


def test_random_number_may_exceed_dice_range():
    assert starting_position(25, PA_NJ_LAYOUT, source="rng") == DEALER


def test_unknown_number_source_is_rejected():
    with pytest.raises(InvalidDealError, match="'coin'"):
        starting_position(9, PA_NJ_LAYOUT, source="coin")


@pytest.mark.parametrize("first", [DEAD_HAND, 8, -1, "3", True])
def test_count_cannot_begin_off_the_dealer_or_a_betting_position(first):
    with pytest.raises(InvalidDealError, match=f"position {first!r}$"):
        starting_position(9, PA_NJ_LAYOUT, first=first)


def test_action_button_needs_a_button_table():
    with pytest.raises(InvalidDealError, match="no action button"):
        action_button(9, PA_NJ_LAYOUT)


def test_california_settlement_needs_the_button():
    with pytest.raises(InvalidDealError, match="pass button"):
        settlement_order(CALIFORNIA_LAYOUT)


@pytest.mark.parametrize("button", [DEALER, DEAD_HAND, 9, True])
def test_button_must_be_a_betting_position(button):
    with pytest.raises(InvalidDealError, match=f"{button!r}$"):
        settlement_order(PA_NJ_LAYOUT, button=button)


@pytest.mark.parametrize("position", [8, -1, "0", None])
def test_unknown_position_is_rejected(position):
    with pytest.raises(InvalidDealError, match=f"invalid position: {position!r}"):
        deal_order(position, PA_NJ_LAYOUT)
    with pytest.raises(InvalidDealError, match=f"invalid position: {position!r}"):
        position_name(PA_NJ_LAYOUT, position)


@pytest.mark.parametrize("wagered", [[DEALER], [DEAD_HAND], [1, 9], [True], [2, "3"], [2.0]])
def test_wagers_only_sit_at_betting_positions(wagered):
    with pytest.raises(InvalidDealError, match=f"not a betting position: {wagered[-1]!r}"):
        unwagered_positions(PA_NJ_LAYOUT, wagered)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unwagered_positions_are_every_unplayed_betting_position_in_ring_order(layout):
    """Every set of wagers, exhaustively, against the rule read off the ring one by one."""
    for mask in range(2 ** len(layout.betting)):
        wagered = [p for i, p in enumerate(layout.betting) if mask >> i & 1]
        for dealer_plays in (True, False):
            expected = tuple(
                p
                for p in layout.ring
                if (p in layout.betting and p not in wagered)
                or (p == layout.dealer and not dealer_plays)
            )
            assert unwagered_positions(layout, wagered, dealer_plays=dealer_plays) == expected
            seats = [_IntSubclass(p) for p in wagered]
            assert unwagered_positions(layout, seats, dealer_plays=dealer_plays) == expected


@pytest.mark.parametrize(
    ("change", "quoted"),
    [
        ({"ring": (0, 1, 2, 3, 4, 5, 6)}, "ring"),
        ({"ring": (0, 1, 2, 3, 4, 5, 6, 6)}, "ring"),
        ({"names": ("Dealer",)}, "names"),
        ({"dealer": 9}, "dealer"),
        ({"dead_hand": 0}, "dealer"),
        ({"dead_hand": 8}, "dead hand"),
        ({"betting": (1, 2, 7)}, "betting"),
        ({"betting": (1, 1, 2)}, "betting"),
        ({"button_on_dealer": 7}, "button"),
    ],
)
def test_malformed_layouts_are_rejected(change, quoted):
    with pytest.raises(InvalidDealError, match=quoted):
        dataclasses.replace(PA_NJ_LAYOUT, **change)


def test_layouts_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PA_NJ_LAYOUT.dealer = 3
