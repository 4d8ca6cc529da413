"""Benchmark the Pai Gow rules engine; print each figure beside its naive baseline.

Run: ``python3 bench/rules.py [--wagers N] [--seed S]``. The last line is JSON.

Figures (one core, this process):
- table build: every house way's 35,960-deal table worked out in full, from cold
  (target < 2 s), and the memory the tables hold (a process pays only for the deals
  it looks up: the tables fill on first lookup);
- house way over all 35,960 deals: table lookups (target < 0.05 s) against the
  same procedure recomputed without tables (the naive baseline);
- compare and settle: random wagers whose hands are already set (by the house
  way), compared and settled with vigorish (target >= 300,000/s), against the
  baseline of each hand's rank computed from scratch and the full settlement
  objects.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc

from audit.games.paigow import dealer_rule as dealer_rule_module
from audit.games.paigow import house_way as house_way_module
from audit.games.paigow.deals import all_deals
from audit.games.paigow.hands import PA_RANKING, HandRanking
from audit.games.paigow.house_way import HOUSE_WAYS
from audit.games.paigow.outcome import outcome_from_keys
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import Wager, settle_wager
from audit.games.paigow.tiles import TILE_KINDS
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.games.wagering import Outcome

WAY = HOUSE_WAYS["california-posted"]
ROUNDING = VigRounding.QUARTER


def build_tables() -> tuple[float, int]:
    """Work out every deal of every house way's table from cold; return seconds, then bytes
    held (traced apart).

    From cold includes the dealer rule's table, which the strongest-low way reads."""
    house_way_module._TABLES.clear()
    dealer_rule_module._CODES.clear()
    started = time.perf_counter()
    _fill_tables()
    seconds = time.perf_counter() - started
    house_way_module._TABLES.clear()
    dealer_rule_module._CODES.clear()
    tracemalloc.start()  # traced on a second build: tracing slows the build several-fold
    _fill_tables()
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, held


def _fill_tables() -> None:
    for way in HOUSE_WAYS.values():
        table = way.table(PA_RANKING)
        for mask in table:
            table[mask]


def set_all_deals(deals: list[tuple[int, int, int, int]]) -> tuple[float, float]:
    """Set every deal with the table and with the naive procedure; return both times."""
    started = time.perf_counter()
    for deal in deals:
        WAY.setting(deal)
    tabled = time.perf_counter() - started
    started = time.perf_counter()
    for deal in deals:
        WAY.naive_setting(deal)
    naive = time.perf_counter() - started
    return tabled, naive


PlacedWager = tuple[Setting, Setting, int]


def random_wagers(count: int, rng: random.Random) -> list[PlacedWager]:
    """Return ``count`` set wagers: player and dealer settings (by the house way) and cents.

    Hands are set before settlement starts, as at the table; a pool of 50,000
    random eight-tile draws keeps generation short.
    """
    pool = []
    for _ in range(min(count, 50_000)):
        tiles = rng.sample(range(32), 8)
        pool.append((WAY.setting(tiles[:4]), WAY.setting(tiles[4:])))
    return [(*rng.choice(pool), rng.randrange(500, 50_001, 500)) for _ in range(count)]


def compare_and_settle(wagers: list[PlacedWager]) -> tuple[float, int]:
    """Compare and settle set hands with the precomputed rank keys; return seconds, house net."""
    keys = PA_RANKING.keys
    win, lose = Outcome.WIN, Outcome.LOSE
    house = 0
    started = time.perf_counter()
    for player, dealer, amount in wagers:
        (a, b), (c, d) = player.high, player.low
        (e, f), (g, h) = dealer.high, dealer.low
        outcome = outcome_from_keys(
            keys[a * 32 + b], keys[c * 32 + d], keys[e * 32 + f], keys[g * 32 + h]
        )
        if outcome is win:
            house -= amount - vigorish(amount, ROUNDING)
        elif outcome is lose:
            house += amount
    return time.perf_counter() - started, house


def compare_and_settle_naive(wagers: list[PlacedWager]) -> tuple[float, int]:
    """The baseline: each hand's rank computed from scratch, full settlement objects."""
    ranking = HandRanking.__new__(HandRanking)  # a ranking with no precomputed key table
    object.__setattr__(ranking, "zero_hands_tie", PA_RANKING.zero_hands_tie)

    def key(x: int, y: int) -> int:
        return ranking._kind_key(TILE_KINDS[x], TILE_KINDS[y])

    house = 0
    started = time.perf_counter()
    for player, dealer, amount in wagers:
        outcome = outcome_from_keys(
            key(*player.high), key(*player.low), key(*dealer.high), key(*dealer.low)
        )
        line = settle_wager(Wager(1, amount, outcome), ROUNDING)
        house -= line.net
    return time.perf_counter() - started, house


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wagers", type=int, default=1_000_000)
    parser.add_argument("--baseline-wagers", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    build_seconds, table_bytes = build_tables()
    print(
        f"house-way tables worked out (2 ways x 35,960 deals): {build_seconds:.3f} s "
        f"(target < 2 s), {table_bytes / 2**20:.1f} MiB held"
    )

    deals = list(all_deals())
    tabled, naive = set_all_deals(deals)
    print(
        f"house way, all 35,960 deals: {tabled:.4f} s with tables (target < 0.05 s) "
        f"vs {naive:.3f} s naive baseline ({naive / tabled:.0f}x)"
    )

    rng = random.Random(args.seed)
    wagers = random_wagers(args.wagers, rng)
    fast_seconds, house_fast = compare_and_settle(wagers)
    fast_rate = len(wagers) / fast_seconds
    subset = wagers[: args.baseline_wagers]
    naive_seconds, house_naive = compare_and_settle_naive(subset)
    naive_rate = len(subset) / naive_seconds
    _, house_check = compare_and_settle(subset)
    if house_check != house_naive:
        raise SystemExit(f"fast and naive paths disagree: {house_check} != {house_naive}")
    print(
        f"compare and settle: {fast_rate:,.0f} wagers/s over {len(wagers):,} "
        f"(target >= 300,000/s) vs {naive_rate:,.0f}/s naive baseline over {len(subset):,} "
        f"({fast_rate / naive_rate:.0f}x); house net {house_fast / 100:,.2f}"
    )

    print(
        json.dumps(
            {
                "table_build_s": round(build_seconds, 4),
                "table_mib": round(table_bytes / 2**20, 2),
                "all_deals_tabled_s": round(tabled, 5),
                "all_deals_naive_s": round(naive, 4),
                "wagers": len(wagers),
                "wagers_per_s": round(fast_rate),
                "baseline_wagers": len(subset),
                "baseline_wagers_per_s": round(naive_rate),
                "targets_met": build_seconds < 2 and tabled < 0.05 and fast_rate >= 300_000,
            }
        )
    )


if __name__ == "__main__":
    main()
