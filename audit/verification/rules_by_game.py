"""Each game's reading of a ``table_opened``: its rule set with the table's options applied.

The screens that read every game's tables (statistics, equipment) look a table's rules up
here by the game its opening named, rather than branching on one game's name.

>>> type(RULES_FOR["baccarat21"]("pa-681a", {})).__module__
'audit.games.baccarat21.rulesets'
"""

from __future__ import annotations

from collections.abc import Callable

from audit.games.baccarat21.options import rule_set_for as baccarat21_rules
from audit.games.baccarat21.rulesets import RuleSet as Baccarat21RuleSet
from audit.games.paigow.options import rule_set_for as paigow_rules
from audit.games.paigow.rulesets import RuleSet as PaiGowRuleSet

AnyRuleSet = PaiGowRuleSet | Baccarat21RuleSet

RULES_FOR: dict[str, Callable[[str, dict[str, str]], AnyRuleSet]] = {
    "paigow": paigow_rules,
    "baccarat21": baccarat21_rules,
}
"""Game name -> (rule-set name, table options) -> the table's rules."""
