"""The eight stacks of four and the ten styles of delivering them (PA 621a.7; NJ 19:47-10.8(k)).

Stacks are numbered from the dealer's far right: stack ``0`` is the first stack
on the dealer's right and stack ``7`` the first on the dealer's left. Each stack
lists its tiles top first. A delivery returns eight groups of four: group ``0``
goes to the starting position and group ``k`` to the ``k``-th position after it,
counterclockwise.

>>> stacks = form_stacks(TILES)
>>> stacks[0], stacks[7]
((0, 1, 2, 3), (28, 29, 30, 31))
>>> deliver(stacks, DeliveryStyle.CUP_SAY_RIGHT)[:2]
((0, 1, 4, 5), (2, 3, 6, 7))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from itertools import chain
from operator import itemgetter

from audit.games.errors import InvalidDealError
from audit.games.paigow.tiles import FULL_SET, TILES, Tile, check_distinct

Stacks = tuple[tuple[Tile, ...], ...]
"""Eight stacks of four tiles, stack ``0`` on the dealer's far right, each listed top first."""

STACK_COUNT = 8
STACK_HEIGHT = 4


class DeliveryStyle(Enum):
    """Name one of the ten ways the dealer may deliver the stacks."""

    HOUSE_WAY_RIGHT = "house_way_right"
    HOUSE_WAY_LEFT = "house_way_left"
    CUP_SAY_RIGHT = "cup_say_right"
    CUP_SAY_LEFT = "cup_say_left"
    JUNG_QUAT = "jung_quat"
    CHEE_YEE = "chee_yee"
    PIN_SAY_RIGHT = "pin_say_right"
    PIN_SAY_LEFT = "pin_say_left"
    DRAGON_PHOENIX_RIGHT = "dragon_phoenix_right"
    DRAGON_PHOENIX_LEFT = "dragon_phoenix_left"


DEFAULT_STYLE = DeliveryStyle.HOUSE_WAY_RIGHT
"""The delivery when the bank names none (PA 621a.9(i) via 621a.6(d); NJ 10.8(i))."""

STYLE_NAMES: dict[DeliveryStyle, str] = {
    DeliveryStyle.HOUSE_WAY_RIGHT: "House Way From the Right",
    DeliveryStyle.HOUSE_WAY_LEFT: "House Way From the Left",
    DeliveryStyle.CUP_SAY_RIGHT: "Cup Say From the Right",
    DeliveryStyle.CUP_SAY_LEFT: "Cup Say From the Left",
    DeliveryStyle.JUNG_QUAT: "Jung Quat",
    DeliveryStyle.CHEE_YEE: "Chee Yee",
    DeliveryStyle.PIN_SAY_RIGHT: "Pin Say From the Right",
    DeliveryStyle.PIN_SAY_LEFT: "Pin Say From the Left",
    DeliveryStyle.DRAGON_PHOENIX_RIGHT: "Dragon Head and Phoenix Tail From the Right",
    DeliveryStyle.DRAGON_PHOENIX_LEFT: "Dragon Head and Phoenix Tail From the Left",
}
# PA names no "house way from the right": its standard delivery is 621a.6(d).
PA_CITATIONS: dict[DeliveryStyle, str] = {
    DeliveryStyle.HOUSE_WAY_RIGHT: "PA 621a.6(d)",
    DeliveryStyle.HOUSE_WAY_LEFT: "PA 621a.7(1)",
    DeliveryStyle.CUP_SAY_RIGHT: "PA 621a.7(2)",
    DeliveryStyle.CUP_SAY_LEFT: "PA 621a.7(3)",
    DeliveryStyle.JUNG_QUAT: "PA 621a.7(4)",
    DeliveryStyle.CHEE_YEE: "PA 621a.7(5)",
    DeliveryStyle.PIN_SAY_RIGHT: "PA 621a.7(6)",
    DeliveryStyle.PIN_SAY_LEFT: "PA 621a.7(7)",
    DeliveryStyle.DRAGON_PHOENIX_RIGHT: "PA 621a.7(8)",
    DeliveryStyle.DRAGON_PHOENIX_LEFT: "PA 621a.7(9)",
}
NJ_CITATIONS: dict[DeliveryStyle, str] = {
    DeliveryStyle.HOUSE_WAY_RIGHT: "NJ 19:47-10.8(k)1",
    DeliveryStyle.HOUSE_WAY_LEFT: "NJ 19:47-10.8(k)2",
    DeliveryStyle.CUP_SAY_RIGHT: "NJ 19:47-10.8(k)3",
    DeliveryStyle.CUP_SAY_LEFT: "NJ 19:47-10.8(k)4",
    DeliveryStyle.JUNG_QUAT: "NJ 19:47-10.8(k)5",
    DeliveryStyle.CHEE_YEE: "NJ 19:47-10.8(k)6",
    DeliveryStyle.PIN_SAY_RIGHT: "NJ 19:47-10.8(k)7",
    DeliveryStyle.PIN_SAY_LEFT: "NJ 19:47-10.8(k)8",
    DeliveryStyle.DRAGON_PHOENIX_RIGHT: "NJ 19:47-10.8(k)9",
    DeliveryStyle.DRAGON_PHOENIX_LEFT: "NJ 19:47-10.8(k)10",
}

