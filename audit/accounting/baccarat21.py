"""What a 21 Baccarat round's settlement moved to or from the house, for the win by replay.

Every wager is against the house (PA 681a.7(h)-(k), 681a.8): a collected wager
is the house's, a payout is the house's loss, a returned wager (a tie on the
Player or Banker Wager, a voided round) moves nothing. There is no vigorish, no
player bank and no collection fee, so :class:`~audit.accounting.ledger.ReplayedWin`
moves only in ``wagers``. A round ends at ``round_completed``.

No hold band is kept: the game's exact per-wager rates are not tabulated yet, and
a band is never guessed (as Pai Gow leaves a house way without rates alone).

>>> from audit.events.catalogue import parse_event
>>> from audit.events.examples import EXAMPLES
>>> from audit.accounting.ledger import HoldBand, ReplayedWin
>>> money, replay = Baccarat21Money(), ReplayedWin()
>>> money.observe(parse_event(EXAMPLES["b21_wager_settled"]), replay, HoldBand())
False
>>> replay.wagers, replay.total, money.jurisdiction
(-1250, -1250, 'PA')
"""

from __future__ import annotations

from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.events.baccarat21.wagers import B21WagerSettled
from audit.events.envelope import Event
from audit.games.baccarat21.rulesets import PA_681A, RULE_SETS
from audit.games.money import to_cents


class Baccarat21Money:
    """Follows one 21 Baccarat table: its rule set's jurisdiction, and each settlement's money."""

    def __init__(self) -> None:
        self._jurisdiction = PA_681A.jurisdiction

    @property
    def jurisdiction(self) -> str:
        """Return the table's jurisdiction, for citations."""
        return self._jurisdiction

    def observe(self, event: Event, replay: ReplayedWin, band: HoldBand) -> bool:
        """Add what ``event`` moved to the house to ``replay``; return whether a round ended."""
        if isinstance(event, B21WagerSettled):
            replay.wagers += to_cents(event.collected) - to_cents(event.paid)
            return False
        kind = event.type_name()
        if kind == "table_opened":
            ruleset = RULE_SETS.get(event.rule_set)  # type: ignore[attr-defined]
            self._jurisdiction = (ruleset or PA_681A).jurisdiction
        return kind == "round_completed"
