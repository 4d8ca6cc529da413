"""Every event id's first arrival, per table, in bounded memory: the offline twin of the
ingest's ``tablewatch_event_ids`` table (audit/store/ingest_state.py).

Telling a repeat from a new event needs every id seen before it, however long before (a
producer may reuse an id days later). Held in memory, that grows with the file: about 240
bytes an event, some 1.7 GB for a day of the 300-table casino that deploy/README.md sizes.
Here an id's first arrival is held in memory until :data:`MEMORY_IDS` are; then all of them
move to disk, as the ingest keeps its ids in its database, and memory holds only:

- a **run** per move: the moved ids' records, sorted, appended to one temporary file (the
  system deletes it when it is closed) and searched by bisection through a memory map;
- a **filter** over every id on disk (a Bloom filter of :data:`FILTER_BYTES`, made at the
  first move): an id it has never been given is surely new, so nearly every arrival, which
  is new, is judged without touching the disk. It only ever answers "maybe" wrongly, which
  costs a search of the runs, never a wrong judgement.

So memory is bounded (the limit's ids, the filter, a few bytes a run) whatever the file's
length. Arrivals are judged a chunk at a time (:meth:`FirstArrivals.recall`): the ids of a
chunk held on disk are fetched before it is judged. A file under the limit never touches the
disk. A first arrival is :data:`VALUE_BYTES` bytes: a fingerprint of 32 and a place of 8
(audit/verification/stream.py).
"""

from __future__ import annotations

import mmap
import tempfile
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO, TypeVar

MEMORY_IDS = 200_000
"""Ids held in memory before they move to disk: about 32 MB (some 160 bytes an id), so a file
of up to about 4,800 Pai Gow rounds is judged in memory alone. A lower limit costs little
time: each id moves once whatever the limit; only the runs are more."""
CHUNK = 512
"""Arrivals judged between two recalls: the memory limit may be passed by at most this many."""
FILTER_BYTES = 16 << 20
"""The filter's size: with two probes an id, a new id is taken for one on disk about 1 time in
100 with 7 million ids on disk (a day of 300 tables), 1 in 10 with 25 million."""
VALUE_BYTES = 40
_TABLE_BYTES = 4  # a table's number, in the order tables arrived
_ID_BYTES = 16  # a UUID's
_KEY_BYTES = _ID_BYTES + _TABLE_BYTES  # an event id's bytes, then its table's number
_RECORD_BYTES = _KEY_BYTES + VALUE_BYTES

T = TypeVar("T")


