"""Build a Pai Gow table's stream from the catalogue's examples, and read the codes of its
findings."""

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from audit.events.catalogue import parse_event
from audit.events.examples import EXAMPLES
from audit.verification.paigow.verify import verify_stream

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


TABLE = "PG-07"


class Table:
    """Builds one table's events in order, with seq and time running on."""

    def __init__(self, rule_set="pa-2012", inspected=True):
        self.events = []
        self.seq = itertools.count()
        self.clock = START
        self.add("table_opened", rule_set=rule_set)
        self.add("tile_set_received", tile_set_id="TS-1")
        if inspected:
            self.add("tile_set_inspected", tile_set_id="TS-1")
        self.add("dice_placed_in_shaker")

    def add(self, event_type, round_id=None, /, advance=timedelta(seconds=5), **fields):
        self.clock += advance
        envelope = {"table_id": TABLE, "seq": next(self.seq), "event_id": str(uuid.uuid4()),
                    "occurred_at": self.clock.isoformat()}  # fmt: skip
        data = {**EXAMPLES[event_type], **envelope, **fields}
        data.pop("round_id", None)
        if round_id is not None:
            data["round_id"] = round_id
        self.events.append(parse_event(data))
        return self.events[-1]

    def round(self, number, bank=None, offers=(), wagers=(3,), chips=None, advance=None):
        """A minimal round: offers, a bank if any, Pai Gow wagers at the given positions."""
        rid = f"r{number}"
        self.add("round_started", rid, round_number=number,
                 advance=advance or timedelta(seconds=5))  # fmt: skip
        for position in offers:
            self.add("bank_offered", rid, position=position)
            if position != bank:
                self.add("bank_declined", rid, position=position)
        if bank is not None:
            self.add("bank_accepted", rid, position=bank, chips_on_table=chips)
        for position in wagers:
            self.add("wager_placed", rid, position=position, amount="25.00", kind="pai_gow")
        self.add("round_completed", rid)
        return rid


def codes(table, prefix=("PG-", "DATA-")):
    return [f for f in verify_stream(table.events) if f.code.startswith(prefix)]
