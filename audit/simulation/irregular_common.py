"""What every careless-dealer irregularity shares: the label, the clean preview, the plan, and
round steps with a hook where a dealer can go wrong.

A :class:`Plan` is one irregularity chosen for one round. It is chosen after a
*preview*: the same round played clean on a copy of the table, so the choice
knows the whole round (who banks, the tiles, the outcomes) before the real
round is played. The real round then replays the preview exactly up to the
step the plan replaces (the same random draws, so the same decisions), and
goes its own way from there. A plan therefore only relies on what the preview
decided before its own step.

The step variants here (:func:`count_with`, :func:`deliver_with`,
:func:`set_player_hands_with`, :func:`set_banker_hands_with`,
:func:`reveal_with`) each do what their clean step in
:mod:`audit.simulation.round_dealing` or :mod:`audit.simulation.round_settlement`
does, with the same random draws, plus the hook a plan asks for.

Pure: no I/O; all randomness comes from the table's generator or the plan's own.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.events.envelope import Event
from audit.events.paigow.play import (
    DiceRevealed,
    HandSet,
    HandsRevealed,
    NoRollCalled,
    ShakerShaken,
    StackDelivered,
    Surrendered,
    TileExposed,
)
from audit.events.paigow.settlement import DealerWagerSettled, WagerSettled
from audit.events.paigow.wagers import WagerKind
from audit.games.money import Cents, to_dollars
from audit.games.paigow.banking import settle_co_bank, settle_player_bank
from audit.games.paigow.california import settle_california
from audit.games.paigow.dealing import apply_cut, deal
from audit.games.paigow.layout import (
    Position,
    action_button,
    dice_total,
    starting_position,
    unwagered_positions,
)
from audit.games.paigow.outcome import Outcome
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import (
    BankingMode,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
    settle_dealer_banked,
)
from audit.games.paigow.tiles import TILE_NAMES, Tile
from audit.games.paigow.vigorish import vigorish
from audit.simulation.loaded_dice import throw
from audit.simulation.paigow_round import ROUND_STEPS
from audit.simulation.players import choose_setting
from audit.simulation.round_state import BANKED_MODES, RoundState, Step, tile_names
from audit.simulation.table import Recorder, SimTable
from audit.verification.baccarat21.kinds import KINDS as B21_FINDING_KINDS
from audit.verification.collusion.kinds import COLLUSION_KINDS
from audit.verification.equipment import SCREEN_KINDS
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS
from audit.verification.paigow.settlement.expected import label
from audit.verification.paigow.settlement.facts import settlement_rule

_KNOWN_CODES = (
    FINDING_KINDS.keys()
    | B21_FINDING_KINDS.keys()
    | ACCOUNTING_KINDS.keys()
    | SCREEN_KINDS.keys()
    | COLLUSION_KINDS.keys()
)
"""The codes a label may name: either game's findings, the books', and the screens'."""

# --- The truth ---------------------------------------------------------------------------------


class InvalidLabelError(ValueError):
    """Raised for a label record that is not a label."""


@dataclass(frozen=True)
class Label:
    """What one injected irregularity should be found as: every finding code it must yield.

    ``position`` is set when every one of those findings is at that one position,
    and ``None`` when they are at several (or at none).
    """

    table_id: str
    round_id: str | None
    """``None`` for a variance of a table's shift rather than of one round."""
    kind: str
    codes: tuple[str, ...]
    position: Position | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the label as a JSON-ready dict."""
        return {
            "table_id": self.table_id,
            "round_id": self.round_id,
            "codes": list(self.codes),
            "kind": self.kind,
            "position": self.position,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Label:
        """Read a label written by :meth:`as_dict`; raise :class:`InvalidLabelError` if not one."""
        if not isinstance(data, Mapping):
            raise InvalidLabelError(f"a label is a JSON object, not {type(data).__name__}")
        try:
            table_id, round_id, kind, codes = (
                data["table_id"],
                data["round_id"],
                data["kind"],
                data["codes"],
            )
        except KeyError as missing:
            raise InvalidLabelError(f"a label needs {missing.args[0]!r}") from None
        position = data.get("position")
        texts = (table_id, kind) if round_id is None else (table_id, round_id, kind)
        if not all(isinstance(text, str) and text for text in texts):
            raise InvalidLabelError(f"table_id, round_id and kind must be text: {texts!r}")
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise InvalidLabelError(f"codes must be a list of finding codes: {codes!r}")
        unknown = [code for code in codes if code not in _KNOWN_CODES]
        if unknown:
            raise InvalidLabelError(f"unknown finding codes: {unknown!r}")
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)):
            raise InvalidLabelError(f"position must be a whole number or null: {position!r}")
        return cls(table_id, round_id, kind, tuple(codes), position)


@dataclass(frozen=True)
class Expect:
    """One finding an irregularity must yield: its code, position and the rule it is cited by.

    ``rule_key`` is the key the check passes for the finding (``None``: the kind's
    own); a finding whose rule the table's jurisdiction does not cite is never made.
    """

    code: str
    position: Position | None = None
    rule_key: str | None = None


def cites(round_: RoundState, rule_key: str) -> bool:
    """Return whether the round's rules cite ``rule_key``."""
    return rule_key in round_.rule_set.citations


