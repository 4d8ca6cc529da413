"""Careless-dealer irregularities of the bank and its rotation: the dealer's wager, a bank
without cover, offered out of turn, taken where the rules forbid it (PA 621a.9(b)-(h)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from audit.events.envelope import Event
from audit.events.paigow.equipment import TileSetInspected, TileSetReceived, TileSetReplaced
from audit.events.paigow.play import BankAccepted, BankDeclined, BankOffered
from audit.events.paigow.wagers import DealerWagerAgainstBank, WagerKind, WagerPlaced
from audit.events.rounds import RoundStarted
from audit.games.money import to_cents, to_dollars
from audit.games.paigow.banking import dealer_wager_limit
from audit.games.paigow.layout import Position
from audit.games.paigow.settlement import BankingMode
from audit.simulation.paigow.bank_rotation import next_first_offer
from audit.simulation.paigow.betting import place_dealer_wager, select_bank
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    insert_events,
    new_event_id,
    round_events,
    seated,
    skip,
    substitute,
)
from audit.simulation.paigow.players import DOLLAR, Player
from audit.simulation.paigow.state import RoundState, Step
from audit.simulation.paigow.table import SimTable
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS


class DealerWagerOverLimit(Plan):
    """The dealer wagers more against a player bank than the bank's last wager (PA 621a.9(h))."""

    name = "dealer_wager_over_limit"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        player_bank = round_.mode is BankingMode.PLAYER_BANK and round_.bank_seat is not None
        known = player_bank and round_.bank_seat in preview.notes.last_dealer_wagers
        return known and cites(round_, "dealer-wager-vs-bank")

    def steps(self) -> tuple[Step, ...]:
        over = self.rng.choice((1, 5, 25)) * DOLLAR
        recorded = self.preview.notes.last_dealer_wagers

        def place(round_: RoundState) -> None:
            bank, seat = round_.bank, round_.bank_seat
            if bank is None or seat is None:
                raise ValueError(f"round {round_.round_id!r} has no player bank")
            last = round_.table.rotation.last_dealer_round[bank.player_id]
            limit = max(dealer_wager_limit(last), recorded[seat])
            round_.dealer_wager = limit + over
            round_.emit(DealerWagerAgainstBank, (2, 4), amount=to_dollars(round_.dealer_wager))

        return substitute({place_dealer_wager: place})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-BANK-DEALER-WAGER-LIMIT", round_.bank_seat)]


class BankWithoutCover(Plan):
    """The bank is taken by a player whose chips on the table do not cover the other players'
    wagers (PA 621a.9(d)(2))."""

    name = "bank_without_cover"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        action = sum(round_.wagers.values())
        return (
            bool(preview.of("bank_accepted"))
            and action >= 2 * DOLLAR
            and cites(round_, "bank-eligibility")
        )

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        accepted = next(e for e in round_events(round_, events) if isinstance(e, BankAccepted))
        action = sum(
            to_cents(e.amount)
            for e in round_events(round_, events)
            if isinstance(e, WagerPlaced)
            and e.kind is WagerKind.PAI_GOW
            and e.position != accepted.position
        )
        shown = to_dollars(action // 2 - action // 2 % DOLLAR)
        edited = replace(accepted, chips_on_table=shown)
        return [edited if e is accepted else e for e in events]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-ROT-INSUFFICIENT-CHIPS", round_.bank_seat)]


class BankOfferedOutOfTurn(Plan):
    """The first player offered the bank is offered it again out of turn (PA 621a.9(c))."""

    name = "bank_offered_out_of_turn"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("bank_offered")) and cites(preview.round, "bank-rotation")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        offers = [i for i, e in enumerate(events) if isinstance(e, BankOffered)]
        first = events[offers[0]]
        assert isinstance(first, BankOffered)
        self.position: Position = first.position
        at = offers[-1]
        envelope: dict[str, Any] = {  # the fields both inserted events share
            "table_id": first.table_id,
            "round_id": first.round_id,
            "occurred_at": events[at].occurred_at,
            "recorded_by": events[at].recorded_by,
            "position": self.position,
        }
        seq = events[at].seq
        inserted = [
            BankOffered(event_id=new_event_id(self.rng), seq=seq, **envelope),
            BankDeclined(event_id=new_event_id(self.rng), seq=seq + 1, **envelope),
        ]
        return insert_events(round_, events, at, inserted)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-ROT-OUT-OF-ORDER", self.position)]


