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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from audit.accounting.controls import ACCOUNTING_KINDS, Thresholds, cite
from audit.accounting.games import GAMES, GameMoney, Unread
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
from audit.events.table import TableOpened
from audit.games.money import Cents, to_cents, to_dollars
from audit.verification.findings import Finding, Severity

NO_OPENER = "no-opener"


@dataclass
class _Table:
    money: GameMoney
    game: str
    gaming_day: str | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    current: ShiftKey | None = None
    last_closer: ShiftLedger | None = None
    last_slip: dict[str, int] = field(default_factory=dict)


@dataclass
class _Judged:
    count: bool = False
    shift: bool = False


class Reconciler:
    """Builds every table's shift ledgers from the facts, and judges their variances."""

    def __init__(self) -> None:
        self.ledgers: dict[ShiftKey, ShiftLedger] = {}
        self.tables: dict[str, _Table] = {}
        self.boxes: dict[str, ShiftKey] = {}
        self.slips: Used = {series: {} for series in SERIES.values()}
        self.changed: set[ShiftKey] = set()
        """Ledgers changed since the last :meth:`drain_changed`."""
        self._judged: dict[ShiftKey, _Judged] = {}

    # --- reading facts ---------------------------------------------------------------------

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the variances it completes (often none)."""
        if isinstance(event, TableOpened):
            table = self._table(event.table_id, event.game)
            table.gaming_day = event.gaming_day.isoformat()
            table.thresholds = Thresholds.from_options(dict(event.options))
            table.money.observe(event, ReplayedWin(), HoldBand())
            return []
        handler = _HANDLERS.get(event.type_name())
        if handler is not None:
            return handler(self, event)
        table = self.tables.get(event.table_id)
        if table is None or event.round_id is None:
            return []  # the count room, a table never opened, or a table event moving no money
        ledger = self._ledger(self._current(table, event))
        if table.money.observe(event, ledger.replay, ledger.band):
            ledger.round_ids.append(event.round_id)
        self.changed.add(ledger.key)
        return []

    def _table(self, table_id: str, game: str = "paigow") -> _Table:
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
            table = self.tables.get(key.table_id)
            ledger = self.ledgers[key] = ShiftLedger(
                key,
                game=table.game if table else "unknown",
                jurisdiction=table.money.jurisdiction if table else "PA",
            )
        self.changed.add(key)
        return ledger

    def drain_changed(self) -> list[ShiftLedger]:
        """Return the ledgers changed since the last call."""
        changed = [self.ledgers[key] for key in sorted(self.changed)]
        self.changed.clear()
        return changed

    # --- the slips -------------------------------------------------------------------------

    def _opener(self, event: OpenerRecorded) -> list[Finding]:
        table = self._table(event.table_id, self._game(event.table_id))
        key = ShiftKey(event.table_id, event.gaming_day.isoformat(), event.shift)
        table.current = key
        ledger = self._ledger(key)
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
        self.boxes[event.removed_box_id] = key
        ledger = self._ledger(key)
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
        return table.game if table else "paigow"

    def _jurisdiction(self, table_id: str) -> str:
        table = self.tables.get(table_id)
        return table.money.jurisdiction if table else "PA"

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


_HANDLERS: dict[str, Callable[[Reconciler, Event], list[Finding]]] = {
    "opener_recorded": Reconciler._opener,  # type: ignore[dict-item]
    "closer_recorded": Reconciler._slip,  # type: ignore[dict-item]
    "fill_recorded": Reconciler._slip,  # type: ignore[dict-item]
    "credit_recorded": Reconciler._slip,  # type: ignore[dict-item]
    "buy_in_recorded": Reconciler._buy_in,  # type: ignore[dict-item]
    "drop_box_exchanged": Reconciler._exchange,  # type: ignore[dict-item]
    "drop_counted": Reconciler._count,  # type: ignore[dict-item]
}