def cited_or_none(round_: RoundState, rule_key: str) -> str | None:
    """Return ``rule_key`` if the rules cite it, else ``None`` (the finding kind's own rule)."""
    return rule_key if cites(round_, rule_key) else None


def make_label(round_: RoundState, kind: str, expected: Iterable[Expect]) -> Label | None:
    """Return the label for the findings a round should yield (``None`` if it should yield none)."""
    citations = round_.rule_set.citations
    kept = [e for e in expected if (e.rule_key or FINDING_KINDS[e.code].rule_key) in citations]
    if not kept:
        return None
    positions = {e.position for e in kept}
    position = positions.pop() if len(positions) == 1 else None
    codes = tuple(sorted({e.code for e in kept}))
    return Label(round_.table.table_id, round_.round_id, kind, codes, position)


# --- The preview and the plan ------------------------------------------------------------------


@dataclass
class TableNotes:
    """What the careless-dealer layer remembers about a table from round to round."""

    last_dealer_wagers: dict[Position, Cents] = field(default_factory=dict)
    """Pai Gow wagers by position in the last completed round the dealer banked: what
    verification takes the bank's last wager against the dealer from (PA 621a.9(h))."""


@dataclass(frozen=True)
class Preview:
    """The round as it would be played clean, on a copy of the table."""

    round: RoundState
    events: tuple[Event, ...]
    notes: TableNotes
    table: SimTable
    """The real table as it stands before the round: read it, never change it."""

    def of(self, type_name: str) -> list[Event]:
        """Return the preview's events of one type, in order."""
        return [e for e in self.events if e.type_name() == type_name]


TableT = TypeVar("TableT")


def fork(table: TableT, *copied: str) -> TableT:
    """Return a copy of a simulated table (of any game) whose rounds change nothing of the
    original's: its own generator and clock, deep copies of the ``copied`` fields, no books
    (a preview moves no chips)."""
    rng = random.Random()
    rng.setstate(table.rng.getstate())  # type: ignore[attr-defined]
    recorder = Recorder(table.table_id, rng, table.recorder.now, table.recorder.seq)  # type: ignore[attr-defined]
    deep = {name: deepcopy(getattr(table, name)) for name in copied}
    return replace(table, rng=rng, recorder=recorder, books=None, **deep)  # type: ignore[type-var]


def fork_table(table: SimTable) -> SimTable:
    """Return a copy of a Pai Gow table whose rounds change nothing of the original's."""
    return fork(table, "seating", "rotation")


class Plan(ABC):
    """One irregularity for one round: how it changes the round, and what must be found.

    A subclass names itself (``name``), says which rounds it fits (:meth:`applies`),
    picks its targets from the preview with the plan's own generator, and then
    gives the round's steps (:meth:`steps`), any cleanup after the round
    (:meth:`finish`), any edit to the recorded events (:meth:`edit`) and the
    findings the round must yield (:meth:`expected`).
    """

    name: ClassVar[str] = ""
    at_opening: ClassVar[bool] = False
    """Whether this is the table's irregularity, made as it opens (:meth:`open_table`)."""

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        self.preview = preview
        self.rng = rng

    @classmethod
    def open_table(cls, table: SimTable, rng: random.Random) -> tuple[str, ...]:
        """Change how the table opens; return the codes its label names (no round)."""
        raise TypeError(f"{cls.name} is a round's irregularity, not the table's")

    @classmethod
    @abstractmethod
    def applies(cls, preview: Preview) -> bool:
        """Return whether this irregularity can be injected into the previewed round."""

    def steps(self) -> tuple[Step, ...]:
        """Return the steps that play the round (the clean ones unless replaced)."""
        return ROUND_STEPS

    def finish(self, round_: RoundState) -> None:  # noqa: B027 -- a hook most plans leave empty
        """Undo what the round changed at the table only for its own sake (after the round)."""

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        """Return the table's events since the last round, as recorded (edited, if so planned)."""
        return events

    @abstractmethod
    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        """Return the findings the round must yield."""


