"""The MGR's chart as SVG: each table and shift's hold % beside the band its game allows.

One row per MGR line: a grey bar spans the hold band (the engine's own variance around
the replayed win, ``ACC-HOLD-BAND``), a dot marks the hold by accounting, green inside
the band and red outside it. A line without a drop or a band shows what it has, and says
so in its ``<title>``: a box not yet counted is not a hold of zero.

>>> band = (Decimal("-4.1"), Decimal("18.6"))
>>> 'class="hold inside"' in hold_chart_svg([HoldRow("PG-01 day", Decimal("17.05"), band)])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from html import escape

ROW_HEIGHT = 22
LABEL_WIDTH = 150
PLOT_WIDTH = 420


@dataclass(frozen=True)
class HoldRow:
    """One MGR line: its label, hold % (None without a drop) and band in hold % (or None)."""

    label: str
    hold: Decimal | None
    band: tuple[Decimal, Decimal] | None

    @property
    def inside(self) -> bool | None:
        """Return whether the hold lies in its band; None when either is unknown."""
        if self.hold is None or self.band is None:
            return None
        return self.band[0] <= self.hold <= self.band[1]


def parse_band(text: str | None) -> tuple[Decimal, Decimal] | None:
    """Return an MGR ``hold_band`` (``'-4.1..18.6'``) as two numbers, or None.

    >>> parse_band("-4.1..18.6"), parse_band(None), parse_band("garbled")
    ((Decimal('-4.1'), Decimal('18.6')), None, None)
    """
    if not text or ".." not in text:
        return None
    low, _, high = text.partition("..")
    try:
        return Decimal(low), Decimal(high)
    except InvalidOperation:
        return None


def _scale(rows: Sequence[HoldRow]) -> tuple[Decimal, Decimal]:
    values = [Decimal(0)]
    for row in rows:
        if row.hold is not None:
            values.append(row.hold)
        if row.band is not None:
            values += list(row.band)
    low, high = min(values), max(values)
    if high - low < 10:
        high = low + 10
    pad = (high - low) / 20
    return low - pad, high + pad


def hold_chart_svg(rows: Sequence[HoldRow]) -> str:
    """Return the chart as one inline SVG element (an empty note when there are no rows)."""
    if not rows:
        return '<p class="empty">no shifts to chart</p>'
    low, high = _scale(rows)
    span = high - low

    def x(value: Decimal) -> float:
        return LABEL_WIDTH + float((value - low) / span) * PLOT_WIDTH

    height = ROW_HEIGHT * len(rows) + 24
    parts = [
        f'<svg class="hold-chart" role="img" aria-label="hold against band, {len(rows)} shifts" '
        f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {LABEL_WIDTH + PLOT_WIDTH + 10} '
        f'{height}" width="{LABEL_WIDTH + PLOT_WIDTH + 10}" height="{height}">',
        f'<line x1="{x(Decimal(0)):.1f}" y1="0" x2="{x(Decimal(0)):.1f}" y2="{height - 20}" '
        'stroke="#999" stroke-dasharray="3,3"/>',
        f'<text x="{x(Decimal(0)):.1f}" y="{height - 6}" font-size="10" '
        'text-anchor="middle">0%</text>',
        f'<text x="{LABEL_WIDTH}" y="{height - 6}" font-size="10">{low:.1f}%</text>',
        f'<text x="{LABEL_WIDTH + PLOT_WIDTH}" y="{height - 6}" font-size="10" '
        f'text-anchor="end">{high:.1f}%</text>',
    ]
    for index, row in enumerate(rows):
        y = index * ROW_HEIGHT + 4
        mid = y + ROW_HEIGHT / 2 - 2
        label = escape(row.label)
        parts.append(f'<text x="4" y="{mid + 4:.1f}" font-size="11">{label}</text>')
        said = []
        if row.band is not None:
            a, b = x(row.band[0]), x(row.band[1])
            parts.append(
                f'<rect class="band" x="{a:.1f}" y="{mid - 5:.1f}" width="{max(b - a, 1):.1f}" '
                'height="10" fill="#d5d9e0"/>'
            )
            said.append(f"band {row.band[0]}% to {row.band[1]}%")
        else:
            said.append("no band")
        if row.hold is not None:
            state = "inside" if row.inside is not False else "outside"
            colour = "#2e7d32" if state == "inside" else "#c62828"
            said.append(f"hold {row.hold}%" + ("" if row.inside is None else f", {state}"))
            parts.append(
                f'<circle class="hold {state}" cx="{x(row.hold):.1f}" cy="{mid:.1f}" r="5" '
                f'fill="{colour}"><title>{label}: {escape("; ".join(said))}</title></circle>'
            )
        else:
            said.append("no hold: no drop counted")
            parts.append(f'<text x="{LABEL_WIDTH + 4}" y="{mid + 4:.1f}" font-size="10" '
                         f'fill="#666">{escape("; ".join(said))}</text>')  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)
