"""One table's shift in the auditors' two stories: the accounting of its chips and drop, and the
win replayed from its settled rounds.

Win by accounting is ``closer + credits + drop - opener - fills``: chips leave the
table inventory only for what the house pays, the drop box keeps what bought the
chips that left, so what the inventory gained net of the cage, plus what the box
holds, is what the house won (PA 465a.36(b), NJ 13:69D-1.20(a)). Win by replay adds
up what the settled rounds moved to or from the house. On a clean shift the two
agree to the cent.

All amounts are integer cents.

>>> ledger = ShiftLedger(ShiftKey("PG-01", "2026-11-21", "day"), game="paigow")
>>> ledger.opener, ledger.closer = 2_000_000, 2_010_000
>>> ledger.fills.append(Slip(7, 50_000, "e1"))
>>> ledger.counts["first"] = DropCount(100_000, 0, 0, 0, "e2")
>>> ledger.accounting_win, ledger.drop, str(ledger.hold_percent)
(60000, 100000, '60.00')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from audit.games.confidence import DEFAULT_CONFIDENCE, z_for
from audit.games.money import Cents

INSTRUMENTS = ("cash", "marker", "coupon")


@dataclass(frozen=True, order=True)
class ShiftKey:
    """A table's shift on one gaming day: the unit of the Master Game Report."""

    table_id: str
    gaming_day: str
    shift: str


@dataclass(frozen=True)
class Slip:
    """One numbered form: its number, amount and the event that recorded it."""

    number: int
    amount: Cents
    event_id: str


@dataclass(frozen=True)
class DropCount:
    """One count of a drop box, by what it held."""

    cash: Cents
    coupons: Cents
    markers: Cents
    chips: Cents
    event_id: str

    @property
    def total(self) -> Cents:
        """Return everything the box held."""
        return self.cash + self.coupons + self.markers + self.chips


@dataclass
class ReplayedWin:
    """What the settled rounds moved to the house (negative: from it), by source."""

    wagers: Cents = 0
    """House result on the wagers it banks: dealer-banked Pai Gow, Pair Fortunes, surrenders."""
    vigorish: Cents = 0
    """Vigorish taken from winning players."""
    surplus_vigorish: Cents = 0
    """Vigorish on a player bank's or co-bank's surplus."""
    co_bank: Cents = 0
    """The house's half of co-banked rounds: surplus taken less shortfall paid."""
    dealer_wager: Cents = 0
    """The dealer's wager against a player bank."""
    collection_fees: Cents = 0
    """California collection fees (dropped, not put in the inventory)."""
    vigorish_owed: Cents = 0
    """Vigorish the rounds owed the house, by the engine, beside what was collected."""
    repeated_settlements: Cents = 0
    """What a wager's second settlement moved (a winner paid twice: negative). The chips did
    move, so the win counts it; it is kept apart from ``wagers``, which holds only what the
    cards won or lost, and the round's own finding carries it as money at stake."""

    @property
    def total(self) -> Cents:
        """Return the house's win from the rounds."""
        return (self.wagers + self.vigorish + self.surplus_vigorish + self.co_bank
                + self.dealer_wager + self.collection_fees
                + self.repeated_settlements)  # fmt: skip

    @property
    def vigorish_collected(self) -> Cents:
        """Return every vigorish collected: from players and from surpluses."""
        return self.vigorish + self.surplus_vigorish

    @property
    def vigorish_uncollected(self) -> Cents:
        """Return vigorish owed but not collected (negative when more was taken than owed)."""
        return self.vigorish_owed - self.vigorish_collected


HOLD_BAND_Z = z_for(DEFAULT_CONFIDENCE)
"""The band's half-width in standard deviations: the statistics' own confidence (99.9%, about
3.29), so a table-shift is flagged by chance alone about once in a thousand."""


@dataclass
class HoldBand:
    """The replayed win's expectation and variance over the house-banked wagers.

    ``expected`` and ``variance`` are statistical estimates from the engine's chances, in
    cents and cents squared: never money moved, so ``float`` on purpose. What moved is
    ``observed`` and ``wagered``, exact ``int`` cents.
    """

    expected: float = 0.0
    variance: float = 0.0
    wagered: Cents = 0
    observed: Cents = 0
    """What those same wagers actually moved to the house, vigorish included."""

    def edges(self, replayed: Cents) -> tuple[float, float] | None:
        """Return the band around a shift's replayed win ``replayed`` (cents), or None.

        Only the house-banked wagers are random in the band: the rest of the rounds'
        money is taken as replayed, so the centre is their expectation plus the rest.
        """
        if self.variance <= 0:
            return None
        centre = self.expected + (replayed - self.observed)
        half = HOLD_BAND_Z * math.sqrt(self.variance)
        return centre - half, centre + half


def hold(win: Cents | None, drop: Cents | None) -> Decimal | None:
    """Return win / drop as a percentage to two places, ``None`` without a drop.

    >>> hold(26_000, 152_500), hold(-100, 0)
    (Decimal('17.05'), None)
    """
    if win is None or not drop:
        return None
    return (Decimal(win) * 100 / Decimal(drop)).quantize(Decimal("0.01"))


