"""A simulated table's books: its chip tray, its slips, buy-ins, fills and credits, its shifts.

The tray starts at the table's standard inventory (the opener). Chips leave it for
buy-ins (the cash, marker or coupon goes into the drop box), come and go with the
rounds, arrive on fills when it runs low and leave on credits when it runs high.
The rounds move it by what the house actually won, read from the events the table
recorded (a careless dealer's edits included), while the engine's own house net
(``engine_win``) is kept beside it so a test can hold the two against each other.

Shifts split the table's rounds; at each change the closer is counted, the drop box
exchanged, and the next shift's opener counted from the same chips (the closer's
duplicate, NJ 13:69D-1.21(a)). The cage's slips and boxes are in :mod:`.cage`; after
the floor closes, :mod:`.count_room` counts every box twice (PA 465a.25).

Variances are injected on purpose, at a known rate, each with its label
(:class:`Mishaps`): a short drop, a fill never recorded, a skipped slip number,
a second count that disagrees, chips missing between shifts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from audit.accounting.games import GAMES, GameMoney
from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.events.accounting import (
    BuyInRecorded,
    CloserRecorded,
    CreditRecorded,
    DropBoxExchanged,
    FillRecorded,
    OpenerRecorded,
)
from audit.events.envelope import Event
from audit.games.money import Cents, to_dollars
from audit.simulation.cage import CHIPS, Cage, DropBox, divmod_bills, pieces
from audit.simulation.labels import Label

if TYPE_CHECKING:
    from audit.simulation.paigow.players import Seating
    from audit.simulation.recorder import Recorder


class BookedTable(Protocol):
    """What the books need of a simulated table, whatever its game."""

    game: ClassVar[str]
    table_id: str
    number: int
    rng: random.Random
    recorder: Recorder
    floorperson: str
    dealer_id: str
    gaming_day: date
    seating: Seating
    books: TableBooks | None

    def emit(
        self,
        event_type: type[Any],
        seconds: tuple[float, float],
        recorded_by: str | None = None,
        **fields: Any,
    ) -> Any:
        """Record a table-level event."""
        ...


SHIFT_NAMES = ("day", "swing", "grave")
STANDARD_INVENTORY: Cents = 20_000_00
"""What the tray holds at the opening of the gaming day."""
_FILL_BELOW, _CREDIT_ABOVE = 0.5, 1.5
"""Fill when the tray falls under half its standard; credit when it passes one and a half."""


@dataclass
class Mishaps:
    """Variances to inject: each table-shift gets one with probability ``rate``."""

    rate: float
    rng: random.Random
    labels: list[Label]
    kinds: tuple[str, ...] = (
        "short_drop", "fill_unrecorded", "slip_skipped", "count_mismatch", "chips_missing",
    )  # fmt: skip

    def draw(self, shift_index: int, shifts: int) -> str | None:
        """Return the mishap for a table-shift, if any."""
        if not self.rate or self.rng.random() >= self.rate:
            return None
        fitting = [k for k in self.kinds if k != "chips_missing" or shift_index + 1 < shifts]
        return self.rng.choice(fitting)


@dataclass
class _Shift:
    name: str
    box: DropBox
    mishap: str | None = None
    done: bool = False
    """Whether this shift's mishap has been played (a fill-related one waits for a fill)."""


