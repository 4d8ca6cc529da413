"""What a command reports about a store before (or without) opening one: its URL with the
password masked, and the two errors a person can fix.

Kept apart from :mod:`audit.store.application` so that the command line, its logs and
its settings can name them without importing eventsourcing and psycopg: a command that
never opens a store (``verify FILE``, ``rules``) starts without them.
"""

from __future__ import annotations

import re

__all__ = ["StoreConfigError", "StoreUnavailableError", "mask_password"]


class StoreConfigError(ValueError):
    """Raised for a database location the store cannot use."""


class StoreUnavailableError(ConnectionError):
    """Raised when the configured database cannot be reached."""


# The password part is greedy up to an "@" so an unescaped "/" in it is masked too;
# masking a port by mistake is the safe way to be wrong.
_URL_PASSWORD = re.compile(r"^(?P<head>[^:/?#]+://[^:@/?#]*:)(?P<password>[^@]*)(?=@)")
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&]password=)(?P<password>[^&#]*)", re.IGNORECASE)


def mask_password(url: str) -> str:
    """Return ``url`` with any password, in the user info or the query, replaced by ``***``.

    >>> mask_password("postgresql://audit:s3cret@db:5432/tw?password=again&sslmode=require")
    'postgresql://audit:***@db:5432/tw?password=***&sslmode=require'
    >>> mask_password("postgresql://audit:a/b@db/tw"), mask_password("postgresql:///tw")
    ('postgresql://audit:***@db/tw', 'postgresql:///tw')
    """
    masked = _URL_PASSWORD.sub(r"\g<head>***", url)
    return _QUERY_PASSWORD.sub(r"\g<head>***", masked)
