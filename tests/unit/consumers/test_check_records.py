"""Validation of polled records, as the validating reader does it: per partition, in order."""

import json

from audit.events.examples import EXAMPLES
from audit.store.ingest import Checked, Rejected
from consumers.ingest import check_records
from consumers.kafka_io import Record


def record(partition: int, offset: int, value: bytes) -> Record:
    return Record("table-events", partition, offset, b"PG-01", value)


def test_records_are_checked_per_partition_in_offset_order_with_the_refused_kept_whole():
    good = json.dumps(EXAMPLES["no_more_bets"]).encode()
    opened = json.dumps(EXAMPLES["table_opened"]).encode()
    records = [record(0, 5, good), record(1, 9, opened), record(0, 6, b"{"), record(0, 7, good)]
    batches = check_records(records)
    assert [(b.source, b.last_offset, len(b.messages)) for b in batches] == [
        ("table-events[0]", 7, 3),
        ("table-events[1]", 9, 1),
    ]
    first, bad, _ = batches[0].messages
    assert isinstance(first, Checked)
    assert isinstance(bad, Rejected)
    assert (first.origin, first.kind) == ("table-events[0]@5", "no_more_bets")
    assert first.seq == EXAMPLES["no_more_bets"]["seq"]
    assert json.loads(first.text) == json.loads(good) | {"schema_version": 1}
    assert batches[0].refused == [(records[2], bad.reason)]
    assert "not JSON" in bad.reason
    opened_checked = batches[1].messages[0]
    assert opened_checked.day == EXAMPLES["table_opened"]["gaming_day"]
