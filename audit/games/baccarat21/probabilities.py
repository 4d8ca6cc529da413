"""The chances of each 21 Baccarat wager: win, push (returned) and lose, per deck count and
drawing rule.

Estimated by seeded Monte Carlo over shuffled shoes dealt through the shoe procedure
(cut, burn, cover card one deck from the bottom, reshuffle after the round it comes
out in: PA 681a.5, 681a.7(c)-(d)) with :func:`~audit.games.baccarat21.drawing.play_round`,
a Bonus always on the table so the Bonus-only card of 681a.7(f)(2) is dealt. They are
the baseline the win-rate statistics compare observed rates against.

:data:`PRECOMPUTED` holds the rates for the one-card reading of 681a.7(g), and
:data:`MOMENTS` the mean and variance of the house's result per unit wagered under
each Bonus paytable (for the hold band), computed offline (2,000,000 rounds each,
seed 20261122); reproduce them with::

    python3 -m audit.games.baccarat21.probabilities --rounds 2000000 --seed 20261122

>>> import random
>>> rates = expected_rates(8, DrawRule.ONE_CARD, 2_000, random.Random(1))
>>> all(round(r.win + r.push + r.lose, 9) == 1.0 for r in rates.values())
True
>>> lookup(8, DrawRule.ONE_CARD)[Bet.TIE].samples
2000000
>>> round(lookup_moments(8, DrawRule.ONE_CARD, "D")[Bet.PLAYER].mean, 3)  # the Player's hold
0.025
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

from audit.games.baccarat21.bonus import BONUS_HANDS, BONUS_PAYTABLES, BonusHand, BonusPaytable
from audit.games.baccarat21.drawing import DrawRule, play_round
from audit.games.baccarat21.outcome import hand_outcome
from audit.games.baccarat21.settlement import (
    MAIN_ODDS,
    SEVENTEEN,
    SEVENTEEN_ODDS,
    TIE_ODDS,
    Bet,
)
from audit.games.baccarat21.shoe import BURN_CARDS, prepare_shoe, reshuffle_due
from audit.games.wagering import Odds, Outcome

COVER_FROM_BOTTOM = 52
PRECOMPUTED_SEED = 20261122


@dataclass(frozen=True)
class BetRates:
    """Win, push and lose chances of one wager, from ``samples`` simulated rounds."""

    win: float
    push: float
    lose: float
    samples: int


def _outcomes(player: int, banker: int, bonus_player: int, bonus_banker: int) -> list[str]:
    own = hand_outcome(player, banker)
    other = hand_outcome(banker, player)
    nothing = BONUS_HANDS.index(BonusHand.NOTHING)
    return [
        own.value, other.value,
        Outcome.WIN.value if player == banker else Outcome.LOSE.value,
        Outcome.LOSE.value if bonus_player == nothing else Outcome.WIN.value,
        Outcome.LOSE.value if bonus_banker == nothing else Outcome.WIN.value,
    ]  # fmt: skip


def expected_rates(
    decks: int, rule: DrawRule, rounds: int, rng: random.Random
) -> dict[Bet, BetRates]:
    """Return each wager's chances over ``rounds`` simulated rounds."""
    counts = [Counter[str]() for _ in Bet]
    shoe = prepare_shoe(decks, rng, COVER_FROM_BOTTOM)
    at = BURN_CARDS
    for _ in range(rounds):
        at, player, banker, bonus_player, bonus_banker = play_round(shoe.cards, at, True, rule)
        for count, outcome in zip(counts, _outcomes(player, banker, bonus_player, bonus_banker),
                                  strict=True):  # fmt: skip
            count[outcome] += 1
        if reshuffle_due(shoe, at):
            shoe, at = prepare_shoe(decks, rng, COVER_FROM_BOTTOM), BURN_CARDS
    return {
        bet: BetRates(count["win"] / rounds, count["push"] / rounds, count["lose"] / rounds, rounds)
        for bet, count in zip(Bet, counts, strict=True)
    }


PRECOMPUTED: dict[tuple[int, DrawRule], dict[Bet, BetRates]] = {}
"""(decks, drawing rule) -> each wager's rates; filled in below from the offline run."""

_TABLE: dict[tuple[int, str], dict[str, tuple[float, float, float]]] = {
    # (decks, rule): bet: (win, push, lose); 2,000,000 rounds, seed 20261122
    (4, "one_card"): {
        "player": (0.456607, 0.086654, 0.456739),
        "banker": (0.456739, 0.086654, 0.456607),
        "tie": (0.086654, 0.000000, 0.913346),
        "bonus_player": (0.137757, 0.000000, 0.862243),
        "bonus_banker": (0.137934, 0.000000, 0.862066),
    },
    (8, "one_card"): {
        "player": (0.455933, 0.086980, 0.457087),
        "banker": (0.457087, 0.086980, 0.455933),
        "tie": (0.086980, 0.000000, 0.913021),
        "bonus_player": (0.139333, 0.000000, 0.860667),
        "bonus_banker": (0.139741, 0.000000, 0.860259),
    },
}


@dataclass(frozen=True)
class HouseMoments:
    """The house's result on one unit wagered: its mean and variance (a win with 17 pays
    1 to 2, the Tie 10 to 1, a Bonus by the paytable in force)."""

    mean: float
    variance: float
    samples: int


