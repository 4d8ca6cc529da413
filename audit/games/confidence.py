"""Confidence intervals: the normal quantile and the Wilson score interval.

Shared below every layer that judges a rate or a band: verification's win-rate
statistics and accounting's hold bands read the same ``z`` at the same default
confidence, so neither imports the other.

>>> round(z_for(0.95), 2)
1.96
>>> low, high = wilson_interval(12, 40)
>>> round(low, 3), round(high, 3)
(0.127, 0.558)
"""

from __future__ import annotations

import math
from statistics import NormalDist

DEFAULT_CONFIDENCE = 0.999
"""The confidence a flag is raised at unless asked otherwise: one false alarm in 1,000 groups."""


def z_for(confidence: float) -> float:
    """Return the two-sided standard-normal quantile for ``confidence`` (0.999 -> 3.29)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1: {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(
    successes: int, n: int, confidence: float = DEFAULT_CONFIDENCE
) -> tuple[float, float]:
    """Return the Wilson score interval for ``successes`` out of ``n`` trials.

    With no trials the interval is the whole of ``[0, 1]``: nothing is known.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n: {successes!r} of {n!r}")
    z = z_for(confidence)
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high