_Slot = tuple[int, int]
"""A tile's place in the row: (stack, layer), layer ``0`` being the top."""
_Plan = tuple[tuple[_Slot, ...], ...]
"""Eight groups of four slots, in delivery order."""

_RIGHT_FOUR = (0, 1, 2, 3)
_LEFT_FOUR = (4, 5, 6, 7)


def _house_way() -> _Plan:
    # NJ 10.8(k)1 / PA 621a.6(d): whole stacks, the first on the dealer's right first.
    return tuple(
        tuple((stack, layer) for layer in range(STACK_HEIGHT)) for stack in range(STACK_COUNT)
    )


def _pairs_of_stacks(pick: Callable[[list[int]], tuple[int, int]]) -> _Plan:
    """Deliver two stacks at a time: top two of each to one position, bottom two to the next."""
    remaining = list(range(STACK_COUNT))
    plan: list[tuple[_Slot, ...]] = []
    while remaining:
        pair = pick(remaining)
        for layers in ((0, 1), (2, 3)):
            plan.append(tuple((stack, layer) for stack in pair for layer in layers))
        for stack in pair:
            remaining.remove(stack)
    return tuple(plan)


def _cup_say(remaining: list[int]) -> tuple[int, int]:
    return remaining[0], remaining[1]  # PA 621a.7(2): "the first two stacks on the dealer's right"


def _jung_quat(remaining: list[int]) -> tuple[int, int]:
    # PA 621a.7(4): the two center stacks, then the remaining stacks "pushed together"
    # give two new center stacks.
    middle = len(remaining) // 2
    return remaining[middle - 1], remaining[middle]


def _chee_yee(remaining: list[int]) -> tuple[int, int]:
    # PA 621a.7(5): "the first stack remaining on the dealer's right and the first stack
    # remaining on the dealer's left".
    return remaining[0], remaining[-1]


def _pin_say() -> _Plan:
    # PA 621a.7(6): a layer of the four right stacks to one position, then the same layer
    # of the four left stacks to the next, "repeated until four tiles have been delivered
    # to all eight positions". The diagonal tile is stack 0's top: it changes no group.
    return tuple(
        tuple((stack, layer) for stack in side)
        for layer in range(STACK_HEIGHT)
        for side in (_RIGHT_FOUR, _LEFT_FOUR)
    )


def _dragon_phoenix() -> _Plan:
    # PA 621a.7(8): stacks 0 and 1 go on top of stacks 2 and 3 (first onto third, second
    # onto fourth), making two eight-tile stacks: the dragon head. Each head delivery takes
    # the top two of both, each tail delivery the top tile of the four left stacks.
    columns = [
        [(stack, layer) for stack in (upper, lower) for layer in range(STACK_HEIGHT)]
        for upper, lower in ((0, 2), (1, 3))
    ]
    plan: list[tuple[_Slot, ...]] = []
    for layer in range(STACK_HEIGHT):
        plan.append(tuple(slot for column in columns for slot in column[2 * layer : 2 * layer + 2]))
        plan.append(tuple((stack, layer) for stack in _LEFT_FOUR))
    return tuple(plan)


def _mirror(plan: _Plan) -> _Plan:
    """Return the same plan counted from the dealer's left."""
    return tuple(
        tuple((STACK_COUNT - 1 - stack, layer) for stack, layer in group) for group in plan
    )


