"""The screens' tests: a normal upper tail for sums of many wagers, a binomial upper tail for
counts, both in the standard library.

>>> round(normal_upper(3.719), 5)   # about the 99.99% one-sided point
0.0001
>>> binomial_upper(0, 10, 0.3)
1.0
>>> round(binomial_upper(3, 3, 0.1), 6)
0.001
>>> binomial_upper(5, 4, 0.5)
0.0
"""

from __future__ import annotations

import math


def normal_upper(z: float) -> float:
    """Return P(Z >= z) for a standard normal Z (exact in the far tail: erfc, not 1 - cdf)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def binomial_upper(k: int, n: int, q: float) -> float:
    """Return P(X >= k) for X binomial with ``n`` trials of chance ``q``."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    log_q, log_r = math.log(q), math.log1p(-q)
    total = 0.0
    for i in range(k, n + 1):
        log_term = (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                    + i * log_q + (n - i) * log_r)  # fmt: skip
        total += math.exp(log_term)
    return min(1.0, total)
