"""Reading a producer's JSON Lines file of table events, as the offline commands do."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from audit.events.catalogue import InvalidEventError, parse_arriving
from audit.events.envelope import Event
from audit.verification.first_arrivals import FirstArrivals
from audit.verification.stream import Arrival, as_stored, as_stored_lines
from consumers.errors import TablewatchError


class FileChangedError(TablewatchError):
    """Raised when a line read again no longer holds the bytes first read there."""


def read_events(path: Path, errors: TextIO) -> Iterator[Event]:
    """Yield the valid events of a JSON Lines file; say on ``errors`` which lines are not."""
    for event, _, _ in read_arrivals(path, errors):
        yield event


def read_arrivals(path: Path, errors: TextIO) -> Iterator[Arrival]:
    """Yield each valid event of a JSON Lines file with its line's bytes and the line's byte
    offset; say on ``errors`` which lines are not events."""
    offset = 0
    with path.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            where, offset = offset, offset + len(line)
            raw = line.strip()
            if not raw:
                continue
            try:
                yield parse_arriving(line), raw, where
            except InvalidEventError as error:
                print(f"{path.name}:{number}: not an event: {error}", file=errors)


def stored_events(path: Path, errors: TextIO, seen: FirstArrivals | None = None) -> Iterator[Event]:
    """Yield a JSON Lines file's events as the store would hold them (``as_stored``): each
    known by its line's bytes, a line read again only for an id that arrives again with other
    bytes. A file that cannot be read again (a pipe) is judged by canonical digests. The ids'
    first arrivals are held in ``seen`` (audit/verification/first_arrivals.py; None: in
    memory up to its default limit, then on disk)."""
    if not path.is_file():  # a pipe (/dev/stdin, a FIFO): read once, never again
        yield from as_stored(read_events(path, errors), seen)
        return

    def reread(where: int, fingerprint: bytes) -> Event:
        with path.open("rb") as lines:
            lines.seek(where)
            line = lines.readline()
        if hashlib.sha256(line.strip()).digest() != fingerprint:
            raise FileChangedError(f"{path.name} changed while it was read (at byte {where})")
        return parse_arriving(line)

    yield from as_stored_lines(read_arrivals(path, errors), reread, seen)
