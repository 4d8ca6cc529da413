"""The chances of each 21 Baccarat wager: win, push (returned) and lose, per deck count and
drawing rule.

Estimated by seeded Monte Carlo over shuffled shoes dealt through the shoe procedure
(cut, burn, cover card one deck from the bottom, reshuffle after the round it comes
out in: PA 681a.5, 681a.7(c)-(d)) with :func:`~audit.games.baccarat21.drawing.play_round`,
a Bonus always on the table so the Bonus-only card of 681a.7(f)(2) is dealt. They are
the baseline the win-rate statistics compare observed rates against.

:data:`PRECOMPUTED` holds the rates for the one-card reading of 681a.7(g), computed
offline (2,000,000 rounds each, seed 20261122); reproduce them with::

    python3 -m audit.games.baccarat21.probabilities --rounds 2000000 --seed 20261122

>>> import random
>>> rates = expected_rates(8, DrawRule.ONE_CARD, 2_000, random.Random(1))
>>> all(round(r.win + r.push + r.lose, 9) == 1.0 for r in rates.values())
True
>>> lookup(8, DrawRule.ONE_CARD)[Bet.TIE].samples
2000000
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

from audit.games.baccarat21.bonus import BONUS_HANDS, BonusHand
from audit.games.baccarat21.drawing import DrawRule, play_round
from audit.games.baccarat21.outcome import hand_outcome
from audit.games.baccarat21.settlement import Bet
from audit.games.baccarat21.shoe import BURN_CARDS, prepare_shoe, reshuffle_due
from audit.games.wagering import Outcome

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


def lookup(decks: int, rule: DrawRule) -> dict[Bet, BetRates]:
    """Return the precomputed rates for a deck count and drawing rule (KeyError if none)."""
    return PRECOMPUTED[(decks, rule)]


def _load() -> None:
    for (decks, rule_name), bets in _TABLE.items():
        PRECOMPUTED[(decks, DrawRule(rule_name))] = {
            Bet(name): BetRates(*rates, samples=2_000_000) for name, rates in bets.items()
        }


_load()


def main() -> None:
    """Print the rates, as :data:`_TABLE` holds them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=PRECOMPUTED_SEED)
    args = parser.parse_args()
    for decks in (4, 8):
        rates = expected_rates(decks, DrawRule.ONE_CARD, args.rounds, random.Random(args.seed))
        print(f"    ({decks}, {DrawRule.ONE_CARD.value!r}): {{")
        for bet, r in rates.items():
            print(f"        {bet.value!r}: ({r.win:.6f}, {r.push:.6f}, {r.lose:.6f}),")
        print("    },")


if __name__ == "__main__":
    main()
