"""Hand-written 21 Baccarat tables for the verification tests: facts as a table records them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from audit.events.catalogue import parse_event
from audit.events.envelope import Event
from audit.games.baccarat21.drawing import Deal, DealtCard, DrawOrder, Hand
from audit.games.baccarat21.rulesets import PA_681A
from audit.games.baccarat21.settlement import Bet, RoundResult, Wager, settle_round
from audit.games.cards.deck import parse_card
from audit.games.money import format_cents
from audit.verification.baccarat21.verify import verify_b21_stream

HANDS = {"P": Hand.PLAYER, "B": Hand.BANKER}


def parse_deal(text: str) -> list[tuple[str, Hand, bool | None]]:
    """``"P AS, B 9H, B+ 4S"``: the hand (``+`` for Bonus-only, ``?`` for a card recorded
    without the flag) and the card, in order."""
    found = []
    for item in text.split(","):
        hand, card = item.split()
        flag = None if hand.endswith("?") else hand.endswith("+")
        found.append((card, HANDS[hand[0]], flag))
    return found


class Table:
    """Records facts for one table with consecutive seq numbers and a moving clock."""

    def __init__(self, table_id: str = "B21-01", **options: str) -> None:
        self.table_id = table_id
        self.options = {"decks": "8", "paytable": "D", "batches": "false", **options}
        decks = int(self.options["decks"])
        self.rules = PA_681A.with_options(
            as_recorded=True,  # a table may open with options the rules do not allow
            decks=decks if decks in (4, 8) else PA_681A.decks,
            paytable=self.options["paytable"],
            batches=self.options["batches"] == "true",
            draw_order=DrawOrder(self.options.get("draw_order", "any")),
        )
        self.events: list[Event] = []
        self.now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
        self.rounds = 0

    def add(self, event_type: str, round_id: str | None = None, **payload: Any) -> Event:
        self.now += timedelta(seconds=2)
        data = {
            "type": event_type,
            "event_id": str(UUID(int=len(self.events) + 1, version=4)),
            "table_id": self.table_id,
            "seq": len(self.events),
            "occurred_at": self.now.isoformat(),
            "recorded_by": "dealer-1",
            **payload,
        }
        if round_id is not None:
            data["round_id"] = round_id
        event = parse_event(data)
        self.events.append(event)
        return event

    def load(
        self,
        batch: int = 0,
        *,
        burn: bool = True,
        decks: int | None = None,
        cut_at: int = 150,
        cover_from_bottom: int = 60,
        new_decks: bool | None = None,
    ) -> None:
        decks = decks or self.rules.decks
        fresh: dict[str, Any] = {} if new_decks is None else {"new_decks": new_decks}
        self.add("shoe_shuffled", batch=batch, decks=decks, reason="opening", **fresh)
        self.add(
            "shoe_cut", stack_size=52 * decks, cut_at=cut_at, cover_from_bottom=cover_from_bottom
        )
        self.add("shoe_loaded", batch=batch, cards=52 * decks)
        if burn:
            self.add("card_burned")

    def open(self, **load: Any) -> Table:
        self.add(
            "table_opened",
            game="baccarat21",
            rule_set="pa-681a",
            options=self.options,
            gaming_day="2026-11-21",
            dealer_id="dealer-1",
        )
        self.load(**load)
        return self

    def round(
        self,
        wagers: list[tuple[int, Bet, int]],
        cards: str,
        *,
        settle_as: str | None = None,
        settled: dict[tuple[int, Bet], tuple[str, int, int, int] | None] | None = None,
        late: Sequence[tuple[int, Bet, int]] = (),
        removed: Sequence[tuple[int, Bet, int]] = (),
        before_cards: Sequence[tuple[str, dict[str, Any]]] = (),
        complete: bool = True,
    ) -> str:
        """Record one round: wagers (cents), cards, each wager settled by the engine on the
        ``settle_as`` deal (the recorded cards by default) unless ``settled`` says otherwise
        (``None``: never settled); ``late`` wagers go down after the first card."""
        self.rounds += 1
        round_id = f"{self.table_id}-r{self.rounds}"
        self.add("round_started", round_id, round_number=self.rounds, dealer_id="dealer-1")
        for position, bet, amount in wagers:
            self.add(
                "b21_wager_placed",
                round_id,
                position=position,
                bet=bet.value,
                amount=format_cents(amount),
            )
        for position, bet, amount in removed:
            self.add(
                "b21_wager_removed",
                round_id,
                position=position,
                bet=bet.value,
                amount=format_cents(amount),
            )
        for event_type, payload in before_cards:
            self.add(event_type, round_id, **payload)
        dealt = parse_deal(cards)
        for i, (card, hand, bonus_only) in enumerate(dealt):
            flag = {} if bonus_only is None else {"bonus_only": bonus_only}
            self.add("b21_card_dealt", round_id, card=card, hand=hand.value, **flag)
            if i == 0:
                for position, bet, amount in late:
                    self.add(
                        "b21_wager_placed",
                        round_id,
                        position=position,
                        bet=bet.value,
                        amount=format_cents(amount),
                    )
        basis = parse_deal(settle_as) if settle_as else dealt
        all_wagers = [Wager(p, b, a) for p, b, a in [*wagers, *late]]
        deal = Deal(
            tuple(DealtCard(parse_card(c), h, bool(b)) for c, h, b in basis),
            any(w.bet in (Bet.BONUS_PLAYER, Bet.BONUS_BANKER) for w in all_wagers),
        )
        lines = settle_round(all_wagers, RoundResult.from_deal(deal), self.rules.paytable).lines
        overrides = settled or {}
        for line in lines:
            key = (line.wager.position, line.wager.bet)
            values: tuple[str, int, int, int] | None = (
                line.outcome.value,
                line.paid,
                line.collected,
                line.returned,
            )
            if key in overrides:
                values = overrides[key]
            if values is None:
                continue
            outcome, paid, collected, returned = values
            self.settle(round_id, *key, outcome, paid, collected, returned)
        if complete:
            self.add("round_completed", round_id)
        return round_id

    def settle(
        self,
        round_id: str,
        position: int,
        bet: Bet,
        outcome: str,
        paid: int = 0,
        collected: int = 0,
        returned: int = 0,
    ) -> None:
        self.add(
            "b21_wager_settled",
            round_id,
            position=position,
            bet=bet.value,
            outcome=outcome,
            paid=format_cents(paid),
            collected=format_cents(collected),
            returned=format_cents(returned),
        )

    def findings(self) -> list:
        return list(verify_b21_stream(self.events))


def codes(findings: list) -> list[str]:
    return [f.code for f in findings]
