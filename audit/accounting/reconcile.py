"""The drop reconciliation, fed one stored fact at a time: each table's shift ledgers, and the
variances found between the two stories of its money.

Pure: it reads facts in the store's order and returns findings; the reconciliation
projection stores its ledgers, the findings projection its findings.

When each variance is judged:

- **opener** against the prior closer, as the opener is recorded (PA 465a.37(f),
  NJ 13:69D-1.21(e));
- **slip reused** as the second use arrives; **out of sequence** when a table
  records a number below one it already used; a **gap** in a series only when the
  day's slips are all in (:meth:`Reconciler.slip_gaps`), since slips from different
  tables arrive in no particular order;
- **first against second count** once both are in;
- **drop against buy-ins**, **accounting against replayed win** and the **hold band**
  once the shift has its opener, its closer and its first count.

Readings where the texts leave a choice:

- The first count is the drop; a second count that disagrees is a finding, never
  a silent correction.
- Rounds, buy-ins and settlements belong to the shift whose opener the table
  recorded last; before any opener, to a shift named ``no-opener``.
- Money variances at or under the report threshold are shown in the report, not
  raised as findings (:class:`~audit.accounting.controls.Thresholds`).

Retirement (the projections' reconciler; ``retire_after_days``, default
:data:`RETIRE_AFTER_DAYS`): a read model that follows the store for years must not
hold every ledger and slip ever seen. When a table opens a gaming day D, every gaming
day before D minus the window is retired: its ledgers, drop boxes, judged flags and
slip numbers are let go (the ledgers are in the view already, written as they last
changed). Days are the facts' own gaming days, never the clock, so a rebuild retires
exactly as the live projection did. What that changes, and only that:

- a fact that would change a retired day (a count, a slip, an opener, a box exchanged,
  a buy-in or a round's money for a shift of that day) is recorded as every fact is,
  but judged as ``ACC-LATE-RECORD`` (a warning, the money recorded as its exposure) and left out of
  the ledger, whose row stays as it was when the day was retired; a table's rounds and
  buy-ins under a retired day are reported once per shift, a slip or count each time;
- a slip number reused more than the window after its first use is no longer
  ``ACC-SLIP-REUSED`` (its first use is let go); at a table that has since used a
  higher number it is still ``ACC-SLIP-SEQUENCE``.

Without ``retire_after_days`` (offline ``tablewatch verify`` of a finite file) nothing
is retired and the series' gaps are judged over the whole file, as always.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta

from audit.accounting.controls import ACCOUNTING_KINDS, Thresholds, cite
from audit.accounting.games import GAMES, UNSEEN_JURISDICTION, GameMoney, Unread
from audit.accounting.ledger import (
    HOLD_BAND_Z,
    DropCount,
    HoldBand,
    ReplayedWin,
    ShiftKey,
    ShiftLedger,
    Slip,
)
from audit.accounting.slips import SERIES, Used, series_gaps
from audit.events.accounting import (
    BuyInRecorded,
    CloserRecorded,
    CreditRecorded,
    DropBoxExchanged,
    DropCounted,
    FillRecorded,
    OpenerRecorded,
    total,
)
from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.events.table import TableOpened
from audit.findings.finding import Finding, Severity
from audit.games.money import Cents, to_cents, to_dollars

NO_OPENER = "no-opener"
RETIRE_AFTER_DAYS = 7
"""Gaming days a day's ledgers and slips are held after a later day opens, in the projections:
a week for late counts and slips to arrive (see the module's docstring, "Retirement")."""
_STANDALONE = frozenset({"opener_recorded", "closer_recorded", "fill_recorded",
                         "credit_recorded", "drop_box_exchanged", "drop_counted"})  # fmt: skip
"""Facts each judged late on their own; rounds and buy-ins are judged late once per shift."""


class _LateError(Exception):
    """Raised inside the reconciler when a fact would change a retired day's ledger."""

    def __init__(self, key: ShiftKey) -> None:
        super().__init__(key)
        self.key = key


@dataclass
class _Table:
    money: GameMoney
    game: str
    gaming_day: str | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    current: ShiftKey | None = None
    last_closer: ShiftLedger | None = None
    last_slip: dict[str, int] = field(default_factory=dict)
    late_reported: ShiftKey | None = None
    """The retired shift this table's rounds and buy-ins were last reported late for."""


@dataclass
class _Judged:
    count: bool = False
    shift: bool = False


class Reconciler:
    """Builds every table's shift ledgers from the facts, and judges their variances."""

    def __init__(self, retire_after_days: int | None = None, *, track_changes: bool = True) -> None:
        """``retire_after_days``: the window after which a gaming day is retired (None: never).
        ``track_changes``: keep the ledgers changed for :meth:`drain_changed` (a judge that
        only wants the findings keeps none)."""
        self.ledgers: dict[ShiftKey, ShiftLedger] = {}
        self.tables: dict[str, _Table] = {}
        self.boxes: dict[str, ShiftKey] = {}
        self.slips: Used = {series: {} for series in SERIES.values()}
        self.changed: set[ShiftKey] = set()
        """Ledgers changed since the last :meth:`drain_changed`."""
        self._judged: dict[ShiftKey, _Judged] = {}
        self.retire_after_days = retire_after_days
        self.track_changes = track_changes
        self.retired_before: str | None = None
        """Gaming days before this one are retired (None: none is)."""
        self._unwritten: dict[ShiftKey, ShiftLedger] = {}
        """Retired ledgers changed since the last :meth:`drain_changed`: still to be written."""

    def __getstate__(self) -> dict[str, object]:
        """Return the state to pickle (a projection's checkpoint): the ledgers, tables and
        series, without the change watch, which is its reader's (:meth:`watch_changes`) and
        holds nothing once the reader has drained it."""
        state = vars(self).copy()
        state.update(track_changes=False, changed=set(), _unwritten={})
        return state

    def watch_changes(self, on: bool = True) -> None:
        """Keep (or stop keeping, and forget) the ledgers changed for :meth:`drain_changed`."""
        self.track_changes = on
        if not on:
            self.changed.clear()
            self._unwritten.clear()

    # --- reading facts ---------------------------------------------------------------------

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the variances it completes (often none)."""
        try:
            return self._feed(event)
        except _LateError as late:
            return self._late(event, late.key)

    def _feed(self, event: Event) -> list[Finding]:
        # One lookup by exact class (the catalogue's classes are never subclassed:
        # tests/unit/verification/paigow/test_round_view.py holds it); most facts are a
        # round's, and miss.
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            return handler(self, event)
        table = self.tables.get(event.table_id)
        if table is None or event.round_id is None:
            return []  # the count room, a table never opened, or a table event moving no money
        ledger = self._ledger(self._current(table, event))  # marks it changed
        if table.money.observe(event, ledger.replay, ledger.band):
            ledger.round_ids.append(event.round_id)
        return []

    def _opened(self, event: TableOpened) -> list[Finding]:
        opened = self._table(event.table_id, event.game)
        opened.gaming_day = event.gaming_day.isoformat()
        opened.thresholds = Thresholds.from_options(dict(event.options))
        opened.money.observe(event, ReplayedWin(), HoldBand())
        self._retire_before(event.gaming_day)
        return []

    # --- retirement ------------------------------------------------------------------------

    def _retire_before(self, opened: date) -> None:
        """Retire every gaming day more than the window before a day just opened."""
        if self.retire_after_days is None:
            return
        cutoff = (opened - timedelta(days=self.retire_after_days)).isoformat()
        if self.retired_before is not None and cutoff <= self.retired_before:
            return  # the usual opening: nothing newly out of the window
        self.retired_before = cutoff
        for key in [key for key in self.ledgers if key.gaming_day < cutoff]:
            ledger = self.ledgers.pop(key)
            self._judged.pop(key, None)
            if key in self.changed:  # not yet written: written with the next drain
                self.changed.discard(key)
                self._unwritten[key] = ledger
        self.boxes = {box: key for box, key in self.boxes.items() if key.gaming_day >= cutoff}
        for series, used in self.slips.items():
            self.slips[series] = {n: first for n, first in used.items() if first[1] >= cutoff}
        for table in self.tables.values():
            if table.current is not None and table.current.gaming_day < cutoff:
                table.current = None

    def _late(self, event: Event, key: ShiftKey) -> list[Finding]:
        """Judge a fact that would change a retired day: recorded, reported, not reconciled."""
        kind = event.type_name()
        table = self.tables.get(key.table_id)  # a count comes from the count room
        if kind not in _STANDALONE and table is not None:
            if table.late_reported == key:
                return []  # the shift's later rounds and buy-ins: reported once
            table.late_reported = key
        amount = _money_of(event)
        jurisdiction = table.money.jurisdiction if table else UNSEEN_JURISDICTION
        late = ACCOUNTING_KINDS["ACC-LATE-RECORD"]
        return [Finding(
            code=late.code, severity=late.severity, rule=cite(jurisdiction, late.rule_key),
            title=late.title, table_id=key.table_id, round_id=event.round_id, position=None,
            dealer_id=None, recorded=f"{kind} for {key.gaming_day} {key.shift}, recorded "
            f"{event.occurred_at.isoformat()}",
            expected=f"recorded within {self.retire_after_days} gaming days: days before "
            f"{self.retired_before} are closed and reconciled",
            exposure=to_dollars(abs(amount)), gaming_day=key.gaming_day,
            event_ids=(str(event.event_id),),
            occurred_at=event.occurred_at.isoformat(),
        )]  # fmt: skip

    def _table(self, table_id: str, game: str = DEFAULT_GAME) -> _Table:
        table = self.tables.get(table_id)
        if table is None or table.game != game:
            table = self.tables[table_id] = _Table(GAMES.get(game, Unread)(), game)
        return table

    def _current(self, table: _Table, event: Event) -> ShiftKey:
        if table.current is None:
            day = table.gaming_day or event.occurred_at.date().isoformat()
            table.current = ShiftKey(event.table_id, day, NO_OPENER)
        return table.current

    def _ledger(self, key: ShiftKey) -> ShiftLedger:
        ledger = self.ledgers.get(key)
        if ledger is None:
            if self.retired_before is not None and key.gaming_day < self.retired_before:
                raise _LateError(key)
            table = self.tables.get(key.table_id)
            ledger = self.ledgers[key] = ShiftLedger(
                key,
                game=table.game if table else "unknown",
                jurisdiction=table.money.jurisdiction if table else UNSEEN_JURISDICTION,
            )
        if self.track_changes:
            self.changed.add(key)
        return ledger

    def drain_changed(self) -> list[ShiftLedger]:
        """Return the ledgers changed since the last call (retired ones among them)."""
        found = {**self._unwritten, **{key: self.ledgers[key] for key in self.changed}}
        self.changed.clear()
        self._unwritten.clear()
        return [found[key] for key in sorted(found)]

    # --- the slips -------------------------------------------------------------------------

    def _opener(self, event: OpenerRecorded) -> list[Finding]:
        table = self._table(event.table_id, self._game(event.table_id))
        key = ShiftKey(event.table_id, event.gaming_day.isoformat(), event.shift)
        ledger = self._ledger(key)  # first: an opener for a retired day moves nothing
        table.current = key
        ledger.opener, ledger.opener_slip = to_cents(total(event.chips)), event.slip_number
        ledger.opened_at = event.occurred_at.isoformat()
        ledger.event_ids.append(str(event.event_id))
        prior = table.last_closer
        if prior is None or prior.closer is None:
            return []
        difference = ledger.opener - prior.closer
        severity = table.thresholds.severity(difference)
        if severity is None and event.slip_number == prior.closer_slip:
            return []
        return [self._finding(
            "ACC-OPENER-MISMATCH", ledger, severity or Severity.WARNING, difference,
            recorded=f"opener slip {event.slip_number}: {to_dollars(ledger.opener)}",
            expected=f"prior closer slip {prior.closer_slip}: {to_dollars(prior.closer)}",
            event_ids=(prior.event_ids[-1] if prior.event_ids else "", str(event.event_id)),
            occurred_at=event.occurred_at.isoformat(),
        )]  # fmt: skip

    def _slip(self, event: CloserRecorded | FillRecorded | CreditRecorded) -> list[Finding]:
        table = self._table(event.table_id, self._game(event.table_id))
        key = ShiftKey(event.table_id, event.gaming_day.isoformat(), event.shift)
        ledger = self._ledger(key)
        amount, event_id = to_cents(total(event.chips)), str(event.event_id)
        ledger.event_ids.append(event_id)
        if isinstance(event, CloserRecorded):
            ledger.closer, ledger.closer_slip = amount, event.slip_number
            ledger.closed_at = event.occurred_at.isoformat()
            table.last_closer = ledger
            if table.current == key:
                table.current = None
        elif isinstance(event, FillRecorded):
            ledger.fills.append(Slip(event.slip_number, amount, event_id))
        else:
            ledger.credits.append(Slip(event.slip_number, amount, event_id))
        findings = self._serial(table, ledger, event)
        return findings + self._judge_shift(ledger, event)

    def _serial(
        self,
        table: _Table,
        ledger: ShiftLedger,
        event: CloserRecorded | FillRecorded | CreditRecorded,
    ) -> list[Finding]:
        series, number = SERIES[event.type_name()], event.slip_number
        first = self.slips[series].get(number)
        findings: list[Finding] = []
        when = event.occurred_at.isoformat()
        if first is not None and first[2] != str(event.event_id):
            findings.append(self._finding(
                "ACC-SLIP-REUSED", ledger, Severity.WARNING, 0,
                recorded=f"{series} slip {number} again",
                expected=f"{series} slip {number} used once (first at {first[0]}, {first[1]})",
                event_ids=(first[2], str(event.event_id)), occurred_at=when,
            ))  # fmt: skip
        elif first is None:
            self.slips[series][number] = (
                event.table_id,
                ledger.key.gaming_day,
                str(event.event_id),
            )
        last = table.last_slip.get(series)
        if last is not None and number < last:
            findings.append(self._finding(
                "ACC-SLIP-SEQUENCE", ledger, Severity.WARNING, 0,
                recorded=f"{series} slip {number} after {last}",
                expected=f"{series} slips in issue order at {event.table_id}",
                event_ids=(str(event.event_id),), occurred_at=when,
            ))  # fmt: skip
        table.last_slip[series] = max(number, last or 0)
        return findings

    def _buy_in(self, event: BuyInRecorded) -> list[Finding]:
        table = self._table(event.table_id, self._game(event.table_id))
        ledger = self._ledger(self._current(table, event))
        ledger.buy_ins[event.instrument] += to_cents(event.amount)
        return []

    # --- the drop --------------------------------------------------------------------------

    def _exchange(self, event: DropBoxExchanged) -> list[Finding]:
        key = ShiftKey(event.table_id, event.gaming_day.isoformat(), event.shift)
        ledger = self._ledger(key)
        self.boxes[event.removed_box_id] = key
        ledger.box_id = event.removed_box_id
        ledger.event_ids.append(str(event.event_id))
        return []

    def _count(self, event: DropCounted) -> list[Finding]:
        key = self.boxes.get(event.box_id) or ShiftKey(
            event.for_table_id, event.gaming_day.isoformat(), event.shift
        )
        ledger = self._ledger(key)
        if event.count in ledger.counts:
            return []  # a recount of the same kind: the first one stands, the fact is stored
        ledger.counts[event.count] = DropCount(
            cash=to_cents(total(event.cash)), coupons=to_cents(event.coupons),
            markers=to_cents(event.markers), chips=to_cents(event.chips),
            event_id=str(event.event_id),
        )  # fmt: skip
        ledger.event_ids.append(str(event.event_id))
        if ledger.box_id is None:
            ledger.box_id = event.box_id
        return self._judge_counts(ledger, event) + self._judge_shift(ledger, event)

    def _judge_counts(self, ledger: ShiftLedger, event: DropCounted) -> list[Finding]:
        first, second = ledger.counts.get("first"), ledger.counts.get("second")
        judged = self._judged.setdefault(ledger.key, _Judged())
        if first is None or second is None or judged.count:
            return []
        judged.count = True
        difference = second.total - first.total
        severity = self._thresholds(ledger).severity(difference)
        if severity is None:
            return []
        return [self._finding(
            "ACC-COUNT-DISAGREE", ledger, severity, difference,
            recorded=f"second count {to_dollars(second.total)}",
            expected=f"the first count, {to_dollars(first.total)}",
            event_ids=(first.event_id, second.event_id), occurred_at=event.occurred_at.isoformat(),
        )]  # fmt: skip

    def _judge_shift(self, ledger: ShiftLedger, event: Event) -> list[Finding]:
        judged = self._judged.setdefault(ledger.key, _Judged())
        first = ledger.counts.get("first")
        win = ledger.accounting_win
        if judged.shift or win is None or first is None:
            return []
        judged.shift = True
        thresholds = self._thresholds(ledger)
        evidence, when = tuple(ledger.event_ids), event.occurred_at.isoformat()
        findings: list[Finding] = []
        expected_drop = sum(ledger.buy_ins.values()) + ledger.replay.collection_fees
        difference = first.total - expected_drop
        severity = thresholds.severity(difference)
        if severity is not None:
            bought = ", ".join(f"{k} {to_dollars(v)}" for k, v in ledger.buy_ins.items())
            findings.append(self._finding(
                "ACC-DROP-BUYINS", ledger, severity, difference,
                recorded=f"box {ledger.box_id} counted {to_dollars(first.total)}",
                expected=f"{to_dollars(expected_drop)} ({bought}, collection fees "
                         f"{to_dollars(ledger.replay.collection_fees)})",
                event_ids=evidence, occurred_at=when,
            ))  # fmt: skip
        variance = win - ledger.replay.total
        severity = thresholds.severity(variance)
        if severity is not None:
            findings.append(self._finding(
                "ACC-WIN-VARIANCE", ledger, severity, variance,
                recorded=f"win by accounting {to_dollars(win)}",
                expected=f"win replayed from {len(ledger.round_ids)} rounds "
                f"{to_dollars(ledger.replay.total)}",
                event_ids=evidence, occurred_at=when,
            ))  # fmt: skip
        return findings + self._judge_band(ledger, when)

    def _judge_band(self, ledger: ShiftLedger, when: str) -> list[Finding]:
        band, observed = ledger.band, ledger.replay.total
        edges = band.edges(observed)
        if edges is None or edges[0] <= observed <= edges[1]:
            return []
        expected, spread = (edges[0] + edges[1]) / 2, (edges[1] - edges[0]) / 2
        return [self._finding(
            "ACC-HOLD-BAND", ledger, Severity.INFO, 0,
            recorded=f"replayed win {to_dollars(observed)} on {to_dollars(band.wagered)} wagered",
            expected=f"{to_dollars(round(expected))} ± {to_dollars(round(spread))} "
            f"(z {HOLD_BAND_Z:.2f})",
            event_ids=tuple(ledger.event_ids), occurred_at=when,
        )]  # fmt: skip

    def slip_gaps(self, gaming_day: str | None = None) -> list[Finding]:
        """Return a finding for each number missing inside a series' used range for the day.

        Judged only on request: a gap is certain once every slip of the day is in.
        """
        return series_gaps(self.slips, self._jurisdiction, gaming_day)

    # --- helpers ---------------------------------------------------------------------------

    def _game(self, table_id: str) -> str:
        table = self.tables.get(table_id)
        return table.game if table else DEFAULT_GAME

    def _jurisdiction(self, table_id: str) -> str:
        table = self.tables.get(table_id)
        return table.money.jurisdiction if table else UNSEEN_JURISDICTION

    def _thresholds(self, ledger: ShiftLedger) -> Thresholds:
        table = self.tables.get(ledger.key.table_id)
        return table.thresholds if table else Thresholds()

    def _finding(
        self,
        code: str,
        ledger: ShiftLedger,
        severity: Severity,
        amount: Cents,
        *,
        recorded: str,
        expected: str,
        event_ids: tuple[str, ...],
        occurred_at: str | None = None,
    ) -> Finding:
        kind = ACCOUNTING_KINDS[code]
        ledger.variance_codes.append(code)
        return Finding(
            code=code, severity=severity, rule=cite(ledger.jurisdiction, kind.rule_key),
            title=kind.title, table_id=ledger.key.table_id, round_id=None, position=None,
            dealer_id=None, recorded=f"{ledger.key.gaming_day} {ledger.key.shift}: {recorded}",
            expected=expected, at_stake=to_dollars(abs(amount)),
            event_ids=event_ids, occurred_at=occurred_at, gaming_day=ledger.key.gaming_day,
        )  # fmt: skip


def _money_of(event: Event) -> Cents:
    """Return the money a late fact records: a count's drop, a slip's chips, a buy-in."""
    if isinstance(event, DropCounted):
        return to_cents(total(event.cash) + event.coupons + event.markers + event.chips)
    if isinstance(event, OpenerRecorded | CloserRecorded | FillRecorded | CreditRecorded):
        return to_cents(total(event.chips))
    if isinstance(event, BuyInRecorded):
        return to_cents(event.amount)
    return 0  # a round's money is in its wagers: the round is reported, not summed here


_HANDLERS: dict[type[Event], Callable[[Reconciler, Event], list[Finding]]] = {
    TableOpened: Reconciler._opened,  # type: ignore[dict-item]
    OpenerRecorded: Reconciler._opener,  # type: ignore[dict-item]
    CloserRecorded: Reconciler._slip,  # type: ignore[dict-item]
    FillRecorded: Reconciler._slip,  # type: ignore[dict-item]
    CreditRecorded: Reconciler._slip,  # type: ignore[dict-item]
    BuyInRecorded: Reconciler._buy_in,  # type: ignore[dict-item]
    DropBoxExchanged: Reconciler._exchange,  # type: ignore[dict-item]
    DropCounted: Reconciler._count,  # type: ignore[dict-item]
}
"""Event class -> its own reading; every other fact is a round's money, or none."""
