"""Pearson's chi-squared goodness of fit, valid at small counts by pooling sparse cells.

Pearson's statistic is only chi-squared distributed when every cell expects enough
observations; the usual rule (Cochran) is five. :func:`goodness_of_fit` therefore
pools a cell expecting fewer than ``min_expected`` into its smaller neighbour
(adjacent cells: the tails of a dice total merge inwards) until every cell expects
enough, and tests with one degree of freedom fewer than the cells left. With fewer
than two cells left there is nothing to test and it returns ``None``: a window too
small to judge, never an alarm. The p-value is the chi-squared survival function,
computed here (the regularised upper incomplete gamma function) so the verification
layer needs nothing beyond the standard library.

>>> round(chi_squared_sf(3.841459, 1), 4)   # the 95% point of one degree of freedom
0.05
>>> fit = goodness_of_fit([10, 10, 10, 10, 10, 10], [1 / 6] * 6)
>>> fit.statistic, fit.df, fit.p_value
(0.0, 5, 1.0)
>>> goodness_of_fit([1, 0, 2], [0.5, 0.3, 0.2]) is None   # 3 throws: too few to judge
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

MIN_EXPECTED = 5.0
"""Cochran's rule: pool until every cell expects at least this many."""

DICE_TOTALS = tuple(range(3, 19))
FAIR_3D6: tuple[Fraction, ...] = tuple(
    Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if 1 <= t - a - b <= 6), 216)
    for t in DICE_TOTALS
)
"""The chance of each total of three fair dice, 3 to 18 (1/216 ... 27/216 ... 1/216)."""


@dataclass(frozen=True)
class GoodnessOfFit:
    """One test: the pooled cells' observed and expected counts, the statistic and p-value."""

    labels: tuple[str, ...]
    """Each pooled cell's name: a cell, or a range such as ``'3-5'``."""
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    statistic: float
    df: int
    p_value: float

    @property
    def n(self) -> int:
        """Return the observations tested."""
        return sum(self.observed)


class _Cell(NamedTuple):
    """A run of adjacent cells pooled into one: first and last label, counts, expectation."""

    first: str
    last: str
    observed: int
    expected: float

    def pooled_with(self, right: _Cell) -> _Cell:
        """Return this cell and the next one to its right as one."""
        return _Cell(
            self.first, right.last, self.observed + right.observed, self.expected + right.expected
        )


def goodness_of_fit(
    observed: Sequence[int],
    probabilities: Sequence[float | Fraction],
    labels: Sequence[str] | None = None,
    min_expected: float = MIN_EXPECTED,
) -> GoodnessOfFit | None:
    """Test counts against cell probabilities, pooling sparse cells; None if too few to test."""
    if len(observed) != len(probabilities):
        raise ValueError(f"{len(observed)!r} counts for {len(probabilities)!r} cells")
    n = sum(observed)
    names = [str(i) for i in range(len(observed))] if labels is None else list(labels)
    cells = [
        _Cell(names[i], names[i], observed[i], float(probabilities[i]) * n)
        for i in range(len(observed))
        if probabilities[i] > 0 or observed[i] > 0
    ]
    while len(cells) > 1:
        i = min(range(len(cells)), key=lambda k: cells[k].expected)
        if cells[i].expected >= min_expected:
            break
        if i == 0:
            j = 1
        elif i == len(cells) - 1:
            j = i - 1
        else:
            j = i - 1 if cells[i - 1].expected <= cells[i + 1].expected else i + 1
        low, high = sorted((i, j))
        cells[low] = cells[low].pooled_with(cells[high])
        del cells[high]
    if len(cells) < 2 or any(c.expected < min_expected for c in cells):
        return None
    statistic = sum((c.observed - c.expected) ** 2 / c.expected for c in cells)
    df = len(cells) - 1
    return GoodnessOfFit(
        labels=tuple(c.first if c.first == c.last else f"{c.first}-{c.last}" for c in cells),
        observed=tuple(c.observed for c in cells),
        expected=tuple(c.expected for c in cells),
        statistic=statistic,
        df=df,
        p_value=chi_squared_sf(statistic, df),
    )


def chi_squared_sf(x: float, df: int) -> float:
    """Return P(X >= x) for X chi-squared with ``df`` degrees of freedom.

    >>> round(chi_squared_sf(2.0, 2), 6) == round(math.exp(-1.0), 6)
    True
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1: {df!r}")
    if x <= 0:
        return 1.0
    return _upper_gamma(df / 2.0, x / 2.0)


def _upper_gamma(a: float, x: float) -> float:
    """Return the regularised upper incomplete gamma Q(a, x) (series below a + 1, else a
    continued fraction, after Numerical Recipes' gammq)."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1.0
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
