"""Pai Gow table positions: who is counted, who is dealt, who is settled, and in what order.

A *position* is a place that receives four tiles: the dealer (or California's
player-dealer), each betting position and, in PA and NJ, the Dead Hand. A
:class:`TableLayout` lists them as a ring in counterclockwise physical order,
the way the tiles are dealt, and says which way the starting count runs.

The regulation's own examples (PA 621a.6(c)(1), (2); NJ 19:47-10.6(c)1, 2):

>>> starting_position(9, PA_NJ_LAYOUT) == DEALER
True
>>> position_name(PA_NJ_LAYOUT, starting_position(15, PA_NJ_LAYOUT))
'Position 6'
>>> deal_order(6, PA_NJ_LAYOUT)
(6, 7, 0, 1, 2, 3, 4, 5)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import filterfalse
from typing import Literal

from audit.games.errors import InvalidDealError

Position = int
"""A place at the table that receives four tiles, ``0`` to ``7``."""

NumberSource = Literal["dice", "rng"]
"""Where the starting count comes from: three dice, or an approved RNG (PA 621a.6(a)(1))."""

HAND_COUNT = 8
"""Every table deals eight hands of four: the 32 tiles leave nothing over."""
DIE_FACES = range(1, 7)
DICE_TOTALS = range(3, 19)
_FACE_SET = frozenset(DIE_FACES)


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True is not a die face or a position.
    return isinstance(value, int) and not isinstance(value, bool)


def _plain_ints_among(values: Iterable[object], allowed: frozenset[int]) -> bool:
    """Return whether every value is a plain ``int`` in ``allowed``: the usual input, found
    so in C loops. ``False`` says only that each value needs looking at with ``_is_int``."""
    return _PLAIN_INT.issuperset(map(type, values)) and allowed.issuperset(values)


_PLAIN_INT = frozenset({int})


@dataclass(frozen=True)
class TableLayout:
    """Describe one table: its positions, the dealer's place, and which way each count runs.

    ``ring`` lists every position in counterclockwise physical order (the
    dealing direction); ``names[p]`` is position ``p``'s display name. The
    starting count runs clockwise when ``count_clockwise`` and wagers are settled
    clockwise when ``settle_clockwise``. ``button_on_dealer`` is the betting
    position that takes the action button when the count lands on the dealer,
    or ``None`` for a table without a button.
    """

    ring: tuple[Position, ...]
    dealer: Position
    dead_hand: Position | None
    betting: tuple[Position, ...]
    names: tuple[str, ...]
    count_clockwise: bool = False
    settle_clockwise: bool = False
    button_on_dealer: Position | None = None

    @cached_property
    def _walks(self) -> dict[tuple[Position | str, Position | bool], tuple[Position, ...]]:
        """Walks round the ring taken so far, by start and direction (``_walk``), and the
        settlement orders by start (``settlement_order``)."""
        return {}

    @cached_property
    def _may_go_unwagered(self) -> dict[bool, tuple[Position, ...]]:
        """By whether the dealer plays a hand: the betting positions in ring order, and the
        dealer's too where it plays none (``unwagered_positions``)."""
        return {
            plays: tuple(
                p for p in self.ring if p in self.betting or (p == self.dealer and not plays)
            )
            for plays in (True, False)
        }

    @cached_property
    def _betting_set(self) -> frozenset[Position]:
        """The betting positions, for set operations."""
        return frozenset(self.betting)

    def __post_init__(self) -> None:
        if len(self.ring) != HAND_COUNT or set(self.ring) != set(range(HAND_COUNT)):
            raise InvalidDealError(f"ring must hold positions 0 to 7 once each: {self.ring!r}")
        if len(self.names) != HAND_COUNT:
            raise InvalidDealError(f"names must name 8 positions: {self.names!r}")
        if self.dealer not in self.ring or self.dead_hand == self.dealer:
            raise InvalidDealError(f"invalid dealer position: {self.dealer!r}")
        if self.dead_hand is not None and self.dead_hand not in self.ring:
            raise InvalidDealError(f"invalid dead hand position: {self.dead_hand!r}")
        reserved = (self.dealer, self.dead_hand)
        if len(set(self.betting)) != len(self.betting) or not all(
            p in self.ring and p not in reserved for p in self.betting
        ):
            raise InvalidDealError(f"invalid betting positions: {self.betting!r}")
        if self.button_on_dealer is not None and self.button_on_dealer not in self.betting:
            raise InvalidDealError(
                f"the button must go to a betting position: {self.button_on_dealer!r}"
            )


