"""Render the finding catalogue: docs/findings.md, and which kinds apply under which rule set.

Both are generated from the catalogue's rows (:mod:`audit.floor.catalogue`):
``tablewatch schema --findings > docs/findings.md`` and ``tablewatch schema
--findings-by-rule-set > tests/unit/floor/kinds_by_rule_set.json``; a test fails if
either drifts, so a change to a kind shows up in review.

A kind applies under a rule set where that rule set cites the kind's rule key: a check's
emitter makes no finding whose rule the table's rules lack. The record's kinds cite every
rule set's record integrity; the accounting's apply at every table, cited in its
jurisdiction; a statistical screen applies at every table of its game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from audit.accounting.controls import ACCOUNTING_KINDS, cite
from audit.findings.finding import FindingKind
from audit.floor.catalogue import KINDS_BY_GAME
from audit.games.baccarat21.rulesets import RULE_SETS as BACCARAT21_RULE_SETS
from audit.games.paigow.rulesets import RULE_SETS as PAIGOW_RULE_SETS
from audit.verification.collusion.kinds import COLLUSION_KINDS, GAMES_OF, RATIONALE
from audit.verification.equipment import SCREEN_KINDS, screen_rule
from audit.verification.record_kinds import RECORD_KINDS

RULE_SETS_BY_GAME: dict[str, tuple[tuple[str, str, Mapping[str, str]], ...]] = {
    "paigow": tuple((r.name, r.jurisdiction, r.citations) for r in PAIGOW_RULE_SETS.values()),
    "baccarat21": tuple(
        (r.name, r.jurisdiction, r.citations) for r in BACCARAT21_RULE_SETS.values()
    ),
}
"""Each game's rule sets: name, jurisdiction and citations (what a kind's rule key looks up)."""

_SECTIONS = (
    ("Pai Gow Tiles", "paigow"),
    ("The record (every game)", None),
    ("21 Baccarat", "baccarat21"),
    ("Accounting (every game)", None),
    ("Collusion screens (across tables)", None),
)


def citation(kind: FindingKind, jurisdiction: str, citations: Mapping[str, str]) -> str | None:
    """Return what a finding of ``kind`` cites at a table of these rules (``None``: never made)."""
    if kind.code in SCREEN_KINDS:
        return f"{screen_rule(kind.code, jurisdiction, citations)} (statistical screen)"
    if kind.code in ACCOUNTING_KINDS:
        return cite(jurisdiction, kind.rule_key)
    if kind.code in COLLUSION_KINDS:
        return f"{RATIONALE[kind.code]} (statistical screen)"
    return citations.get(kind.rule_key)


def kinds_by_rule_set() -> dict[str, dict[str, str]]:
    """Return, for every rule set of every game, each kind that applies there and its citation."""
    found: dict[str, dict[str, str]] = {}
    for game, rule_sets in RULE_SETS_BY_GAME.items():
        kinds = {**KINDS_BY_GAME[game], **ACCOUNTING_KINDS, **_collusion_kinds(game)}
        for name, jurisdiction, citations in rule_sets:
            cited = {code: citation(kind, jurisdiction, citations) for code, kind in kinds.items()}
            found[name] = {code: text for code, text in sorted(cited.items()) if text is not None}
    return dict(sorted(found.items()))


def _collusion_kinds(game: str) -> dict[str, FindingKind]:
    return {code: kind for code, kind in COLLUSION_KINDS.items() if game in GAMES_OF[code]}


def render_kinds_by_rule_set() -> str:
    """Return the golden file of which kinds apply under which rule set, as JSON."""
    return json.dumps(kinds_by_rule_set(), indent=1, sort_keys=True) + "\n"


_INTRO = """\
# The finding catalogue

Every kind of finding tablewatch reports, one row each, as the code declares it
(`FindingKind` in `audit/verification/paigow/kinds.py`, `audit/verification/baccarat21/kinds.py`,
`audit/verification/record_kinds.py`, `audit/accounting/controls.py`,
`audit/verification/equipment.py` and `audit/verification/collusion/kinds.py`). A finding's
code is stable: alerts, labels and reports key on it.

