"""The cage's side of a simulated floor: numbered slips handed out in order, drop boxes, and
chips and bills broken into denominations.

A slip number issued but never recorded at a table (a fill that arrives without its
slip, a skipped number) is remembered, so the simulation can label the gap it
leaves in the series (PA 465a.3(c)).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from audit.accounting.slips import CAGE
from audit.events.accounting import DenominationCount, Pieces
from audit.games.money import Cents, to_dollars
from audit.simulation.labels import Label

CHIPS: tuple[Cents, ...] = (500_00, 100_00, 25_00, 5_00, 1_00, 25, 1)
"""Chip denominations in the tray, down to the cent (exact vigorish is paid in coin)."""
BILLS: tuple[Cents, ...] = (100_00, 50_00, 20_00, 10_00, 5_00, 1_00)


def pieces(amount: Cents, denominations: tuple[Cents, ...]) -> list[dict[str, Any]]:
    """Return ``amount`` as the fewest pieces of ``denominations`` (largest first)."""
    found = []
    for denomination in denominations:
        count, amount = divmod(amount, denomination)
        if count:
            found.append({"denomination": to_dollars(denomination), "count": count})
    if amount:
        raise ValueError(f"{amount} cents cannot be made of {denominations}")
    return found


def divmod_bills(amount: Cents) -> list[tuple[Cents, int]]:
    """Return cash ``amount`` as bills, largest first."""
    found = []
    for bill in BILLS:
        count, amount = divmod(amount, bill)
        if count:
            found.append((bill, count))
    return found


@dataclass
class Cage:
    """The floor's numbered forms and drop boxes, handed out in order of request."""

    numbers: dict[str, int] = field(
        default_factory=lambda: {"inventory": 5_001, "fill": 90_001, "credit": 30_001}
    )
    used: dict[str, list[int]] = field(default_factory=lambda: {"fill": [], "credit": []})
    skipped: dict[str, list[tuple[int, str, str]]] = field(
        default_factory=lambda: {"fill": [], "credit": []}
    )
    """Numbers issued but never recorded at a table: (number, table, mishap)."""
    boxes: int = 0

    def number(self, series: str) -> int:
        """Issue the next number of a series."""
        number = self.numbers[series]
        self.numbers[series] = number + 1
        if series in self.used:
            self.used[series].append(number)
        return number

    def skip(self, series: str, table_id: str, mishap: str) -> int:
        """Issue a number that no table will record."""
        number = self.number(series)
        self.used[series].remove(number)
        self.skipped[series].append((number, table_id, mishap))
        return number

    def box(self, table_id: str) -> str:
        """Issue the next drop box for a table."""
        self.boxes += 1
        return f"DB-{table_id}-{self.boxes:04d}"

    def gap_labels(self) -> list[Label]:
        """Label each skipped number that a later recorded number makes a gap."""
        labels = []
        for series, skipped in self.skipped.items():
            highest = max(self.used[series], default=0)
            for number, _, mishap in skipped:
                if number < highest:
                    labels.append(Label(CAGE, None, mishap, ("ACC-SLIP-GAP",)))
        return labels


@dataclass
class DropBox:
    """What one drop box holds."""

    box_id: str
    bills: Counter[Cents] = field(default_factory=Counter)
    markers: Cents = 0
    coupons: Cents = 0
    chips: Cents = 0

    def cash_pieces(self, missing: Counter[Cents] | None = None) -> Pieces:
        """Return the bills by denomination, less the ``missing`` ones."""
        bills = Counter(self.bills)
        bills.subtract(missing or Counter())
        return tuple(
            DenominationCount(denomination=to_dollars(d), count=n)
            for d, n in sorted(bills.items())
            if n
        )

    def take(self, rng: random.Random, most: int) -> Counter[Cents]:
        """Return up to ``most`` bills of $50 or $100 to go missing (none if the box has none):
        each is over the $25 a variance needs to be reported."""
        large = [bill for bill in (100_00, 50_00) if self.bills[bill]]
        if not large:
            return Counter()
        bill = large[0]
        return Counter({bill: rng.randint(1, min(most, self.bills[bill]))})
