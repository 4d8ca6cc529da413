"""The table's money outside the rounds: inventory slips, fills, credits, buy-ins, drop and count.

These are the auditors' facts, game-agnostic, on the same envelope and the same
exactly-once path as play. Each mirrors a paper (or electronic) form:

- the Table Inventory Slip, whose original is a shift's **closer** and whose
  duplicate is the next shift's **opener** (NJ 13:69D-1.21(a), PA 465a.37, 465a.42);
- the **Fill** and **Credit** slips, sequentially numbered (PA 465a.38-39,
  NJ 13:69D-1.23(d));
- chips issued at the table for cash, a marker (counter check) or a coupon
  (PA 465a.36(b)(1)-(2), NJ 13:69D-1.20(a)1);
- the drop box removed and replaced, and the count room's first and blind second
  count of it (PA 465a.25).

The count room is a station of its own: its facts carry the count room's id in
``table_id`` (its own ``seq``, its own Kafka key) and name the counted table in
``for_table_id``, since the count room cannot know a table's sequence.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, field_validator
from pydantic.dataclasses import dataclass

from audit.events.envelope import Money, PersonId, TableEvent, TableId, event

Denomination = Annotated[Decimal, Field(gt=0, max_digits=9, decimal_places=2)]
"""A chip's or a bill's face value in dollars."""
ShiftName = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,15}$", examples=["day"])]
"""The shift a slip or a drop belongs to, as the casino names its shifts ("day", "swing")."""
SlipNumber = Annotated[int, Field(ge=1, description="The form's preprinted serial number.")]
BoxId = Annotated[str, Field(min_length=1, max_length=64)]


@dataclass(frozen=True, slots=True, kw_only=True, config=ConfigDict(extra="forbid"))
class DenominationCount:
    """So many pieces (chips or bills) of one face value."""

    denomination: Denomination
    count: int = Field(ge=0)


Pieces = tuple[DenominationCount, ...]


def _distinct(pieces: Pieces) -> Pieces:
    seen = [p.denomination for p in pieces]
    if len(set(seen)) != len(seen):
        raise ValueError("each denomination is listed once")
    return pieces


def total(pieces: Pieces) -> Decimal:
    """Return the face value of ``pieces``, in dollars."""
    return sum((p.denomination * p.count for p in pieces), Decimal("0.00"))


@event
class _Slip(TableEvent):
    """A numbered form about one table, for one gaming day and shift."""

    slip_number: SlipNumber
    gaming_day: date
    shift: ShiftName
    chips: Pieces = Field(description="The chips the slip lists, by denomination.")

    @field_validator("chips")
    @classmethod
    def _one_line_per_denomination(cls, value: Pieces) -> Pieces:
        return _distinct(value)


@event
class OpenerRecorded(_Slip):
    """The table inventory counted at the shift's start against the Opener (the prior
    Closer's duplicate, NJ 13:69D-1.21(a)-(c), PA 465a.37(c))."""

    type: Literal["opener_recorded"] = "opener_recorded"
    counted_by: PersonId
    verified_by: PersonId


@event
class CloserRecorded(_Slip):
    """The table inventory counted at the shift's end and written on the Closer
    (NJ 13:69D-1.21(a), PA 465a.42, 465a.44)."""

    type: Literal["closer_recorded"] = "closer_recorded"
    counted_by: PersonId
    verified_by: PersonId


@event
class FillRecorded(_Slip):
    """Chips brought from the cage to the table on a Fill Slip (PA 465a.38)."""

    type: Literal["fill_recorded"] = "fill_recorded"


@event
class CreditRecorded(_Slip):
    """Chips taken from the table to the cage on a Credit Slip (PA 465a.39,
    NJ 13:69D-1.23)."""

    type: Literal["credit_recorded"] = "credit_recorded"


@event
class BuyInRecorded(TableEvent):
    """Chips issued from the table inventory for cash, a marker or a coupon, which go into the
    drop box (PA 465a.36(b)(1)-(2), NJ 13:69D-1.20(a)1)."""

    type: Literal["buy_in_recorded"] = "buy_in_recorded"
    instrument: Literal["cash", "marker", "coupon"]
    amount: Money = Field(gt=0, description="Face value of the chips issued.")
    position: int | None = Field(
        default=None, ge=0, le=8, description="The seat: 0-7 at Pai Gow, 1-8 at 21 Baccarat."
    )
    reference: str | None = Field(
        default=None, max_length=64, description="The marker's or coupon's number."
    )


@event
class DropBoxExchanged(TableEvent):
    """The shift's drop box was removed and an empty one attached (PA 465a.41)."""

    type: Literal["drop_box_exchanged"] = "drop_box_exchanged"
    removed_box_id: BoxId
    installed_box_id: BoxId
    gaming_day: date = Field(description="The gaming day whose drop the removed box holds.")
    shift: ShiftName = Field(description="The shift whose drop the removed box holds.")


@event
class DropCounted(TableEvent):
    """The count room's count of one drop box (PA 465a.25): the first count, or the blind
    second count made without sight of the first."""

    type: Literal["drop_counted"] = "drop_counted"
    box_id: BoxId
    for_table_id: TableId
    gaming_day: date
    shift: ShiftName
    count: Literal["first", "second"]
    cash: Pieces = Field(description="Currency by denomination.")
    coupons: Money = Decimal("0.00")
    markers: Money = Decimal("0.00")
    chips: Money = Field(
        default=Decimal("0.00"),
        description="Chips dropped at the table: California collection fees (CA schedules).",
    )
    counted_by: PersonId

    @field_validator("cash")
    @classmethod
    def _one_line_per_denomination(cls, value: Pieces) -> Pieces:
        return _distinct(value)

    @property
    def amount(self) -> Decimal:
        """Return the box's whole counted value, in dollars."""
        return total(self.cash) + self.coupons + self.markers + self.chips
