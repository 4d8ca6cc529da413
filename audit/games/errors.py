"""Errors raised by the pure rules engines.

Every engine error derives from :class:`RulesError`, so a caller can catch the
whole family at an edge; each message is lowercase and quotes the offending
value with ``!r``.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class for every error a rules engine raises."""


class InvalidTileError(RulesError):
    """Raised for tile notation that names no tile, or a tile used twice."""


class InvalidSettingError(RulesError):
    """Raised for a setting whose hands are malformed or ordered wrongly."""


class InvalidDealError(RulesError):
    """Raised for dice, stacks, cuts or delivery inputs the rules cannot deal."""


class InvalidAmountError(RulesError):
    """Raised for money that is negative or finer than a cent."""


class InvalidSettlementError(RulesError):
    """Raised for a round that cannot be settled as described."""
