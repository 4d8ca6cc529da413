"""The event store: observed facts in eventsourcing aggregates, exactly once, tamper-evident."""
