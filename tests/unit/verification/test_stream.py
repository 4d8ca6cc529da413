"""A file's events as the store would hold them, each known by its bytes (``as_stored_lines``),
against the same events judged by canonical digests (``as_stored``)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.catalogue import event_json, parse_arriving
from audit.events.envelope import Event
from audit.events.ingest import EventIdReused, SequenceGapObserved
from audit.simulation import ShiftConfig
from audit.simulation.shift import simulate_shift
from audit.verification.stream import as_stored, as_stored_lines
from consumers.event_files import FileChangedError, read_arrivals, stored_events

BASE = [event_json(e).encode() for e in simulate_shift(ShiftConfig(2, 2), random.Random(7))]


def reformatted(line: bytes) -> bytes:
    """The same event in other bytes: keys sorted, spaced."""
    return json.dumps(json.loads(line), sort_keys=True, separators=(", ", ": ")).encode()


def altered(line: bytes) -> bytes:
    """Another event under the same id: its seq moved on."""
    data = json.loads(line)
    data["seq"] += 1_000
    return json.dumps(data).encode()


EDITS = {"repeat": lambda line: line, "reformat": reformatted, "alter": altered}


def canonical(events: list[Event]) -> list[str]:
    return [event_json(event) for event in events]


@settings(max_examples=60, deadline=None)
@given(
    edits=st.lists(
        st.tuples(
            st.sampled_from(sorted(EDITS)),
            st.integers(0, len(BASE) - 1),
            st.integers(0, len(BASE)),
        ),
        max_size=12,
    ),
    swaps=st.lists(
        st.tuples(st.integers(0, len(BASE) - 1), st.integers(0, len(BASE) - 1)), max_size=3
    ),
)
def test_a_file_known_by_its_bytes_is_the_stream_judged_by_canonical_digests(edits, swaps):
    lines = list(BASE)
    for i, j in swaps:  # reorders: the gaps the ingest observes
        lines[i], lines[j] = lines[j], lines[i]
    for edit, source, at in edits:  # arrivals again: the same bytes, the same event, another
        lines.insert(at, EDITS[edit](lines[source]))
    expected = canonical(list(as_stored(parse_arriving(line) for line in lines)))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "floor.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        assert canonical(list(stored_events(path, io.StringIO()))) == expected


def test_each_kind_of_arrival_again_is_judged_as_the_ingest_judges_it(tmp_path):
    first, second = BASE[0], BASE[1]
    path = tmp_path / "floor.jsonl"
    path.write_bytes(
        b"\n".join([first, first, reformatted(first), second, altered(second)]) + b"\n"
    )
    stored = list(stored_events(path, io.StringIO()))
    # the repeat and the reformatted repeat are dropped; the altered arrival of the second's
    # id is kept as an observation about it, not as a second event
    assert [type(e) for e in stored] == [type(parse_arriving(first)), type(parse_arriving(second)),
                                         EventIdReused]  # fmt: skip
    reused = stored[-1]
    assert isinstance(reused, EventIdReused)
    assert reused.reused_event_id == parse_arriving(second).event_id
    assert canonical(stored) == canonical(list(as_stored(
        parse_arriving(line) for line in path.read_bytes().splitlines())))  # fmt: skip


def test_a_line_is_read_again_only_for_an_id_that_arrives_with_other_bytes(tmp_path):
    reads: list[int] = []
    plain = [(parse_arriving(line), line, n) for n, line in enumerate(BASE)]
    repeated = [*plain, plain[3]]

    def reread(where: int, fingerprint: bytes) -> Event:
        reads.append(where)
        assert fingerprint == hashlib.sha256(plain[where][1]).digest()
        return plain[where][0]

    list(as_stored_lines(repeated, reread))
    assert reads == []  # the same bytes again: no canonical digest at all
    again = (parse_arriving(BASE[3]), reformatted(BASE[3]), len(BASE))
    assert list(as_stored_lines([*plain, again, again], reread)) == [e for e, _, _ in plain]
    assert reads == [3]  # once, however often the id arrives again


def test_a_gap_is_observed_from_the_lines_as_from_the_events(tmp_path):
    lines = [BASE[0], BASE[2], BASE[1], *BASE[3:]]
    path = tmp_path / "floor.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    stored = list(stored_events(path, io.StringIO()))
    assert any(isinstance(e, SequenceGapObserved) for e in stored)
    assert canonical(stored) == canonical(list(as_stored(parse_arriving(x) for x in lines)))


def test_a_line_changed_while_read_is_one_clear_error(tmp_path):
    path = tmp_path / "floor.jsonl"
    path.write_bytes(b"\n".join([BASE[0], BASE[1], reformatted(BASE[0])]) + b"\n")
    events = stored_events(path, io.StringIO())
    next(events)  # the file is read (and buffered) from here on
    at = BASE[0].index(b'"seq":') + len(b'"seq":')
    other = BASE[0][:at] + (b"8" if BASE[0][at : at + 1] == b"7" else b"7") + BASE[0][at + 1 :]
    assert parse_arriving(other).seq != parse_arriving(BASE[0]).seq  # still an event: another
    with path.open("r+b") as rewrite:
        rewrite.write(other)
    with pytest.raises(FileChangedError, match="changed while it was read"):
        list(events)


def test_a_pipe_is_judged_by_canonical_digests(tmp_path):
    fifo = tmp_path / "floor.fifo"
    os.mkfifo(fifo)
    lines = [BASE[0], reformatted(BASE[0]), *BASE[1:5], altered(BASE[2])]

    def write() -> None:
        with fifo.open("wb") as pipe:
            pipe.write(b"\n".join(lines) + b"\n")

    writer = threading.Thread(target=write)
    writer.start()
    stored = list(stored_events(fifo, io.StringIO()))
    writer.join(timeout=10)
    assert canonical(stored) == canonical(list(as_stored(parse_arriving(x) for x in lines)))


def test_a_line_not_an_event_is_named_and_skipped(tmp_path):
    path = tmp_path / "floor.jsonl"
    path.write_bytes(b"\n".join([BASE[0], b'{"type": "nonsense"}', b"", BASE[1]]) + b"\n")
    errors = io.StringIO()
    arrivals = list(read_arrivals(path, errors))
    assert [raw for _, raw, _ in arrivals] == [BASE[0], BASE[1]]
    assert [where for _, _, where in arrivals] == [0, len(BASE[0]) + 22 + 1]
    assert errors.getvalue().startswith("floor.jsonl:2: not an event:")