class FirstArrivals:
    """What each (table, event id) first arrived as, in memory up to a limit, then on disk."""

    def __init__(self, limit: int | None = None, chunk: int = CHUNK) -> None:
        """``limit``: ids held in memory before all of them move to disk (None: MEMORY_IDS);
        ``chunk``: arrivals judged between two recalls."""
        self.limit = MEMORY_IDS if limit is None else limit
        self.chunk = chunk
        self._memory: dict[str, dict[bytes, bytes]] = {}
        self.held = 0
        """Ids in memory now."""
        self.on_disk = 0
        """Ids moved to disk so far."""
        self.searches = 0
        """Ids the filter let through to a search of the runs (found or not)."""
        self._numbers: dict[str, bytes] = {}
        self._recalled: dict[tuple[str, bytes], bytes] = {}
        self._file: IO[bytes] | None = None
        self._map: mmap.mmap | None = None
        self._runs: list[tuple[int, int]] = []  # (first record's byte offset, records)
        self._filter = bytearray()
        self._bits = 0

    def chunks(self, items: Iterable[T]) -> Iterator[list[T]]:
        """Yield ``items`` a chunk at a time, each to be recalled before it is judged."""
        iterator = iter(items)
        while chunk := list(islice(iterator, self.chunk)):
            yield chunk

    def recall(self, keys: Iterable[tuple[str, bytes]]) -> None:
        """Before judging a chunk of arrivals with these (table, event id) keys: if memory is
        full, move what it holds to disk; then fetch from disk those of ``keys`` held there,
        for :meth:`get`."""
        if self.held >= self.limit:
            self._spill()
        self._recalled = {}
        if not self._runs:
            return
        memory, numbers = self._memory, self._numbers
        for table, key in keys:
            number = numbers.get(table)
            if number is None or key in memory.get(table, ()):
                continue  # a table never moved to disk, or an id in memory
            found = self._search(key + number)
            if found is not None:
                self._recalled[table, key] = found

    def get(self, table: str, key: bytes) -> bytes | None:
        """Return what the id first arrived as at ``table``, or None if it is new there (its
        chunk recalled first)."""
        held = self._memory.get(table)
        value = held.get(key) if held is not None else None
        if value is None and self._recalled:
            return self._recalled.get((table, key))
        return value

    def add(self, table: str, key: bytes, value: bytes) -> None:
        """Keep a new id's first arrival (an id :meth:`get` found nowhere): VALUE_BYTES bytes."""
        if len(value) != VALUE_BYTES or len(key) != _ID_BYTES:  # records on disk: one width
            raise ValueError(
                f"an event id is {_ID_BYTES} bytes and its first arrival {VALUE_BYTES}, "
                f"not {len(key)} and {len(value)}"
            )
        held = self._memory.get(table)
        if held is None:
            held = self._memory[table] = {}
        held[key] = value
        self.held += 1

    def _probes(self, key: bytes) -> tuple[int, int]:
        # Two positions from one hash (salted per process, so no file can aim at them).
        mixed = hash(key)
        return mixed % self._bits, (mixed >> 32) % self._bits

    def _search(self, key: bytes) -> bytes | None:
        first, second = self._probes(key)
        bits = self._filter
        if not (bits[first >> 3] >> (first & 7)) & 1 or not (bits[second >> 3] >> (second & 7)) & 1:
            return None  # never moved to disk: new
        self.searches += 1
        pages = self._map
        assert pages is not None  # a run exists
        for start, count in reversed(self._runs):
            low, high = 0, count
            while low < high:  # the first record not below the key
                middle = (low + high) // 2
                at = start + middle * _RECORD_BYTES
                if pages[at : at + _KEY_BYTES] < key:
                    low = middle + 1
                else:
                    high = middle
            at = start + low * _RECORD_BYTES
            if low < count and pages[at : at + _KEY_BYTES] == key:
                return pages[at + _KEY_BYTES : at + _RECORD_BYTES]
        return None

    def _spill(self) -> None:
        if not self.held:
            return  # a limit of 0: nothing to move yet
        try:
            self._move()
        except OSError as error:  # a full or unwritable temporary directory: say which
            raise OSError(
                error.errno, f"{error.strerror or error}, moving event ids to disk in",
                tempfile.gettempdir(),
            ) from error  # fmt: skip

    def _move(self) -> None:
        if self._file is None:
            # Kept open across moves and closed by close(): no one block can hold it.
            self._file = tempfile.TemporaryFile(prefix="tablewatch-ids-")  # noqa: SIM115
            self._filter = bytearray(FILTER_BYTES)
            self._bits = FILTER_BYTES * 8
        numbers, bits = self._numbers, self._filter
        records: list[bytes] = []
        while self._memory:  # each table's ids let go as their records are made: a lower peak
            table, held = self._memory.popitem()
            number = numbers.get(table)
            if number is None:
                number = numbers[table] = len(numbers).to_bytes(_TABLE_BYTES, "big")
            for key, value in held.items():
                record = key + number
                first, second = self._probes(record)
                bits[first >> 3] |= 1 << (first & 7)
                bits[second >> 3] |= 1 << (second & 7)
                records.append(record + value)
            del held
        records.sort()
        start = self._file.seek(0, 2)
        self._file.writelines(records)  # no joined copy of them all
        self._file.flush()
        self._runs.append((start, len(records)))
        if self._map is not None:
            self._map.close()
        self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        self.on_disk += self.held
        self.held = 0

    def close(self) -> None:
        """Let go of the disk's ids (the system deletes the temporary file)."""
        if self._map is not None:
            self._map.close()
            self._map = None
        if self._file is not None:
            self._file.close()
            self._file = None
