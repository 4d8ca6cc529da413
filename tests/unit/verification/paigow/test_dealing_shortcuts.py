"""The dealing checks' shortcuts: each equal to the reading it replaces, each refusing the rounds
it cannot judge, so that the full check runs and its finding still appears.
"""

import uuid
from datetime import UTC, datetime
from decimal import Decimal
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.paigow import wagers
from audit.events.rounds import RoundStarted
from audit.games.paigow.dealing import Cut
from audit.games.paigow.delivery import DeliveryStyle
from audit.verification.paigow import dealing_checks
from audit.verification.paigow.readings import _pai_gow_positions, live_wagers
from audit.verification.paigow.round_view import view_round
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_rounds import clean_round

KINDS = list(wagers.WagerKind)


def event(event_type, index, **fields):
    """Return one event of round ``PG-1-r1``, the ``index``-th."""
    return event_type(
        event_id=uuid.UUID(int=index + 1),
        table_id="PG-1",
        round_id="PG-1-r1",
        seq=index,
        occurred_at=datetime(2026, 11, 21, tzinfo=UTC),
        recorded_by="dealer-1",
        **fields,
    )


def wager_event(index, move):
    """Return a wager placed or withdrawn: ``move`` is (withdrawn, position, cents, kind)."""
    withdrawn, position, cents, kind = move
    event_type = wagers.WagerWithdrawn if withdrawn else wagers.WagerPlaced
    return event(event_type, index, position=position, amount=Decimal(cents) / 100, kind=kind)


moves = st.tuples(st.booleans(), st.integers(0, 7), st.integers(0, 5000), st.sampled_from(KINDS))


# --- Who wagered: positions read without sums where nothing was withdrawn ------------------------


@given(st.lists(moves, max_size=12), st.booleans())
def test_pai_gow_positions_are_the_live_wagers_keys(moves, placed_only):
    if placed_only:
        moves = [(False, *move[1:]) for move in moves]
    started = event(RoundStarted, 0, round_number=1, dealer_id="dealer-1")
    view = view_round([started, *(wager_event(i, move) for i, move in enumerate(moves, 1))])
    expected = set(live_wagers(view, wagers.WagerKind.PAI_GOW))
    assert set(_pai_gow_positions(view)) == expected


def test_a_wager_withdrawn_in_full_leaves_its_stack_to_be_collected():
    rnd = clean_round("pa-2019", wagers_at={1: "25.00", 3: "40.00", 4: "10.00"})
    rnd.insert_after(rnd.first("wager_placed", position=4), wagers.WagerWithdrawn, position=4,
                     amount=Decimal("10.00"))  # fmt: skip
    collected = rnd.first("unwagered_stacks_collected")
    assert collected.positions == [2, 5, 6]  # the round as played: position 4 kept its stack
    [finding] = rnd.findings("PG-DEAL-UNWAGERED")
    assert (finding.position, finding.rule) == (4, "PA 621a.6(e)")


def test_a_wager_of_nothing_is_no_wager():
    rnd = clean_round("nj", wagers_at={1: "25.00", 3: "40.00", 4: "0.00"})
    [finding] = rnd.findings("PG-DEAL-UNWAGERED")
    assert (finding.position, finding.rule) == (4, "NJ 19:47-10.6(e)")


# --- The tiles: shortcuts against the full comparison, over rounds edited at random -------------

ROUND_SHAPES = [
    {"rule_set": "pa-2019"},
    {"rule_set": "nj", "bank": 4, "style": DeliveryStyle.CHEE_YEE},
    {"rule_set": "pa-2019", "bank": 2, "dealer_wager": "25.00", "style": DeliveryStyle.PIN_SAY_LEFT,
     "cut": Cut(2, 5, 1, crossed=True)},
    {"rule_set": "pa-2012", "style": DeliveryStyle.DRAGON_PHOENIX_RIGHT, "dice": (1, 1, 1)},
    {"rule_set": "california", "bank": 4, "wagers_at": {1: "25.00", 7: "10.00"}},
    {"rule_set": "pa-2019", "rng": 13, "bank": 3, "cut": Cut(0, 3, 0)},
]  # fmt: skip


def two_of(data, events):
    """Draw two different events of ``events``."""
    first, second = data.draw(
        st.lists(st.integers(0, len(events) - 1), min_size=2, max_size=2, unique=True)
    )
    return events[first], events[second]