@dataclass
class TableBooks:
    """One simulated table's chips, slips and drop, moved by what the table records."""

    table: BookedTable
    cage: Cage
    shifts: int = 1
    rounds_per_shift: int = 0
    mishaps: Mishaps | None = None
    reader: GameMoney = field(init=False)
    """The table's game's own reading of its round events (audit/accounting/reconcile.py)."""
    replay: ReplayedWin = field(default_factory=ReplayedWin)
    engine_win: Cents = 0
    """The engine's house net for every round, kept by the round's own books (close_books)."""
    moved: Cents = 0
    """Chips into the tray other than the rounds: fills less credits less buy-ins."""
    shift_index: int = 0
    rounds_this_shift: int = 0
    current: _Shift | None = None
    closed: list[tuple[_Shift, date]] = field(default_factory=list)
    seen_players: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.reader = GAMES[getattr(self.table, "game", "paigow")]()

    @property
    def tray(self) -> Cents:
        """Return what the tray holds now."""
        won = self.replay.total - self.replay.collection_fees  # fees are dropped, not trayed
        return STANDARD_INVENTORY + self.moved + won

    def _emit(self, event_type: type[Event], **fields: Any) -> Event:
        return self.table.emit(event_type, (5, 20), self.table.floorperson, **fields)

    def _slip(self, event_type: type[Event], number: int, amount: Cents, **fields: Any) -> None:
        assert self.current is not None
        self._emit(event_type, slip_number=number, gaming_day=self.table.gaming_day,
                   shift=self.current.name, chips=pieces(amount, CHIPS), **fields)  # fmt: skip

    # --- the shift's edges ----------------------------------------------------------------

    def open(self, slip: int | None = None) -> None:
        """Count the opener (the last closer's duplicate) and start a shift."""
        name = SHIFT_NAMES[self.shift_index % len(SHIFT_NAMES)]
        shift = _Shift(name, DropBox(self.cage.box(self.table.table_id)))
        if self.mishaps is not None:
            shift.mishap = self.mishaps.draw(self.shift_index, self.shifts)
        self.current, self.rounds_this_shift = shift, 0
        number = slip if slip is not None else 4_000 + self.table.number  # yesterday's closer
        self._emit(OpenerRecorded, slip_number=number, gaming_day=self.table.gaming_day,
                   shift=name, chips=pieces(self.tray, CHIPS),
                   counted_by=self.table.dealer_id, verified_by=self.table.floorperson)  # fmt: skip
        self._buy_ins()

    def close(self) -> None:
        """Count the closer and exchange the drop box, ending the shift."""
        shift = self.current
        assert shift is not None
        number = self.cage.number("inventory")
        self._slip(CloserRecorded, number, self.tray, counted_by=self.table.dealer_id,
                   verified_by=self.table.floorperson)  # fmt: skip
        installed = self.cage.box(self.table.table_id)
        self._emit(DropBoxExchanged, removed_box_id=shift.box.box_id, installed_box_id=installed,
                   gaming_day=self.table.gaming_day, shift=shift.name)  # fmt: skip
        self.closed.append((shift, self.table.gaming_day))
        if shift.mishap == "chips_missing":  # between the shifts, before the next opener
            self.moved -= 100_00 * self.table.rng.randint(1, 5)
            self._label("chips_missing", "ACC-OPENER-MISMATCH")
        self.current = None
        self.shift_index += 1
        if self.shift_index < self.shifts:
            self.open(slip=number)

    def between_rounds(self) -> None:
        """Before each round: a shift change when due, buy-ins, and a fill or credit if needed."""
        due = self.rounds_per_shift and self.rounds_this_shift >= self.rounds_per_shift
        if due and self.shift_index + 1 < self.shifts:
            self.close()
        self._buy_ins()
        tray = self.tray
        if tray < STANDARD_INVENTORY * _FILL_BELOW:
            self._fill(STANDARD_INVENTORY - tray)
        elif tray > STANDARD_INVENTORY * _CREDIT_ABOVE:
            self._credit(tray - STANDARD_INVENTORY)

    def observe(self, events: list[Event]) -> None:
        """Move the tray and the box by what a round's recorded events say moved."""
        for event in events:
            before = self.replay.collection_fees
            if self.reader.observe(event, self.replay, HoldBand()):
                self.rounds_this_shift += 1
            if self.current is not None:
                self.current.box.chips += self.replay.collection_fees - before

    # --- money in and out -----------------------------------------------------------------

    def _buy_ins(self) -> None:
        rng = self.table.rng
        for player in self.table.seating.players:
            if player.player_id in self.seen_players or self.current is None:
                continue
            self.seen_players.add(player.player_id)
            amount, box = player.chips, self.current.box
            roll = rng.random()
            if roll < 0.06 and amount > 25_00:  # a $25 coupon, the rest in cash
                self._buy_in("coupon", 25_00, player, f"CPN-{rng.randrange(10**6):06d}")
                box.coupons += 25_00
                amount -= 25_00
            elif roll < 0.16 and amount >= 500_00:
                self._buy_in("marker", amount, player, f"MK-{rng.randrange(10**6):06d}")
                box.markers += amount
                continue
            self._buy_in("cash", amount, player, None)
            for bill, count in divmod_bills(amount):
                box.bills[bill] += count

    def _buy_in(self, instrument: str, amount: Cents, player: Any, reference: str | None) -> None:
        self.moved -= amount
        self.table.emit(BuyInRecorded, (3, 10), instrument=instrument, amount=to_dollars(amount),
                        position=player.spots[0], reference=reference)  # fmt: skip

    def _fill(self, needed: Cents) -> None:
        amount = -(-needed // 500_00) * 500_00  # in whole $500 racks
        shift = self.current
        assert shift is not None
        if shift.mishap in ("fill_unrecorded", "slip_skipped") and not shift.done:
            shift.done = True
            self.cage.skip("fill", self.table.table_id, shift.mishap)
            if shift.mishap == "fill_unrecorded":  # the chips arrive; no slip reaches the table
                self.moved += amount
                self._label("fill_unrecorded", "ACC-WIN-VARIANCE")
                return
        self.moved += amount
        self._slip(FillRecorded, self.cage.number("fill"), amount)

    def _credit(self, surplus: Cents) -> None:
        amount = surplus // 500_00 * 500_00
        if amount:
            self.moved -= amount
            self._slip(CreditRecorded, self.cage.number("credit"), amount)

    def _label(self, kind: str, *codes: str) -> None:
        if self.mishaps is not None:
            self.mishaps.labels.append(Label(self.table.table_id, None, kind, tuple(sorted(codes))))


def keep_books(
    tables: Sequence[BookedTable], shifts: int, rounds: int, mishaps: Mishaps | None = None
) -> list[TableBooks]:
    """Give every table its books, sharing one cage; return them in table order."""
    cage = Cage()
    per_shift = -(-rounds // shifts) if shifts > 1 else 0
    for table in tables:
        table.books = TableBooks(table, cage, shifts, per_shift, mishaps)
    return [table.books for table in tables if table.books is not None]


def observed(table: BookedTable, events: list[Event]) -> list[Event]:
    """Let the table's books see a round's recorded events; return them unchanged."""
    if table.books is not None:
        table.books.observe(events)
    return events
