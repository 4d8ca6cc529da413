"""Chi-squared goodness of fit: the survival function, pooling sparse cells, the 3d6 table."""

import math
import random
from fractions import Fraction

import pytest

from audit.verification.chi_squared import (
    DICE_TOTALS,
    FAIR_3D6,
    chi_squared_sf,
    goodness_of_fit,
)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841459, 1, 0.05),
        (6.634897, 1, 0.01),
        (10.827566, 1, 0.001),
        (11.070498, 5, 0.05),
        (24.995790, 15, 0.05),
        (30.577914, 15, 0.01),
        (37.697298, 15, 0.001),
    ],
)
def test_survival_function_at_table_points(x, df, p):
    assert chi_squared_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_survival_function_closed_forms():
    for x in (0.1, 1.0, 5.0, 40.0):
        assert chi_squared_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi_squared_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
    assert chi_squared_sf(0.0, 4) == 1.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi_squared_sf(1.0, 0)


def test_fair_3d6_by_enumeration():
    counts = {t: 0 for t in DICE_TOTALS}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                counts[a + b + c] += 1
    assert tuple(Fraction(counts[t], 216) for t in DICE_TOTALS) == FAIR_3D6


def test_sparse_tails_pool_inwards_until_each_cell_expects_five():
    rng = random.Random(4)
    throws = [sum(rng.randint(1, 6) for _ in range(3)) for _ in range(100)]
    observed = [throws.count(t) for t in DICE_TOTALS]
    fit = goodness_of_fit(observed, FAIR_3D6, [str(t) for t in DICE_TOTALS])
    assert fit is not None
    assert min(fit.expected) >= 5
    assert fit.labels[0].startswith("3-")
    assert fit.labels[-1].endswith("-18")
    assert sum(fit.observed) == fit.n == 100
    assert sum(fit.expected) == pytest.approx(100)
    assert fit.df == len(fit.labels) - 1
    assert len(fit.labels) < 16


def test_volume_decides_what_can_be_judged():
    assert goodness_of_fit([2, 1, 0, 1], [0.25] * 4) is None  # 4 throws: one pooled cell
    small = goodness_of_fit([12, 8], [0.5, 0.5])
    assert small is not None
    assert small.df == 1
    assert small.statistic == pytest.approx(0.8)
    with pytest.raises(ValueError, match="cells"):
        goodness_of_fit([1, 2], [1.0])


def test_a_loaded_distribution_is_rejected_and_a_fair_one_is_not():
    rng = random.Random(11)
    fair = [sum(rng.randint(1, 6) for _ in range(3)) for _ in range(2_000)]
    loaded = [
        sum(6 if rng.random() < 0.25 else rng.randint(1, 6) for _ in range(3)) for _ in range(2_000)
    ]
    for throws, rejected in ((fair, False), (loaded, True)):
        fit = goodness_of_fit([throws.count(t) for t in DICE_TOTALS], FAIR_3D6)
        assert (fit.p_value < 1e-4) is rejected
