"""Exact money for the rules engines: integer cents.

The engines settle in ``int`` cents because integer arithmetic is exact and
fast; the edges convert to and from :class:`~decimal.Decimal` dollars.

>>> to_cents("12.5")
1250
>>> format_cents(1250)
'12.50'
>>> ceil_div(101, 20)
6
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from audit.games.errors import InvalidAmountError

Cents = int


def to_cents(amount: Decimal | int | str) -> Cents:
    """Convert dollars (``Decimal``, ``int`` or a decimal string) to cents, refusing fractions."""
    if isinstance(amount, (bool, float)):
        raise InvalidAmountError(f"amount must be exact, not {amount!r}")
    try:
        value = Decimal(amount) * 100
    except InvalidOperation:
        raise InvalidAmountError(f"invalid amount: {amount!r}") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise InvalidAmountError(f"amount finer than a cent: {amount!r}")
    return int(value)


_HUNDRED = Decimal(100)


def decimal_cents(amount: Decimal) -> Cents:
    """Return ``to_cents(amount)`` for a ``Decimal``: the same cents, the same refusals, sooner.

    For the hot paths that convert every amount of every event (settlement checks): most
    recorded amounts are zero, and a zero needs no arithmetic. Anything but whole cents
    (finer than a cent, not finite) goes to :func:`to_cents`, which raises.

    >>> decimal_cents(Decimal("0.00")), decimal_cents(Decimal("12.5"))
    (0, 1250)
    """
    try:
        if not amount:
            return 0
        value = amount * _HUNDRED
        cents = int(value)
    except (ArithmeticError, ValueError):  # NaN, sNaN, an infinity
        return to_cents(amount)
    return cents if cents == value else to_cents(amount)


def to_dollars(cents: Cents) -> Decimal:
    """Convert cents to a two-place ``Decimal`` of dollars."""
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def format_cents(cents: Cents) -> str:
    """Format cents as a dollar string with two places, e.g. ``'-3.25'``."""
    return str(to_dollars(cents))


def ceil_div(numerator: int, denominator: int) -> int:
    """Divide, rounding toward positive infinity (for non-negative amounts, 'round up')."""
    return -(-numerator // denominator)


def check_amount(cents: Cents, what: str) -> Cents:
    """Return ``cents`` if it is a non-negative ``int``, else raise naming ``what``."""
    if not isinstance(cents, int) or isinstance(cents, bool) or cents < 0:
        raise InvalidAmountError(f"{what} must be a non-negative whole number of cents: {cents!r}")
    return cents
