"""The envelope every event carries, and the field types events share.

An event is a frozen pydantic model with a stable ``type`` string and an
explicit ``schema_version``; its identity is never a Python module path.
Table-level events carry no ``round_id``; round events must carry one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Any, ClassVar
from uuid import UUID

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, model_validator

TableId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")]
RoundId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$")]
PersonId = Annotated[str, Field(min_length=1, max_length=64)]
Money = Annotated[Decimal, Field(ge=0, max_digits=12, decimal_places=2)]
"""Dollars, exact to the cent, never negative; direction is in the field's name."""


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


UtcDatetime = Annotated[AwareDatetime, AfterValidator(_utc)]


class Event(BaseModel):
    """The envelope: identity, place, order and provenance of one observed fact."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)

    SCHEMA_VERSION: ClassVar[int] = 1
    ROUND_LEVEL: ClassVar[bool] = True

    event_id: UUID
    table_id: TableId
    round_id: RoundId | None = None
    seq: int = Field(ge=0, description="Per-table sequence number; gaps and reorders show here.")
    occurred_at: UtcDatetime
    recorded_by: PersonId = Field(description="The device or employee that recorded the fact.")
    schema_version: int = Field(ge=1)

    @model_validator(mode="before")
    @classmethod
    def _default_version(cls, data: Any) -> Any:
        if isinstance(data, dict) and "schema_version" not in data:
            return {**data, "schema_version": cls.SCHEMA_VERSION}
        return data

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
        return _TYPE_NAMES.get(cls) or _TYPE_NAMES.setdefault(cls, cls.model_fields["type"].default)


_TYPE_NAMES: dict[type[Event], str] = {}


class TableEvent(Event):
    """An event about the table itself, outside any round."""

    ROUND_LEVEL: ClassVar[bool] = False
