"""The dealing checks' shortcuts: each equal to the reading it replaces, each refusing the rounds
it cannot judge, so that the full check runs and its finding still appears.
"""

import uuid
from datetime import UTC, datetime
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from audit.events.paigow import wagers
from audit.events.rounds import RoundStarted
from audit.verification.paigow.dealing_checks import _pai_gow_positions
from audit.verification.paigow.round_view import view_round
from audit.verification.paigow.wager_checks import live_wagers
from tests.unit.verification.rounds import clean_round

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
