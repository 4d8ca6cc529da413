"""Measure every statistical screen's false alarms on seeded clean floors. Last line: JSON.

Run: ``python3 bench/false_alarms.py [--floors 20 --tables 40 --rounds 1000 --jobs 2]``.
Each floor is a seeded clean shift (``tablewatch simulate --seed N``'s), simulated in its
own process and fed straight to the screens, with no broker and no store: only their
alarms are counted. The screens are the equipment screens
(:class:`~audit.verification.equipment.EquipmentScreens`: ``STAT-DICE-TOTALS``,
``STAT-START-POSITION``, ``STAT-B21-SHOE``) and the collusion screens
(:class:`~audit.verification.collusion.screens.CollusionScreens`: ``COL-*``). A clean floor
has no dealer errors for ``COL-ERROR-BENEFIT`` to read (the verifier finds none there), so
the game verifiers are left out: that screen is tested on no window, which the figures show.

Every window's p-value is kept, so one pass gives the alarms at the default confidence
(99.99%) and, as the same run's baseline, at looser ones, each beside its nominal count
(windows tested x (1 - confidence)): a screen whose alarms stay near nominal at 99% and
99.9% has honest p-values, and its count at 99.99% is what a floor costs an analyst.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.collusion.screens import SCREEN_CONFIDENCE, CollusionScreens
from audit.verification.equipment import SCREEN_CODES, EquipmentScreens

CONFIDENCES = (0.99, 0.999, SCREEN_CONFIDENCE)
"""Alarms are counted at each; the last is the screens' default, the others the baseline."""
_KEPT = 1 - CONFIDENCES[0]
"""p-values above this alarm at no confidence counted, so a floor returns only the few below."""


@dataclass(frozen=True)
class Floor:
    """One floor's screening: windows tested by code, and the p-values below ``_KEPT``."""

    seed: int
    events: int
    tested: dict[str, int]
    small: list[tuple[str, float]]
    seconds: float


def floor_screens(args: tuple[int, int, int, bool]) -> Floor:
    """Simulate one seeded clean floor and screen it; return what was tested and the small p's."""
    seed, tables, rounds, mixed = args
    games = (("paigow", 0.75), ("baccarat21", 0.25)) if mixed else (("paigow", 1.0),)
    started = time.perf_counter()
    equipment, collusion = EquipmentScreens(), CollusionScreens()
    collusion.p_values = []
    tested: Counter[str] = Counter()
    small: list[tuple[str, float]] = []
    events = 0
    for event in simulate_shift(ShiftConfig(tables, rounds, games=games), random.Random(seed)):
        events += 1
        for result in equipment.feed(event)[0]:
            if result.fit is not None:
                code = SCREEN_CODES[result.window.screen]
                tested[code] += 1
                if result.fit.p_value < _KEPT:
                    small.append((code, result.fit.p_value))
        collusion.feed(event)
    collusion.finish()
    tested.update({code: n for code, n in collusion.tested.items()})
    small += [(code, p) for code, p in collusion.p_values if p < _KEPT]
    return Floor(seed, events, dict(tested), small, time.perf_counter() - started)


def main() -> None:
    """Screen each floor (in parallel), print its alarms per screen, then the totals, then JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", type=int, default=20)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2, help="floors screened at once")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--mixed", action="store_true", help="one 21 Baccarat table to three")
    args = parser.parse_args()
    started = time.perf_counter()
    seeds = range(args.first_seed, args.first_seed + args.floors)
    work = [(seed, args.tables, args.rounds, args.mixed) for seed in seeds]
    tested: Counter[str] = Counter()
    alarms = {c: Counter[str]() for c in CONFIDENCES}
    per_floor: list[int] = []
    floor_seconds: list[float] = []
    default = CONFIDENCES[-1]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for floor in pool.map(floor_screens, work):
            tested.update(floor.tested)
            counts = {c: Counter(code for code, p in floor.small if p < 1 - c) for c in CONFIDENCES}
            for c in CONFIDENCES:
                alarms[c].update(counts[c])
            per_floor.append(sum(counts[default].values()))
            floor_seconds.append(floor.seconds)
            shown = ", ".join(f"{code} {n}" for code, n in sorted(counts[default].items()))
            print(f"floor {floor.seed}: {floor.events:,} events, "
                  f"{sum(floor.tested.values())} windows tested, "
                  f"alarms at {default}: {per_floor[-1]} ({shown or 'none'}); "
                  f"at 0.99: {sum(counts[0.99].values())}; {floor.seconds:.0f} s",
                  flush=True)  # fmt: skip
    floors = args.floors
    codes = sorted(tested)
    print(f"\n{'screen':22} {'windows/floor':>13} " + " ".join(
        f"{'alarms@' + str(c):>14} {'nominal':>8}" for c in CONFIDENCES))  # fmt: skip
    for code in [*codes, "total"]:
        n = sum(tested.values()) if code == "total" else tested[code]
        cells = []
        for c in CONFIDENCES:
            hit = sum(alarms[c].values()) if code == "total" else alarms[c][code]
            cells.append(f"{hit / floors:>14.3f} {n * (1 - c) / floors:>8.3f}")
        print(f"{code:22} {n / floors:>13.1f} " + " ".join(cells))
    summary = {
        "floors": floors, "tables": args.tables, "rounds": args.rounds, "mixed": args.mixed,
        "jobs": args.jobs, "confidence": default,
        "windows_per_floor": {code: tested[code] / floors for code in codes},
        "alarms_per_floor": {
            str(c): {code: alarms[c][code] / floors for code in codes} for c in CONFIDENCES
        },
        "total_alarms_per_floor": {str(c): sum(alarms[c].values()) / floors for c in CONFIDENCES},
        "nominal_alarms_per_floor": {
            str(c): sum(tested.values()) * (1 - c) / floors for c in CONFIDENCES
        },
        "alarms_on_each_floor": per_floor,
        "max_alarms_on_a_floor": max(per_floor, default=0),
        "seconds_per_floor": round(sum(floor_seconds) / max(1, floors), 1),
        "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