@dataclass
class ShiftLedger:
    """Everything one table's shift recorded about its money, and what its rounds replayed."""

    key: ShiftKey
    game: str
    jurisdiction: str = "PA"
    opener: Cents | None = None
    opener_slip: int | None = None
    closer: Cents | None = None
    closer_slip: int | None = None
    fills: list[Slip] = field(default_factory=list)
    credits: list[Slip] = field(default_factory=list)
    buy_ins: dict[str, Cents] = field(default_factory=lambda: dict.fromkeys(INSTRUMENTS, 0))
    box_id: str | None = None
    counts: dict[str, DropCount] = field(default_factory=dict)
    replay: ReplayedWin = field(default_factory=ReplayedWin)
    band: HoldBand = field(default_factory=HoldBand)
    opened_at: str | None = None
    closed_at: str | None = None
    """When the opener and the closer were counted: the shift's window for its findings."""
    round_ids: list[str] = field(default_factory=list)
    """The rounds completed in the shift: the replayed win's evidence."""
    event_ids: list[str] = field(default_factory=list)
    """The slips' and counts' events: the evidence a variance points to."""
    variance_codes: list[str] = field(default_factory=list)
    """The codes of the variances found in this shift."""

    @property
    def fills_total(self) -> Cents:
        """Return the chips brought to the table."""
        return sum(slip.amount for slip in self.fills)

    @property
    def credits_total(self) -> Cents:
        """Return the chips taken from the table."""
        return sum(slip.amount for slip in self.credits)

    @property
    def drop(self) -> Cents | None:
        """Return the counted drop (the first count), None until the box is counted."""
        first = self.counts.get("first")
        return first.total if first is not None else None

    @property
    def accounting_win(self) -> Cents | None:
        """Return closer + credits + drop - opener - fills, None while a part is missing."""
        if self.opener is None or self.closer is None or self.drop is None:
            return None
        return self.closer + self.credits_total + self.drop - self.opener - self.fills_total

    @property
    def variance(self) -> Cents | None:
        """Return accounting win less replayed win, None while the accounting is incomplete."""
        win = self.accounting_win
        return None if win is None else win - self.replay.total

    @property
    def hold_percent(self) -> Decimal | None:
        """Return win / drop as a percentage to two places, None without both."""
        return hold(self.accounting_win, self.drop)

    def as_dict(self) -> dict[str, Any]:
        """Return the ledger as a JSON-ready dict (the reconciliation view stores it).

        Written out field by field, in the fields' order, rather than ``dataclasses.asdict``:
        the view writes every changed ledger each batch, and the generic walk (a deep copy of
        every value) was most of that. The keys and their order are ``asdict``'s, plus the
        derived totals; tests/unit/accounting/test_ledger_dict.py holds the two equal.
        """
        key, replay, band = self.key, self.replay, self.band
        drop, win = self.drop, self.accounting_win
        held = hold(win, drop)
        return {
            "key": {"table_id": key.table_id, "gaming_day": key.gaming_day, "shift": key.shift},
            "game": self.game,
            "jurisdiction": self.jurisdiction,
            "opener": self.opener,
            "opener_slip": self.opener_slip,
            "closer": self.closer,
            "closer_slip": self.closer_slip,
            "fills": [_slip_dict(slip) for slip in self.fills],
            "credits": [_slip_dict(slip) for slip in self.credits],
            "buy_ins": dict(self.buy_ins),
            "box_id": self.box_id,
            "counts": {name: _count_dict(count) for name, count in self.counts.items()},
            "replay": {
                "wagers": replay.wagers,
                "vigorish": replay.vigorish,
                "surplus_vigorish": replay.surplus_vigorish,
                "co_bank": replay.co_bank,
                "dealer_wager": replay.dealer_wager,
                "collection_fees": replay.collection_fees,
                "vigorish_owed": replay.vigorish_owed,
                "repeated_settlements": replay.repeated_settlements,
                "total": replay.total,
            },
            "band": {
                "expected": band.expected,
                "variance": band.variance,
                "wagered": band.wagered,
                "observed": band.observed,
            },
            "opened_at": self.opened_at,
            "closed_at": self.closed_at,
            "round_ids": list(self.round_ids),
            "event_ids": list(self.event_ids),
            "variance_codes": list(self.variance_codes),
            "fills_total": self.fills_total,
            "credits_total": self.credits_total,
            "drop": drop,
            "accounting_win": win,
            "variance": None if win is None else win - replay.total,
            "hold_percent": None if held is None else str(held),
        }


def _slip_dict(slip: Slip) -> dict[str, Any]:
    return {"number": slip.number, "amount": slip.amount, "event_id": slip.event_id}


def _count_dict(count: DropCount) -> dict[str, Any]:
    return {
        "cash": count.cash,
        "coupons": count.coupons,
        "markers": count.markers,
        "chips": count.chips,
        "event_id": count.event_id,
    }
