"""Reading a producer's JSON Lines file of table events, as the offline commands do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from audit.events.catalogue import InvalidEventError, parse_arriving
from audit.events.envelope import Event


def read_events(path: Path, errors: TextIO) -> Iterator[Event]:
    """Yield the valid events of a JSON Lines file; say on ``errors`` which lines are not."""
    with path.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield parse_arriving(line)
            except InvalidEventError as error:
                print(f"{path.name}:{number}: not an event: {error}", file=errors)
