"""What a 21 Baccarat round's settlement moved to or from the house, for the win by replay.

Every wager is against the house (PA 681a.7(h)-(k), 681a.8): a collected wager
is the house's, a payout is the house's loss, a returned wager (a tie on the
Player or Banker Wager, a voided round) moves nothing. There is no vigorish, no
player bank and no collection fee, so :class:`~audit.accounting.ledger.ReplayedWin`
moves only in ``wagers``. A round ends at ``round_completed``.

A wager settled a second time (a winner paid twice) is not a result of the cards:
``wagers`` counts each wager's first settlement only, and what a repeat moved goes to
``repeated_settlements``. The chips did leave the tray, so the replayed win still
counts it and agrees with the win by accounting; the round's ``B21-SETTLE-TWICE``
finding carries that money at stake, once, rather than a shift variance too.

The hold band: each wager settled by the cards (won, pushed or lost) adds its
stake times the engine's mean house result per unit for that bet, paytable and deck
count (:mod:`audit.games.baccarat21.probabilities`), and its stake squared times the
variance. A table whose rules have no tabled moments keeps no band, never a guess.

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
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved, B21WagerSettled
from audit.events.envelope import Event
from audit.games.baccarat21.options import rule_set_for
from audit.games.baccarat21.probabilities import HouseMoments, lookup_moments
from audit.games.baccarat21.rulesets import PA_681A, RuleSet
from audit.games.baccarat21.settlement import Bet
from audit.games.money import Cents, to_cents


class Baccarat21Money:
    """Follows one 21 Baccarat table: its rule set's jurisdiction, and each settlement's money."""

    def __init__(self) -> None:
        self.ruleset: RuleSet = PA_681A
        self._moments: dict[Bet, HouseMoments] | None = self._tabled(PA_681A)
        self._stakes: dict[str, dict[tuple[int, Bet], Cents]] = {}
        """Each open round's stake on each betting area: the band's weights."""
        self._settled: dict[str, set[tuple[int, Bet]]] = {}
        """Each open round's betting areas settled so far: a second settlement is a repeat.

        A round leaves both when it completes or is voided, or with its table's session (its
        close, or an opening): a round never completed leaves with its table, so the state
        holds the open session's rounds, not every round ever left open (#16)."""

    @property
    def jurisdiction(self) -> str:
        """Return the table's jurisdiction, for citations."""
        return self.ruleset.jurisdiction

    @staticmethod
    def _tabled(ruleset: RuleSet) -> dict[Bet, HouseMoments] | None:
        try:
            return lookup_moments(ruleset.decks, ruleset.draw_rule, ruleset.paytable.letter)
        except KeyError:
            return None

    def observe(self, event: Event, replay: ReplayedWin, band: HoldBand) -> bool:
        """Add what ``event`` moved to the house to ``replay``; return whether a round ended."""
        if isinstance(event, B21WagerPlaced | B21WagerRemoved):
            stakes = self._stakes.setdefault(event.round_id or "", {})
            area = (event.position, event.bet)
            sign = 1 if isinstance(event, B21WagerPlaced) else -1  # taken back: no longer staked
            stakes[area] = stakes.get(area, 0) + sign * to_cents(event.amount)
            return False
        if isinstance(event, B21WagerSettled):
            moved = to_cents(event.collected) - to_cents(event.paid)
            settled = self._settled.setdefault(event.round_id or "", set())
            if (event.position, event.bet) in settled:
                replay.repeated_settlements += moved
                return False
            settled.add((event.position, event.bet))
            replay.wagers += moved
            self._band(event, moved, band)
            return False
        kind = event.type_name()
        if kind == "table_opened":
            self.ruleset = rule_set_for(event.rule_set, dict(event.options))  # type: ignore[attr-defined]
            self._moments = self._tabled(self.ruleset)
        if kind in ("table_opened", "table_closed"):  # an opening: a close never recorded
            self._stakes.clear()
            self._settled.clear()
        elif kind in ("round_completed", "b21_round_voided"):
            self._stakes.pop(event.round_id or "", None)
            self._settled.pop(event.round_id or "", None)
        return kind == "round_completed"

    def _band(self, event: B21WagerSettled, moved: Cents, band: HoldBand) -> None:
        stake = self._stakes.get(event.round_id or "", {}).get((event.position, event.bet), 0)
        if self._moments is None or event.outcome == "returned" or stake <= 0:
            return  # a voided round's wagers are not contests of the cards
        moments = self._moments[event.bet]
        band.expected += stake * moments.mean
        band.variance += stake * stake * moments.variance
        band.observed += moved
        band.wagered += stake
