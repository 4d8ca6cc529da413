"""The marks a replay's text puts beside a recorded value: ``ok`` or ``MISMATCH`` with the
engine's. ``tablewatch replay`` colours the latter on a terminal."""

OK = "ok"
MISMATCH = "MISMATCH"


def mark(same: bool) -> str:
    """Return the mark for a recorded value beside the expected one.

    >>> mark(True), mark(False)
    ('ok', 'MISMATCH')
    """
    return OK if same else MISMATCH
