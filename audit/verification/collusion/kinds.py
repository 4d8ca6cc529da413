"""The collusion screens' finding kinds: statistical prompts for review, each with its rationale.

Every one is a warning (a prompt, never proof, like the equipment screens) and carries its
money as **exposure**: nothing is shown to have moved wrongly, and what an error screen
points at is already at stake in the errors' own findings (counted once, there).
"""

from __future__ import annotations

from audit.findings.finding import FindingKind, Money, Severity

PAIR_RESULTS = "COL-PAIR-RESULTS"
ERROR_BENEFIT = "COL-ERROR-BENEFIT"
BANK_WALK = "COL-BANK-WALK"
PAIR_RECURS = "COL-PAIR-RECURS"

_TITLES = {
    PAIR_RESULTS: "a player wins beyond the odds against one dealer",
    ERROR_BENEFIT: "a dealer's errors favour one player beyond that player's share of hands",
    BANK_WALK: "money walks between two players through the player bank",
    PAIR_RECURS: "a player follows a dealer across tables and days",
}
COLLUSION_KINDS: dict[str, FindingKind] = {
    code: FindingKind(
        code, Severity.WARNING, title, "statistical-screen", Money.EXPOSURE, injectable=True
    )
    for code, title in _TITLES.items()
}
"""Code -> kind, for the catalogue (audit/floor/catalogue.py)."""

GAMES_OF: dict[str, tuple[str, ...]] = {
    PAIR_RESULTS: ("paigow", "baccarat21"),
    ERROR_BENEFIT: ("paigow", "baccarat21"),
    BANK_WALK: ("paigow",),  # only Pai Gow has a player bank
    PAIR_RECURS: ("paigow", "baccarat21"),
}
"""The games whose tables each screen watches."""

RATIONALE = {
    PAIR_RESULTS: "a dealer-player pair's results against the engine's odds",
    ERROR_BENEFIT: "a dealer's errors against one player's share of the dealer's hands",
    BANK_WALK: "player-bank flows between two players (PA 621a.9, CA player-dealer rotation)",
    PAIR_RECURS: "a dealer-player pair's shared tables against the dealer's share of the floor",
}
"""What each screen rests on: no rule forbids a lucky player, so the citation is the reasoning,
marked ``(statistical screen)`` as the equipment screens' are."""

ERROR_CODES = frozenset({
    "PG-SET-HOUSE-WAY", "PG-SET-DEALER-RULE", "PG-SETTLE-OUTCOME", "PG-SETTLE-PAYOUT",
    "PG-SETTLE-VIG-UNCOLLECTED", "PG-SETTLE-VIG-SHORT", "PG-CA-COVERAGE",
    "B21-SETTLE-OUTCOME", "B21-SETTLE-PAYOUT",
})  # fmt: skip
"""The verifier's findings a dealer's favour can take: a house-way deviation on the bank's
hand, and settlement errors at a player's spot (the ones that can move money to the player)."""
