"""Hand-written Pai Gow rounds for verification tests: a clean round by the engine, then edits.

``clean_round(...)`` plays one round the way the regulations order it (the
simulator's order, PA 621a.4-621a.10), with every rule taken from the engine.
A test then edits the events (``replace``, ``insert_after``, ``remove``) to
break exactly one rule, and reads the findings of the codes it tests
(``Round.findings(*codes)``).

The round is clean for the dealing, wager, tile and setting checks, but not for
settlement: its money is recorded as a dealer-banked table's, with cent vigorish.
A push records nothing returned (PG-SETTLE-PAYOUT); a player bank's flows and a
dealer's wager against it are never settled (PG-BANK-SURPLUS or -SHORTFALL,
often PG-SETTLE-UNBALANCED); a California round takes no collection fees, may take
vigorish, and settles in position order without the player-dealer's coverage
(PG-CA-FEE, PG-CA-ORDER, PG-CA-COVERAGE). A bank also draws PG-ROT-START-OF-GAME,
this being the game's first round. Settlement tests build their rounds elsewhere
(``tests.builders.paigow_table.Table``), with the money written out in full.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from audit.events.envelope import Event, event_fields
from audit.events.paigow import equipment, play, settlement, wagers
from audit.events.rounds import RoundCompleted, RoundStarted
from audit.events.table import TableOpened
from audit.findings.finding import Finding
from audit.games.money import to_cents, to_dollars
from audit.games.paigow.dealing import Cut, apply_cut, deal
from audit.games.paigow.delivery import DeliveryStyle, form_stacks
from audit.games.paigow.layout import (
    NumberSource,
    dice_total,
    starting_position,
    unwagered_positions,
)
from audit.games.paigow.outcome import wager_outcome
from audit.games.paigow.rulesets import get_rule_set
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import TILE_NAMES, TILES, Tile
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.games.wagering import Outcome
from audit.verification.paigow.verify import verify_stream

TABLE = "PG-09"
ROUND = "PG-09-r1"
START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
BANK_PLAYER = "P-BANK"
PLAYER_DEALER = "P-PD"


def carried(finding: Finding) -> Decimal:
    """Return the one amount a finding carries: at stake (money wrong) or exposure (procedure).

    Which field holds it is the kind's (``FindingKind.money``), enforced where findings are
    made; a finding holding both fails the test.
    """
    if finding.at_stake and finding.exposure:
        raise AssertionError(f"{finding.code} carries {finding.at_stake} and {finding.exposure}")
    return finding.at_stake or finding.exposure


def names(tiles: Sequence[Tile]) -> list[str]:
    """Return the tiles' names, e.g. ``['6-6a', '4-5']``."""
    return [TILE_NAMES[t] for t in tiles]