def substitute(
    replacements: Mapping[Step, Step], steps: Sequence[Step] = ROUND_STEPS
) -> tuple[Step, ...]:
    """Return ``steps`` with each step named in ``replacements`` replaced."""
    missing = [step for step in replacements if step not in steps]
    if missing:
        raise ValueError(f"not a step of the round: {missing!r}")
    return tuple(replacements.get(step, step) for step in steps)


def new_event_id(rng: random.Random) -> UUID:
    """Return a fresh event id drawn from ``rng``, as the recorder draws them."""
    return UUID(int=rng.getrandbits(128), version=4)


def insert_events(
    round_: RoundState, events: list[Event], at: int, inserted: Sequence[Event]
) -> list[Event]:
    """Return ``events`` with ``inserted`` before index ``at``, numbered from the ``seq`` there.

    The events after them are numbered on, and so is the table's recorder: the
    record reads as if the inserted events had been recorded in their place.
    """
    later = [replace(e, **{"seq": e.seq + len(inserted)}) for e in events[at:]]
    round_.table.recorder.seq += len(inserted)
    return [*events[:at], *inserted, *later]


def round_events(round_: RoundState, events: Iterable[Event]) -> list[Event]:
    """Return the events of this round only."""
    return [e for e in events if e.round_id == round_.round_id]


def money_moved(events: Iterable[Event]) -> bool:
    """Return whether any wager was paid, collected or charged vigorish (PA 621a.10(c))."""
    return any(
        isinstance(e, WagerSettled) and (e.paid > 0 or e.collected > 0 or e.vigorish > 0)
        for e in events
    )


def unwagered(round_: RoundState) -> tuple[Position, ...]:
    """Return the positions whose stacks the dealer collects unseen (PA 621a.6(e), 9(l))."""
    wagered = set(round_.wagers)
    if round_.mode in BANKED_MODES and round_.bank_seat is not None:
        wagered.add(round_.bank_seat)
    return unwagered_positions(round_.layout, wagered, dealer_plays=round_.dealer_plays)


# --- Step variants -----------------------------------------------------------------------------


def count_with(
    round_: RoundState,
    *,
    shakes: int | None = None,
    miscall: int = 0,
    fault: str | None = None,
    count_miscalled: bool = False,
) -> None:
    """``count_positions`` on dice, with what a careless dealer gets wrong.

    ``shakes``: each throw is shaken that many times; ``miscall``: the valid throw is
    announced this far off its total (the other way at the ends of 3-18); ``fault``
    (``'not_flat'`` or ``'fell_out'``): the valid throw is read though a die was not
    flat or fell out; ``count_miscalled``: the count follows the announced total.
    """
    layout = round_.layout
    by = "dealer" if round_.mode is BankingMode.DEALER else "bank"
    while True:
        drawn = round_.rng.randint(3, 6)
        round_.emit(ShakerShaken, (2, 5), count=shakes or drawn, shaken_by=by)
        faces = throw(round_.rng, round_.table.loaded_dice)
        if round_.rng.random() < round_.freq.no_roll:
            not_flat = round_.rng.random() < 0.5
            round_.emit(
                DiceRevealed, (2, 4), faces=faces, all_flat=not not_flat, all_in_shaker=not_flat
            )
            round_.emit(NoRollCalled, (2, 5), reason="not_flat" if not_flat else "fell_out")
            continue
        total = dice_total(faces)
        announced = total + miscall if 3 <= total + miscall <= 18 else total - miscall
        round_.emit(
            DiceRevealed,
            (2, 4),
            faces=faces,
            announced_total=announced,
            all_flat=fault != "not_flat",
            all_in_shaker=fault != "fell_out",
        )
        break
    round_.count = announced if count_miscalled else total
    first = round_.bank_seat if round_.mode in BANKED_MODES else None
    round_.start = starting_position(round_.count, layout, first=first, source=round_.source)
    if layout.button_on_dealer is not None:
        round_.button = action_button(round_.count, layout)