class _ForcedBank(Plan):
    """The dealer lets a player bank whom the rules do not let bank: one offer, accepted.

    Everything else about the bank is in order (one spot, chips covering the table,
    the dealer's wager within the bank's last wager), so the one rule it breaks
    is the plan's ``code``.
    """

    code: ClassVar[str] = ""
    dealer_wagers: ClassVar[bool] = True
    """Whether the dealer wagers against the bank as the bank allows (PA 621a.9(h))."""

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        table, round_ = preview.table, preview.round
        if not round_.rule_set.player_banking or table.has_player_dealer:
            return False
        cited = cites(round_, FINDING_KINDS[cls.code].rule_key)
        return cited and len(table.seating.players) >= 2 and bool(cls.candidates(preview))

    @classmethod
    @abstractmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        """Return the seats and players the dealer might let bank."""

    @staticmethod
    def banks_in_order(preview: Preview, seat: Position, player: Player) -> bool:
        """Return whether the player has one spot and chips to cover the table and the dealer's
        wager, and verification reads the same last wager against the dealer as the table."""
        planned = preview.round.planned
        cover = sum(planned.values()) - planned.get(seat, 0)
        last = preview.table.rotation.last_dealer_round.get(player.player_id)
        recorded = preview.notes.last_dealer_wagers.get(seat)
        if last is None or recorded is None or dealer_wager_limit(last) > recorded:
            return False
        return player.spots == (seat,) and player.chips >= cover + last

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.seat, self.player_id = chosen(rng, self.candidates(preview))

    def steps(self) -> tuple[Step, ...]:
        def force(round_: RoundState) -> None:
            player = seated(round_, self.player_id)
            round_.emit(BankOffered, (1, 3), position=self.seat)
            round_.emit(
                BankAccepted,
                (1, 3),
                position=self.seat,
                player_id=player.player_id,
                chips_on_table=to_dollars(player.chips),
            )
            round_.bank, round_.bank_seat = player, self.seat
            round_.mode = BankingMode.PLAYER_BANK
            round_.table.rotation.first_offer = next_first_offer(round_.layout, self.seat)

        replacements: dict[Step, Step] = {select_bank: force}
        if not self.dealer_wagers:
            replacements[place_dealer_wager] = skip
        return substitute(replacements)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect(self.code, self.seat)]


def _streak_seat(table: SimTable) -> Position | None:
    """The seat of the player who banked the last round, if one did."""
    return table.rotation.bank_seat if table.rotation.last_bank is not None else None


class BankAtStartOfGame(_ForcedBank):
    """A new tile set goes in (inspected: a new game) and a player banks its first round
    (PA 621a.9(b))."""

    name = "bank_at_start_of_game"
    code = "PG-ROT-START-OF-GAME"

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table = preview.table
        rotation, most = table.rotation, preview.round.rule_set.max_consecutive_banks
        found = []
        for player in table.seating.players:
            seat = player.spots[0]
            if not cls.banks_in_order(preview, seat, player):
                continue
            if rotation.banked_in_a_row(player) < most and _streak_seat(table) != seat:
                found.append((seat, player.player_id))
        return found

    def steps(self) -> tuple[Step, ...]:
        return (self._new_tile_set, *super().steps())

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        """Record the new set's arrival, inspection and replacement before the round starts."""
        table = round_.table
        at = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
        started = events[at]
        envelope: dict[str, Any] = {"table_id": table.table_id, "occurred_at": started.occurred_at}
        by: dict[str, Any] = {"recorded_by": table.floorperson}
        new, old = table.tile_set_id, self.old_set
        ids = [new_event_id(self.rng) for _ in range(3)]
        seq = started.seq
        inserted: list[Event] = [
            TileSetReceived(event_id=ids[0], seq=seq, tile_set_id=new, **envelope, **by),
            TileSetInspected(
                event_id=ids[1],
                seq=seq + 1,
                tile_set_id=new,
                inspected_by=table.dealer_id,
                verified_by=table.floorperson,
                suitable=True,
                **envelope,
                **by,
            ),
            TileSetReplaced(
                event_id=ids[2],
                seq=seq + 2,
                old_tile_set_id=old,
                new_tile_set_id=new,
                reason="scheduled_change",
                **envelope,
                **by,
            ),
        ]
        return insert_events(round_, events, at, inserted)

    def _new_tile_set(self, round_: RoundState) -> None:
        """Put a new set in play (recorded by :meth:`edit`); a new game begins (PA 621a.9(b))."""
        table = round_.table
        self.old_set = table.tile_set_id
        table.tile_sets += 1
        table.tile_set_id = f"TS-{table.number:02d}-{table.tile_sets:02d}"
        table.tile_set_since = table.recorder.now
        table.rotation.start_game()


class BankTwiceRunning(_ForcedBank):
    """The last round's bank banks again (PA 621a.9(c))."""

    name = "bank_twice_running"
    code = "PG-ROT-CONSECUTIVE"

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table = preview.table
        rotation, most = table.rotation, preview.round.rule_set.max_consecutive_banks
        if rotation.rounds_in_game == 0:
            return []
        return [
            (player.spots[0], player.player_id)
            for player in table.seating.players
            if player.player_id == rotation.last_bank
            and rotation.banked_in_a_row(player) >= most
            and player.spots[0] == rotation.bank_seat
            and cls.banks_in_order(preview, player.spots[0], player)
        ]


class BankWithoutPriorWager(_ForcedBank):
    """A player banks who had no wager in the last round the dealer banked (PA 621a.9(d)(1));
    the bank directs no dealer wager, having no last wager to match."""

    name = "bank_without_prior_wager"
    code = "PG-ROT-NO-PRIOR-WAGER"
    dealer_wagers = False

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table, notes = preview.table, preview.notes
        if table.rotation.rounds_in_game == 0 or not notes.last_dealer_wagers:
            return []
        planned = preview.round.planned
        return [
            (player.spots[0], player.player_id)
            for player in table.seating.players
            if len(player.spots) == 1
            and player.spots[0] not in notes.last_dealer_wagers
            and player.spots[0] != _streak_seat(table)
            and player.chips >= sum(planned.values()) - planned.get(player.spots[0], 0)
        ]
