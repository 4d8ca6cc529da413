"""A step-by-step replay of one Pai Gow round, for the surveillance analyst. Pure: no I/O.

``replay_round(events, round_id)`` takes a table's events up to and including the
round (the table's own events and its earlier rounds, so the rules, the equipment
and the banking rotation are known) and returns a
:class:`~audit.verification.replay_model.RoundReplay`: the round as seven steps,
each with its reading (``replay_steps.py``), its facts and the findings that concern
it; ``consumers/replay_text/paigow.py`` draws them as text.

1. the round: table, rule set, gaming day, dealer, round number, who banks;
2. the wagers, "no more bets" and anything placed after it;
3. the dice (or RNG number) and the count to the starting position;
4. the stacks, the cut, the delivery style and the four tiles each position received;
5. every hand as set, the dealer's (and co-bank's) beside the house way and the rule;
6. the settlement of each wager, the bank's flows and California's fees;
7. the findings that concern no step above (equipment, rotation, the record itself).

Whatever was recorded is read beside what the engine (``audit.games.paigow``)
says it should have been (the text marks each ``ok`` or ``MISMATCH``). The findings
are verification's own (:func:`verify_round` with the table's context as the
:class:`StreamVerifier` built it), so the replay and the findings never disagree
on what was found; the marks are the replay's plain comparison, for the eye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum

from audit.events.envelope import Event
from audit.events.paigow import play, settlement, wagers
from audit.events.table import TableOpened
from audit.findings.finding import Finding
from audit.games.errors import RulesError
from audit.games.money import Cents, to_cents
from audit.games.paigow.collection import collection_fees
from audit.games.paigow.dealer_rule import CLAUSES, permitted_settings, rule_clause
from audit.games.paigow.dealing import apply_cut
from audit.games.paigow.delivery import STYLE_NAMES, check_stacks, deliver
from audit.games.paigow.hands import describe_hand
from audit.games.paigow.layout import (
    HAND_COUNT,
    NumberSource,
    TableLayout,
    action_button,
    deal_order,
    dice_total,
    settlement_order,
    starting_position,
    unwagered_positions,
)
from audit.games.paigow.pair_fortunes import settle_pair_fortunes
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import is_ordered
from audit.games.paigow.settlement import BankingMode, SettlementLine
from audit.games.paigow.tiles import TILE_NAMES, parse_tile
from audit.verification.paigow import replay_steps as steps
from audit.verification.paigow import stream_checks
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.kinds import KINDS
from audit.verification.paigow.readings import (
    Banking,
    banking,
    deal_count,
    dealt_stacks,
    hand_setting,
    live_wagers,
    same_setting,
)
from audit.verification.paigow.readings import button as action_button_at
from audit.verification.paigow.round_view import RoundView, view_round
from audit.verification.paigow.settlement.expected import ExpectedSettlement, expect_settlement
from audit.verification.paigow.settlement.facts import SettlementFacts, read_settlement
from audit.verification.paigow.verify import StreamVerifier, verify_round
from audit.verification.replay_model import (
    Amount,
    Compared,
    RoundReplay,
    Step,
    dollars,
    first_time,
    locate_round,
)


class StepKind(StrEnum):
    """The steps of a Pai Gow replay, in the order they are shown (a step's ``kind``)."""

    ROUND = "round"
    WAGERS = "wagers"
    COUNT = "count"
    DEAL = "deal"
    HANDS = "hands"
    SETTLEMENT = "settlement"
    OTHER = "other"


STEP_TITLES: dict[StepKind, str] = {
    StepKind.ROUND: "The round",
    StepKind.WAGERS: "Wagers",
    StepKind.COUNT: "Dice and the count to the starting position",
    StepKind.DEAL: "Stacks and the deal",
    StepKind.HANDS: "Hands as set",
    StepKind.SETTLEMENT: "Settlement",
    StepKind.OTHER: "Other findings",
}


def step_for(code: str) -> StepKind:
    """Return the step a finding's code belongs under: its catalogue row's, else "other".

    >>> step_for("PG-DEAL-START"), step_for("PG-TILE-DUPLICATE"), step_for("PG-ROT-CONSECUTIVE")
    (<StepKind.COUNT: 'count'>, <StepKind.DEAL: 'deal'>, <StepKind.OTHER: 'other'>)
    """
    kind = KINDS.get(code)
    return StepKind(kind.step) if kind is not None and kind.step else StepKind.OTHER


# --- Entry point -------------------------------------------------------------------------------


def replay_round(
    events: Iterable[Event],
    round_id: str,
    table_id: str | None = None,
    *,
    verifier: StreamVerifier | None = None,
) -> RoundReplay:
    """Replay one round from its table's events (earlier rounds and table events included).

    The table's context is built by feeding every event before the round's last one,
    except the round's own, through a :class:`StreamVerifier`, as the live stream
    would have had it when the round was judged; the round is then judged with
    :func:`verify_round`. The ingest's observations about the round (a sequence gap,
    a reused event id) and an incomplete round are reported as the stream reports them.
    ``verifier``, if given, already holds the table as it stood before ``events``
    (:meth:`StreamVerifier.restore_table`): the events then start there, not at the
    table's first.
    """
    stream = list(events)
    table, mine = locate_round(stream, round_id, table_id)
    verifier = verifier or StreamVerifier()
    opened: TableOpened | None = None
    about_round: list[Finding] = []
    members = set(mine)
    for index, event in enumerate(stream[: mine[-1] + 1]):
        if index in members:
            continue
        found = verifier.feed(event)
        if event.table_id != table:
            continue
        if isinstance(event, TableOpened):
            opened = event
        if _about(event, round_id):
            about_round += found
    context = verifier.contexts.get(table) or TableContext(table)
    view = view_round(stream[i] for i in mine)
    findings = verify_round(view, context)
    findings += stream_checks.incomplete(view, context)
    findings += about_round
    return _build(view, context, opened, findings)


def _about(event: Event, round_id: str) -> bool:
    """Return whether a table-level observation of the ingest is about this round."""
    kind = event.type_name()
    if kind == "sequence_gap_observed":
        return getattr(event, "about_round_id", None) == round_id
    if kind == "event_id_reused":
        conflicting = getattr(event, "conflicting_event", None) or {}
        return bool(conflicting.get("round_id") == round_id)
    return False


def _build(
    view: RoundView, context: TableContext, opened: TableOpened | None, findings: list[Finding]
) -> RoundReplay:
    placed: dict[StepKind, list[Finding]] = {kind: [] for kind in StepKind}
    for finding in findings:
        placed[step_for(finding.code)].append(finding)
    reader = _Reader(view, context)
    readings: dict[StepKind, object] = {
        StepKind.ROUND: reader.round_step(opened),
        StepKind.WAGERS: reader.wagers_step(),
        StepKind.COUNT: reader.count_step(),
        StepKind.DEAL: reader.deal_step(),
        StepKind.HANDS: reader.hands_step(),
        StepKind.SETTLEMENT: reader.settlement_step(),
        StepKind.OTHER: _summary(findings, placed[StepKind.OTHER]),
    }
    facts = reader.facts
    steps_ = tuple(
        Step(
            kind,
            STEP_TITLES[kind],
            findings=tuple(placed[kind]),
            facts=tuple(facts[kind]),
            at=first_time(facts[kind]),
            reading=readings[kind],
        )
        for kind in StepKind
    )
    names = context.ruleset.layout.names
    return RoundReplay(view.table_id, view.round_id, steps_, names, "paigow")


def _summary(findings: Sequence[Finding], others: Sequence[Finding]) -> steps.Summary:
    counts = Counter(f.severity.value for f in findings)
    shares = tuple((s, counts[s]) for s in ("critical", "warning", "info") if counts[s])
    return steps.Summary(shares, bool(others))


# --- The facts' wording (the API shows it) -----------------------------------------------------


def _name(layout: TableLayout, position: int) -> str:
    if 0 <= position < len(layout.names):
        return layout.names[position]
    return f"position {position}"


def _tiles(names: Iterable[str]) -> str:
    return " ".join(names)


def hand_name(names: Sequence[str]) -> str:
    """Return a recorded two-tile hand's name (``Teen Wong``, ``7 (2-2 high)``), if it has one."""
    try:
        return describe_hand(parse_tile(names[0]), parse_tile(names[1])).name
    except (RulesError, IndexError):
        return "not a hand of two different tiles"


def dice_said(event: play.DiceRevealed) -> str:
    """Return the dice as recorded: faces, total, what was announced, flat and in the shaker."""
    faces = " ".join(str(f) for f in event.faces)
    try:
        total = str(dice_total(event.faces))
    except RulesError:
        total = "?"
    said = "" if event.announced_total is None else f" (announced {event.announced_total})"
    flat = "all flat" if event.all_flat else "NOT all flat"
    inside = "all in the shaker" if event.all_in_shaker else "a die OUT of the shaker"
    return f"dice {faces} = {total}{said}, {flat}, {inside}"


# --- Reading the round -------------------------------------------------------------------------


@dataclass
class _Reader:
    """Reads one round's view into each step's reading and its facts."""

    view: RoundView
    context: TableContext
    ruleset: RuleSet = field(init=False)
    layout: TableLayout = field(init=False)
    banking: Banking = field(init=False)
    facts: dict[StepKind, list[Compared]] = field(init=False)
    """Each step's recorded facts beside the engine's, as data, filled as its reading is."""

    def __post_init__(self) -> None:
        self.ruleset = self.context.ruleset
        self.layout = self.ruleset.layout
        self.banking = banking(self.view, self.ruleset)  # verification's reading, not its own
        self.facts = {kind: [] for kind in StepKind}

    def name(self, position: int) -> str:
        return _name(self.layout, position)

    # --- 1. The round ------------------------------------------------------------------------

    def round_step(self, opened: TableOpened | None) -> steps.Heading:
        view, ruleset = self.view, self.ruleset
        started = view.started
        number = f"round {started.round_number}" if started else "round (no round_started)"
        dealer = view.dealer_id or self.context.dealer_id
        self.facts[StepKind.ROUND].append(
            Compared(
                "started",
                f"{number}, dealer {dealer or 'not recorded'}",
                at=view.events[0].occurred_at,
            )
        )
        answers = {e.position: "declined" for e in view.events if isinstance(e, play.BankDeclined)}
        if view.bank is not None:
            answers[view.bank.position] = "accepted"
        return steps.Heading(
            table_id=view.table_id,
            round_id=view.round_id,
            gaming_day=opened.gaming_day if opened else None,
            rule_set=ruleset.name,
            rule_title=ruleset.title,
            round_number=started.round_number if started else None,
            dealer_id=dealer,
            started_at=view.events[0].occurred_at,
            house_way=ruleset.house_way.name,
            vig_rounding=ruleset.vig_rounding.value if ruleset.vig_rounding else None,
            options=tuple(sorted(opened.options.items())) if opened is not None else (),
            bank=self._bank(),
            offers=tuple((o.position, answers.get(o.position, "no answer")) for o in view.offers),
            tile_set_id=self.context.tile_set_id,
            voided=view.voided,
            completed=view.completed is not None,
        )

    def _bank(self) -> steps.Bank:
        view, banking = self.view, self.banking
        if banking.mode is BankingMode.CALIFORNIA:
            stake = next((e for _, e in view.placed if e.position == self.layout.dealer), None)
            return steps.Bank(
                banking.mode,
                player_id=stake.player_id if stake else None,
                position=view.bank.position if view.bank else None,
                stake_recorded=stake is not None,
                covers=live_wagers(view, wagers.WagerKind.PAI_GOW).get(0, Decimal(0)),
            )
        if banking.mode is BankingMode.DEALER:
            return steps.Bank(banking.mode)
        bank = banking.taken
        assert bank is not None  # a player bank or co-bank was taken
        against = view.dealer_wager
        return steps.Bank(
            banking.mode,
            player_id=bank.player_id,
            position=bank.position,
            chips=bank.chips_on_table,
            dealer_wager=against.amount if against is not None and against.amount > 0 else None,
        )

    # --- 2. Wagers ---------------------------------------------------------------------------

    def wagers_step(self) -> steps.Wagers:
        view = self.view
        call = view.no_more_bets
        shown: list[tuple[Event, bool]] = []
        for index, event in enumerate(view.events):
            late = call is not None and index > call
            match event:
                case wagers.WagerPlaced() | wagers.WagerWithdrawn():
                    self._wager_fact(event, late=late, called=call is not None)
                    shown.append((event, late))
                case wagers.DealerWagerAgainstBank():
                    shown.append((event, late))
                case play.NoMoreBets():
                    shown.append((event, late))  # after the first call: a repeat
                    said = "called" if index == call else "called again"
                    self.facts[StepKind.WAGERS].append(
                        Compared('"no more bets"', said, at=event.occurred_at)
                    )
        pai_gow = live_wagers(view, wagers.WagerKind.PAI_GOW)
        side = live_wagers(view, wagers.WagerKind.PAIR_FORTUNES)
        return steps.Wagers(
            events=tuple(shown),
            called=call is not None,
            placed=any(isinstance(e, wagers.WagerPlaced) for e in view.events),
            pai_gow=sum(pai_gow.values(), Decimal(0)),
            positions=len(pai_gow),
            pair_fortunes=sum(side.values(), Decimal(0)) if side else None,
        )

    def _wager_fact(
        self, event: wagers.WagerPlaced | wagers.WagerWithdrawn, *, late: bool, called: bool
    ) -> None:
        """Note a wager placed or withdrawn: PA 621a.6(c) wants it before "no more bets"."""
        kind = "Pai Gow" if event.kind is wagers.WagerKind.PAI_GOW else "Pair Fortunes"
        verb = "placed" if isinstance(event, wagers.WagerPlaced) else "withdrew"
        when = 'after "no more bets"' if late else 'before "no more bets"'
        self.facts[StepKind.WAGERS].append(
            Compared(
                self.name(event.position),
                f"{verb} {kind} {dollars(event.amount)}, {when}",
                'before "no more bets"' if called else None,
                not late if called else None,
                amounts=(Amount("wager", to_cents(event.amount)),),
                at=event.occurred_at,
            )
        )

    # --- 3. Dice and the count ---------------------------------------------------------------

    def count_step(self) -> steps.Dice:
        view = self.view
        dealt_at = view.delivered[0][0] if view.delivered else len(view.events)
        throws: list[steps.Throw] = []
        for index, event in enumerate(view.events):
            after = index > dealt_at
            match event:
                case play.ShakerShaken() | play.NoRollCalled():
                    throws.append(steps.Throw(event, after))
                case play.DiceRevealed():
                    throws.append(steps.Throw(event, after, dice_said(event)))
                    self.facts[StepKind.COUNT].append(
                        Compared("dice", dice_said(event), at=event.occurred_at)
                    )
                case play.RngNumberShown():
                    throws.append(steps.Throw(event, after))
                    self.facts[StepKind.COUNT].append(
                        Compared("RNG number", str(event.number), at=event.occurred_at)
                    )
        counted = deal_count(self.view)
        if counted is None:
            return steps.Dice(tuple(throws), None)
        total, source, _ = counted
        return steps.Dice(tuple(throws), self._count(total, source))

    def _count(self, total: int, source: NumberSource) -> steps.Count:
        layout, bank = self.layout, self.banking.bank
        first = layout.dealer if bank is None else bank
        counted = steps.Count(total, source, first, layout.count_clockwise)
        try:
            lap = [starting_position(k, layout, first=bank, source="rng")
                   for k in range(1, HAND_COUNT + 1)]  # fmt: skip
            expected = starting_position(total, layout, first=bank, source=source)
        except RulesError as error:
            return replace(counted, error=str(error))
        first_stack = next((e for _, e in self.view.delivered if e.order == 0), None)
        if first_stack is not None:
            same = first_stack.position == expected
            self.facts[StepKind.COUNT].append(
                Compared(
                    f"count {total}: first stack to",
                    self.name(first_stack.position),
                    self.name(expected),
                    same,
                    at=first_stack.occurred_at,
                )
            )
        button = None
        if layout.button_on_dealer is not None and source == "dice":
            button = action_button(total, layout)
        return replace(
            counted,
            lap=tuple(lap),
            lands=expected,
            last_throw=source == "dice" and len(self.view.dice) > 1,
            first_stack=None if first_stack is None else first_stack.position,
            button=button,
        )

    # --- 4. Stacks and the deal --------------------------------------------------------------

    def deal_step(self) -> steps.Deal:
        view = self.view
        incidents = tuple(
            e for e in view.events if isinstance(e, play.StackingTileExposed | play.TilesRemixed)
        )
        formed = dealt_stacks(self.view)
        parsed_cut, cut_error = None, None
        if view.cut is not None:
            try:
                parsed_cut = view.cut.cut()
            except RulesError as error:
                cut_error = str(error)
        unwagered = unwagered_positions(
            self.layout,
            [p for p in self.banking.wagered if p in self.layout.betting],
            dealer_plays=self.banking.dealer_plays,
        )
        deliveries, why = self._deliveries(formed)
        return steps.Deal(
            incidents=incidents,
            stacks=None if formed is None or formed.stacks is None else
            tuple(tuple(s) for s in formed.stacks),
            times_formed=sum(isinstance(e, play.StacksFormed) for e in view.events),
            cut=view.cut,
            parsed_cut=parsed_cut,
            cut_error=cut_error,
            bank_taken=self.banking.bank is not None,
            style=view.style,
            default_style=STYLE_NAMES[self.ruleset.default_delivery_style],
            deliveries=deliveries,
            why_not=why,
            unwagered=tuple(unwagered),
            collected=view.collected,
            exposed=tuple(e for _, e in view.exposed),
            player_voids=tuple(view.player_voids),
        )  # fmt: skip

    def _expected_groups(
        self, formed: play.StacksFormed | None
    ) -> tuple[list[list[str]] | None, str]:
        """Return the eight groups the stacks, cut and style dictate, or why they cannot be."""
        if formed is None or formed.stacks is None:
            return None, "the stacks were not recorded"
        try:
            stacks = check_stacks([[parse_tile(n) for n in s] for s in formed.stacks])
        except RulesError:
            return None, "the stacks do not hold the 32 tiles once each"
        try:
            cut = self.view.cut.cut() if self.view.cut is not None else None
        except RulesError:
            return None, "the cut is not one the rules allow"
        style = self.view.style.style if self.view.style else self.ruleset.default_delivery_style
        groups = deliver(apply_cut(stacks, cut), style)
        return [[TILE_NAMES[t] for t in group] for group in groups], ""

    def _deliveries(
        self, formed: play.StacksFormed | None
    ) -> tuple[tuple[steps.Delivery, ...], str]:
        view = self.view
        if not view.delivered:
            return (), ""
        groups, why = self._expected_groups(formed)
        first = next((e for _, e in view.delivered if e.order == 0), None)
        walk = deal_order(first.position, self.layout) if first is not None else None
        rows = []
        for _, event in view.delivered:
            label = f"stack {event.order + 1}"
            if groups is None:
                rows.append(steps.Delivery(event))
                self.facts[StepKind.DEAL].append(
                    Compared(label, self.name(event.position), f"cannot say: {why}",
                             pieces=tuple(event.tiles), at=event.occurred_at)
                )  # fmt: skip
                continue
            where = walk[event.order] if walk is not None else event.position
            want = groups[event.order]
            same = set(event.tiles) == set(want) and where == event.position
            rows.append(steps.Delivery(event, where, tuple(want), same))
            self.facts[StepKind.DEAL].append(
                Compared(label, self.name(event.position), self.name(where), same,
                         tuple(event.tiles), tuple(want), at=event.occurred_at)
            )  # fmt: skip
        return tuple(rows), why

    # --- 5. Hands as set ---------------------------------------------------------------------

    def hands_step(self) -> steps.Hands:
        view = self.view
        dealt = view.delivered_to()
        sets: dict[int, list[play.HandSet]] = {}
        for event in view.events:
            if isinstance(event, play.HandSet):
                sets.setdefault(event.position, []).append(event)
        house_set = self._house_set_positions()
        hands = []
        for position in sorted(view.hands):
            hand = view.hands[position]
            read = self._set_hand(hand, dealt.get(position), sets[position])
            if position in house_set:
                read = replace(
                    read, house_way=self._house_way(hand, position == self.layout.dealer)
                )
            elif position == self.layout.dealer and self.banking.mode is BankingMode.CALIFORNIA:
                read = replace(read, free=self._free_setting(hand))  # no dealer rule binds it
            hands.append(read)
            self.facts[StepKind.HANDS].append(
                self._hand_fact(hand, house_set=position in house_set)
            )
        surrenders = []
        for index, surrendered in view.surrenders:
            revealed = view.reveals.get(surrendered.position)
            surrenders.append((surrendered.position, revealed is not None and revealed <= index))
        return steps.Hands(tuple(hands), tuple(surrenders))

    def _hand_fact(self, hand: play.HandSet, *, house_set: bool) -> Compared:
        """Return a hand as set (high then low tiles) beside the house way, where it binds.

        The house way binds the dealer's hand and a co-bank's (PA 621a.9(e)); a player
        sets freely, so a player's hand has nothing expected beside it.
        """
        label = self.name(hand.position)
        shown = f"high {_tiles(hand.high)} ({hand_name(hand.high)}), " \
            f"low {_tiles(hand.low)} ({hand_name(hand.low)})"  # fmt: skip
        recorded = (*hand.high, *hand.low)
        setting = hand_setting(hand)
        if not house_set or setting is None:
            return Compared(label, shown, pieces=recorded, at=hand.occurred_at)
        way = self.ruleset.house_way
        try:
            expected = way.setting(setting.tiles, self.ruleset.ranking)
        except RulesError:
            return Compared(label, shown, "house way: cannot say", pieces=recorded,
                            at=hand.occurred_at)  # fmt: skip
        same = same_setting(setting, expected, self.ruleset.ranking)
        names = tuple(TILE_NAMES[t] for t in (*expected.high, *expected.low))
        return Compared(label, shown, f"house way ({way.name}): {expected}", same, recorded,
                        names, at=hand.occurred_at)  # fmt: skip

    def _house_set_positions(self) -> set[int]:
        """Return the positions the house sets: the dealer's, and a co-bank's (PA 621a.9(e))."""
        if self.banking.mode is BankingMode.CALIFORNIA:
            return set()
        found = {self.layout.dealer}
        if self.banking.mode is BankingMode.CO_BANK and self.banking.bank is not None:
            found.add(self.banking.bank)
        return found

    def _set_hand(
        self, hand: play.HandSet, delivered: list[str] | None, history: list[play.HandSet]
    ) -> steps.SetHand:
        setting = hand_setting(hand)
        tiles = [*hand.high, *hand.low]
        return steps.SetHand(
            hand=hand,
            high_name=hand_name(hand.high),
            low_name=hand_name(hand.low),
            below=setting is not None and not is_ordered(setting, self.ruleset.ranking),
            delivered=tuple(delivered)
            if delivered is not None and Counter(tiles) != Counter(delivered)
            else None,
            undelivered=delivered is None and bool(self.view.delivered),
            resets=tuple(history[:-1]),
        )

    def _house_way(self, hand: play.HandSet, dealer: bool) -> steps.HouseWay:
        ruleset = self.ruleset
        way = ruleset.house_way
        setting = hand_setting(hand)
        if setting is None:
            return steps.HouseWay(way.name, None, "the tiles are not four different tiles")
        try:
            expected = way.setting(setting.tiles, ruleset.ranking)
        except RulesError:
            return steps.HouseWay(way.name, None)
        same = same_setting(setting, expected, ruleset.ranking)
        read = steps.HouseWay(way.name, str(expected), same=same)
        if not dealer or not ruleset.regulatory_dealer_rule:
            return read
        try:
            permitted = permitted_settings(setting.tiles, ruleset.ranking)
            clause = rule_clause(setting.tiles, ruleset.ranking)
        except RulesError:
            return read
        cited = ruleset.citations.get("dealer-setting", "dealer rule") + CLAUSES[clause]
        allowed = tuple(sorted(str(s) for s in permitted))
        return replace(read, cited=cited, permitted=setting in permitted, allowed=allowed)

    def _free_setting(self, hand: play.HandSet) -> steps.HouseWay:
        """Return the house way's setting of a hand set freely, for reference (if it has one)."""
        setting = hand_setting(hand)
        way = self.ruleset.house_way
        try:
            expected = way.setting(setting.tiles, self.ruleset.ranking) if setting else None
        except RulesError:
            expected = None
        return steps.HouseWay(way.name, None if expected is None else str(expected))

    # --- 6. Settlement -----------------------------------------------------------------------

    def settlement_step(self) -> steps.Settlement:
        view = self.view
        facts = read_settlement(view, self.ruleset)
        expected = expect_settlement(view, self.ruleset, facts)
        rows: list[steps.Settled] = []
        for _, event in view.settled:
            if event.kind is wagers.WagerKind.PAIR_FORTUNES:
                rows.append(self._side_row(event, facts))
                continue
            name = self.name(event.position)
            if facts.settled.get(event.position) is not event:
                rows.append(steps.Settled(event.position, False, _recorded(event), None, None,
                                          stray=True))  # fmt: skip
                continue
            stake = facts.stakes[event.position]
            found = expected.lines.get(event.position)
            if found is None:
                rows.append(steps.Settled(event.position, False, _recorded(event), stake, None))
                self._settled_fact(name, stake, event, None)
                continue
            line, known = found
            want = _expected_row(line)
            rows.append(steps.Settled(event.position, False, _recorded(event), stake, want, known))
            self._settled_fact(name, stake, event, want)
        unsettled = [(p, False, facts.stakes[p]) for p in facts.stakes if p not in facts.settled]
        unsettled += [(p, True, facts.side[p]) for p in facts.side
                      if p not in facts.side_settled]  # fmt: skip
        read = steps.Settlement(
            rows=tuple(rows),
            unsettled=tuple(unsettled),
            pair_fortunes=bool(facts.side_settled or facts.stray_side),
            order=self._order(facts.settled_order),
            mode=facts.mode,
        )
        if facts.mode is BankingMode.CALIFORNIA:
            return self._california(read, facts, expected)
        return self._bank_flows(read, expected)

    def _side_row(self, event: settlement.WagerSettled, facts: SettlementFacts) -> steps.Settled:
        if facts.side_settled.get(event.position) is not event:
            return steps.Settled(event.position, True, _recorded(event), None, None, stray=True)
        amount = facts.side[event.position]
        want = self._pair_fortunes(event.position, amount)
        self._settled_fact(f"{self.name(event.position)} PF", amount, event, want)
        return steps.Settled(event.position, True, _recorded(event), amount, want)

    def _settled_fact(
        self, label: str, stake: Cents, event: settlement.WagerSettled, want: steps.Money | None
    ) -> None:
        """Note one wager's settlement, its money recorded beside the engine's (in cents)."""
        got = _recorded(event)
        amounts = [Amount("wager", stake)]
        owed = (None, None, None, None) if want is None else want[1:]
        for name, recorded, expected in zip(
            ("paid", "collected", "vigorish", "returned"), got[1:], owed, strict=True
        ):
            amounts.append(Amount(name, recorded, expected))
        self.facts[StepKind.SETTLEMENT].append(
            Compared(
                label,
                got[0],
                None if want is None else want[0],
                None if want is None else want == got,
                amounts=tuple(amounts),
                at=event.occurred_at,
            )
        )

    def _flow_fact(self, what: str, event: Event | None, pairs: dict[str, steps.Pair]) -> None:
        """Note one bank flow (PA 621a.9(o), (r)), recorded beside expected, if money moved."""
        if all(not got and not want for got, want in pairs.values()):
            return
        amounts = tuple(Amount(name, got or 0, want) for name, (got, want) in pairs.items())
        known = all(want is not None for _, want in pairs.values())
        same = all(a.same for a in amounts) if known else None
        shown = "recorded" if event is not None else "nothing recorded"
        self.facts[StepKind.SETTLEMENT].append(
            Compared(what, shown, None, same, amounts=amounts,
                     at=None if event is None else event.occurred_at)
        )  # fmt: skip

    def _pair_fortunes(self, position: int, amount: Cents) -> steps.Money | None:
        """Return the Pair Fortunes settlement the paytable gives on the tiles delivered."""
        view, paytable = self.view, self.ruleset.pair_fortunes
        if view.voided is not None or position in {v.position for v in view.player_voids}:
            return ("returned", 0, 0, 0, amount)  # PA 621a.10(c)-(e)
        if paytable is None:
            return None
        hand = view.hands.get(position)
        for names in (view.delivered_to().get(position), [*hand.high, *hand.low] if hand else None):
            if names is None:
                continue
            try:
                result = settle_pair_fortunes([parse_tile(n) for n in names], amount, paytable)
            except RulesError:
                continue
            return ("win" if result.paid else "lose", result.paid, result.collected, 0, 0)
        return None

    def _order(self, recorded: list[int]) -> steps.Order | None:
        """Return in which order the wagers were settled, beside the order the rules give."""
        if not recorded:
            return None
        layout = self.layout
        button = None
        try:
            if layout.button_on_dealer is None:
                ring = settlement_order(layout)
                how = "from the dealer's right"
            else:
                button = action_button_at(self.view, self.ruleset)
                if button is None:
                    return steps.Order((), (), "", None, False, no_button=True)
                ring = settlement_order(layout, button)
                how = "clockwise from the button"
        except RulesError:
            return None
        # PA 621a.8(e): a surrendered wager is collected at once, outside the order.
        surrendered = {s.position for _, s in self.view.surrenders}
        played = [p for p in recorded if p not in surrendered]
        rule = [p for p in ring if p in played]
        return steps.Order(tuple(played), tuple(rule), how, button, bool(surrendered))

    def _bank_flows(self, read: steps.Settlement, expected: ExpectedSettlement) -> steps.Settlement:
        view, settled = self.view, expected.settlement
        got, want = view.dealer_wager_settled, expected.dealer_wager
        dealer = None
        if got is not None or want is not None:
            owed = None if want is None else f"{want.outcome.value} {dollars(abs(want.result))}"
            dealer = (got, owed)

        def pair(event: Event | None, name: str, engine: str) -> steps.Pair:
            return _amount(event, name), getattr(settled, engine) if settled else None

        flows: list[tuple[str, Event | None, dict[str, steps.Pair]]] = []
        if read.mode is BankingMode.PLAYER_BANK:  # PA 621a.9(o)
            flows.append(("bank shortfall", view.shortfall, {
                "paid in by the bank": pair(view.shortfall, "amount", "shortfall_from_bank"),
            }))  # fmt: skip
            flows.append(("bank surplus", view.surplus, {
                "surplus": pair(view.surplus, "surplus", "surplus"),
                "vigorish": pair(view.surplus, "vigorish", "surplus_vigorish"),
                "to the bank": pair(view.surplus, "paid_to_bank", "surplus_to_bank"),
            }))  # fmt: skip
        elif read.mode is BankingMode.CO_BANK:  # PA 621a.9(r)
            split = view.co_bank_split
            flows.append(("co-bank split", split, {
                "co-bank pays in": pair(split, "shortfall_from_co_bank", "shortfall_from_bank"),
                "house pays in": pair(split, "shortfall_from_house", "shortfall_from_house"),
                "surplus to house": pair(split, "surplus_to_house", "surplus_to_house"),
                "vigorish": pair(split, "surplus_vigorish", "surplus_vigorish"),
                "to the co-bank": pair(split, "surplus_to_co_bank", "surplus_to_bank"),
            }))  # fmt: skip
        for what, event, pairs in flows:
            self._flow_fact(what, event, pairs)
        nets = None
        if settled is not None:
            nets = tuple(settled.nets().items())
            self.facts[StepKind.SETTLEMENT].append(
                Compared("nets", "each party's net, as the engine settles the round", amounts=tuple(
                    Amount(str(self._party(p)), None, c) for p, c in settled.nets().items()
                ))
            )  # fmt: skip
        return replace(
            read,
            dealer_wager=dealer,
            flows=tuple(steps.Flow(what, tuple(pairs.items())) for what, _, pairs in flows),
            nets=nets,
        )

    def _party(self, party: int | str) -> str:
        return short_name(self.layout.names, party) if isinstance(party, int) else party

    def _california(
        self, read: steps.Settlement, facts: SettlementFacts, expected: ExpectedSettlement
    ) -> steps.Settlement:
        view = self.view
        if facts.player_dealer > 0 and expected.lines:
            result = sum(line.collected - line.paid for line, _ in expected.lines.values())
            read = replace(read, player_dealer=(facts.player_dealer, result))
        schedule = self.ruleset.collection_schedule
        if schedule is None:
            return read
        positions = sorted(facts.stakes)
        want: dict[int, Cents] = {}
        if view.voided is None:  # a voided round takes no fee
            fees, player_dealer_fee = collection_fees(
                schedule, [facts.stakes[p] for p in positions]
            )
            want = dict(zip(positions, fees, strict=True))
            dealer = self.layout.dealer
            want[dealer] = want.get(dealer, 0) + player_dealer_fee
        got: dict[int, Cents] = {}
        for fee in view.fees:
            got[fee.position] = got.get(fee.position, 0) + to_cents(fee.amount)
        rows = []
        for position in sorted(set(want) | set(got)):
            taken, owed = got.get(position, 0), want.get(position, 0)
            rows.append(steps.Fee(position, taken, owed))
            self.facts[StepKind.SETTLEMENT].append(
                Compared(f"{self.name(position)} collection fee", dollars(taken), dollars(owed),
                         taken == owed, amounts=(Amount("fee", taken, owed),))
            )  # fmt: skip
        options = sorted({fee.schedule_option for fee in view.fees} - {schedule.option})
        return replace(read, schedule=schedule.option, fees=tuple(rows),
                       stray_options=tuple(options))  # fmt: skip


def short_name(names: Sequence[str], position: int) -> str:
    """Return a position's short name for the count: ``Dealer``, ``P1``, ``Dead``, ``S3``, ``PD``.

    >>> from audit.games.paigow.layout import PA_NJ_LAYOUT, CALIFORNIA_LAYOUT
    >>> [short_name(PA_NJ_LAYOUT.names, p) for p in (0, 1, 7)]
    ['Dealer', 'P1', 'Dead']
    >>> short_name(CALIFORNIA_LAYOUT.names, 0)
    'PD'
    """
    name = names[position] if 0 <= position < len(names) else f"position {position}"
    for long, short in (("Position ", "P"), ("Seat ", "S")):
        if name.startswith(long):
            return short + name.removeprefix(long)
    return {"Dead Hand": "Dead", "Player-Dealer": "PD"}.get(name, name)


def _recorded(event: settlement.WagerSettled) -> steps.Money:
    """Return a recorded settlement in cents."""
    return (
        event.outcome,
        to_cents(event.paid),
        to_cents(event.collected),
        to_cents(event.vigorish),
        to_cents(event.returned),
    )


def _expected_row(line: SettlementLine) -> steps.Money:
    """Return the engine's settlement of a wager in cents."""
    wager = line.wager
    if wager.surrendered:
        outcome = "surrendered"
    elif wager.voided or wager.outcome is None:
        outcome = "returned"
    else:
        outcome = wager.outcome.value
    return (outcome, line.paid, line.collected, line.vigorish, line.returned)


def _amount(event: Event | None, name: str) -> Cents | None:
    """Return one money field of a bank flow event in cents, or None when none was recorded."""
    return None if event is None else to_cents(getattr(event, name))