def deliver_with(
    round_: RoundState,
    *,
    start: Position | None = None,
    swap: tuple[int, int] | None = None,
    expose_at: Position | None = None,
    shown: Mapping[Position, Sequence[Tile]] | None = None,
) -> None:
    """``deliver_stacks`` (never voided), with what a careless dealer gets wrong.

    ``start``: the first stack goes there; ``swap``: the stacks of these two delivery
    orders change places; ``expose_at``: a tile of that position's stack is turned
    over and play goes on; ``shown``: the tiles recorded for a position, where they
    differ from those delivered.
    """
    layout = round_.layout
    first = round_.start if start is None else start
    dealt = list(deal(apply_cut(round_.stacks, round_.cut), round_.style, first, layout).items())
    if round_.mode is BankingMode.DEALER:
        round_.rng.random()  # the clean deal's draw for an exposed dealer tile
    if swap is not None:
        (one, two), ((p1, t1), (p2, t2)) = swap, (dealt[swap[0]], dealt[swap[1]])
        dealt[one], dealt[two] = (p1, t2), (p2, t1)
    recorded = shown or {}
    for order, (position, tiles) in enumerate(dealt):
        round_.hands[position] = tiles
        round_.emit(
            StackDelivered,
            (0.8, 1.6),
            position=position,
            order=order,
            tiles=tile_names(recorded.get(position, tiles)),
        )
        if position == expose_at:
            tile = round_.rng.choice(tiles)
            round_.emit(TileExposed, (1, 2), position=position, tile=TILE_NAMES[tile])


def set_hand(
    round_: RoundState,
    position: Position,
    setting: Setting,
    by: str,
    seconds: float,
    shown: Setting | None = None,
) -> None:
    """Set a hand (the state keeps ``setting``) and record it (as ``shown``, if given)."""
    round_.settings[position] = setting
    record = shown or setting
    round_.emit(
        HandSet,
        (seconds / 2, seconds),
        position=position,
        high=tile_names(record.high),
        low=tile_names(record.low),
        set_by=by,
    )


def set_player_hands_with(
    round_: RoundState,
    *,
    tiles_for: Mapping[Position, Sequence[Tile]] | None = None,
    misorder: Position | None = None,
) -> None:
    """``set_player_hands``, with tiles switched into a hand (``tiles_for``) or one hand
    recorded high below low (``misorder``; the state keeps it as set, the dealer
    settling it that way)."""
    switched = tiles_for or {}
    order = round_.order()
    seen: set[str] = set()
    seconds = 16.0
    for position in order:
        player = round_.player(position)
        if player.player_id in seen:
            continue
        seen.add(player.player_id)
        spots = [s for s in order if s in player.spots]
        for spot in sorted(spots, key=lambda s: (-round_.wagers[s], order.index(s))):
            tiles = tuple(switched.get(spot, round_.hands[spot]))
            setting, by = choose_setting(tiles, round_.rule_set, round_.freq, round_.rng)
            shown = Setting(setting.low, setting.high) if spot == misorder else None
            set_hand(round_, spot, setting, by, seconds, shown)
            seconds = 4.0


def set_banker_hands_with(round_: RoundState, settings: Mapping[Position, Setting]) -> None:
    """``set_banker_hands``, with the given settings in place of the house way's."""
    way, ranking = round_.rule_set.house_way, round_.rule_set.ranking
    dealer = round_.layout.dealer
    if round_.mode in BANKED_MODES and round_.bank_seat is not None:
        by = "player" if round_.mode is BankingMode.PLAYER_BANK else "dealer"
        seat = round_.bank_seat
        setting = settings.get(seat) or way.setting(round_.hands[seat], ranking)
        set_hand(round_, seat, setting, by, 8.0)
    if round_.dealer_plays:
        by = "player" if round_.mode is BankingMode.CALIFORNIA else "dealer"
        setting = settings.get(dealer) or way.setting(round_.hands[dealer], ranking)
        set_hand(round_, dealer, setting, by, 8.0)