DEALER: Position = 0
DEAD_HAND: Position = 7

# PA 621a.2(a), (b)(3); 621a.6(c); NJ 19:47-10.6(c): six betting positions numbered
# counterclockwise from the dealer (position 1 is farthest to the dealer's right), and
# the Dead Hand on the dealer's left, so counterclockwise from the dealer it comes last.
PA_NJ_LAYOUT = TableLayout(
    ring=(0, 1, 2, 3, 4, 5, 6, 7),
    dealer=DEALER,
    dead_hand=DEAD_HAND,
    betting=(1, 2, 3, 4, 5, 6),
    names=("Dealer", *(f"Position {p}" for p in range(1, 7)), "Dead Hand"),
)

# CA "Description of Table Used": seven players and the player-dealer, no dead hand.
# CA "Method used to Determine Action": seats are numbered clockwise from the
# player-dealer, who is counted 1, 9 and 17; the deal itself runs counterclockwise.
# The text does not say which seat is "the player to the right of the house dealer";
# seat 1 is this layout's choice (see button_on_dealer).
CALIFORNIA_LAYOUT = TableLayout(
    ring=(0, 7, 6, 5, 4, 3, 2, 1),
    dealer=DEALER,
    dead_hand=None,
    betting=(1, 2, 3, 4, 5, 6, 7),
    names=("Player-Dealer", *(f"Seat {p}" for p in range(1, 8))),
    count_clockwise=True,
    settle_clockwise=True,
    button_on_dealer=1,
)


def position_name(layout: TableLayout, position: Position) -> str:
    """Return a position's display name, e.g. ``'Dead Hand'``."""
    _check_position(layout, position)
    return layout.names[position]


def _check_position(layout: TableLayout, position: Position) -> None:
    if not _is_int(position) or position not in layout.ring:
        raise InvalidDealError(f"invalid position: {position!r}")


def _walk(layout: TableLayout, start: Position, clockwise: bool) -> tuple[Position, ...]:
    """Return every position once, from ``start`` around the ring in one direction."""
    found = layout._walks.get((start, clockwise))
    if found is None:  # a layout never changes: each walk is taken once
        step = -1 if clockwise else 1
        i = layout.ring.index(start)
        found = tuple(layout.ring[(i + step * k) % HAND_COUNT] for k in range(HAND_COUNT))
        layout._walks[(start, clockwise)] = found
    return found


def dice_total(faces: Iterable[int]) -> int:
    """Return the total of three dice, checking each face is 1 to 6.

    >>> dice_total((3, 1, 5))
    9
    """
    rolled = tuple(faces)
    if len(rolled) != 3:
        raise InvalidDealError(f"expected three dice: {rolled!r}")
    if not _plain_ints_among(rolled, _FACE_SET):
        for face in rolled:
            if not _is_int(face) or face not in DIE_FACES:
                raise InvalidDealError(f"invalid die face: {face!r}")
    return sum(rolled)


def starting_position(
    total: int,
    layout: TableLayout,
    first: Position | None = None,
    source: NumberSource = "dice",
) -> Position:
    """Return the position that receives the first four tiles.

    Count every position, wager or not, from ``first`` as number one (the
    dealer by default; the bank's position when a player banks) in the
    layout's counting direction until the count reaches ``total``.

    >>> first_bank = 3
    >>> position_name(PA_NJ_LAYOUT, starting_position(6, PA_NJ_LAYOUT, first=first_bank))
    'Dealer'
    >>> position_name(CALIFORNIA_LAYOUT, starting_position(17, CALIFORNIA_LAYOUT))
    'Player-Dealer'
    """
    if source == "dice":
        if not _is_int(total) or total not in DICE_TOTALS:
            raise InvalidDealError(f"three dice cannot total {total!r}")
    elif source == "rng":
        # PA 621a.6(a)(1), (b): the RNG "selects and displays a number"; no range is set.
        if not _is_int(total) or total < 1:
            raise InvalidDealError(f"invalid random number for the count: {total!r}")
    else:
        raise InvalidDealError(f"unknown number source: {source!r}")
    if first is None:
        first = layout.dealer  # PA 621a.6(c) / NJ 10.6(c): "the dealer ... number one"
    elif not _is_int(first) or (first != layout.dealer and first not in layout.betting):
        # PA 621a.9(j) / NJ 10.8(j): the count begins at the bank, who sits at a betting position.
        raise InvalidDealError(f"the count cannot begin at position {first!r}")
    return _walk(layout, first, layout.count_clockwise)[(total - 1) % HAND_COUNT]


