"""The Master Game Report and the variance report, from stored shift ledgers. Pure.

The MGR has one row per gaming day, table and shift: opener, fills, credits, drop,
closer, win (by accounting), hold %, the band the game's own variance allows the hold
(so a shift of few hands shows a wide band, a busy one a narrow band), the replayed
win, the variance between them, vigorish owed but not collected, and the shift's
findings. Totals follow each gaming day, by game and for the day: a report of several
days never sums one day into another. In CSV each line says whether it is a shift or
a total (``row_type``), so an importer never takes a total for a shift.
Amounts are dollars; a part not yet recorded (a box not yet counted) shows as ``-``
and leaves the win open rather than guessing it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from audit.accounting.ledger import HoldBand, hold
from audit.games.money import Cents, to_dollars

COLUMNS = (
    "gaming_day", "table", "game", "shift", "opener", "fills", "credits", "drop", "closer", "win",
    "hold_pct", "hold_band", "replayed_win", "variance", "vig_uncollected", "findings",
    "at_stake", "exposure",
)  # fmt: skip
"""``at_stake`` and ``exposure``: the money of the shift's game findings, two columns never
added together (issue #22.2); the accounting's own variances are the ``variance`` column."""
_MONEY = ("opener", "fills", "credits", "drop", "closer", "win", "replayed_win", "variance",
          "vig_uncollected", "at_stake", "exposure")  # fmt: skip


@dataclass
class MgrLine:
    """One row of the MGR, amounts in cents (``None``: not recorded yet)."""

    gaming_day: str
    table: str
    game: str
    shift: str
    opener: Cents | None
    fills: Cents
    credits: Cents
    drop: Cents | None
    closer: Cents | None
    win: Cents | None
    replayed_win: Cents
    vig_uncollected: Cents
    findings: int
    band: tuple[float, float] | None = None
    """The replayed win the game's own variance allows (cents, ``HOLD_BAND_Z`` either side)."""
    at_stake: Cents | None = None
    """Money moved wrongly, or that would have, in the shift's game findings."""
    exposure: Cents | None = None
    """Action touched by the shift's procedure breaches whose money was right."""

    @property
    def variance(self) -> Cents | None:
        """Return win by accounting less replayed win."""
        return None if self.win is None else self.win - self.replayed_win

    @property
    def hold_pct(self) -> Decimal | None:
        """Return win / drop in percent, two places."""
        return hold(self.win, self.drop)

    @property
    def hold_band(self) -> str | None:
        """Return the band on hold % the engine's variance allows, e.g. ``'-4.1..18.6'``."""
        if self.band is None or not self.drop:
            return None
        low, high = (Decimal(edge * 100 / self.drop).quantize(Decimal("0.1")) for edge in self.band)
        return f"{low}..{high}"

    def values(self) -> dict[str, Any]:
        """Return the row as display values (dollars as Decimal, missing as None)."""
        raw = {name: getattr(self, name) for name in COLUMNS}
        for name in _MONEY:
            raw[name] = None if raw[name] is None else to_dollars(raw[name])
        return raw


@dataclass
class MgrTotal:
    """A total over rows: only complete rows enter the win, so the hold is never half-known."""

    label: str
    rows: list[MgrLine] = field(default_factory=list)
    gaming_day: str = ""

    def values(self) -> dict[str, Any]:
        """Return the total as display values."""
        done = [r for r in self.rows if r.win is not None]
        sums: dict[str, Any] = {
            "gaming_day": self.gaming_day,
            "table": self.label,
            "game": "",
            "shift": "",
        }
        for name in _MONEY:
            if name == "variance":
                continue
            parts = [getattr(r, name) for r in self.rows]
            sums[name] = to_dollars(sum(p for p in parts if p is not None))
        win = sum(r.win for r in done if r.win is not None)
        drop = sum(r.drop for r in done if r.drop is not None)
        sums["win"] = to_dollars(win)
        sums["variance"] = to_dollars(sum(r.variance or 0 for r in done))
        sums["hold_pct"] = hold(win, drop)
        sums["hold_band"] = None
        sums["findings"] = sum(r.findings for r in self.rows)
        return {name: sums[name] for name in COLUMNS}


def mgr_lines(
    ledgers: Iterable[Mapping[str, Any]],
    findings_of: Callable[[Mapping[str, Any]], int],
    money_of: Callable[[Mapping[str, Any]], tuple[Cents, Cents]] | None = None,
) -> list[MgrLine]:
    """Return the MGR rows for stored ledgers (``ShiftLedger.as_dict``), in table and shift
    order; ``findings_of`` counts a ledger's findings, ``money_of`` gives their money at
    stake and exposure (left blank without it)."""
    lines = []
    for ledger in sorted(ledgers, key=_line_order):
        replay = ledger["replay"]
        at_stake, exposure = money_of(ledger) if money_of is not None else (None, None)
        lines.append(MgrLine(
            gaming_day=ledger["key"]["gaming_day"], table=ledger["key"]["table_id"],
            game=ledger["game"], shift=ledger["key"]["shift"],
            opener=ledger["opener"], fills=ledger["fills_total"], credits=ledger["credits_total"],
            drop=ledger["drop"], closer=ledger["closer"], win=ledger["accounting_win"],
            replayed_win=replay["total"],
            vig_uncollected=replay["vigorish_owed"] - replay["vigorish"]
            - replay["surplus_vigorish"],
            findings=findings_of(ledger), band=band_of(ledger),
            at_stake=at_stake, exposure=exposure,
        ))  # fmt: skip
    return lines


def band_of(ledger: Mapping[str, Any]) -> tuple[float, float] | None:
    """Return a stored ledger's band around its replayed win (:meth:`HoldBand.edges`)."""
    return HoldBand(**ledger["band"]).edges(ledger["replay"]["total"])


def _line_order(ledger: Mapping[str, Any]) -> tuple[str, str, str]:
    key = ledger["key"]
    return (key["gaming_day"], key["table_id"], ledger["opened_at"] or "")


def mgr_totals(lines: list[MgrLine]) -> list[MgrTotal]:
    """Return each gaming day's totals: one per game, then the day's."""
    totals: list[MgrTotal] = []
    for day in sorted({line.gaming_day for line in lines}):
        of_day = [line for line in lines if line.gaming_day == day]
        for game in sorted({line.game for line in of_day}):
            totals.append(MgrTotal(f"total {game}", [ln for ln in of_day if ln.game == game], day))
        totals.append(MgrTotal("total day", of_day, day))
    return totals


def _shown(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Decimal):
        return f"{value:,.2f}"
    return str(value)


def render_text(lines: list[MgrLine], totals: list[MgrTotal], title: str) -> str:
    """Return the MGR as an aligned table."""
    rows = [[_shown(v) for v in line.values().values()] for line in lines]
    rows += [[_shown(v) for v in total.values().values()] for total in totals]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(COLUMNS)]

    def fmt(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 4 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [title, fmt(list(COLUMNS)), fmt(["-" * w for w in widths])]
    out += [fmt(r) for r in rows[: len(lines)]]
    out.append(fmt(["-" * w for w in widths]))
    out += [fmt(r) for r in rows[len(lines) :]]
    return "\n".join(out)


def render_csv(lines: list[MgrLine], totals: list[MgrTotal]) -> str:
    """Return the MGR as CSV: one header, the shifts, then the totals, each row typed."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("row_type", *COLUMNS))
    typed = [("shift", line.values()) for line in lines]
    typed += [("total", total.values()) for total in totals]
    for row_type, values in typed:
        writer.writerow([row_type, *("" if v is None else str(v) for v in values.values())])
    return buffer.getvalue()


def render_json(lines: list[MgrLine], totals: list[MgrTotal], gaming_day: str | None) -> str:
    """Return the MGR as one JSON document."""

    def plain(values: dict[str, Any]) -> dict[str, Any]:
        return {k: str(v) if isinstance(v, Decimal) else v for k, v in values.items()}

    return json.dumps({
        "gaming_day": gaming_day,
        "rows": [plain(line.values()) for line in lines],
        "totals": [plain(total.values()) for total in totals],
    })  # fmt: skip
