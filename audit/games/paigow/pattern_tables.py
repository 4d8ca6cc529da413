"""The setting rules' answers for every kind pattern, shipped with the code instead of worked out.

A house way (house_way.py) and the regulatory dealer rule (dealer_rule.py) read only a
deal's kind pattern and places (deals.py), so each is fixed by one small answer per
pattern: the place code a house way plays, or the set of place codes the dealer rule
permits (as bits). Working a pattern out takes tens of microseconds, and a process that
judges a shift meets most of the 8,130 patterns, so every process paid a few tenths of a
second per table at first use: about 7% of a rebuild's work on the findings' side, and as
much again on the win rates' (docs/rebuild-speed.md). The answers change only when a
rule's code does, so they are shipped as a generated module, ``pattern_tables_data.py``:
imported, not read from a file, so the rules engine does no I/O and cannot find its data
missing.

``python -m audit.games.paigow.pattern_tables`` writes that module from the rules' own code;
``tests/unit/games/paigow/test_pattern_tables.py`` holds every shipped table equal to its
rule worked out pattern by pattern, and fails, naming that command, when a rule changes or
a house way is added without its table. A table not shipped (a house way being added) is
still worked out on first lookup, as before.

>>> len(PATTERNS), PATTERNS[0], PATTERNS[-1]
(8130, (0, 0, 1, 1), (17, 18, 19, 20))
>>> table_name("dealer-rule", zero_hands_tie=True), house_way_table("california-posted", False)
('dealer-rule/zero-hands-tie', 'house-way:california-posted/zero-hands-broken')
>>> shipped(house_way_table("nobody's", True)) is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import combinations_with_replacement
from pathlib import Path

from audit.games.paigow.deals import first_deal
from audit.games.paigow.pattern_tables_data import TABLES
from audit.games.paigow.tiles import KIND_COUNT, TILE_KINDS

Pattern = tuple[int, ...]
"""A deal's four tiles' kinds, ascending (deals.kind_pattern), as the rules key them."""

MODULE = Path(__file__).with_name("pattern_tables_data.py")
"""The generated module the tables are shipped in."""

_TILES_OF_KIND = [TILE_KINDS.count(kind) for kind in range(KIND_COUNT)]
PATTERNS: tuple[Pattern, ...] = tuple(
    pattern  # a kind appears in a deal at most as often as the set holds its tiles
    for pattern in combinations_with_replacement(range(KIND_COUNT), 4)
    if all(pattern.count(kind) <= _TILES_OF_KIND[kind] for kind in pattern)
)
"""Every kind pattern, in ascending order: the order of each shipped table's answers."""


def table_name(rule: str, zero_hands_tie: bool) -> str:
    """Return the shipped table's name for ``rule`` under a hand ranking (hands.HandRanking)."""
    return f"{rule}/{'zero-hands-tie' if zero_hands_tie else 'zero-hands-broken'}"


def house_way_table(way_name: str, zero_hands_tie: bool) -> str:
    """Return the shipped table's name for the house way named ``way_name``."""
    return table_name(f"house-way:{way_name}", zero_hands_tie)


_reading = True  # False while main() works the tables out: from the rules alone, not shipped


def shipped(name: str) -> dict[Pattern, int] | None:
    """Return the shipped table ``name`` (each pattern's answer), or None if none is shipped."""
    answers = TABLES.get(name) if _reading else None
    return None if answers is None else dict(zip(PATTERNS, bytes.fromhex(answers), strict=True))


def work_out(answer: Callable[[Pattern], int]) -> bytes:
    """Return ``answer`` (a rule applied to a pattern's first deal) for every pattern, in order."""
    return bytes(answer(pattern) for pattern in PATTERNS)


def rules() -> dict[str, Callable[[Pattern], int]]:
    """Return every table to ship, by name: each house way's place code and the dealer
    rule's permitted codes, under each hand ranking."""
    # Imported here: both modules read their shipped tables from this one.
    from audit.games.paigow.dealer_rule import naive_permitted_settings
    from audit.games.paigow.deals import place_code
    from audit.games.paigow.hands import NJ_RANKING, PA_RANKING, HandRanking
    from audit.games.paigow.house_way import HOUSE_WAYS, HouseWay

    def way_code(way: HouseWay, ranking: HandRanking) -> Callable[[Pattern], int]:
        return lambda pattern: place_code(way.procedure(first_deal(pattern), ranking))

    def permitted(ranking: HandRanking) -> Callable[[Pattern], int]:
        return lambda pattern: sum(
            1 << place_code(s) for s in naive_permitted_settings(first_deal(pattern), ranking)
        )

    found: dict[str, Callable[[Pattern], int]] = {}
    for ranking in (PA_RANKING, NJ_RANKING):
        found[table_name("dealer-rule", ranking.zero_hands_tie)] = permitted(ranking)
        for way in HOUSE_WAYS.values():
            found[house_way_table(way.name, ranking.zero_hands_tie)] = way_code(way, ranking)
    return found


def module_text(tables: dict[str, bytes]) -> str:
    """Return the source of ``pattern_tables_data.py`` holding ``tables`` (answers by name)."""
    lines = [
        '"""Generated by ``python -m audit.games.paigow.pattern_tables``: do not edit.',
        "",
        f"Each table: one byte per kind pattern, in hex, in pattern_tables.PATTERNS' order "
        f"({len(PATTERNS):,}).",
        '"""',
        "",
        "TABLES: dict[str, str] = {",
    ]
    for name, answers in sorted(tables.items()):
        text = answers.hex()
        lines.append(f'    "{name}": (')
        lines += [f'        "{text[i : i + _WIDTH]}"' for i in range(0, len(text), _WIDTH)]
        lines.append("    ),")
    return "\n".join([*lines, "}", ""])


_WIDTH = 88  # hex characters a line: within the line length


def main() -> None:
    """Write ``pattern_tables_data.py`` from the rules' code."""
    global _reading
    _reading = False  # a house way may read the dealer rule's table: work that out too
    tables = {name: work_out(rule) for name, rule in rules().items()}
    MODULE.write_text(module_text(tables), encoding="utf-8")
    print(f"wrote {len(tables)} tables of {len(PATTERNS):,} patterns to {MODULE}", file=sys.stderr)


if __name__ == "__main__":
    # The rules import this module by its name, not as __main__: set its flag, not a copy's.
    from audit.games.paigow import pattern_tables

    pattern_tables.main()
