"""Query inputs the API parses itself, each refusing bad input with 422 naming the field."""

from __future__ import annotations

from datetime import UTC, date, datetime


class BadInputError(ValueError):
    """Raised for a query parameter that is malformed: answered 422, naming the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def moment(text: str | None, field: str) -> datetime | None:
    """Return an ISO 8601 time that carries its UTC offset, or None when not given.

    >>> moment("2026-11-21T09:00:00-05:00", "since").isoformat()
    '2026-11-21T09:00:00-05:00'
    """
    if text is None or text == "":
        return None
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        raise BadInputError(field, f"not an ISO 8601 time: {text!r}") from None
    if found.tzinfo is None:
        example = found.replace(tzinfo=UTC).isoformat()
        raise BadInputError(field, f"needs a UTC offset, e.g. {example}: {text!r}")
    return found


def gaming_day(text: str | None, field: str = "gaming_day") -> str | None:
    """Return a gaming day as YYYY-MM-DD, or None when not given."""
    if text is None or text == "":
        return None
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise BadInputError(field, f"not a date (YYYY-MM-DD): {text!r}") from None
