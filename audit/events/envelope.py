"""The envelope every event carries, and the field types events share.

An event is a frozen, slotted pydantic dataclass (declared with :func:`event`) with a
stable ``type`` string and an explicit ``schema_version``; its identity is never a
Python module path. Table-level events carry no ``round_id``; round events must carry one.

Dataclasses rather than ``BaseModel``: pydantic validates them alike, from the same
annotations, but a slotted instance holds its fields in the object itself. A stored
shift is millions of events read field by field by the verification and the
projections: a ``BaseModel`` keeps each event's fields in a dict of its own, and
its ``__getattr__`` sends every read down CPython's slow path (about 20 ns a read
against 5 ns here, and 540 bytes an event against 150 before its values).
"""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Any, ClassVar, TypeVar, cast, dataclass_transform
from uuid import UUID

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    model_validator,
)
from pydantic.dataclasses import dataclass
from pydantic.fields import FieldInfo
from pydantic_core import PydanticKnownError

TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")]
RoundId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$")]
PersonId = Annotated[str, Field(min_length=1, max_length=64)]

ARRIVING = "arriving"
"""The validation-context key set for bytes arriving from a producer.

Events arriving on the wire follow docs/events.md to the letter (money as a
decimal string, for one). Stored facts and events built in code are read without
the wire rules: a fact stored under laxer rules must still read back.
"""

_MONEY_TEXT = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]{1,2})?")
"""Dollars on the wire: digits, at most two decimals; no sign, exponent, spaces or zero padding."""


def _money_on_the_wire(value: Any, info: ValidationInfo) -> Any:
    if not (info.context and info.context.get(ARRIVING)):
        return value
    if isinstance(value, str) and _MONEY_TEXT.fullmatch(value):
        return value
    raise ValueError(
        f'money is a decimal string with at most two decimal places, such as "12.50", not {value!r}'
    )


_ZERO = Decimal(0)
_MONEY_DIGITS = 12
_MONEY_PLACES = 2


def _width_and_places(value: Decimal) -> tuple[int, int]:
    """Return how many digits ``value`` is written with, and how many after the point."""
    _, digits, exponent = value.as_tuple()
    if exponent >= 0:  # type: ignore[operator]  # an int: the value is finite
        return len(digits) + exponent, 0  # type: ignore[operator]
    places = -exponent  # type: ignore[operator]
    return max(len(digits), places), places


def _dollars_and_cents(value: Decimal) -> Decimal:
    # What Field(ge=0, max_digits=12, decimal_places=2) checks, in its order and with its
    # errors: behind a BeforeValidator, pydantic runs those as three Python validators
    # counting the digits four times, a cost every stored amount pays when read.
    if not value >= _ZERO:
        raise PydanticKnownError("greater_than_equal", {"ge": 0})
    _, digits, exponent = value.as_tuple()
    if -_MONEY_PLACES <= exponent <= 0 and len(digits) <= _MONEY_DIGITS:  # type: ignore[operator]
        return value  # nearly every amount: within both limits as written
    # As pydantic, a limit is exceeded only if the normalised value exceeds it too: trailing
    # zeros do not count ("1.500" has one place), nor digits lost to the context's precision.
    width, places = _width_and_places(value)
    try:
        normal_width, normal_places = _width_and_places(value.normalize())
    except ArithmeticError:  # past the context's exponents ("1E+1000000"): no amount of money
        raise PydanticKnownError("decimal_max_digits", {"max_digits": _MONEY_DIGITS}) from None
    if width > _MONEY_DIGITS and normal_width > _MONEY_DIGITS:
        raise PydanticKnownError("decimal_max_digits", {"max_digits": _MONEY_DIGITS})
    if places > _MONEY_PLACES and normal_places > _MONEY_PLACES:
        raise PydanticKnownError("decimal_max_places", {"decimal_places": _MONEY_PLACES})
    return value


_MONEY_LIMITS = {"ge": 0, "max_digits": _MONEY_DIGITS, "decimal_places": _MONEY_PLACES}
"""The limits as the exported JSON Schema has always named them (pydantic's own keys)."""

