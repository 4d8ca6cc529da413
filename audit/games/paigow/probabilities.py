"""The chances of a player's Pai Gow wager when both sides set their hands by a house way.

A player and the dealer (or bank) each receive four of the 32 tiles, and both
set them by the table's house way. The wager then wins, pushes or loses by PA
621a.8(g)-(i) (NJ 19:47-10.7(h)-(j)), with copies to the banker. The chances
are estimated by seeded Monte Carlo over random eight-tile draws, using the
precomputed house-way tables and rank keys (the fast path of ``bench/rules.py``),
and are reported with their Monte Carlo standard error ``sqrt(p (1 - p) / n)``.

They are the baseline that ``audit.verification.statistics`` compares observed
win rates against. Players who set their own way, or surrender, move a real
table's rates a little off this baseline; the confidence interval absorbs that.

:data:`PRECOMPUTED` holds the rates for the default house ways, computed offline
(2,000,000 draws each, seed 20261121) so nothing heavy runs at import time.
Reproduce them with::

    python3 -m audit.games.paigow.probabilities --samples 2000000 --seed 20261121

>>> import random
>>> from audit.games.paigow.house_way import CALIFORNIA
>>> rates = expected_rates(CALIFORNIA, PA_RANKING, 2_000, random.Random(1))
>>> rates.samples, round(rates.win + rates.push + rates.lose, 9)
(2000, 1.0)
>>> lookup(CALIFORNIA, PA_RANKING).samples
2000000
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass

from audit.games.paigow.deals import deal_mask
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING, HandRanking
from audit.games.paigow.house_way import HOUSE_WAYS, HouseWay
from audit.games.paigow.outcome import outcome_from_keys
from audit.games.wagering import Outcome

_TILES = tuple(range(32))


@dataclass(frozen=True)
class ExpectedRates:
    """Win, push and lose chances of a player wager, from ``samples`` Monte Carlo draws."""

    win: float
    push: float
    lose: float
    samples: int

    def rate(self, outcome: Outcome) -> float:
        """Return the chance of one outcome."""
        return {Outcome.WIN: self.win, Outcome.PUSH: self.push, Outcome.LOSE: self.lose}[outcome]

    def standard_error(self, outcome: Outcome) -> float:
        """Return the Monte Carlo standard error of one outcome's chance."""
        p = self.rate(outcome)
        return math.sqrt(p * (1.0 - p) / self.samples) if self.samples else math.inf


def ranking_name(ranking: HandRanking) -> str:
    """Return ``"pa"`` for the PA/California ranking (zero-zero is a copy), else ``"nj"``."""
    return "pa" if ranking.zero_hands_tie else "nj"


def expected_rates(
    house_way: HouseWay,
    ranking: HandRanking = PA_RANKING,
    samples: int = 100_000,
    rng: random.Random | None = None,
) -> ExpectedRates:
    """Estimate the player's win/push/lose chances when both sides set by ``house_way``.

    Each draw deals eight distinct tiles from ``rng``: the player takes the first
    four, the dealer the last four. ``rng`` defaults to ``random.Random(0)``.
    """
    if samples <= 0:
        raise ValueError(f"samples must be a positive whole number: {samples!r}")
    rng = rng if rng is not None else random.Random(0)
    table = house_way.table(ranking)
    keys = ranking.keys
    sample = rng.sample
    win = push = 0
    win_outcome, push_outcome = Outcome.WIN, Outcome.PUSH
    for _ in range(samples):
        tiles = sample(_TILES, 8)
        player = table[deal_mask(tiles[:4])]
        dealer = table[deal_mask(tiles[4:])]
        (a, b), (c, d) = player.high, player.low
        (e, f), (g, h) = dealer.high, dealer.low
        outcome = outcome_from_keys(
            keys[a * 32 + b], keys[c * 32 + d], keys[e * 32 + f], keys[g * 32 + h]
        )
        if outcome is win_outcome:
            win += 1
        elif outcome is push_outcome:
            push += 1
    lose = samples - win - push
    return ExpectedRates(win / samples, push / samples, lose / samples, samples)


PRECOMPUTED_SAMPLES = 2_000_000
PRECOMPUTED_SEED = 20261121

PRECOMPUTED: dict[tuple[str, str], ExpectedRates] = {
    # (house way, ranking): computed offline, see the module docstring.
    ("california-posted", "pa"): ExpectedRates(
        win=0.2998925, push=0.3885745, lose=0.311533, samples=PRECOMPUTED_SAMPLES
    ),  # win se 0.000324
    ("dealer-rule-max-low", "pa"): ExpectedRates(
        win=0.2954635, push=0.397804, lose=0.3067325, samples=PRECOMPUTED_SAMPLES
    ),  # win se 0.000323
    ("dealer-rule-max-low", "nj"): ExpectedRates(
        win=0.2954685, push=0.3977855, lose=0.306746, samples=PRECOMPUTED_SAMPLES
    ),  # win se 0.000323
}
"""Precomputed rates, keyed by house-way name and ranking name (:func:`ranking_name`)."""


def lookup(house_way: HouseWay, ranking: HandRanking = PA_RANKING) -> ExpectedRates:
    """Return the precomputed rates for a house way and ranking; raise ``KeyError`` if none."""
    return PRECOMPUTED[(house_way.name, ranking_name(ranking))]


def main() -> None:
    """Print :data:`PRECOMPUTED` afresh (each entry from its own ``Random(seed)``)."""
    parser = argparse.ArgumentParser(description="Recompute the precomputed house-way rates.")
    parser.add_argument("--samples", type=int, default=PRECOMPUTED_SAMPLES)
    parser.add_argument("--seed", type=int, default=PRECOMPUTED_SEED)
    args = parser.parse_args()
    for name, rank in PRECOMPUTED:
        ranking = PA_RANKING if rank == "pa" else NJ_RANKING
        r = expected_rates(HOUSE_WAYS[name], ranking, args.samples, random.Random(args.seed))
        se = r.standard_error(Outcome.WIN)
        print(
            f'("{name}", "{rank}"): ExpectedRates(win={r.win!r}, push={r.push!r}, '
            f"lose={r.lose!r}, samples={r.samples}),  # win se {se:.6f}"
        )


if __name__ == "__main__":
    main()
