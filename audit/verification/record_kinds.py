"""Findings about the record itself, the same for every game: a gap or reorder in a table's
sequence, an event id reused with other content, a round never completed.

They read no gaming rule (each rule set cites them as record integrity), so every
game's verifier reports them under these codes, described the same way.
"""

from __future__ import annotations

from audit.events.envelope import Event
from audit.events.ingest import EventIdReused, SequenceGapObserved
from audit.findings.finding import FindingKind, Severity

RECORD_KINDS: dict[str, FindingKind] = {
    kind.code: kind
    for kind in (
        FindingKind("DATA-SEQ-GAP", Severity.WARNING,
                    "events missing or out of order in the table's sequence", "records",
                    step="other", injectable=True),
        FindingKind("DATA-ID-REUSED", Severity.CRITICAL,
                    "an event id reused with different content", "records",
                    step="other", injectable=True),
        FindingKind("DATA-ROUND-INCOMPLETE", Severity.WARNING, "a round never completed",
                    "records", step="other", injectable=True),
    )
}  # fmt: skip


def observation(event: Event) -> tuple[str, str, str] | None:
    """Return (code, recorded, expected) for an ingest observation about the stream, else None."""
    if isinstance(event, SequenceGapObserved):
        return "DATA-SEQ-GAP", f"seq {event.observed_seq}", f"seq {event.expected_seq}"
    if isinstance(event, EventIdReused):
        return (
            "DATA-ID-REUSED",
            f"event {event.reused_event_id} with digest {event.conflicting_digest[:12]}",
            f"one content per event id (first digest {event.first_digest[:12]})",
        )
    return None
