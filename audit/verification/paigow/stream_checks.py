"""Checks on the stream and the equipment: sequence gaps, reused ids, incomplete rounds, tiles
and dice past their time, tiles never inspected.

Gaps and reused ids arrive as the ingest's own observations (``sequence_gap_observed``,
``event_id_reused``), so the stored stream and an offline file passed through the same
sequencing are judged alike.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.findings.finding import Finding
from audit.games.paigow.options import TABLE_OPTIONS
from audit.games.paigow.rulesets import RULE_SETS
from audit.verification.paigow.context import TableContext, opening
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.record_kinds import observation


def check_event(event: Event, context: TableContext) -> list[Finding]:
    """Judge one event as it arrives: the ingest's observations about the stream, and a
    table's opening: its rule set and options."""
    emit = Emit(None, context)
    observed = observation(event)
    if observed is not None:
        code, recorded, expected = observed
        emit(code, recorded=recorded, expected=expected, events=[event])
    if isinstance(event, TableOpened):
        return emit.findings + _table_options(event, context)
    return emit.findings


def _table_options(event: TableOpened, context: TableContext) -> list[Finding]:
    """Report a rule set or an option the table cannot be judged by; the rule set's own
    value stands in for each (recorded, judged: never refused)."""
    opened = opening(event)
    ruleset = opened.ruleset
    # Cited in the rules the table opens, on the gaming day it opens for.
    emit = Emit(None, replace(context, ruleset=ruleset, gaming_day=event.gaming_day.isoformat()))
    if opened.unknown_rule_set:
        emit("PG-TABLE-OPTION", recorded=f"rule set {event.rule_set!r}",
             expected=f"one of {sorted(RULE_SETS)!r}; judged under {ruleset.name}",
             events=[event])  # fmt: skip
    for problem in opened.problems:
        key = problem.rule_key if problem.rule_key in ruleset.citations else "records"
        option = TABLE_OPTIONS.get(problem.name)
        if option is None:
            expected = f"a table option, one of {sorted(TABLE_OPTIONS)!r}: ignored"
        else:
            shown = ruleset.options()[problem.name]
            expected = f"{option.values} ({problem.reason}): judged as {shown}, the rule set's"
        emit("PG-TABLE-OPTION", recorded=f"option {problem.name}={problem.value!r}",
             expected=expected, events=[event], rule_key=key)  # fmt: skip
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
