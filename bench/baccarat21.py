"""Benchmark the 21 Baccarat rules engine, and measure each wager's hold by simulation.

Run: ``python3 bench/baccarat21.py [--rounds N] [--decks 4|8] [--paytable X] [--seed S]``
for throughput, or add ``--hold`` (``--rounds 5000000`` by default) for the hold of
each wager. The last line is JSON.

Throughput: shuffled shoes (681a.5) with the cover card one deck from the bottom,
the burn (681a.7(c)), every round dealt card by card from the shoe and settled with
all five wagers on the table (so the Bonus-only card of 681a.7(f)(2) is dealt),
reshuffling after the round the cover card comes out in (681a.7(d)). Two ways, on
the same shoes, in this process:

- engine: :func:`play_round` on the precomputed hand-state and Bonus tables, and
  :func:`house_net` on the precomputed outcome table;
- baseline: the same rules through the general API a verifier uses, no tables:
  :func:`deal_round` asking :func:`next_card` before each card (totals recomputed
  from the cards), then :meth:`RoundResult.from_deal` and :func:`settle_round` with
  five :class:`Wager` objects.

The two must agree on the house's net to the cent, or the bench fails.

Hold: the house's win divided by the amount wagered, per wager, for one unit on each
of the five wagers every round. Shuffling is included in the time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterator
from typing import Any

from audit.games.baccarat21.bonus import BONUS_HANDS, BonusHand
from audit.games.baccarat21.drawing import DrawRule, RoundTally, deal_round, play_round
from audit.games.baccarat21.outcome import hand_outcome
from audit.games.baccarat21.rulesets import PA_681A, RuleSet
from audit.games.baccarat21.settlement import (
    Bet,
    RoundResult,
    Stakes,
    Wager,
    house_net,
    settle_round,
)
from audit.games.baccarat21.shoe import BURN_CARDS, Shoe, prepare_shoe, reshuffle_due
from audit.games.wagering import HOUSE, Outcome

COVER_FROM_BOTTOM = 52
"""The cover card one deck from the bottom: deep enough that no round can run the shoe dry
(two hands take at most 17 cards each)."""
STAKES: Stakes = (2500, 2500, 500, 500, 500)
"""Player and Banker $25, Tie and both Bonus Wagers $5."""


def shoes(rules: RuleSet, rng: random.Random) -> Iterator[Shoe]:
    """Yield shuffled shoes forever, alternating batches when the table has a shuffler."""
    batch = 0
    while True:
        yield prepare_shoe(rules.decks, rng, COVER_FROM_BOTTOM, batch)
        if rules.batches:
            batch ^= 1


def tallies(rules: RuleSet, rng: random.Random, rounds: int) -> Iterator[RoundTally]:
    """Yield ``rounds`` tallied rounds dealt through the shoe procedure, all wagers placed."""
    rule = rules.draw_rule
    shoe_source = shoes(rules, rng)
    shoe = next(shoe_source)
    cards, at = shoe.cards, BURN_CARDS
    for _ in range(rounds):
        tally = play_round(cards, at, True, rule)
        yield tally
        at = tally[0]
        if reshuffle_due(shoe, at):
            shoe = next(shoe_source)
            cards, at = shoe.cards, BURN_CARDS


def run_engine(rules: RuleSet, seed: int, rounds: int) -> tuple[float, int]:
    """Deal and settle with the tables; return seconds and the house's net in cents."""
    paytable = rules.paytable
    house = 0
    started = time.perf_counter()
    for tally in tallies(rules, random.Random(seed), rounds):
        house += house_net(tally, STAKES, paytable)
    return time.perf_counter() - started, house


def run_deal_only(rules: RuleSet, seed: int, rounds: int) -> float:
    """Deal with the tables and settle nothing: the dealing share of the engine's time."""
    started = time.perf_counter()
    for _ in tallies(rules, random.Random(seed), rounds):
        pass
    return time.perf_counter() - started


def run_baseline(rules: RuleSet, seed: int, rounds: int) -> tuple[float, int]:
    """Deal and settle through the general object API, card by card; same shoes, same rounds."""
    rng = random.Random(seed)
    shoe_source = shoes(rules, rng)
    shoe = next(shoe_source)
    at = BURN_CARDS
    house = 0
    started = time.perf_counter()
    for _ in range(rounds):
        deal = deal_round(iter(shoe.cards[at:]), True, rules.draw_rule)
        wagers = [Wager(1, bet, amount) for bet, amount in zip(Bet, STAKES, strict=True)]
        settled = settle_round(wagers, RoundResult.from_deal(deal), rules.paytable)
        house += settled.nets()[HOUSE]
        at += deal.used
        if reshuffle_due(shoe, at):
            shoe = next(shoe_source)
            at = BURN_CARDS
    return time.perf_counter() - started, house