def action_button(total: int, layout: TableLayout) -> Position:
    """Return the seat that takes the action button for a dice total (CA tables).

    The count (see :func:`starting_position`) lands on a seat, which takes the
    button and the first four tiles. If it lands on the player-dealer (1, 9,
    17), the player-dealer takes the first tiles and the button goes to "the
    player to the right of the house dealer"; the text does not say which seat
    that is, so it is the layout's ``button_on_dealer`` (seat 1 in
    :data:`CALIFORNIA_LAYOUT`).

    >>> action_button(12, CALIFORNIA_LAYOUT), action_button(9, CALIFORNIA_LAYOUT)
    (3, 1)
    """
    if layout.button_on_dealer is None:
        raise InvalidDealError("this layout has no action button (button_on_dealer is None)")
    landed = starting_position(total, layout)
    return layout.button_on_dealer if landed == layout.dealer else landed


def settlement_order(layout: TableLayout, button: Position | None = None) -> tuple[Position, ...]:
    """Return the betting positions in the order their wagers are settled.

    Without a button, start from the dealer's side: PA 621a.8(f), 621a.9(o)
    and NJ 10.8(o) settle "starting with the player farthest to the dealer's
    right" and "continuing around the table in a counterclockwise manner".
    CA settles "in a clockwise manner around the table, starting with the
    player with the action button", so a button is required there.

    >>> settlement_order(PA_NJ_LAYOUT)
    (1, 2, 3, 4, 5, 6)
    >>> settlement_order(CALIFORNIA_LAYOUT, button=3)
    (3, 4, 5, 6, 7, 1, 2)
    """
    if button is None:
        if layout.button_on_dealer is not None:
            raise InvalidDealError("this layout settles from the action button: pass button")
        start = layout.dealer
    elif _is_int(button) and button in layout.betting:
        start = button
    else:
        raise InvalidDealError(f"the button must be at a betting position: {button!r}")
    key = ("settle", start)  # kept with the layout's walks: a layout never changes
    found = layout._walks.get(key)
    if found is None:
        walk = _walk(layout, start, layout.settle_clockwise)
        found = layout._walks[key] = tuple(p for p in walk if p in layout.betting)
    return found


def deal_order(start: Position, layout: TableLayout) -> tuple[Position, ...]:
    """Return every position, dealer and Dead Hand included, in the order it is dealt.

    PA 621a.6(d), 621a.9(k); NJ 10.6(d), 10.8(k): from the starting position,
    "moving counterclockwise around the table, deal all other positions
    including the Dead Hand and the dealer"; CA deals counterclockwise too.
    """
    _check_position(layout, start)
    return _walk(layout, start, clockwise=False)


def unwagered_positions(
    layout: TableLayout, wagered: Iterable[Position], *, dealer_plays: bool = True
) -> tuple[Position, ...]:
    """Return the positions whose tiles go unseen to the Dead Hand, in ring order.

    PA 621a.6(e), 621a.9(l); NJ 10.6(e), 10.8(l): the dealer collects "any
    stacks dealt to a position where there is no wager". ``wagered`` holds the
    betting positions with a wager (the bank's included). The dealer always
    plays a house-banked round; pass ``dealer_plays=False`` for a player-banked
    round where the dealer places no wager against the bank (PA 621a.9(h), (n)).

    >>> unwagered_positions(PA_NJ_LAYOUT, wagered=[1, 4, 5])
    (2, 3, 6)
    """
    played = set(wagered)
    if not _plain_ints_among(played, layout._betting_set):
        for p in played:
            if not _is_int(p) or p not in layout.betting:
                raise InvalidDealError(f"not a betting position: {p!r}")
    return tuple(filterfalse(played.__contains__, layout._may_go_unwagered[bool(dealer_plays)]))
