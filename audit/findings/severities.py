"""Each finding's severity: the kind's default, a rule set's own where its text calls for one.

Severity follows money (issue #22.3, docs/severities.md): a kind's default is
critical where money moved wrongly or a round that should have been voided was
not, a warning for a procedure breach whose money was correct, info for what only
asks a person to look. A rule set may raise or lower a kind where its text makes
the breach weigh differently; :data:`RULE_SET_SEVERITIES` holds those, by rule-set
name, and docs/severities.md lists them with their reasons.
"""

from __future__ import annotations

from decimal import Decimal

from audit.findings.finding import FindingKind, Money, Severity

RULE_SET_SEVERITIES: dict[str, dict[str, Severity]] = {
    # California: "The player-dealer may only 'bank' the hand ... for two consecutive
    # rounds of play before it is offered in a clockwise fashion around the gaming
    # table. The gambling enterprise ... has no interest in the outcome of the play."
    # The rotation is what keeps the game a player-dealer game, not a banked one.
    "california": {
        "PG-ROT-CONSECUTIVE": Severity.CRITICAL,
        "PG-ROT-OUT-OF-ORDER": Severity.CRITICAL,
    },
}


def severity_of(kind: FindingKind, rule_set: str, at_stake: Decimal) -> Severity:
    """Return a finding's severity: the rule set's for its kind, else the kind's default.

    A kind whose money is :attr:`Money.EITHER` is critical when it carries money at
    stake: the breach then moved money, not only touched it.
    """
    severity = RULE_SET_SEVERITIES.get(rule_set, {}).get(kind.code, kind.severity)
    if kind.money is Money.EITHER and at_stake > 0:
        return Severity.CRITICAL
    return severity
