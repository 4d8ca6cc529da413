"""Checks on the stream and the equipment: sequence gaps, reused ids, incomplete rounds, tiles
and dice past their time, tiles never inspected.

Gaps and reused ids arrive as the ingest's own observations (``sequence_gap_observed``,
``event_id_reused``), so the stored stream and an offline file passed through the same
sequencing are judged alike.
"""

from __future__ import annotations

from datetime import timedelta

from audit.events.envelope import Event
from audit.verification.findings import Finding
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.record_kinds import observation


def check_event(event: Event, context: TableContext) -> list[Finding]:
    """Judge one event as it arrives: the ingest's observations about the stream."""
    emit = Emit(None, context)
    observed = observation(event)
    if observed is not None:
        code, recorded, expected = observed
        emit(code, recorded=recorded, expected=expected, events=[event])
    return emit.findings


def _equipment(view: RoundView, context: TableContext, emit: Emit) -> None:
    start = view.started or (view.events[0] if view.events else None)
    if start is None:
        return
    when = start.occurred_at
    rules = context.ruleset
    if context.opened and not context.tiles_inspected and not context.inspection_reported:
        # PA 621a.4(a): the dealer sorts and inspects, the floorperson verifies, before play.
        emit("PG-EQ-NOT-INSPECTED", recorded=f"set {context.tile_set_id} not inspected",
             expected="inspected and verified before the first round", events=[start])  # fmt: skip
    hours = rules.tile_change_hours
    if hours and context.tiles_since and not context.tiles_overdue_reported:
        age = when - context.tiles_since
        if age > timedelta(hours=hours):  # PA 621a.3(b): changed at least every 12 hours
            emit("PG-EQ-TILES-OVERDUE", recorded=f"set {context.tile_set_id} in use {age}",
                 expected=f"changed within {hours} h", events=[start])  # fmt: skip
    dice_hours = rules.dice_change_hours
    if dice_hours and context.dice_since and not context.dice_overdue_reported:
        age = when - context.dice_since
        if age > timedelta(hours=dice_hours):  # PA 621a.2(d)(1): not on a table over 24 h
            emit("PG-EQ-DICE-OVERDUE", recorded=f"dice on the table {age}",
                 expected=f"replaced within {dice_hours} h", events=[start])  # fmt: skip


def after_round(view: RoundView, findings: list[Finding], context: TableContext) -> None:
    """Remember what was reported, so overdue equipment is reported once, not every round."""
    if not findings:
        return  # the usual round: nothing reported, nothing to remember
    codes = {f.code for f in findings}
    context.inspection_reported |= "PG-EQ-NOT-INSPECTED" in codes
    context.tiles_overdue_reported |= "PG-EQ-TILES-OVERDUE" in codes
    context.dice_overdue_reported |= "PG-EQ-DICE-OVERDUE" in codes


def incomplete(view: RoundView, context: TableContext) -> list[Finding]:
    """Report a round the stream ended without completing."""
    emit = Emit(view, context)
    if view.completed is None:
        last = view.events[-1]
        emit("DATA-ROUND-INCOMPLETE", recorded=f"last recorded: {last.type_name()}",
             expected="round_completed", events=[last])  # fmt: skip
    return emit.findings


ROUND_CHECKS: tuple[Check, ...] = (_equipment,)