Money = Annotated[
    Decimal,
    BeforeValidator(_money_on_the_wire),
    AfterValidator(_dollars_and_cents),
    Field(json_schema_extra=_MONEY_LIMITS),
]
"""Dollars, exact to the cent, never negative; direction is in the field's name."""

MAX_SEQ = 2**63 - 1
"""The largest ``seq``: a signed 64-bit integer, as PostgreSQL's bigint holds it."""


def _utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:00-05:00 has no UTC moment in a datetime
        raise ValueError(f"{value.isoformat()!r} is out of range in UTC") from None


UtcDatetime = Annotated[AwareDatetime, AfterValidator(_utc)]


EVENT_CONFIG = ConfigDict(extra="forbid", use_enum_values=False)
"""Validation for every event: an unknown field is refused, an enum kept as its member."""

E = TypeVar("E", bound=type)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(Field,))
def event(cls: E) -> E:
    """Declare an event class: a frozen, slotted pydantic dataclass, its fields keyword-only.

    Every class of the catalogue, the envelope included, is declared with this. Keyword-only
    because the envelope's ``round_id`` has a default and a subclass's own fields need not.
    """
    # An absent schema_version reads as the class's own SCHEMA_VERSION: a field default, set
    # here so the class constant stays its one source. A model "before" validator did this
    # once, but any such validator makes pydantic build the whole input as Python objects
    # before validating it, which doubled the cost of reading a stored fact.
    cls.__annotations__ = {**inspect.get_annotations(cls), "schema_version": "int"}
    cls.schema_version = Field(  # type: ignore[attr-defined]
        default=cls.SCHEMA_VERSION,  # type: ignore[attr-defined]
        ge=1,
        description="The payload's version; an older one is upcast on read.",
    )
    # pydantic returns the class it was given, made a dataclass: still an ``E``.
    return cast(E, dataclass(frozen=True, slots=True, kw_only=True, config=EVENT_CONFIG)(cls))


@event
class Event:
    """The envelope: identity, place, order and provenance of one observed fact."""

    SCHEMA_VERSION: ClassVar[int] = 1
    ROUND_LEVEL: ClassVar[bool] = True

    event_id: UUID
    table_id: TableId
    round_id: RoundId | None = None
    seq: int = Field(
        strict=True,  # a JSON integer: not "7", 7.0 or true
        ge=0,
        le=MAX_SEQ,
        description="Per-table sequence number; gaps and reorders show here.",
    )
    occurred_at: UtcDatetime
    recorded_by: PersonId = Field(description="The device or employee that recorded the fact.")
    schema_version: int = Field(default=1, ge=1)  # each class's own default: see event()

    @model_validator(mode="after")
    def _check_level(self) -> Event:
        if self.ROUND_LEVEL and self.round_id is None:
            raise ValueError(f"a {self.type_name()} event needs a round_id")
        if not self.ROUND_LEVEL and self.round_id is not None:
            raise ValueError(f"a {self.type_name()} event is table-level: round_id must be absent")
        if self.schema_version != self.SCHEMA_VERSION:
            raise ValueError(
                f"schema_version {self.schema_version} is not {self.SCHEMA_VERSION}; upcast first"
            )
        return self

    @classmethod
    def type_name(cls) -> str:
        """Return this event type's stable ``type`` string."""
        return _TYPE_NAMES.get(cls) or _TYPE_NAMES.setdefault(
            cls, cls.__dataclass_fields__["type"].default
        )


_TYPE_NAMES: dict[type[Event], str] = {}


def event_fields(cls: type[Event]) -> dict[str, FieldInfo]:
    """Return an event class's fields, in declaration order, the envelope's first."""
    return cls.__pydantic_fields__  # type: ignore[attr-defined]  # set by pydantic's dataclass


@event
class TableEvent(Event):
    """An event about the table itself, outside any round."""

    ROUND_LEVEL: ClassVar[bool] = False