# --- Money -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRecord:
    """What a ``wager_settled`` records for a Pai Gow wager, in cents."""

    outcome: str
    paid: Cents = 0
    collected: Cents = 0
    vigorish: Cents = 0
    returned: Cents = 0

    @classmethod
    def of(cls, line: SettlementLine) -> LineRecord:
        """Return what a correct settlement records for ``line``."""
        return cls(label(line.wager), line.paid, line.collected, line.vigorish, line.returned)


@dataclass(frozen=True)
class SideRecord:
    """What a ``wager_settled`` records for a Pair Fortunes wager, in cents."""

    outcome: str
    paid: Cents = 0
    collected: Cents = 0


def engine_settlement(
    round_: RoundState,
    outcomes: Mapping[Position, Outcome] | None = None,
    order: Sequence[Position] | None = None,
) -> RoundSettlement:
    """Settle the round's Pai Gow wagers with the engine, as ``settle_round`` does, with
    the given outcomes in place of the hands' and in ``order`` (settlement order if not)."""
    given = outcomes or {}

    def outcome(position: Position) -> Outcome:
        return given.get(position) or round_.outcome(position)

    wagers = [
        Wager(p, round_.wagers[p], surrendered=True)
        if p in round_.surrendered
        else Wager(p, round_.wagers[p], outcome(p))
        for p in (order if order is not None else round_.order())
    ]
    if round_.mode is BankingMode.DEALER:
        return settle_dealer_banked(wagers, round_.vig_rounding)
    if round_.mode is BankingMode.PLAYER_BANK:
        dealer_wager = None
        if round_.dealer_wager:
            dealer_wager = DealerWager(round_.dealer_wager, outcome(round_.layout.dealer))
        return settle_player_bank(wagers, round_.vig_rounding, dealer_wager)
    if round_.mode is BankingMode.CO_BANK:
        return settle_co_bank(wagers, round_.vig_rounding)
    schedule = round_.rule_set.collection_schedule
    return settle_california(wagers, round_.player_dealer_wager, schedule)


def emit_record(round_: RoundState, position: Position, record: LineRecord) -> None:
    """Record one Pai Gow wager's settlement."""
    round_.emit(
        WagerSettled,
        (1, 2.5),
        position=position,
        kind=WagerKind.PAI_GOW,
        outcome=record.outcome,
        paid=to_dollars(record.paid),
        collected=to_dollars(record.collected),
        vigorish=to_dollars(record.vigorish),
        returned=to_dollars(record.returned),
    )


def _emit_side(round_: RoundState, position: Position, record: SideRecord | None) -> None:
    result = round_.side_results.get(position)
    if result is None:
        return
    if record is None:
        record = SideRecord("win" if result.paid else "lose", result.paid, result.collected)
    round_.emit(
        WagerSettled,
        (1, 3),
        position=position,
        kind=WagerKind.PAIR_FORTUNES,
        outcome=record.outcome,
        paid=to_dollars(record.paid),
        collected=to_dollars(record.collected),
    )


def reveal_with(
    round_: RoundState,
    *,
    records: Mapping[Position, LineRecord] | None = None,
    side: Mapping[Position, SideRecord] | None = None,
    order: Sequence[Position] | None = None,
    late: Position | None = None,
) -> None:
    """``reveal_and_settle``, with what a careless dealer records instead.

    ``records``: a Pai Gow wager's settlement as recorded; ``side``: a Pair Fortunes
    wager's; ``order``: the positions in the order settled; ``late``: a position whose
    surrender (already in ``round_.surrendered``) is taken after its hands are revealed.
    """
    settlement = round_.settlement
    if settlement is None:
        raise ValueError(f"round {round_.round_id!r} was not settled")
    recorded = records or {}
    sides = side or {}
    lines = {line.position: line for line in settlement.lines}

    def settle(position: Position) -> None:
        emit_record(round_, position, recorded.get(position) or LineRecord.of(lines[position]))

    for position in round_.surrendered:
        if position != late:
            settle(position)
    if round_.mode in (BankingMode.PLAYER_BANK, BankingMode.CALIFORNIA):
        round_.emit(HandsRevealed, (2, 5), position=round_.banker_position)
    dealer_wager = settlement.dealer_wager
    if dealer_wager is not None:
        round_.emit(
            DealerWagerSettled,
            (2, 4),
            outcome=dealer_wager.outcome.value,
            amount=to_dollars(abs(dealer_wager.result)),
        )
    for position in round_.order() if order is None else order:
        if position == late:
            round_.emit(HandsRevealed, (1, 2.5), position=position)
            round_.emit(Surrendered, (2, 5), position=position)
            settle(position)
        elif position not in round_.surrendered:
            round_.emit(HandsRevealed, (1, 2.5), position=position)
            settle(position)
        _emit_side(round_, position, sides.get(position))


