"""``tablewatch replay ROUND_ID [--table TABLE_ID]``: one round from the store, step by step.

The analyst's view of a round: the dice and the count, the stacks and who received
which, every hand as set beside the house way, each wager's settlement beside the
engine's, and verification's findings placed under the step each concerns. The
replay itself is pure data (``audit/verification/<game>/replay.py``); this module finds
the round's table and events in the store and prints the steps as plain text, each
step's lines drawn by its game's renderer (``consumers/replay_text/``).

A replay reads a few of its table's rounds, not the day or the history: the table's
verification state at its last replay point before the round (its opening, or a round
start every few rounds since, kept by the findings projection), then the table's facts
since, by aggregate (:func:`read_round`; docs/history.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO, cast

from audit.events.catalogue import InvalidEventError, parse_event
from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.events.table import TableOpened
from audit.findings.finding import Finding, Severity
from audit.floor.verify import VERIFIERS
from audit.store.aggregates import round_aggregate_id, table_day_id
from audit.store.application import FactStore, StoredFact
from audit.verification.baccarat21 import replay as baccarat21_replay
from audit.verification.paigow import replay as paigow_replay
from audit.verification.replay_model import RoundNotInEventsError, RoundReplay
from consumers.errors import AmbiguousRoundError, RoundNotFoundError
from consumers.replay_text import step_lines
from consumers.replay_text.marks import MISMATCH
from consumers.settings import Settings
from consumers.view_reads import caught_up, read_views
from consumers.wiring import open_store
from projections.checkpoint import loads
from projections.findings import FindingsProjection, open_findings_view
from projections.round_index import RoundIndexProjection

REPLAYS: dict[str, Callable[..., RoundReplay]] = {
    "paigow": paigow_replay.replay_round,
    "baccarat21": baccarat21_replay.replay_round,
}
"""Game -> its replay builder (events, round id, table id, and ``verifier=`` a verifier holding
the table as it stood before the events); every replay has titled steps of lines and findings."""
WIDTH = 100
"""Every line printed fits in this many columns."""

_COLOURS = {Severity.CRITICAL: "\033[1;31m", Severity.WARNING: "\033[1;33m", Severity.INFO: ""}
_RED, _RESET = "\033[31m", "\033[0m"


def register(commands: Any) -> None:
    """Add the ``replay`` command."""
    replay = commands.add_parser(
        "replay",
        help="replay one stored round step by step, with its findings",
        description="Replay one round from the store, step by step, with the findings under "
        "the step each concerns. Pai Gow: the count, the deal, the hands, the settlement "
        "beside the engine's. 21 Baccarat: the wagers, the cards one by one beside where the "
        "rules sent them, the totals and Bonus hands, the settlement beside the engine's.",
    )
    replay.add_argument("round_id", help="the round's id, e.g. PG-07-20261121-0002")
    replay.add_argument(
        "--table", metavar="TABLE_ID", help="the round's table (default: found in the store)"
    )
    replay.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    store = open_store(Settings.from_env())
    replay = load_replay(store, args.round_id, args.table, errors=sys.stderr)
    out = sys.stdout
    colour = out.isatty() and "NO_COLOR" not in os.environ
    out.write(render(replay, colour=colour))
    return 0


# --- The store ---------------------------------------------------------------------------------


def load_replay(
    store: FactStore,
    round_id: str,
    table_id: str | None = None,
    *,
    errors: TextIO = sys.stderr,
    from_opening: bool = False,
    catch_up: bool = True,
) -> RoundReplay:
    """Return the replay of one stored round: what the command, the API and the console show.

    ``from_opening`` reads from the table's opening, not its last replay point: the
    same replay at the cost replays had before the points (``bench/api_replay.py``'s
    baseline). ``catch_up`` False (the web, whose views ``tablewatch serve`` keeps) reads the
    round index and the replay points as they stand, writing nothing: a round the index has
    not reached yet is not found, rather than looked for by reading the store. Raises
    :class:`RoundNotFoundError` when the round is not stored (at ``table_id``) and
    :class:`AmbiguousRoundError` when several tables have it and none is named.
    """
    served = not catch_up
    if catch_up:  # the round index and the replay points, unless a running serve keeps them
        (index, _), judged_here = read_views(store, [RoundIndexProjection, FindingsProjection])
        served = not judged_here
    else:
        index = RoundIndexProjection(store)
    index = cast(RoundIndexProjection, index)
    table = table_id or find_table(store, round_id, index)
    read = read_round(
        store, table, round_id, index, errors, from_opening=from_opening, served=served
    )
    game = read.game or next(
        (e.game for e in reversed(read.events) if isinstance(e, TableOpened)), DEFAULT_GAME
    )
    verifier = None
    if read.state is not None:
        verifier = VERIFIERS[game]()
        verifier.restore_table(table, read.state)
    try:
        return REPLAYS[game](read.events, round_id, table, verifier=verifier)
    except RoundNotInEventsError as error:  # every fact of the round unreadable
        raise RoundNotFoundError(str(error)) from None


def find_table(store: FactStore, round_id: str, index: RoundIndexProjection | None = None) -> str:
    """Return the one table at which ``round_id`` was recorded.

    Raises :class:`RoundNotFoundError` when no table has it and
    :class:`AmbiguousRoundError`, naming the tables, when several do. Every round fact
    is indexed (``projections/round_index.py``), so a round the index lacks is not stored.
    """
    if index is None:
        index = caught_up(store, RoundIndexProjection)
    tables = index.view.tables_of(round_id)
    if not tables:
        raise RoundNotFoundError(f"no round {round_id!r} in the store")
    if len(tables) > 1:
        raise AmbiguousRoundError(
            f"round {round_id!r} was recorded at {len(tables)} tables: "
            f"{', '.join(tables)}; name one with --table"
        )
    return tables[0]


@dataclass
class RoundRead:
    """What a replay reads of the store: the table's events from where its context starts."""

    events: list[Event]
    state: Any = None
    """The game verifier's state of the table before ``events`` (None: from the table's start)."""
    game: str | None = None
    """The game the table was opened for at the context's start, if it was."""
    facts_read: int = 0
    """Stored facts read for the replay (the round's own aggregate not counted)."""


