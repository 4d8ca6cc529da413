"""A table's options: what a casino's Rules Submission may choose within its rule set.

``table_opened.options`` names them as text. :func:`apply_options` reads each one
against :data:`TABLE_OPTIONS` and returns the rule set the table plays under, with
every option it could not take and why: an unknown name, a value that does not
parse, or one the jurisdiction does not allow. The rule set's own value then stands,
and the verification reports the problem (``PG-TABLE-OPTION``), so a misspelt
rounding option is never silently a different table.

What is not here is the jurisdiction's and cannot be set by a table: the dealer
rule, the roundings and delivery styles allowed, who may bank how often, how zero
hands rank (``tablewatch rules rule-sets`` shows the two apart).

>>> from audit.games.paigow.rulesets import get_rule_set
>>> rules, problems = apply_options(get_rule_set("pa-2012"), {"vig_rounding": "quater"})
>>> rules.vig_rounding.value, problems[0].reason
('cent', "not one of ['cent', 'quarter']")
>>> rules, _ = apply_options(get_rule_set("california"), {"collection_schedule": "3"})
>>> rules.collection_schedule.option
3
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from audit.games.errors import RulesError
from audit.games.paigow.collection import COLLECTION_SCHEDULES
from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.house_way import HOUSE_WAYS
from audit.games.paigow.pair_fortunes import ILLUSTRATIVE_PAYTABLE
from audit.games.paigow.rulesets import RULE_SETS, RuleSet, get_rule_set
from audit.games.paigow.vigorish import VigRounding
from audit.games.table_options import READ_ELSEWHERE

DEFAULT_RULE_SET = "pa-2019"
"""The rules a table is judged by before it opens, or when it opens under a name we lack."""


class OptionError(RulesError):
    """Raised for a table option value that cannot be taken; the message says why."""


@dataclass(frozen=True)
class TableOption:
    """One option a table may set: how its text is read and checked, and the rule it shapes."""

    name: str
    rule_key: str
    """The citation key of the paragraph the option is a choice under."""
    values: str
    """The values it takes, for a person."""
    parse: Callable[[RuleSet, str], Any]


@dataclass(frozen=True)
class OptionProblem:
    """An option a table could not take: its name, its value, why, and the rule it shapes."""

    name: str
    value: str
    reason: str
    rule_key: str


_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")


def _choice(names: list[str], text: str) -> str:
    if text not in names:
        raise OptionError(f"not one of {names!r}")
    return text


def _flag(_: RuleSet, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered not in (*_TRUE, *_FALSE):
        raise OptionError(f"not one of {[*_TRUE, *_FALSE]!r}")
    return lowered in _TRUE


def _allowed_flag(field: str) -> Callable[[RuleSet, str], bool]:
    """Return a flag the table may turn off, but on only where its rule set allows it."""

    def parse(rules: RuleSet, text: str) -> bool:
        wanted = _flag(rules, text)
        if wanted and not getattr(rules, field):
            raise OptionError(f"{rules.name} does not allow it")
        return wanted

    return parse


def _vig_rounding(rules: RuleSet, text: str) -> VigRounding:
    allowed = sorted(r.value for r in rules.vig_roundings_allowed)
    if not allowed:
        raise OptionError(f"{rules.name} takes no vigorish")
    return VigRounding(_choice(allowed, text))


def _delivery_style(rules: RuleSet, text: str) -> DeliveryStyle:
    return DeliveryStyle(_choice(sorted(s.value for s in rules.delivery_styles), text))


def _collection_schedule(rules: RuleSet, text: str) -> Any:
    if rules.collection_schedule is None:
        raise OptionError(f"{rules.name} has no collection schedule")
    names = [str(option) for option in sorted(COLLECTION_SCHEDULES)]
    return COLLECTION_SCHEDULES[int(_choice(names, text.strip()))]


def _pair_fortunes(rules: RuleSet, text: str) -> Any:
    if rules.pair_fortunes is None:
        raise OptionError(f"{rules.name} has no Pair Fortunes wager")
    return (
        ILLUSTRATIVE_PAYTABLE if _choice(["illustrative", "off"], text) == "illustrative" else None
    )


def _hours(field: str) -> Callable[[RuleSet, str], int]:
    """Return a change interval in hours: a table may change equipment sooner, never later."""

    def parse(rules: RuleSet, text: str) -> int:
        if not text.strip().isdigit() or int(text) < 1:
            raise OptionError("not a whole number of hours, 1 or more")
        hours, most = int(text), getattr(rules, field)
        if most is not None and hours > most:
            raise OptionError(f"{rules.name} requires a change within {most} h")
        return hours

    return parse


TABLE_OPTIONS: Mapping[str, TableOption] = {
    option.name: option
    for option in (
        TableOption("house_way", "house-way", "a house way's name",
                    lambda _, text: HOUSE_WAYS[_choice(sorted(HOUSE_WAYS), text)]),
        TableOption("vig_rounding", "vigorish", "cent or quarter, as the rule set allows",
                    _vig_rounding),
        TableOption("player_banking", "player-banking", "true or false",
                    _allowed_flag("player_banking")),
        TableOption("co_banking", "co-banking", "true or false", _allowed_flag("co_banking")),
        TableOption("adjacent_spots", "adjacent-spots", "true or false",
                    _allowed_flag("adjacent_spots")),
        TableOption("default_delivery_style", "delivery",
                    "one of the rule set's delivery styles", _delivery_style),
        TableOption("collection_schedule", "collection", "1 to 10 (California)",
                    _collection_schedule),
        TableOption("pair_fortunes", "pair-fortunes", "illustrative or off (PA 2019)",
                    _pair_fortunes),
        TableOption("tile_change_hours", "tile-change", "hours, at most the rule set's",
                    _hours("tile_change_hours")),
        TableOption("dice_change_hours", "dice-change", "hours, at most the rule set's",
                    _hours("dice_change_hours")),
    )
}  # fmt: skip
"""Every option a table may set, by the name ``table_opened.options`` gives it."""


def apply_options(
    rules: RuleSet, options: Mapping[str, str]
) -> tuple[RuleSet, list[OptionProblem]]:
    """Return the rule set with a table's options applied, and every option it could not take.

    >>> from audit.games.paigow.rulesets import get_rule_set
    >>> _, problems = apply_options(get_rule_set("nj"), {"vig_roundng": "quarter"})
    >>> problems[0].reason
    'not a table option'
    """
    changes: dict[str, Any] = {}
    problems: list[OptionProblem] = []
    for name, value in sorted(options.items()):
        option = TABLE_OPTIONS.get(name)
        if option is None and name in READ_ELSEWHERE:
            continue
        if option is None:
            problems.append(OptionProblem(name, value, "not a table option", "records"))
            continue
        try:
            changes[name] = option.parse(rules, value)
        except (RulesError, ValueError) as error:
            problems.append(OptionProblem(name, value, str(error), option.rule_key))
    return rules.with_options(**changes), problems


def rule_set_for(name: str, options: dict[str, str]) -> RuleSet:
    """Return the named rule set (:data:`DEFAULT_RULE_SET` for a name we lack) with a table's
    options applied, leaving out each it cannot take, as verification judges the table.

    >>> rule_set_for("pa-2012", {"vig_rounding": "quarter"}).vig_rounding.value
    'quarter'
    >>> rule_set_for("no-such-rules", {}).name
    'pa-2019'
    """
    base = get_rule_set(name if name in RULE_SETS else DEFAULT_RULE_SET)
    return apply_options(base, options)[0]