def line_findings(round_: RoundState, line: SettlementLine, record: LineRecord) -> list[Expect]:
    """Return the findings a recorded settlement of a wager yields against the correct ``line``.

    As the settlement checks judge a wager whose outcome the hands decide: a wrong
    outcome (its wrong money its evidence, not a second finding); else wrong money (a
    California wager played out beyond or short of coverage is a coverage finding);
    vigorish other than 5% of the amount owed or paid (California takes none: any is
    a wrong fee).
    """
    position, mode, end = line.position, round_.mode, label(line.wager)
    found: list[Expect] = []

    def rule(money: bool) -> str | None:
        key = settlement_rule(mode, end, money=money)
        return cited_or_none(round_, key) if key else None

    if record.outcome != end:
        found.append(Expect("PG-SETTLE-OUTCOME", position, rule(money=False)))
    elif (record.paid, record.collected, record.returned) != (
        line.paid,
        line.collected,
        line.returned,
    ):
        played = line.outcome in (Outcome.WIN, Outcome.LOSE)
        if mode is BankingMode.CALIFORNIA and played and (line.returned or record.returned):
            found.append(Expect("PG-CA-COVERAGE", position))
        else:
            found.append(Expect("PG-SETTLE-PAYOUT", position, rule(money=True)))
    rounding = round_.rule_set.vig_rounding
    if rounding is None:
        if record.vigorish:
            found.append(Expect("PG-CA-FEE", position))
        return found
    accepted = {line.vigorish, vigorish(record.paid, rounding)}
    if record.vigorish not in accepted:
        owed = min(accepted, key=lambda amount: abs(amount - record.vigorish))
        code = "PG-SETTLE-VIG-OVER"
        if record.vigorish < owed:
            code = "PG-SETTLE-VIG-UNCOLLECTED" if record.vigorish == 0 else "PG-SETTLE-VIG-SHORT"
        vig_rule = cited_or_none(round_, "bank-vigorish") if mode in BANKED_MODES else None
        found.append(Expect(code, position, vig_rule))
    return found


def flow_findings(
    round_: RoundState, expected: RoundSettlement, recorded: RoundSettlement
) -> list[Expect]:
    """Return the bank-flow findings of a round whose flows were recorded from ``recorded``
    (as ``settle_bank`` records them) where the rules give ``expected``."""
    bank = round_.bank_seat
    if round_.mode is BankingMode.CO_BANK:
        fields = (
            "shortfall_from_bank",
            "shortfall_from_house",
            "surplus_to_house",
            "surplus_vigorish",
            "surplus_to_bank",
        )
        if any(getattr(expected, f) != getattr(recorded, f) for f in fields):
            return [Expect("PG-COBANK-SPLIT", bank)]
        return []
    if round_.mode is not BankingMode.PLAYER_BANK:
        return []
    found: list[Expect] = []
    shortfall = recorded.shortfall_from_bank
    surplus = (0, 0, 0)
    if not shortfall and recorded.surplus:
        surplus = (recorded.surplus, recorded.surplus_vigorish, recorded.surplus_to_bank)
    if shortfall != expected.shortfall_from_bank:
        found.append(Expect("PG-BANK-SHORTFALL", bank))
    if surplus != (expected.surplus, expected.surplus_vigorish, expected.surplus_to_bank):
        found.append(Expect("PG-BANK-SURPLUS", bank))
    return found


def chosen(rng: random.Random, options: Iterable[Any]) -> Any:
    """Return one of ``options`` (sorted first, so the choice is the same every run)."""
    return rng.choice(sorted(options))