def read_round(
    store: FactStore,
    table_id: str,
    round_id: str,
    index: RoundIndexProjection,
    errors: TextIO = sys.stderr,
    *,
    from_opening: bool = False,
    served: bool = False,
) -> RoundRead:
    """Return the table's events from its last replay point before the round, up to the
    round's end.

    The table's verification state at that point (its opening, or a round start every
    few rounds since: projections/replay_points.py) is the findings projection's
    (``replay_contexts``), so only the facts since are read, by their aggregates: the
    gaming day's ``Table`` aggregate and the rounds the round index holds in those
    contexts. ``from_opening`` starts at the opening of the point's gaming day instead, as
    does a round whose point was pruned with its gaming day (docs/history.md).
    A round before its table ever opened, or one whose point the findings projection
    did not record (a store judged before replay contexts, or before points between
    openings), is read from the table's first fact instead, as every replay once was.
    A stored fact the catalogue can no longer read is left out and counted on ``errors``.
    The views are read as they stand (caught up by the caller, if at all); ``served``: a
    service keeps them, so a round they have not reached yet is not found, rather than looked
    for by reading every stored fact.
    """
    wanted = store.fact_count(round_aggregate_id(table_id, round_id))
    if not wanted:
        raise RoundNotFoundError(f"no round {round_id!r} at table {table_id!r}")
    contexts = index.view.contexts_of(table_id, round_id)
    if not contexts and served:
        raise RoundNotFoundError(
            f"round {round_id!r} at table {table_id!r} is stored but not yet in the round "
            "index: the service indexes it within a pass, try again in a moment"
        )
    read = RoundRead([])
    facts: Iterator[StoredFact] | None = None
    if contexts and contexts[0] > 0:
        points = open_findings_view(store)
        first, last = contexts[0], contexts[-1]
        openings = [] if from_opening else points.replay_contexts(table_id, first, last)
        if not openings or openings[0].position != first:
            # Asked for, or its point was pruned with its day (docs/history.md): the day's first.
            first = points.day_opening(table_id, first) or first
            openings = points.replay_contexts(table_id, first, last)
        if openings and openings[0].position == first:
            state = loads(openings[0].state)["table"]
            read.state, read.game = state, openings[0].game
            aggregates = {table_day_id(table_id, o.gaming_day) for o in openings}
            rounds = set(index.view.rounds_in(table_id, first, last)) | _open_rounds(state)
            aggregates |= {round_aggregate_id(table_id, r) for r in rounds}
            facts = store.facts_of(aggregates, start=first)
    if facts is None and contexts == [0]:
        facts = _before_any_opening(store, table_id, index)
    if facts is None and served:
        # A request reads the views as the service keeps them: the findings view has not
        # reached the round's replay point yet. Never the scan below of every stored fact (#16).
        raise RoundNotFoundError(
            f"round {round_id!r} at table {table_id!r} is stored but its table's replay point "
            "is not yet in the findings view: the service judges it within a pass, try again "
            "in a moment"
        )
    if facts is None:
        facts = (f for f in store.facts() if table_id in f.fact_json)
    unreadable = 0
    for stored in facts:
        read.facts_read += 1
        try:
            event = parse_event(stored.fact_json)
        except InvalidEventError:
            unreadable += 1
            continue
        if event.table_id != table_id:
            continue
        read.events.append(event)
        if event.round_id == round_id:
            wanted -= 1
            if wanted == 0:
                break  # the rest of the table's stream comes after the round
    if unreadable:
        print(f"tablewatch: {unreadable} stored fact(s) of {table_id} could not be read; "
              "replayed without them", file=errors)  # fmt: skip
    return read


