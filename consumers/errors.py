"""Errors raised at the edge: configuration, the broker and the topics on it.

Every one derives from :class:`TablewatchError`, so the command line can catch
the family in one place; each message is lowercase where it can be and quotes
the offending value with ``!r``.
"""

from __future__ import annotations


class TablewatchError(Exception):
    """Base class for every error the consumers layer raises on purpose."""


class ConfigError(TablewatchError, ValueError):
    """Raised for an environment variable that is malformed or out of range."""


class BrokerUnavailableError(TablewatchError):
    """Raised when no Kafka broker answers in time, or the dev broker fails to start."""


class TopicError(TablewatchError):
    """Raised for a topic or partition that does not exist or could not be created."""


class OffsetError(TablewatchError, ValueError):
    """Raised for a start offset that is negative or beyond what the broker holds."""


class FileChangedError(TablewatchError):
    """Raised for a file shorter than what was already ingested from it: it was changed."""


class PublishError(TablewatchError):
    """Raised when the broker does not acknowledge a published message."""


class RoundNotFoundError(TablewatchError, LookupError):
    """Raised for a round id the store does not hold (at the table named, if one was)."""


class AmbiguousRoundError(TablewatchError, LookupError):
    """Raised for a round id recorded at more than one table when no table was named."""
