"""Measure the equipment screens' false-alarm rate on clean floors, and their power on
loaded dice. Last line: JSON.

Run: ``python3 bench/dice_screen.py [--floors 20 --tables 40 --rounds 1000]``. Each floor
is a seeded clean Pai Gow shift (the default floor: some tables count with a random
number generator in dealer-banked rounds); every fact goes through
:class:`~audit.verification.equipment.EquipmentScreens`, and each closed window's p-value
is kept, so the alarms at several confidences come from one pass. A floor with
``--loaded`` tables is then run once to show what the screen finds there.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.equipment import EquipmentScreens

CONFIDENCES = (0.99, 0.999, 0.9999)
"""Alarms are counted at each: the first two check that p-values are as chance makes them."""


def floor_p_values(config: ShiftConfig, seed: int) -> list[tuple[str, float, str]]:
    """Return each tested window's screen, p-value and subject on one seeded floor."""
    screens = EquipmentScreens()
    found = []
    for event in simulate_shift(config, random.Random(seed)):
        for result in screens.feed(event)[0]:
            if result.fit is not None:
                found.append((result.window.screen, result.fit.p_value, result.window.subject))
    return found


def main() -> None:
    """Print each floor's windows and alarms, then the rates, then JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", type=int, default=20)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--loaded", type=int, default=4)
    parser.add_argument(
        "--mixed", action="store_true", help="one 21 Baccarat table to three Pai Gow (shoes too)"
    )
    args = parser.parse_args()
    games = (("paigow", 0.75), ("baccarat21", 0.25)) if args.mixed else (("paigow", 1.0),)
    alarms: dict[float, list[int]] = {c: [] for c in CONFIDENCES}
    windows: Counter[str] = Counter()
    started = time.perf_counter()
    for seed in range(1, args.floors + 1):
        found = floor_p_values(ShiftConfig(args.tables, args.rounds, games=games), seed)
        windows.update(screen for screen, _, _ in found)
        counts = {c: sum(p < 1 - c for _, p, _ in found) for c in CONFIDENCES}
        for c in CONFIDENCES:
            alarms[c].append(counts[c])
        print(f"floor {seed}: {len(found)} windows tested, alarms "
              + ", ".join(f"{c}: {counts[c]}" for c in CONFIDENCES), flush=True)  # fmt: skip
    per_floor = {c: sum(alarms[c]) / args.floors for c in CONFIDENCES}
    loaded = ShiftConfig(args.tables, args.rounds, games=games, loaded_dice_tables=args.loaded)
    tested = floor_p_values(loaded, 1)
    hits = [(s, subject) for s, p, subject in tested if p < 1 - 0.9999]
    summary = {
        "floors": args.floors, "tables": args.tables, "rounds": args.rounds,
        "windows_per_floor": {k: v / args.floors for k, v in sorted(windows.items())},
        "alarms_per_floor": per_floor,
        "max_alarms_on_a_floor": {c: max(alarms[c]) for c in CONFIDENCES},
        "windows_per_floor_total": sum(windows.values()) / args.floors,
        "alarm_rate_per_window": {
            c: sum(alarms[c]) / max(1, sum(windows.values())) for c in CONFIDENCES
        },
        "loaded_floor_windows": dict(Counter(s for s, _, _ in tested)),
        "loaded_floor_alarms_at_0.9999": hits,
        "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
