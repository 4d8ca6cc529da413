"""Score verification against the careless dealer's labels: precision and recall per code.

Each label code is one thing to find: the code in that table's round (at the
label's position, when it has one). It is found (a true positive) when some
finding of that code, table and round (and position) matches it, and missed (a
false negative) when none does. A finding that matches no label is a false
alarm (a false positive); false alarms are counted once per code, table, round
and position, however many findings repeat one.

Findings about the stream itself (a sequence gap, a reused event id) carry no
round; :func:`verify_for_scoring` places each in the round its ingest
observation was about.

>>> from audit.findings.finding import Finding, Severity
>>> def finding(code, round_id, position=None):
...     return Finding(code, Severity.WARNING, "r", "t", "PG-01", round_id, position, None, "", "")
>>> labels = [Label("PG-01", "R1", "wrong_payout", ("PG-SETTLE-PAYOUT",), 3)]
>>> report = score([finding("PG-SETTLE-PAYOUT", "R1", 3), finding("PG-DEAL-SHAKES", "R2")], labels)
>>> report.codes["PG-SETTLE-PAYOUT"].recall, report.codes["PG-DEAL-SHAKES"].precision
(1.0, 0.0)
>>> report.total.tp, report.total.fp, report.total.fn, report.perfect
(1, 1, 0, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from dataclasses import replace as replaced
from typing import Any

from audit.accounting.controls import STATISTICAL_CODES
from audit.events.envelope import Event
from audit.events.ingest import EventIdReused, SequenceGapObserved
from audit.findings.finding import Finding
from audit.floor.verify import verify_floor
from audit.simulation.labels import Label
from audit.verification.collusion.kinds import COLLUSION_KINDS
from audit.verification.equipment import SCREEN_KINDS
from audit.verification.stream import as_stored

__all__ = ["CodeScore", "ScoreReport", "score", "verify_for_scoring"]

_Key = tuple[str, str | None, str]
"""A table, a round and a code."""


@dataclass(frozen=True)
class CodeScore:
    """True positives, false positives and false negatives for one finding code."""

    code: str
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """Return the share of findings that were labelled: 1.0 when nothing was found."""
        found = self.tp + self.fp
        return self.tp / found if found else 1.0

    @property
    def recall(self) -> float:
        """Return the share of labelled irregularities found: 1.0 when none was labelled."""
        labelled = self.tp + self.fn
        return self.tp / labelled if labelled else 1.0

    def as_dict(self) -> dict[str, Any]:
        """Return the score as a JSON-ready dict."""
        return {
            "code": self.code,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
        }


@dataclass(frozen=True)
class ScoreReport:
    """Per-code scores, their totals, and what was scored."""

    codes: dict[str, CodeScore]
    labels: int = 0
    findings: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    """Labels by injected kind."""

    @property
    def total(self) -> CodeScore:
        """Return the scores summed over every code."""
        scores = self.codes.values()
        return CodeScore(
            "total",
            sum(s.tp for s in scores),
            sum(s.fp for s in scores),
            sum(s.fn for s in scores),
        )

    @property
    def perfect(self) -> bool:
        """Return whether every code has precision and recall 1.0."""
        return all(s.precision == 1.0 and s.recall == 1.0 for s in self.codes.values())

    def as_dict(self) -> dict[str, Any]:
        """Return the report as a JSON-ready dict."""
        return {
            "labels": self.labels,
            "findings": self.findings,
            "perfect": self.perfect,
            "total": self.total.as_dict(),
            "codes": [score.as_dict() for score in self.codes.values()],
            "kinds": dict(sorted(self.kinds.items())),
        }

    def lines(self) -> list[str]:
        """Return the report as a table: one line per code, then the totals."""
        rows = [f"{'code':34} {'TP':>6} {'FP':>6} {'FN':>6} {'precision':>9} {'recall':>7}"]
        for s in [*self.codes.values(), self.total]:
            rows.append(
                f"{s.code:34} {s.tp:>6} {s.fp:>6} {s.fn:>6} {s.precision:>9.3f} {s.recall:>7.3f}"
            )
        return rows


def score(findings: Iterable[Finding], labels: Iterable[Label]) -> ScoreReport:
    """Compare findings with labels: per code, what was found, falsely found and missed."""
    expected: dict[_Key, list[tuple[Label, list[bool]]]] = {}
    kinds: dict[str, int] = {}
    label_count = 0
    for label in labels:
        label_count += 1
        kinds[label.kind] = kinds.get(label.kind, 0) + 1
        for code in label.codes:
            key = (label.table_id, label.round_id, code)
            expected.setdefault(key, []).append((label, [False]))
    false_alarms: set[tuple[str, str | None, str, int | None]] = set()
    finding_count = 0
    injected = {code for _, _, code in expected}
    for finding in findings:
        key = (finding.table_id, finding.round_id, finding.code)
        screened = finding.code in SCREEN_KINDS and key not in expected
        unasked = finding.code in COLLUSION_KINDS and finding.code not in injected
        if finding.code in STATISTICAL_CODES or screened or unasked:
            # A prompt for review that chance alone raises now and then: an equipment screen's
            # counts only where a label names it (loaded dice), its chance alarms measured apart
            # (bench/dice_screen.py, bench/false_alarms.py). Loaded dice also move the starting
            # positions they count. A collusion screen whose pattern was injected counts its
            # every alarm, so its precision says how many of them were the injected ones.
            continue
        finding_count += 1
        matches = [
            hit
            for label, hit in expected.get(key, [])
            if label.position is None or label.position == finding.position
        ]
        for hit in matches:
            hit[0] = True
        if not matches:
            false_alarms.add((*key, finding.position))
    tallies: dict[str, list[int]] = {}
    for (_, _, code), entries in expected.items():
        tally = tallies.setdefault(code, [0, 0, 0])
        for _, hit in entries:
            tally[0 if hit[0] else 2] += 1
    for _, _, code, _ in false_alarms:
        tallies.setdefault(code, [0, 0, 0])[1] += 1
    codes = {code: CodeScore(code, *tallies[code]) for code in sorted(tallies)}
    return ScoreReport(codes, label_count, finding_count, kinds)


def _round_of(event: Event) -> str | None:
    """Return the round an ingest observation is about, if it names one."""
    if isinstance(event, SequenceGapObserved):
        return event.about_round_id
    if isinstance(event, EventIdReused):
        round_id = event.conflicting_event.get("round_id")
        return round_id if isinstance(round_id, str) else None
    return None


def verify_for_scoring(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge events as the store would keep them (``verify_floor(as_stored(events))``),
    placing each stream finding in the round its observation was about."""
    rounds: dict[str, str] = {}

    def noting(stored: Iterable[Event]) -> Iterator[Event]:
        for event in stored:
            round_id = _round_of(event)
            if round_id is not None:
                rounds[str(event.event_id)] = round_id
            yield event

    for finding in verify_floor(noting(as_stored(events))):
        if finding.round_id is None and finding.event_ids and finding.event_ids[0] in rounds:
            finding = replaced(finding, round_id=rounds[finding.event_ids[0]])
        yield finding