def _edit_delivery(rnd, data, edit):
    """Apply one edit to the deliveries, hands or stacks of ``rnd``, choices drawn from ``data``."""
    stacks = rnd.all("stack_delivered")
    one, other = two_of(data, stacks)
    i, j = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    i, j = i % len(one.tiles), j % len(other.tiles)  # an edit may have left three or five
    hands = rnd.all("hand_set")
    if edit == "swap tiles":
        mine, theirs = list(one.tiles), list(other.tiles)
        mine[i], theirs[j] = theirs[j], mine[i]
        rnd.replace(one, tiles=mine)
        rnd.replace(other, tiles=theirs)
    elif edit == "reorder a hand's tiles":
        rnd.replace(one, tiles=list(reversed(one.tiles)))
    elif edit == "move a stack":
        rnd.replace(one, position=other.position)
    elif edit == "swap orders":
        rnd.replace(one, order=other.order)
        rnd.replace(other, order=one.order)
    elif edit == "record out of turn":
        rnd.move_after(one, other)
    elif edit == "drop a stack":
        rnd.remove(one)
    elif edit == "deliver a tile twice":
        rnd.replace(one, tiles=[*one.tiles[:i], other.tiles[j], *one.tiles[i + 1 :]])
    elif edit == "three and five":
        k = stacks.index(one)
        if k + 1 < len(stacks) and len(one.tiles) == 4:
            after = stacks[k + 1]
            rnd.replace(after, tiles=[one.tiles[3], *after.tiles])
            rnd.replace(one, tiles=one.tiles[:3])
    elif edit == "set another's tile":
        hand = hands[i % len(hands)]
        rnd.replace(hand, high=[other.tiles[j], hand.high[1]])
    elif edit == "set a tile twice":
        hand = hands[i % len(hands)]
        rnd.replace(hand, low=[hand.high[0], hand.low[1]])
    elif edit == "swap hands' tiles":
        mine, theirs = two_of(data, hands)
        rnd.replace(mine, high=[theirs.low[0], mine.high[1]])
        rnd.replace(theirs, low=[mine.high[0], theirs.low[1]])
    elif edit == "stack a tile twice":
        formed = rnd.first("stacks_formed")
        rows = [list(stack) for stack in formed.stacks]
        rows[i][j % 4] = rows[7 - i][3 - j % 4]
        rnd.replace(formed, stacks=rows)
    elif edit == "another style":
        chosen = rnd.first("delivery_style_chosen")
        rnd.replace(chosen, style=data.draw(st.sampled_from(list(DeliveryStyle))))


EDITS = [
    "swap tiles", "reorder a hand's tiles", "move a stack", "swap orders", "record out of turn",
    "drop a stack", "deliver a tile twice", "three and five", "set another's tile",
    "set a tile twice", "swap hands' tiles", "stack a tile twice", "another style",
]  # fmt: skip


def findings_of(events):
    return [f.as_dict() for f in verify_stream(events)]


def _edited_round(shape, edits, data):
    """A clean round of ``shape`` with the drawn delivery ``edits`` applied in turn."""
    rnd = clean_round(**shape)
    for edit in edits:
        _edit_delivery(rnd, data, edit)
    return rnd


def refusing_every_shortcut():
    """Return patches under which the tiles are compared the long way, as before the shortcuts."""
    return (
        patch.object(dealing_checks, "_canonical_row", return_value=None),
        patch.object(dealing_checks, "_delivered_as_expected", return_value=False),
    )


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ROUND_SHAPES), st.lists(st.sampled_from(EDITS), max_size=3), st.data())
def test_the_tiles_shortcuts_find_what_the_full_comparison_finds(shape, edits, data):
    rnd = _edited_round(shape, edits, data)
    quick = findings_of(rnd.events)
    first, second = refusing_every_shortcut()
    with first, second:
        assert findings_of(rnd.events) == quick


@pytest.mark.parametrize("shape", ROUND_SHAPES)
def test_a_clean_deal_takes_the_shortcuts(shape):
    """The property above means something: a clean round is judged by the shortcuts alone."""
    rnd = clean_round(**shape)
    view = view_round([e for e in rnd.events if e.round_id is not None])
    tiles = view.once(dealing_checks._read_tiles)
    assert tiles.row is not None
    assert tiles.misdealt == []
    answers = []

    def as_expected(*args):
        answers.append(original(*args))
        return answers[-1]

    original = dealing_checks._delivered_as_expected
    with patch.object(dealing_checks, "_delivered_as_expected", side_effect=as_expected):
        assert rnd.findings("PG-DEAL-STACK-ORDER") == []
    assert answers == [True]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ROUND_SHAPES), st.lists(st.sampled_from(EDITS), max_size=3), st.data())
def test_hands_as_delivered_and_no_tile_delivered_twice_hold_no_tile_twice(shape, edits, data):
    """check_duplicate_tiles skips the set hands on this: the implication, tested."""
    rnd = _edited_round(shape, edits, data)
    view = view_round([e for e in rnd.events if e.round_id is not None])
    tiles = view.once(dealing_checks._read_tiles)
    if not dealing_checks._duplicates(tiles.dealt) and not tiles.misdealt:
        held = [name for hand in view.hands.values() for name in [*hand.high, *hand.low]]
        assert len(set(held)) == len(held)


def test_a_tile_delivered_twice_and_set_in_both_hands_is_twice_in_the_hands_too():
    """Hands as delivered say nothing of the set hands when a tile was delivered twice."""
    rnd = clean_round("pa-2019")
    given = rnd.first("stack_delivered", position=1).tiles[0]
    stack = rnd.first("stack_delivered", position=3)
    rnd.replace(stack, tiles=[given, *stack.tiles[1:]])
    hand = rnd.first("hand_set", position=3)
    kept = [*hand.high, *hand.low]
    rnd.replace(hand, high=[given, *[t for t in kept if t in stack.tiles[1:]][:1]],
                low=[t for t in kept if t in stack.tiles[1:]][1:])  # fmt: skip
    assert rnd.findings("PG-TILE-HAND-MISMATCH") == []  # each hand as delivered to it
    [duplicate] = rnd.findings("PG-TILE-DUPLICATE")
    assert duplicate.recorded == (
        f"{given} twice in the deliveries, the set hands (at Position 1, Position 3)"
    )
