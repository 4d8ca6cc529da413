"""The house-way win/push/lose chances: the precomputed constants and a fresh estimate agree."""

import random

import pytest

from audit.games.paigow.hands import NJ_RANKING, PA_RANKING
from audit.games.paigow.house_way import CALIFORNIA, DEALER_RULE_MAX_LOW, HOUSE_WAYS
from audit.games.paigow.probabilities import (
    PRECOMPUTED,
    PRECOMPUTED_SAMPLES,
    ExpectedRates,
    expected_rates,
    lookup,
    ranking_name,
)
from audit.games.wagering import Outcome

RANKINGS = {"pa": PA_RANKING, "nj": NJ_RANKING}


def test_precomputed_covers_the_default_ways_under_pa():
    for name in HOUSE_WAYS:
        assert (name, "pa") in PRECOMPUTED
    assert lookup(CALIFORNIA, PA_RANKING) is PRECOMPUTED[("california-posted", "pa")]
    assert ranking_name(NJ_RANKING) == "nj"


@pytest.mark.parametrize("key", sorted(PRECOMPUTED))
def test_precomputed_rates_are_a_distribution_with_small_error(key):
    rates = PRECOMPUTED[key]
    assert rates.samples == PRECOMPUTED_SAMPLES
    assert rates.win + rates.push + rates.lose == pytest.approx(1.0)
    for outcome in Outcome:
        assert 0.2 < rates.rate(outcome) < 0.45
        assert rates.standard_error(outcome) < 0.0004


@pytest.mark.parametrize("key", sorted(PRECOMPUTED))
def test_a_fresh_smaller_sample_agrees_within_a_few_standard_errors(key):
    name, rank = key
    fresh = expected_rates(HOUSE_WAYS[name], RANKINGS[rank], 60_000, random.Random(99))
    stored = PRECOMPUTED[key]
    for outcome in Outcome:
        se = (fresh.standard_error(outcome) ** 2 + stored.standard_error(outcome) ** 2) ** 0.5
        assert abs(fresh.rate(outcome) - stored.rate(outcome)) < 4 * se


def test_the_estimate_is_seeded_and_reproducible():
    a = expected_rates(DEALER_RULE_MAX_LOW, PA_RANKING, 5_000, random.Random(3))
    b = expected_rates(DEALER_RULE_MAX_LOW, PA_RANKING, 5_000, random.Random(3))
    assert a == b
    assert a.win * 5_000 == round(a.win * 5_000)  # counts over the sample


def test_copies_favour_the_banker():
    # Symmetric dealing: the banker's edge is copies, so the player loses more than wins.
    for rates in PRECOMPUTED.values():
        assert rates.lose > rates.win


def test_standard_error_formula_and_bad_samples():
    rates = ExpectedRates(win=0.25, push=0.5, lose=0.25, samples=10_000)
    assert rates.standard_error(Outcome.PUSH) == pytest.approx(0.005)
    with pytest.raises(ValueError, match="samples"):
        expected_rates(CALIFORNIA, PA_RANKING, 0, random.Random(1))
