"""The Bonus-only card: was it counted? Judged from the settlement (PA 681a.7(f)(2)).

After a natural with a Bonus Wager on the table, a hand under 17 takes one card that
"shall count only for purposes of the Bonus Wager". Devices may flag it
(``bonus_only``); the flag is optional and says nothing of what the dealer did. So a
card the rules deal for the Bonus only, recorded without the flag or flagged as
counting, is judged by the money:

- the settlement of a Player, Banker or Tie Wager follows the card counted, where
  that differs from the rules: ``B21-BONUS-CARD-COUNTED`` (critical);
- otherwise (the settlement follows the rules, or cannot tell the two apart):
  ``B21-BONUS-FLAG``, a data-quality note with nothing at stake.
"""

from __future__ import annotations

from dataclasses import replace

from audit.events.baccarat21.play import B21CardDealt
from audit.games.baccarat21.drawing import Deal, Hand
from audit.games.baccarat21.hands import describe_total
from audit.games.baccarat21.rulesets import RuleSet
from audit.games.baccarat21.settlement import Bet, RoundResult, Wager, settle_wager
from audit.games.money import to_cents
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.round_view import RoundView

_NAMES = {Hand.PLAYER: "Player's Hand", Hand.BANKER: "Banker's Hand"}
_COUNTING_BETS = (Bet.PLAYER, Bet.BANKER, Bet.TIE)


def _follows_counted(view: RoundView, deal: Deal, counted: Deal, rules: RuleSet) -> bool:
    """Return whether a counting wager was settled as the counted deal settles it, where the
    rules' deal settles it otherwise (each wager's first settlement, as elsewhere)."""
    right, wrong = RoundResult.from_deal(deal), RoundResult.from_deal(counted)
    placed = view.wagers()
    first: dict[tuple[int, Bet], tuple[str, int, int, int]] = {}
    for _, event in view.settled:
        money = (to_cents(event.paid), to_cents(event.collected), to_cents(event.returned))
        first.setdefault((event.position, event.bet), (event.outcome, *money))
    for (position, bet), amount in placed.items():
        if bet not in _COUNTING_BETS or (position, bet) not in first:
            continue
        lines = [
            settle_wager(Wager(position, bet, amount), r, rules.paytable) for r in (right, wrong)
        ]
        rule_line, counted_line = (
            (line.outcome.value, line.paid, line.collected, line.returned) for line in lines
        )
        if rule_line != counted_line and first[(position, bet)] == counted_line:
            return True
    return False


def check_bonus_cards(
    view: RoundView,
    deal: Deal,
    unflagged: list[tuple[B21CardDealt, int]],
    rules: RuleSet,
    emit: Emit,
) -> None:
    """Report each Bonus-only card not flagged so: counted, if the settlement shows it."""
    if view.voided is not None or len(deal.cards) < 4:
        return
    for event, index in unflagged:
        cards = list(deal.cards)
        cards[index] = replace(cards[index], bonus_only=False)
        counted = replace(deal, cards=tuple(cards))
        hand = event.hand
        stays = describe_total(deal.hand_cards(hand))
        if _follows_counted(view, deal, counted, rules):
            emit(
                "B21-BONUS-CARD-COUNTED",
                at_stake=view.staked(_COUNTING_BETS),
                events=[event],
                recorded=f"{event.card} counted for the {_NAMES[hand]} after a natural: "
                f"settled on {describe_total(counted.hand_cards(hand))}",
                expected=f"the card counts for the Bonus Wager only; the {_NAMES[hand]} "
                f"stays at {stays}",
            )
            continue
        flag = "without the Bonus-only flag" if event.bonus_only is None else "as counting"
        emit(
            "B21-BONUS-FLAG",
            events=[event],
            recorded=f"{event.card} to the {_NAMES[hand]} after a natural recorded {flag}",
            expected="flagged Bonus-only; the settlement does not show it counted "
            f"(the {_NAMES[hand]} at {stays})",
        )
