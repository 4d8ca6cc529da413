"""``GET /api/rounds/{round_id}``: one round's replay as structured data, step by step.

Each step carries its time, its recorded facts beside what the rules engine expected
(tiles or cards by name, money in integer cents) and the findings placed under it, as
``tablewatch replay`` prints them: the replay is ``consumers.replay_cli.load_replay``'s.
Every view is written to the access log (Kansas 112-106-6 expects one) before it is
answered. A round at several tables needs ``?table=``: 409 names the tables.
"""

from __future__ import annotations

import io
import logging
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from pydantic import BaseModel

from audit.events.games import GAMES
from audit.findings.finding import Finding
from audit.store.application import FactStore
from audit.verification.replay_model import Amount, Compared, RoundReplay, Step
from consumers.errors import AmbiguousRoundError, RoundNotFoundError
from consumers.replay_cli import load_replay
from consumers.replay_text import step_lines
from consumers.web.access_log import record_access
from consumers.web.auth import User, require
from consumers.web.errors import NotFoundError

log = logging.getLogger(__name__)

ROUND_ID = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$"
"""A round id as the event catalogue accepts it (audit/events/envelope.py)."""
TABLE_ID = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$"


class AmountOut(BaseModel):
    """One sum of a fact in cents, recorded beside expected (``null``: none to say)."""

    name: str
    recorded_cents: int | None
    expected_cents: int | None
    same: bool | None


class FactOut(BaseModel):
    """One recorded fact beside the engine's: tiles or cards by the names events carry."""

    label: str
    recorded: str
    expected: str | None
    same: bool | None
    pieces: list[str]
    expected_pieces: list[str]
    amounts: list[AmountOut]
    at: datetime | None


class StepFindingOut(BaseModel):
    """A finding placed under its step: its code, rule cited, evidence and money at stake."""

    finding_id: str
    code: str
    severity: Literal["info", "warning", "critical"]
    rule: str
    title: str
    position: int | None
    position_name: str | None
    recorded: str
    expected: str
    at_stake: Decimal
    exposure: Decimal | None = None
    """Action a procedure breach touched, its money correct (findings that carry it)."""
    occurred_at: str | None


class StepOut(BaseModel):
    """One step of the replay: when it began, its lines, its facts and its findings."""

    number: int
    kind: str
    title: str
    at: datetime | None
    lines: list[str]
    facts: list[FactOut]
    findings: list[StepFindingOut]


class RoundOut(BaseModel):
    """A round replayed: its steps, each finding under the step it concerns."""

    table_id: str
    round_id: str
    game: str
    pieces: Literal["tiles", "cards"]
    finding_count: int
    steps: list[StepOut]


def position_name(replay: RoundReplay, position: int | None) -> str | None:
    """Return the layout's name for a position, if the finding names one."""
    if position is None:
        return None
    names = replay.position_names
    return names[position] if 0 <= position < len(names) else f"position {position}"


def _amount(amount: Amount) -> AmountOut:
    return AmountOut(name=amount.name, recorded_cents=amount.recorded,
                     expected_cents=amount.expected, same=amount.same)  # fmt: skip


def _fact(fact: Compared) -> FactOut:
    return FactOut(
        label=fact.label, recorded=fact.recorded, expected=fact.expected, same=fact.same,
        pieces=list(fact.pieces), expected_pieces=list(fact.expected_pieces),
        amounts=[_amount(a) for a in fact.amounts], at=fact.at,
    )  # fmt: skip


def _finding(finding: Finding, replay: RoundReplay) -> StepFindingOut:
    return StepFindingOut(
        finding_id=finding.finding_id, code=finding.code, severity=finding.severity.value,
        rule=finding.rule, title=finding.title, position=finding.position,
        position_name=position_name(replay, finding.position), recorded=finding.recorded,
        expected=finding.expected, at_stake=finding.at_stake, occurred_at=finding.occurred_at,
        # Findings carry exposure from the findings-money change on; None before it.
        exposure=getattr(finding, "exposure", None),
    )  # fmt: skip


def _step(number: int, step: Step, replay: RoundReplay) -> StepOut:
    return StepOut(
        number=number, kind=str(step.kind), title=step.title, at=step.at,
        lines=list(step_lines(replay, step)), facts=[_fact(f) for f in step.facts],
        findings=[_finding(f, replay) for f in step.findings],
    )  # fmt: skip


def round_document(replay: RoundReplay) -> RoundOut:
    """Return the replay as the API's document."""
    return RoundOut(
        table_id=replay.table_id,
        round_id=replay.round_id,
        game=replay.game,
        pieces=GAMES[replay.game].pieces,
        finding_count=len(replay.findings),
        steps=[_step(n, s, replay) for n, s in enumerate(replay.steps, start=1)],
    )


def replay_of(store: FactStore, round_id: str, table_id: str | None) -> RoundReplay:
    """Return a stored round's replay; 404 when it is not stored, 409 when several tables have it.

    The replay's note of facts it could not read goes to the log, not the answer.
    """
    notes = io.StringIO()
    try:
        # Read the views as serve keeps them: a request never catches a projection up.
        replay = load_replay(store, round_id, table_id, errors=notes, catch_up=False)
    except RoundNotFoundError as error:
        raise NotFoundError(str(error).replace("--table", "?table=")) from None
    except AmbiguousRoundError as error:
        raise HTTPException(409, str(error).replace("--table", "?table=")) from None
    if notes.getvalue():
        log.warning("%s", notes.getvalue().strip())
    return replay


router = APIRouter(prefix="/api/rounds", tags=["rounds"])


@router.get("/{round_id}", response_model=RoundOut)
def get_round(
    request: Request,
    user: Annotated[User, Depends(require("analyst"))],
    round_id: Annotated[str, Path(pattern=ROUND_ID, description="e.g. PG-07-20261121-0002")],
    table: Annotated[str | None, Query(pattern=TABLE_ID, description="the round's table")] = None,
) -> RoundOut:
    """Return one round replayed step by step: facts beside the engine's, findings placed."""
    replay = replay_of(request.app.state.store, round_id, table)
    record_access(request.app.state.db, user, "round", f"{replay.table_id}/{replay.round_id}")
    return round_document(replay)