This page is generated from those rows: `tablewatch schema --findings > docs/findings.md`.
A test fails if it drifts. Which kinds apply under which rule set, with what each cites
there, is the golden file `tests/unit/floor/kinds_by_rule_set.json`
(`tablewatch schema --findings-by-rule-set`), so a change to it is a reviewed diff.

- **severity** is the kind's default; a rule set may raise or lower it, and the
  accounting's money variances follow the table's thresholds (docs/severities.md).
- **money** is what the finding carries: money *at stake* (moved wrongly) or *exposure*
  (the action a procedure breach touched), never both summed (docs/severities.md).
- **cites** is the paragraph a finding of the kind cites under each rule set; a check may
  cite a narrower paragraph of the same rule (a vigorish collected short cites 621a.8(k)).
- **applies under**: the rule sets whose rules cite the kind's rule key. A check's emitter
  makes no finding whose rule the table's rules lack (California has no vigorish, so no
  vigorish finding). The accounting's apply at every table; a screen at every table of its
  game (the collusion screens judge dealers and players across tables:
  docs/collusion-screens.md).
- **replay step**: the step of `tablewatch replay` (and the console's replay) that shows
  the finding; "—" for a finding of no one round (the books, a statistical screen).
- **injected**: whether the simulator injects it (`tablewatch run --irregularities`, the
  books' mishaps, loaded dice), so a careless run scores it. Every injected label names
  such a kind, and every such kind is injected (tests/unit/simulation and
  tests/unit/accounting).
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _rule_sets_of(kind: FindingKind, game: str | None) -> list[tuple[str, str]]:
    """Return (rule set, citation) for each rule set the kind applies under, games in order."""
    games = [game] if game else list(GAMES_OF.get(kind.code, RULE_SETS_BY_GAME))
    return [
        (name, text)
        for g in games
        for name, jurisdiction, citations in RULE_SETS_BY_GAME[g]
        if (text := citation(kind, jurisdiction, citations)) is not None
    ]


def _row(kind: FindingKind, game: str | None) -> str:
    applies = _rule_sets_of(kind, game)
    grouped: dict[str, list[str]] = {}
    for name, text in applies:
        grouped.setdefault(text, []).append(name)
    cites = "; ".join(f"{text} ({', '.join(names)})" for text, names in grouped.items())
    cells = [
        f"`{kind.code}`",
        game or "every game",
        kind.severity.value,
        kind.money.value,
        cites,
        ", ".join(name for name, _ in applies),
        kind.step or "—",
        "yes" if kind.injectable else "no",
        kind.title,
    ]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def render_markdown() -> str:
    """Return docs/findings.md: every kind, section by section, then the counts by rule set."""
    lines = [_INTRO]
    header = (
        "| code | game | severity | money | cites | applies under | replay step | injected "
        "| description |\n|---|---|---|---|---|---|---|---|---|"
    )
    for title, game in _SECTIONS:
        if game is not None:
            kinds = [k for c, k in KINDS_BY_GAME[game].items() if c not in RECORD_KINDS]
        elif title.startswith("The record"):
            kinds = list(RECORD_KINDS.values())
        elif title.startswith("Collusion"):
            kinds = list(COLLUSION_KINDS.values())
        else:
            kinds = list(ACCOUNTING_KINDS.values())
        lines += [f"## {title}\n", header]
        lines += [_row(kind, game) for kind in kinds]
        lines.append("")
    lines += [
        "## Kinds by rule set\n",
        "| rule set | game | kinds that apply | of which injected |",
        "|---|---|---|---|",
    ]
    applying = kinds_by_rule_set()
    every = {
        **KINDS_BY_GAME["paigow"], **KINDS_BY_GAME["baccarat21"], **ACCOUNTING_KINDS,
        **COLLUSION_KINDS,
    }  # fmt: skip
    for game, rule_sets in RULE_SETS_BY_GAME.items():
        for name, _, _ in rule_sets:
            codes = applying[name]
            injected = sum(every[code].injectable for code in codes)
            lines.append(f"| `{name}` | {game} | {len(codes)} | {injected} |")
    return "\n".join(lines) + "\n"