_PLANS: dict[DeliveryStyle, _Plan] = {
    DeliveryStyle.HOUSE_WAY_RIGHT: _house_way(),
    DeliveryStyle.HOUSE_WAY_LEFT: _mirror(_house_way()),
    DeliveryStyle.CUP_SAY_RIGHT: _pairs_of_stacks(_cup_say),
    DeliveryStyle.CUP_SAY_LEFT: _mirror(_pairs_of_stacks(_cup_say)),
    DeliveryStyle.JUNG_QUAT: _pairs_of_stacks(_jung_quat),
    DeliveryStyle.CHEE_YEE: _pairs_of_stacks(_chee_yee),
    DeliveryStyle.PIN_SAY_RIGHT: _pin_say(),
    DeliveryStyle.PIN_SAY_LEFT: _mirror(_pin_say()),
    DeliveryStyle.DRAGON_PHOENIX_RIGHT: _dragon_phoenix(),
    DeliveryStyle.DRAGON_PHOENIX_LEFT: _mirror(_dragon_phoenix()),
}


class _CheckedStacks(tuple):  # type: ignore[type-arg]
    """Stacks as :func:`form_stacks` returns them: eight tuples of four, the full set once.

    A tuple of tuples of ints cannot change, so :func:`check_stacks` hands these back
    without checking them again; ``apply_cut`` and ``deliver`` check their stacks, and are
    mostly given stacks just checked. Otherwise a plain tuple (equal, with the same repr).
    """

    __slots__ = ()


def form_stacks(tiles: Iterable[Tile]) -> Stacks:
    """Return the 32 tiles, in order, as eight stacks: the first four are stack 0, top first."""
    row = check_distinct(tiles, "the stacks")
    if frozenset(row) != FULL_SET:
        raise InvalidDealError(f"the stacks need all 32 tiles, got {len(row)}: {row!r}")
    return _CheckedStacks(map(row.__getitem__, _STACK_SLICES))


_STACK_SLICES = tuple(slice(i, i + STACK_HEIGHT) for i in range(0, len(TILES), STACK_HEIGHT))
"""Each stack's place in the row of 32 tiles."""


_PLAIN_SEQUENCES = (tuple, list)
"""Tested first: isinstance against the Sequence ABC is several times slower."""


def check_stacks(stacks: Sequence[Sequence[Tile]]) -> Stacks:
    """Return the stacks as tuples if they are eight stacks of four holding the full set."""
    if type(stacks) is _CheckedStacks:
        return stacks  # checked when formed, and unchangeable since
    plain = _PLAIN_SEQUENCES
    if not (type(stacks) in plain or isinstance(stacks, Sequence)) or len(stacks) != STACK_COUNT:
        raise InvalidDealError(f"expected 8 stacks of 4 tiles: {stacks!r}")
    for stack in stacks:
        if not (type(stack) in plain or isinstance(stack, Sequence)) or len(stack) != STACK_HEIGHT:
            raise InvalidDealError(f"a stack must hold 4 tiles: {stack!r}")
    return form_stacks(chain.from_iterable(stacks))


def deliver(stacks: Sequence[Sequence[Tile]], style: DeliveryStyle) -> Stacks:
    """Return the eight groups of four in delivery order, group 0 for the starting position.

    Within a group, tiles are listed stack by stack counting from the side the
    style starts from (the dealer's right for Jung Quat and Chee Yee), each
    stack's tiles top first; the rules give the order within a hand no meaning.

    >>> deliver(form_stacks(TILES), DeliveryStyle.PIN_SAY_RIGHT)[:2]
    ((0, 4, 8, 12), (16, 20, 24, 28))
    """
    row = check_stacks(stacks)
    if not isinstance(style, DeliveryStyle):
        raise InvalidDealError(f"unknown delivery style: {style!r}")
    tiles = tuple(chain.from_iterable(row))
    return tuple(group(tiles) for group in _GROUPS[style])


_GROUPS: dict[DeliveryStyle, tuple[Callable[[tuple[Tile, ...]], tuple[Tile, ...]], ...]] = {
    style: tuple(
        itemgetter(*(stack * STACK_HEIGHT + layer for stack, layer in group)) for group in plan
    )
    for style, plan in _PLANS.items()
}
"""Each style's plan as getters of each group's four tiles from the 32 in stack order."""