def throughput(args: argparse.Namespace, rules: RuleSet) -> None:
    deal_seconds = run_deal_only(rules, args.seed, args.rounds)
    engine_seconds, engine_house = run_engine(rules, args.seed, args.rounds)
    baseline_rounds = min(args.baseline_rounds, args.rounds)
    baseline_seconds, baseline_house = run_baseline(rules, args.seed, baseline_rounds)
    _, check_house = run_engine(rules, args.seed, baseline_rounds)
    if check_house != baseline_house:
        raise SystemExit(f"engine and baseline disagree: {check_house} != {baseline_house}")
    rate = args.rounds / engine_seconds
    deal_rate = args.rounds / deal_seconds
    baseline_rate = baseline_rounds / baseline_seconds
    print(
        f"{rules.decks} decks, paytable {rules.paytable.letter}, draw rule "
        f"{rules.draw_rule.value}, five wagers a round, shuffles included"
    )
    print(f"  deal only (tables):       {deal_rate:>10,.0f} rounds/s over {args.rounds:,}")
    print(
        f"  deal and settle (tables): {rate:>10,.0f} rounds/s over {args.rounds:,}; "
        f"house net {engine_house / 100:,.2f}"
    )
    print(
        f"  baseline (object API):    {baseline_rate:>10,.0f} rounds/s over {baseline_rounds:,} "
        f"({rate / baseline_rate:.1f}x); same house net on those rounds"
    )
    print(
        json.dumps(
            {
                "bench": "baccarat21",
                "decks": rules.decks,
                "paytable": rules.paytable.letter,
                "draw_rule": rules.draw_rule.value,
                "rounds": args.rounds,
                "rounds_per_s": round(rate),
                "deal_only_rounds_per_s": round(deal_rate),
                "baseline": "deal_round + settle_round objects, no tables",
                "baseline_rounds": baseline_rounds,
                "baseline_rounds_per_s": round(baseline_rate),
                "speedup": round(rate / baseline_rate, 2),
            }
        )
    )


def _main_unit_result(own: int, other: int) -> float:
    """The house's result on one unit wagered on a hand (PA 681a.7(i)-(j), 681a.8(a))."""
    outcome = hand_outcome(own, other)
    if outcome is Outcome.LOSE:
        return 1.0
    if outcome is Outcome.PUSH:
        return 0.0
    return -0.5 if own == 17 else -1.0


def hold(args: argparse.Namespace, rules: RuleSet) -> None:
    """Simulate, counting totals and Bonus hands, then price one unit on each wager."""
    size = 32
    totals = [0] * (size * size)
    player_bonus = [0] * len(BONUS_HANDS)
    banker_bonus = [0] * len(BONUS_HANDS)
    started = time.perf_counter()
    for _, player, banker, p_code, b_code in tallies(rules, random.Random(args.seed), args.rounds):
        totals[player * size + banker] += 1
        player_bonus[p_code] += 1
        banker_bonus[b_code] += 1
    seconds = time.perf_counter() - started

    odds = rules.paytable.odds

    def bonus_result(code: int) -> float:
        hand = BONUS_HANDS[code]
        if hand is BonusHand.NOTHING:
            return 1.0
        return -odds[hand].numerator / odds[hand].denominator

    outcomes: dict[str, list[tuple[int, float]]] = {"player": [], "banker": [], "tie": []}
    for index, count in enumerate(totals):
        if count:
            player, banker = divmod(index, size)
            outcomes["player"].append((count, _main_unit_result(player, banker)))
            outcomes["banker"].append((count, _main_unit_result(banker, player)))
            outcomes["tie"].append((count, -10.0 if player == banker else 1.0))
    outcomes["bonus_player"] = [(n, bonus_result(c)) for c, n in enumerate(player_bonus) if n]
    outcomes["bonus_banker"] = [(n, bonus_result(c)) for c, n in enumerate(banker_bonus) if n]

    n = args.rounds
    print(
        f"hold over {n:,} rounds, {rules.decks} decks, paytable {rules.paytable.letter}, "
        f"draw rule {rules.draw_rule.value}, cover card {COVER_FROM_BOTTOM} cards from the "
        f"bottom ({n / seconds:,.0f} rounds/s, {seconds:.1f} s)"
    )
    holds: dict[str, dict[str, float]] = {}
    for wager, rows in outcomes.items():
        mean = sum(count * value for count, value in rows) / n
        square = sum(count * value * value for count, value in rows) / n
        # Rounds within a shoe are not independent; treat this as a rough interval.
        error = 1.96 * math.sqrt(max(square - mean * mean, 0.0) / n)
        holds[wager] = {"hold": round(mean, 6), "ci95": round(error, 6)}
        print(f"  {wager:<13} hold {mean:+.4%}  (95% about +/- {error:.4%})")
    bonus_counts = {
        BONUS_HANDS[c].value: {"player": player_bonus[c], "banker": banker_bonus[c]}
        for c in range(len(BONUS_HANDS))
    }
    print(
        json.dumps(
            {
                "bench": "baccarat21-hold",
                "decks": rules.decks,
                "paytable": rules.paytable.letter,
                "draw_rule": rules.draw_rule.value,
                "rounds": n,
                "seed": args.seed,
                "rounds_per_s": round(n / seconds),
                "hold": holds,
                "bonus_hands": bonus_counts,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold", action="store_true", help="measure each wager's hold")
    parser.add_argument("--rounds", type=int, help="200,000 (throughput) or 5,000,000 (hold)")
    parser.add_argument("--baseline-rounds", type=int, default=20_000)
    parser.add_argument("--decks", type=int, choices=(4, 8), default=8)
    parser.add_argument("--paytable", choices=list("ABCDEF"))
    parser.add_argument("--draw-rule", choices=[r.value for r in DrawRule])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.rounds is None:
        args.rounds = 5_000_000 if args.hold else 200_000
    options: dict[str, Any] = {"decks": args.decks}
    if args.paytable:
        options["paytable"] = args.paytable
    if args.draw_rule:
        options["draw_rule"] = DrawRule(args.draw_rule)
    rules = PA_681A.with_options(**options)
    (hold if args.hold else throughput)(args, rules)


if __name__ == "__main__":
    main()
