"""Every kind of finding the floor reports, both games', the accounting's and the screens', by
code and by game.

What docs/severities.md tabulates, what docs/findings.md is generated from
(:mod:`audit.floor.reference`), and what a view reads to reclassify rows stored
before a kind's money or severity changed.
"""

from __future__ import annotations

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.findings.finding import FindingKind
from audit.verification.baccarat21.kinds import KINDS as BACCARAT21_KINDS
from audit.verification.collusion.kinds import COLLUSION_KINDS
from audit.verification.equipment import SCREEN_KINDS
from audit.verification.paigow.kinds import KINDS as PAIGOW_KINDS

KINDS_BY_CODE: dict[str, FindingKind] = {
    **PAIGOW_KINDS, **BACCARAT21_KINDS, **ACCOUNTING_KINDS, **COLLUSION_KINDS
}  # fmt: skip
"""The kinds stored findings carry: each game's rounds and tables, the books, and the
collusion screens' (judged across tables, so stored as findings as they close)."""

SCREEN_GAMES: dict[str, str] = {
    "STAT-DICE-TOTALS": "paigow",
    "STAT-START-POSITION": "paigow",
    "STAT-B21-SHOE": "baccarat21",
}
"""The game whose equipment each statistical screen watches: dice are Pai Gow's, shoes 21
Baccarat's."""

KINDS_BY_GAME: dict[str, dict[str, FindingKind]] = {
    game: {
        **kinds,
        **{code: kind for code, kind in SCREEN_KINDS.items() if SCREEN_GAMES[code] == game},
    }
    for game, kinds in (("paigow", PAIGOW_KINDS), ("baccarat21", BACCARAT21_KINDS))
}
"""Each game's kinds: its rounds' and tables', the record's (shared) and its screens'. The
accounting's apply to every game: :data:`ACCOUNTING_KINDS`."""

ALL_KINDS: dict[str, FindingKind] = {**KINDS_BY_CODE, **SCREEN_KINDS}
"""Every kind of finding, the statistical screens' included."""
