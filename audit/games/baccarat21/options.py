"""A 21 Baccarat table's options: the rule set a ``table_opened`` puts the table under.

``table_opened.options`` names them as text; :func:`read_options` applies each the
rule set allows and reports each it does not (``B21-TABLE-OPTION``), and
:func:`rule_set_for` is the rule set alone, for whoever only needs to settle or
expect by it (accounting, statistics, equipment screens) without judging the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.games.baccarat21.drawing import DrawOrder, DrawRule
from audit.games.baccarat21.rulesets import PA_681A, RuleSet, get_rule_set
from audit.games.errors import RulesError
from audit.games.table_options import READ_ELSEWHERE

_PARSERS: dict[str, Any] = {
    "decks": int,
    "paytable": str,
    "batches": lambda text: text.lower() in ("true", "yes", "1"),
    "draw_rule": DrawRule,
    "draw_order": DrawOrder,
}


_OPTION_RULES = {"decks": "decks", "paytable": "bonus-payout", "batches": "batches",
                 "draw_rule": "draw", "draw_order": "draw-order"}  # fmt: skip
"""Each option -> the rule key of the paragraph that allows its values."""


@dataclass(frozen=True)
class OptionProblem:
    """A recorded table option the rules do not allow: its rule key, what was recorded, and
    what the table is judged with instead."""

    rule_key: str
    recorded: str
    expected: str


def read_options(name: str, options: dict[str, str]) -> tuple[RuleSet, tuple[OptionProblem, ...]]:
    """Return the named rule set with a table's options applied, and each option not allowed.

    Decks are applied before the paytable. A recorded option never stops the judging:
    one the rule set does not know how to apply is left out, and said so; a paytable
    for the other deck count (PA 681a.8(c)) is kept as recorded, since it is what the
    table pays, and said so. A key that is no option of the rule set's, nor one read
    elsewhere (the variance thresholds), is said so too: a misspelt option is never
    silently a different table.

    >>> rules, problems = read_options("pa-681a", {"decks": "4", "paytable": "E"})
    >>> rules.decks, rules.paytable.letter, [p.rule_key for p in problems]
    (4, 'E', ['bonus-payout'])
    """
    problems: list[OptionProblem] = []
    try:
        ruleset = get_rule_set(name)
    except RulesError:
        ruleset = PA_681A
        problems.append(
            OptionProblem(
                "records", f"rule set {name!r}", f"a known rule set; judged as {ruleset.name}"
            )
        )
    for key in sorted(options, key=lambda k: k != "decks"):
        if key not in _PARSERS:
            if key not in READ_ELSEWHERE:
                problems.append(OptionProblem(
                    "records", f"option {key}={options[key]!r}",
                    f"a table option, one of {sorted(_PARSERS)!r}: ignored",
                ))  # fmt: skip
            continue
        try:
            ruleset = ruleset.with_options(as_recorded=True, **{key: _PARSERS[key](options[key])})
        except (RulesError, ValueError, KeyError):
            shown = ruleset.options()[key]
            problems.append(
                OptionProblem(
                    _OPTION_RULES[key], f"{key} {options[key]!r}", f"judged with {key} {shown}"
                )
            )
    if not ruleset.paytable_fits:
        problems.append(
            OptionProblem(
                "bonus-payout",
                f"paytable {ruleset.paytable.letter} with {ruleset.decks} decks",
                "paytable A, B or C with four decks, D, E or F with eight; judged with paytable "
                f"{ruleset.paytable.letter} as the table pays it",
            )
        )
    return ruleset, tuple(problems)


def rule_set_for(name: str, options: dict[str, str]) -> RuleSet:
    """Return the named rule set with a table's options applied (:func:`read_options`).

    >>> rules = rule_set_for("pa-681a", {"paytable": "B", "decks": "4", "batches": "true"})
    >>> rules.decks, rules.paytable.letter, rules.batches
    (4, 'B', True)
    """
    return read_options(name, options)[0]