@dataclass
class Round:
    """One table's events around a single round, with helpers to edit them."""

    rule_set: str
    events: list[Event] = field(default_factory=list)
    clock: datetime = START
    seq: itertools.count = field(default_factory=itertools.count)

    def make(self, event_type: type[Event], **fields: Any) -> Event:
        """Return a new event of this table (a round event unless table-level), a second on."""
        self.clock += timedelta(seconds=1)
        if event_type.ROUND_LEVEL:
            fields.setdefault("round_id", ROUND)
        return event_type(
            event_id=uuid.uuid4(),
            table_id=TABLE,
            seq=next(self.seq),
            occurred_at=self.clock,
            recorded_by="dealer-1",
            **fields,
        )

    def add(self, event_type: type[Event], **fields: Any) -> Event:
        """Append a new event."""
        event = self.make(event_type, **fields)
        self.events.append(event)
        return event

    def all(self, type_name: str) -> list[Event]:
        """Return the events of one type, in order."""
        return [e for e in self.events if e.type_name() == type_name]

    def first(self, type_name: str, **where: Any) -> Event:
        """Return the first event of a type whose fields match ``where``."""
        return next(
            e for e in self.all(type_name) if all(getattr(e, k) == v for k, v in where.items())
        )

    def replace(self, event: Event, **changes: Any) -> Event:
        """Swap an event for a copy with some fields changed (same id and place).

        The copy is not validated, so a check can be shown a round no device could send (a
        delivery of five tiles, say) and be held to judge it without failing.
        """
        edited = object.__new__(type(event))
        for name in event_fields(type(event)):
            object.__setattr__(edited, name, changes.pop(name, getattr(event, name)))
        if changes:
            raise TypeError(f"{event.type_name()} has no field {', '.join(changes)}")
        self.events[self.events.index(event)] = edited
        return edited

    def insert_after(self, anchor: Event, event_type: type[Event], **fields: Any) -> Event:
        """Insert a new event right after ``anchor``."""
        event = self.make(event_type, **fields)
        self.events.insert(self.events.index(anchor) + 1, event)
        return event

    def move_after(self, event: Event, anchor: Event) -> None:
        """Move an event to just after ``anchor``."""
        self.events.remove(event)
        self.events.insert(self.events.index(anchor) + 1, event)

    def remove(self, event: Event) -> None:
        """Drop an event."""
        self.events.remove(event)

    def findings(self, *codes: str) -> list[Finding]:
        """Return the findings verification draws from these events, those of ``codes`` only."""
        return [f for f in verify_stream(self.events) if f.code in codes]