def _before_any_opening(
    store: FactStore, table_id: str, index: RoundIndexProjection
) -> Iterator[StoredFact]:
    """Yield a table's facts from before it ever opened (the round index's context 0), read by
    their aggregates, not by scanning the store.

    Those rounds are the index's; the table's other facts then fall on the gaming day of their
    UTC date (``audit/store/ingest.py``), so the days read are the dates from the first of
    those rounds' facts to the last. A table fact recorded on a date before its first round
    (a tile set received the day before, say) is not read, where the scan this replaced read
    it: such a replay may miss what it set up (docs/history.md, "A table that never opened").
    """
    rounds = {round_aggregate_id(table_id, r) for r in index.view.rounds_in(table_id, 0, 0)}
    dates = {
        datetime.fromisoformat(json.loads(f.fact_json)["occurred_at"]).astimezone(UTC).date()
        for f in store.facts_of(rounds)
    }
    days = set()
    if dates:
        day, last = min(dates), max(dates)
        while day <= last:
            days.add(table_day_id(table_id, day.isoformat()))
            day += timedelta(days=1)
    return store.facts_of(rounds | days)


def _open_rounds(state: Any) -> set[str]:
    """Return the rounds a table's verifier state holds open (their later facts are read too)."""
    rounds = state.open_rounds
    return {key[1] if isinstance(key, tuple) else key for key in rounds}


# --- Rendering ---------------------------------------------------------------------------------


def render(replay: RoundReplay, *, colour: bool = False) -> str:
    """Return the replay as plain text, every line within :data:`WIDTH` columns."""
    findings = replay.findings
    title = f"Replay of round {replay.round_id} at table {replay.table_id}"
    title += f": {len(findings)} finding(s)" if findings else ": no findings"
    lines = [title, "=" * min(len(title), WIDTH)]
    for number, step in enumerate(replay.steps, start=1):
        lines += ["", f"{number}. {step.title}"]
        lines += [_fit("  " + line) for line in step_lines(replay, step)]
        for finding in step.findings:
            lines += _finding_lines(finding, replay)
    text = "\n".join(lines) + "\n"
    if colour:
        text = text.replace(f"[{MISMATCH}]", f"[{_RED}{MISMATCH}{_RESET}]")
    return _coloured(text, findings) if colour else text


def _fit(line: str) -> str:
    """Return a line cut to :data:`WIDTH` columns (the replay's lines are made to fit)."""
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def _finding_lines(finding: Finding, replay: RoundReplay) -> list[str]:
    """Return a finding as an analyst reads it: what, where, the rule, the money, the evidence."""
    where = ""
    if finding.position is not None:
        names = replay.position_names
        known = 0 <= finding.position < len(names)
        where = f" at {names[finding.position] if known else f'position {finding.position}'}"
    head = f"  >> {finding.severity.value.upper()} {finding.code}{where} ({finding.rule})"
    lines = [_fit(head), *textwrap.wrap(finding.title, WIDTH, initial_indent=" " * 5,
                                        subsequent_indent=" " * 5)]  # fmt: skip
    for label, text in (("recorded", finding.recorded), ("expected", finding.expected)):
        lines += textwrap.wrap(
            text,
            WIDTH,
            initial_indent=f"     {label}: ",
            subsequent_indent=" " * 15,
            break_on_hyphens=False,  # tiles (6-6a) and codes stay whole
        )
    lines.append(f"     at stake: ${finding.at_stake:,.2f}")
    if finding.exposure:  # a procedure breach's action, never added to the money at stake
        lines.append(f"     exposure: ${finding.exposure:,.2f}")
    return lines


def _coloured(text: str, findings: tuple[Finding, ...]) -> str:
    """Colour each finding's first line by its severity."""
    for severity in {f.severity for f in findings}:
        start = _COLOURS[severity]
        if start:
            text = text.replace(
                f"  >> {severity.value.upper()} ", f"  {start}>> {severity.value.upper()}{_RESET} "
            )
    return text
