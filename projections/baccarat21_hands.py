"""21 Baccarat rounds as hand-history rows: one row per betting position that held a wager.

Every wager is against the house (PA 681a.6), so every row is banked by the dealer and
no position is the bank. The round's two hands are shared by every position: each row
carries the Player Hand's and the Banker Hand's cards as dealt (a Bonus-only card too,
PA 681a.7(f)(2)), their totals counting only the cards that play for the main wagers,
and the round's result. A position's money is split as the layout splits it: the main
wager (Player or Banker, PA 681a.2(b)(2)-(3)), the Tie Wager and the Bonus Wagers.

>>> from audit.events.catalogue import parse_event
>>> from audit.events.examples import EXAMPLES
>>> [row] = hand_rows(view_round([parse_event(EXAMPLES["b21_wager_placed"])]))
>>> row["position"], row["bet"], row["wager"], row["bonus_wager"], row["player_id"]
(4, 'bonus_banker', None, '5.00', 'P-10442')
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from audit.events.baccarat21.wagers import B21WagerSettled
from audit.events.envelope import Event
from audit.games.baccarat21.drawing import Hand
from audit.games.baccarat21.hands import hand_total
from audit.games.baccarat21.outcome import winner
from audit.games.baccarat21.settlement import BONUS_BETS, Bet
from audit.games.cards.deck import InvalidCardError, parse_card
from audit.games.errors import RulesError
from audit.games.money import to_dollars
from audit.verification.baccarat21.round_view import RoundView, view_round

__all__ = ["Baccarat21Hands", "hand_rows", "view_round"]

ZERO = Decimal("0.00")
MAIN_BETS = (Bet.PLAYER, Bet.BANKER)
_BET_ORDER = {bet: i for i, bet in enumerate(Bet)}


def _money(amount: Decimal | None) -> str | None:
    return None if amount is None else str(amount.quantize(ZERO))


def _hand(view: RoundView, hand: Hand) -> tuple[str | None, int | None]:
    """Return a hand's cards as dealt ('9H KD') and its total, if its cards make one."""
    dealt = [e for _, e in view.cards if e.hand is hand]
    if not dealt:
        return None, None
    try:
        total = hand_total(parse_card(e.card) for e in dealt if not e.bonus_only)
    except (InvalidCardError, RulesError):
        total = None
    return " ".join(e.card for e in dealt), total


def _result(player: int | None, banker: int | None, view: RoundView) -> str | None:
    """Return which hand won ('player', 'banker', 'tie'), once both hold two cards."""
    counted = {hand: sum(1 for _, e in view.cards if e.hand is hand) for hand in Hand}
    if player is None or banker is None or min(counted.values()) < 2 or view.voided:
        return None
    return winner(player, banker).value


def _outcomes(settled: Iterable[B21WagerSettled]) -> str | None:
    """Return the settled outcomes in the layout's order of bets ('win', or 'lose, win')."""
    found = sorted(settled, key=lambda s: _BET_ORDER[s.bet])
    return ", ".join(s.outcome for s in found) or None


def _staked(wagers: dict[tuple[int, Bet], int], position: int, bets: Iterable[Bet]) -> str | None:
    cents = sum(wagers.get((position, bet), 0) for bet in bets)
    return _money(to_dollars(cents)) if cents else None


def _total(settled: list[B21WagerSettled], field: str, bets: Iterable[Bet]) -> str | None:
    found = [s for s in settled if s.bet in bets]
    return _money(sum((getattr(s, field) for s in found), ZERO)) if found else None


def hand_rows(view: RoundView, notification_id: int = 0) -> list[dict[str, Any]]:
    """Return one round's rows, as column -> value, one per position that held a wager."""
    wagers = view.wagers()
    players: dict[int, str] = {}
    for _, placed in view.placed:
        if placed.player_id is not None:
            players[placed.position] = placed.player_id
    positions = {p for p, _ in wagers} | {s.position for _, s in view.settled}
    started = next((e for e in view.events if e.type_name() == "round_started"), None)
    player_cards, player_total = _hand(view, Hand.PLAYER)
    banker_cards, banker_total = _hand(view, Hand.BANKER)
    rows = []
    for position in sorted(positions):
        settled = [s for _, s in view.settled if s.position == position]
        main = [s for s in settled if s.bet in MAIN_BETS]
        tie = [s for s in settled if s.bet is Bet.TIE]
        bonus = [s for s in settled if s.bet in BONUS_BETS]
        bets = sorted({bet for p, bet in wagers if p == position} | {s.bet for s in settled},
                      key=_BET_ORDER.__getitem__)  # fmt: skip
        rows.append({
            "table_id": view.table_id, "round_id": view.round_id, "position": position,
            "round_number": getattr(started, "round_number", None),
            "dealer_id": view.dealer_id, "player_id": players.get(position),
            "banking": "dealer", "bank_position": 0, "is_bank": False,
            "wager": _staked(wagers, position, MAIN_BETS), "outcome": _outcomes(main),
            "paid": _total(settled, "paid", MAIN_BETS),
            "collected": _total(settled, "collected", MAIN_BETS),
            "returned": _total(settled, "returned", MAIN_BETS),
            "started_at": started.occurred_at.isoformat() if started else None,
            "completed_at": view.completed.occurred_at.isoformat() if view.completed else None,
            "voided": view.voided is not None, "notification_id": notification_id,
            "game": "baccarat21", "bet": ", ".join(b.value for b in bets) or None,
            "player_cards": player_cards, "player_total": player_total,
            "banker_cards": banker_cards, "banker_total": banker_total,
            "result": _result(player_total, banker_total, view),
            "tie_wager": _staked(wagers, position, (Bet.TIE,)), "tie_outcome": _outcomes(tie),
            "tie_paid": _total(settled, "paid", (Bet.TIE,)),
            "bonus_wager": _staked(wagers, position, BONUS_BETS), "bonus_outcome": _outcomes(bonus),
            "bonus_paid": _total(settled, "paid", BONUS_BETS),
        })  # fmt: skip
    return rows


class Baccarat21Hands:
    """One 21 Baccarat table, as the hand history reads it: nothing carries between rounds."""

    game = "baccarat21"

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id

    def observe(self, fact: Event) -> None:
        """Take a table fact: none changes how a round reads."""

    def rules(self) -> None:
        """Return what a round starting now is read under: its own facts alone."""
        return None

    def rows(self, events: list[Event], rules: None, notification_id: int) -> list[dict[str, Any]]:
        """Return a round's rows."""
        return hand_rows(view_round(events), notification_id)