def house_moments(
    decks: int, rule: DrawRule, paytable: BonusPaytable, rounds: int, rng: random.Random
) -> dict[Bet, HouseMoments]:
    """Return each wager's house result per unit, over ``rounds`` simulated rounds."""
    sums = [[0.0, 0.0] for _ in Bet]
    nothing = BONUS_HANDS.index(BonusHand.NOTHING)
    shoe = prepare_shoe(decks, rng, COVER_FROM_BOTTOM)
    at = BURN_CARDS
    for _ in range(rounds):
        at, player, banker, bonus_player, bonus_banker = play_round(shoe.cards, at, True, rule)
        results = (
            _main(player, banker), _main(banker, player),
            -_ratio(TIE_ODDS) if player == banker else 1.0,
            1.0 if bonus_player == nothing else -_odds(paytable, bonus_player),
            1.0 if bonus_banker == nothing else -_odds(paytable, bonus_banker),
        )  # fmt: skip
        for total, result in zip(sums, results, strict=True):
            total[0] += result
            total[1] += result * result
        if reshuffle_due(shoe, at):
            shoe, at = prepare_shoe(decks, rng, COVER_FROM_BOTTOM), BURN_CARDS
    moments = {}
    for bet, (first, second) in zip(Bet, sums, strict=True):
        mean = first / rounds
        moments[bet] = HouseMoments(mean, second / rounds - mean * mean, rounds)
    return moments


def _main(own: int, other: int) -> float:
    outcome = hand_outcome(own, other)
    if outcome is Outcome.WIN:
        return -_ratio(SEVENTEEN_ODDS if own == SEVENTEEN else MAIN_ODDS)  # PA 681a.8(a)
    return 0.0 if outcome is Outcome.PUSH else 1.0


def _odds(paytable: BonusPaytable, code: int) -> float:
    return _ratio(paytable.odds[BONUS_HANDS[code]])


def _ratio(odds: Odds) -> float:
    """Return what one unit wins at ``odds`` (a statistic: exact payouts stay in settlement)."""
    return odds.numerator / odds.denominator


MOMENTS: dict[tuple[int, DrawRule, str], dict[Bet, HouseMoments]] = {}
"""(decks, drawing rule, paytable letter) -> each wager's house moments per unit."""

_MOMENTS_TABLE: dict[tuple[int, str, str], dict[str, tuple[float, float]]] = {
    # (decks, rule, paytable): bet: (mean, variance) per unit; 2,000,000 rounds, seed 20261122
    (4, "one_card", "A"): {
        "player": (0.024247, 0.876587),
        "banker": (0.023915, 0.876703),
        "tie": (0.046801, 9.576605),
        "bonus_player": (0.073925, 12.545324),
        "bonus_banker": (0.070966, 12.784698),
    },
    (4, "one_card", "B"): {
        "player": (0.024247, 0.876587),
        "banker": (0.023915, 0.876703),
        "tie": (0.046801, 9.576605),
        "bonus_player": (0.062297, 11.718480),
        "bonus_banker": (0.059920, 11.901952),
    },
    (4, "one_card", "C"): {
        "player": (0.024247, 0.876587),
        "banker": (0.023915, 0.876703),
        "tie": (0.046801, 9.576605),
        "bonus_player": (0.051047, 11.434140),
        "bonus_banker": (0.047903, 11.632922),
    },
    (8, "one_card", "D"): {
        "player": (0.025144, 0.876404),
        "banker": (0.022861, 0.876475),
        "tie": (0.043226, 9.609102),
        "bonus_player": (0.070381, 13.298898),
        "bonus_banker": (0.064087, 13.616797),
    },
    (8, "one_card", "E"): {
        "player": (0.025144, 0.876404),
        "banker": (0.022861, 0.876475),
        "tie": (0.043226, 9.609102),
        "bonus_player": (0.060272, 12.200758),
        "bonus_banker": (0.054554, 12.433210),
    },
    (8, "one_card", "F"): {
        "player": (0.025144, 0.876404),
        "banker": (0.022861, 0.876475),
        "tie": (0.043226, 9.609102),
        "bonus_player": (0.056459, 11.532585),
        "bonus_banker": (0.051123, 11.742389),
    },
}


def lookup_moments(decks: int, rule: DrawRule, letter: str) -> dict[Bet, HouseMoments]:
    """Return the precomputed house moments (KeyError if none for that combination)."""
    return MOMENTS[(decks, rule, letter)]


def lookup(decks: int, rule: DrawRule) -> dict[Bet, BetRates]:
    """Return the precomputed rates for a deck count and drawing rule (KeyError if none)."""
    return PRECOMPUTED[(decks, rule)]


def _load() -> None:
    for (decks, rule_name), bets in _TABLE.items():
        PRECOMPUTED[(decks, DrawRule(rule_name))] = {
            Bet(name): BetRates(*rates, samples=2_000_000) for name, rates in bets.items()
        }
    for (decks, rule_name, letter), moments in _MOMENTS_TABLE.items():
        MOMENTS[(decks, DrawRule(rule_name), letter)] = {
            Bet(name): HouseMoments(*pair, samples=2_000_000) for name, pair in moments.items()
        }


_load()


def main() -> None:
    """Print the rates, as :data:`_TABLE` holds them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=PRECOMPUTED_SEED)
    args = parser.parse_args()
    rule = DrawRule.ONE_CARD
    for decks in (4, 8):
        rates = expected_rates(decks, rule, args.rounds, random.Random(args.seed))
        print(f"    ({decks}, {rule.value!r}): {{")
        for bet, r in rates.items():
            print(f"        {bet.value!r}: ({r.win:.6f}, {r.push:.6f}, {r.lose:.6f}),")
        print("    },")
    for letter, paytable in sorted(BONUS_PAYTABLES.items()):
        decks = paytable.decks
        moments = house_moments(decks, rule, paytable, args.rounds, random.Random(args.seed))
        print(f"    ({decks}, {rule.value!r}, {letter!r}): {{")
        for bet, m in moments.items():
            print(f"        {bet.value!r}: ({m.mean:.6f}, {m.variance:.6f}),")
        print("    },")


if __name__ == "__main__":
    main()
