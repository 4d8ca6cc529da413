"""The bank's cut and the deal: stacks in, four tiles per position out.

A round's deal is the stacks as formed, the bank's cut (``None`` for none),
a delivery style and the starting position. With the tiles in stack order,
dice totalling 9 on a PA table give the dealer the first stack
(PA 621a.6(c)(1), (d)):

>>> from audit.games.paigow.delivery import form_stacks
>>> from audit.games.paigow.layout import DEAD_HAND, DEALER, PA_NJ_LAYOUT
>>> from audit.games.paigow.layout import dice_total, starting_position
>>> from audit.games.paigow.tiles import TILES
>>> stacks = form_stacks(TILES)
>>> start = starting_position(dice_total((3, 1, 5)), PA_NJ_LAYOUT)
>>> hands = deal(stacks, DeliveryStyle.HOUSE_WAY_RIGHT, start, PA_NJ_LAYOUT)
>>> hands[DEALER], hands[1], hands[DEAD_HAND]
((0, 1, 2, 3), (4, 5, 6, 7), (28, 29, 30, 31))

A player bank may first cut: here the three stacks on the dealer's left go to
the right end (PA 621a.9(g)(1)).

>>> [stack[0] for stack in apply_cut(stacks, Cut(start=5, stop=8, to_right=3))]
[20, 24, 28, 0, 4, 8, 12, 16]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.games.errors import InvalidDealError
from audit.games.paigow.delivery import STACK_COUNT, DeliveryStyle, Stacks, check_stacks, deliver
from audit.games.paigow.layout import Position, TableLayout, deal_order
from audit.games.paigow.tiles import Tile

_UNCUT = tuple(range(STACK_COUNT))


def _cut_order(start: int, stop: int, to_right: int, crossed: bool) -> tuple[int, ...]:
    """Return the original stack indices in their new places, index 0 on the dealer's right."""
    block = range(start, stop)
    if crossed:
        # The block's left-hand part (its last to_right stacks) goes to the right end.
        split = len(block) - to_right
        right_end, left_end = block[split:], block[:split]
    else:
        right_end, left_end = block[:to_right], block[to_right:]
    rest = (i for i in _UNCUT if i not in block)
    return (*right_end, *rest, *left_end)


@dataclass(frozen=True)
class Cut:
    """Describe the bank's one cut of the stacks (PA 621a.9(g); NJ 19:47-10.8(g)).

    The block of adjacent stacks ``start`` to ``stop`` (indices from the
    dealer's right, ``stop`` excluded) is lifted. ``to_right`` of its stacks go
    to the right end of the row and the others to the left end, each part
    keeping its order. Moving the whole block to one end is form (1); splitting
    it between the two ends is form (2). Uncrossed, the part nearer the right
    goes to the right end; ``crossed`` sends the part nearer the left to the
    right end instead, which the text's "at least one stack is moved to one
    end and the other stacks are moved to the opposite end" also allows.

    >>> Cut(start=2, stop=5, to_right=1).order
    (2, 0, 1, 5, 6, 7, 3, 4)
    >>> Cut(start=2, stop=5, to_right=1, crossed=True).order
    (4, 0, 1, 5, 6, 7, 2, 3)
    """

    start: int
    stop: int
    to_right: int
    crossed: bool = False

    def __post_init__(self) -> None:
        fields = (self.start, self.stop, self.to_right)
        if not all(isinstance(f, int) and not isinstance(f, bool) for f in fields):
            raise InvalidDealError(f"a cut is given by whole numbers: {self!r}")
        if not isinstance(self.crossed, bool):
            raise InvalidDealError(f"crossed must be true or false: {self!r}")
        if not 0 <= self.start < self.stop <= STACK_COUNT:
            raise InvalidDealError(f"a cut must lift one or more adjacent stacks: {self!r}")
        if not 0 <= self.to_right <= self.stop - self.start:
            raise InvalidDealError(f"a cut cannot move more stacks than it lifts: {self!r}")
        if self.crossed and self.form == 1:
            raise InvalidDealError(f"only a split block can be crossed: {self!r}")
        if self.order == _UNCUT:
            # Moving the rightmost stacks to the right end changes nothing: record None.
            raise InvalidDealError(f"the cut leaves every stack in place: {self!r}")

    @property
    def form(self) -> int:
        """Return 1 for a block moved to one end, 2 for one split between both ends."""
        return 1 if self.to_right in (0, self.stop - self.start) else 2

    @property
    def order(self) -> tuple[int, ...]:
        """Return the original index of each stack after the cut, from the dealer's right."""
        return _cut_order(self.start, self.stop, self.to_right, self.crossed)


def _build_cuts() -> tuple[Cut, ...]:
    cuts: list[Cut] = []
    for start in range(STACK_COUNT):
        for stop in range(start + 1, STACK_COUNT + 1):
            size = stop - start
            for to_right in range(size + 1):
                for crossed in (False, True):
                    if crossed and not 0 < to_right < size:
                        continue  # only a split block can be crossed
                    if _cut_order(start, stop, to_right, crossed) != _UNCUT:
                        cuts.append(Cut(start, stop, to_right, crossed))
    return tuple(cuts)


_ALL_CUTS = _build_cuts()


def all_cuts() -> tuple[Cut, ...]:
    """Return every legal cut, each once; different cuts may leave the same arrangement."""
    return _ALL_CUTS


def apply_cut(stacks: Sequence[Sequence[Tile]], cut: Cut | None) -> Stacks:
    """Return the stacks after the bank's cut; ``None`` means the bank did not cut."""
    row = check_stacks(stacks)
    if cut is None:
        return row
    if not isinstance(cut, Cut):
        raise InvalidDealError(f"not a cut: {cut!r}")
    return tuple(row[i] for i in cut.order)


def deal(
    stacks: Sequence[Sequence[Tile]], style: DeliveryStyle, start: Position, layout: TableLayout
) -> dict[Position, tuple[Tile, ...]]:
    """Return each position's four tiles, keyed in the order they were dealt.

    Group 0 of the delivery goes to ``start`` and each next group to the next
    position counterclockwise (PA 621a.6(d), 621a.9(k); NJ 10.6(d), 10.8(k)).
    """
    return dict(zip(deal_order(start, layout), deliver(stacks, style), strict=True))