def clean_round(
    rule_set: str = "pa-2019",
    *,
    wagers_at: dict[int, str] | None = None,
    players: dict[int, str] | None = None,
    bank: int | None = None,
    dealer_wager: str | None = None,
    dice: tuple[int, int, int] | None = (3, 1, 5),
    rng: int | None = None,
    style: DeliveryStyle | None = None,
    cut: Cut | None = None,
    row: Sequence[Tile] = TILES,
    void_at_dealer: bool = False,
) -> Round:
    """Return a table opened under ``rule_set`` and one clean round played on it.

    ``wagers_at`` maps positions to Pai Gow wagers (default $25 at 1, $40 at 3),
    each by its own player unless ``players`` says otherwise. ``bank`` is a
    player bank's position (California: the player-dealer's seat; the
    player-dealer then stakes $100 at position 0). ``rng`` replaces the dice.
    ``void_at_dealer`` exposes a dealer's tile in the deal and voids the round.
    """
    ruleset = get_rule_set(rule_set)
    layout = ruleset.layout
    player_dealer = layout.button_on_dealer is not None
    wagers_at = {1: "25.00", 3: "40.00"} if wagers_at is None else wagers_at
    players = players or {}
    rnd = Round(rule_set)
    rnd.add(TableOpened, rule_set=rule_set, gaming_day=date(2026, 11, 21), dealer_id="dealer-1")
    rnd.add(equipment.TileSetReceived, tile_set_id="TS-1")
    rnd.add(equipment.TileSetInspected, tile_set_id="TS-1", inspected_by="d", verified_by="f",
            suitable=True)  # fmt: skip
    rnd.add(equipment.DicePlacedInShaker, dice_set_id="D-1", placed_by="floor-1")

    rnd.add(RoundStarted, round_number=1, dealer_id="dealer-1")
    rnd.add(play.TilesMixed, motions=10)
    stacks = form_stacks(row)
    rnd.add(play.StacksFormed, stacks=[names(s) for s in stacks])
    if bank is not None:
        rnd.add(play.BankOffered, position=bank)
        bank_id = PLAYER_DEALER if player_dealer else BANK_PLAYER
        rnd.add(play.BankAccepted, position=bank, player_id=bank_id, chips_on_table="5000.00")
    if cut is not None:
        rnd.add(play.TilesCut, start=cut.start, stop=cut.stop, to_right=cut.to_right,
                crossed=cut.crossed)  # fmt: skip
    if player_dealer:
        rnd.add(wagers.WagerPlaced, position=layout.dealer, amount=Decimal("100.00"),
                kind=wagers.WagerKind.PAI_GOW, player_id=PLAYER_DEALER)  # fmt: skip
    for position, amount in wagers_at.items():
        rnd.add(wagers.WagerPlaced, position=position, amount=Decimal(amount),
                kind=wagers.WagerKind.PAI_GOW,
                player_id=players.get(position, f"P-{position}"))  # fmt: skip
    if dealer_wager is not None:
        rnd.add(wagers.DealerWagerAgainstBank, amount=Decimal(dealer_wager))
    rnd.add(play.NoMoreBets)

    player_bank = bank is not None and not player_dealer
    chosen = style or ruleset.default_delivery_style
    if player_bank:
        rnd.add(play.DeliveryStyleChosen, style=chosen, chosen_by="bank")
    source: NumberSource
    if rng is not None:
        count, source = rng, "rng"
        rnd.add(play.RngNumberShown, number=rng)
    else:
        assert dice is not None
        count, source = dice_total(dice), "dice"
        rnd.add(play.ShakerShaken, count=3, shaken_by="bank" if player_bank else "dealer")
        rnd.add(play.DiceRevealed, faces=dice, announced_total=count)
    if not player_bank:
        rnd.add(play.DeliveryStyleChosen, style=chosen, chosen_by="dealer")
    start = starting_position(count, layout, first=bank if player_bank else None, source=source)
    hands = deal(apply_cut(stacks, cut), chosen, start, layout)
    for order, (position, tiles) in enumerate(hands.items()):
        rnd.add(play.StackDelivered, position=position, order=order, tiles=names(tiles))
        if void_at_dealer and position == layout.dealer:
            rnd.add(play.TileExposed, position=position, tile=TILE_NAMES[tiles[0]])
            rnd.add(play.RoundVoided, reason="banker_tile_exposed")
            for spot, amount in wagers_at.items():
                rnd.add(settlement.WagerSettled, position=spot, outcome="returned",
                        returned=Decimal(amount))  # fmt: skip
            rnd.add(RoundCompleted)
            return rnd

    banks = {bank} if player_bank and bank is not None else set()
    wagered = set(wagers_at) | banks
    dealer_plays = not player_bank or dealer_wager is not None
    unwagered = unwagered_positions(layout, wagered, dealer_plays=dealer_plays)
    rnd.add(play.UnwageredStacksCollected, positions=list(unwagered))
    if source == "dice" and "shake-after-deal" in ruleset.citations:
        rnd.add(play.ShakerShaken, count=1)

    way, ranking = ruleset.house_way, ruleset.ranking
    settings: dict[int, Setting] = {}
    playing = sorted(wagered) + ([layout.dealer] if dealer_plays else [])
    for position in playing:
        settings[position] = way.setting(hands[position], ranking)
        rnd.add(play.HandSet, position=position, high=names(settings[position].high),
                low=names(settings[position].low))  # fmt: skip
    banker = settings[bank if player_bank and bank is not None else layout.dealer]
    for position, amount in sorted(wagers_at.items()):
        if player_bank and position == bank:
            continue  # the bank's own stake plays as the bank
        outcome = wager_outcome(settings[position], banker, ranking)
        cents = to_cents(amount)
        money: dict[str, Decimal] = {}
        if outcome is Outcome.WIN:
            money = {"paid": Decimal(amount),
                     "vigorish": to_dollars(vigorish(cents, VigRounding.CENT))}  # fmt: skip
        elif outcome is Outcome.LOSE:
            money = {"collected": Decimal(amount)}
        rnd.add(play.HandsRevealed, position=position)
        rnd.add(settlement.WagerSettled, position=position, outcome=outcome.value, **money)
    rnd.add(RoundCompleted)
    return rnd


WAGER_CODES = ("PG-WAGER-PAST-POST", "PG-WAGER-SPOTS", "PG-WAGER-BANK-SPOTS")
