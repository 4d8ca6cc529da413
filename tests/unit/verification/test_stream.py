"""A file's events as the store would hold them, each known by its bytes (``as_stored_lines``),
against the same events judged by canonical digests (``as_stored``) and by the ingest's own
judgement with every id's digest in a dict, with every id in memory and with ids moved to
disk."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import tempfile
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.catalogue import event_json, parse_arriving
from audit.events.envelope import Event
from audit.events.ingest import EventIdReused, SequenceGapObserved
from audit.facts.chain import digest
from audit.facts.sequencing import fact_json, judge_known, observe
from audit.simulation import ShiftConfig
from audit.simulation.shift import simulate_shift
from audit.verification.first_arrivals import FirstArrivals
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


def ingest_decides(lines: list[bytes]) -> list[str]:
    """What the ingest stores for these lines, every id's first digest in a plain dict: the
    ingest's own judgement (``judge_known``, ``observe``), with nothing moved to disk."""
    next_seq: dict[str, SimpleNamespace] = {}
    firsts: dict[tuple[str, str], str] = {}
    stored: list[Event] = []
    for line in lines:
        event = parse_arriving(line)
        fact_digest = digest(fact_json(event))
        known = firsts.get((event.table_id, str(event.event_id)))
        if known is None:
            firsts[event.table_id, str(event.event_id)] = fact_digest
        state = next_seq.setdefault(event.table_id, SimpleNamespace(next_seq=0))
        judgement = judge_known(state, known, event.seq, fact_digest)
        if judgement.duplicate:
            continue
        stored += observe(judgement, event, fact_digest)
        if judgement.store_event:
            stored.append(event)
    return canonical(stored)


def holders() -> list[FirstArrivals]:
    """Where ids' first arrivals are held: in memory (the default limit, not reached here), and
    so few in memory, in chunks so short, that most ids move to disk and are recalled."""
    return [FirstArrivals(), FirstArrivals(limit=0, chunk=1), FirstArrivals(limit=5, chunk=3)]


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
def test_a_file_known_by_its_bytes_is_the_stream_the_ingest_decides(edits, swaps):
    lines = list(BASE)
    for i, j in swaps:  # reorders: the gaps the ingest observes
        lines[i], lines[j] = lines[j], lines[i]
    for edit, source, at in edits:  # arrivals again: the same bytes, the same event, another
        lines.insert(at, EDITS[edit](lines[source]))
    expected = ingest_decides(lines)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "floor.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        for seen in holders():
            assert canonical(list(stored_events(path, io.StringIO(), seen))) == expected
        for seen in holders():
            events = (parse_arriving(line) for line in lines)
            assert canonical(list(as_stored(events, seen))) == expected
            assert seen.on_disk > 0 or seen.limit > len(lines)


def test_an_id_arriving_again_long_after_it_moved_to_disk_is_still_known():
    lines = [*BASE, BASE[0], reformatted(BASE[1]), altered(BASE[2])]
    for seen in holders():
        stored = list(as_stored((parse_arriving(line) for line in lines), seen))
        # the repeat and the reformatted repeat dropped, the altered arrival observed
        assert len(stored) == len(BASE) + 1
        reused = stored[-1]
        assert isinstance(reused, EventIdReused)
        assert reused.reused_event_id == parse_arriving(BASE[2]).event_id
        assert seen.on_disk >= len(BASE) - 5 or seen.limit > len(lines)


def test_ids_beyond_the_limit_move_to_disk_and_are_recalled_per_table():
    seen = FirstArrivals(limit=3, chunk=1)
    ids = [bytes([n]) * 16 for n in range(10)]
    for n, key in enumerate(ids):
        seen.recall([("T1", key), ("T2", key)])
        assert seen.get("T1", key) is None
        assert seen.get("T2", key) is None
        seen.add("T1", key, (b"first at T1 %d" % n).ljust(40))
        assert seen.held <= 3  # at most the limit, as recalls come one arrival apart here
    seen.recall([("T1", key) for key in ids] + [("T2", ids[0])])
    assert seen.on_disk == 9  # three moves of three ids
    assert seen.held == 1  # the tenth, in memory
    assert [seen.get("T1", key) for key in ids] == [
        (b"first at T1 %d" % n).ljust(40) for n in range(10)
    ]
    assert seen.get("T2", ids[0]) is None  # an id is judged per table, as the ingest does
    searched = seen.searches
    assert searched >= 9  # each id on disk was searched for, and found
    new_ids = [n.to_bytes(16, "big") for n in range(1_000, 3_000)]
    seen.recall([("T1", key) for key in new_ids])
    assert all(seen.get("T1", key) is None for key in new_ids)
    # the filter knows them new: the disk is searched for hardly any (1 in millions by chance)
    assert seen.searches - searched <= 2
    seen.close()


def test_a_first_arrival_is_of_one_width():
    with pytest.raises(ValueError, match="16 bytes and its first arrival 40, not 16 and 3"):
        FirstArrivals().add("T1", bytes(16), b"abc")
    with pytest.raises(ValueError, match="not 4 and 40"):
        FirstArrivals().add("T1", b"abcd", bytes(40))


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
