"""A step-by-step replay of one Pai Gow round, for the surveillance analyst. Pure: no I/O.

``replay_round(events, round_id)`` takes a table's events up to and including the
round (the table's own events and its earlier rounds, so the rules, the equipment
and the banking rotation are known) and returns a
:class:`~audit.verification.replay_model.RoundReplay`: the round as seven steps,
each with its lines of text and the findings that concern it.

1. the round: table, rule set, gaming day, dealer, round number, who banks;
2. the wagers, "no more bets" and anything placed after it;
3. the dice (or RNG number) and the count to the starting position;
4. the stacks, the cut, the delivery style and the four tiles each position received;
5. every hand as set, the dealer's (and co-bank's) beside the house way and the rule;
6. the settlement of each wager, the bank's flows and California's fees;
7. the findings that concern no step above (equipment, rotation, the record itself).

Whatever was recorded is shown beside what the engine (``audit.games.paigow``)
says it should have been, marked ``ok`` or ``MISMATCH``. The findings are
verification's own (:func:`verify_round` with the table's context as the
:class:`StreamVerifier` built it), so the replay and the findings never disagree
on what was found; the marks are the replay's plain comparison, for the eye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
    MISMATCH,
    OK,
    Amount,
    Compared,
    RoundReplay,
    Step,
    dollars,
    first_time,
    locate_round,
    mark,
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
    lines = {
        StepKind.ROUND: reader.round_step(opened),
        StepKind.WAGERS: reader.wagers_step(),
        StepKind.COUNT: reader.count_step(),
        StepKind.DEAL: reader.deal_step(),
        StepKind.HANDS: reader.hands_step(),
        StepKind.SETTLEMENT: reader.settlement_step(),
        StepKind.OTHER: _summary(findings, placed[StepKind.OTHER]),
    }
    facts = reader.facts
    steps = tuple(
        Step(
            kind,
            STEP_TITLES[kind],
            tuple(lines[kind]),
            tuple(placed[kind]),
            tuple(facts[kind]),
            first_time(facts[kind]),
        )
        for kind in StepKind
    )
    names = context.ruleset.layout.names
    return RoundReplay(view.table_id, view.round_id, steps, names, "paigow")


def _summary(findings: Sequence[Finding], others: Sequence[Finding]) -> list[str]:
    if not findings:
        return ["no findings in this round"]
    counts = Counter(f.severity.value for f in findings)
    shares = ", ".join(f"{counts[s]} {s}" for s in ("critical", "warning", "info") if counts[s])
    lines = [f"{len(findings)} finding(s) in this round ({shares})"]
    if not others:
        lines.append("each is shown under the step it concerns; none other")
    return lines


# --- Formatting --------------------------------------------------------------------------------


def _money(amount: Decimal | Cents) -> str:
    """Return a table cell: ``-`` for nothing, else dollars."""
    return "-" if amount == 0 else dollars(amount)


def _signed(cents: Cents) -> str:
    return ("+" if cents > 0 else "") + dollars(cents)


def _name(layout: TableLayout, position: int) -> str:
    if 0 <= position < len(layout.names):
        return layout.names[position]
    return f"position {position}"


def short_name(layout: TableLayout, position: int) -> str:
    """Return a position's short name for the count: ``Dealer``, ``P1``, ``Dead``, ``S3``, ``PD``.

    >>> from audit.games.paigow.layout import PA_NJ_LAYOUT, CALIFORNIA_LAYOUT
    >>> [short_name(PA_NJ_LAYOUT, p) for p in (0, 1, 7)], short_name(CALIFORNIA_LAYOUT, 0)
    (['Dealer', 'P1', 'Dead'], 'PD')
    """
    name = _name(layout, position)
    for long, short in (("Position ", "P"), ("Seat ", "S")):
        if name.startswith(long):
            return short + name.removeprefix(long)
    return {"Dead Hand": "Dead", "Player-Dealer": "PD"}.get(name, name)


def _tiles(names: Iterable[str]) -> str:
    return " ".join(names)


def _hand_name(names: Sequence[str]) -> str:
    """Return a recorded two-tile hand's name (``Teen Wong``, ``7 (2-2 high)``), if it has one."""
    try:
        return describe_hand(parse_tile(names[0]), parse_tile(names[1])).name
    except (RulesError, IndexError):
        return "not a hand of two different tiles"


def _wrap(prefix: str, words: Sequence[str], width: int = 96) -> list[str]:
    """Return ``words`` joined by spaces over as many lines as fit ``width``, each indented."""
    lines: list[str] = []
    current = prefix
    for word in words:
        if len(current) + len(word) + 1 > width and current.strip():
            lines.append(current.rstrip())
            current = " " * len(prefix)
        current += word + " "
    lines.append(current.rstrip())
    return lines


# --- Reading the round -------------------------------------------------------------------------


@dataclass
class _Reader:
    """Turns one round's view into the lines of each step."""

    view: RoundView
    context: TableContext
    ruleset: RuleSet = field(init=False)
    layout: TableLayout = field(init=False)
    banking: Banking = field(init=False)
    facts: dict[StepKind, list[Compared]] = field(init=False)
    """Each step's recorded facts beside the engine's, as data, filled as its lines are."""

    def __post_init__(self) -> None:
        self.ruleset = self.context.ruleset
        self.layout = self.ruleset.layout
        self.banking = banking(self.view, self.ruleset)  # verification's reading, not its own
        self.facts = {kind: [] for kind in StepKind}

    def name(self, position: int) -> str:
        return _name(self.layout, position)

    # --- 1. The round ------------------------------------------------------------------------

    def round_step(self, opened: TableOpened | None) -> list[str]:
        view, ruleset = self.view, self.ruleset
        day = opened.gaming_day.isoformat() if opened else "unknown (no table_opened)"
        lines = [f"table {view.table_id}; gaming day {day}"]
        lines.append(f"rule set {ruleset.name}: {ruleset.title}")
        started = view.started
        number = f"round {started.round_number}" if started else "round (no round_started)"
        dealer = view.dealer_id or self.context.dealer_id or "not recorded"
        when = view.events[0].occurred_at.strftime("%Y-%m-%d %H:%M:%S UTC")
        lines.append(f"{number}, id {view.round_id}; dealer {dealer}; from {when}")
        self.facts[StepKind.ROUND].append(
            Compared("started", f"{number}, dealer {dealer}", at=view.events[0].occurred_at)
        )
        vig = ruleset.vig_rounding.value if ruleset.vig_rounding else "none (collection fees)"
        lines.append(f"rules: house way {ruleset.house_way.name}; vigorish rounding {vig}")
        if opened is not None and opened.options:
            shown = ", ".join(f"{k}={v}" for k, v in sorted(opened.options.items()))
            lines.append(f"table options: {shown}")
        lines += self._bank_lines()
        if view.offers:
            answers = {
                e.position: "declined" for e in view.events if isinstance(e, play.BankDeclined)
            }
            if view.bank is not None:
                answers[view.bank.position] = "accepted"
            offers = [f"{self.name(o.position)} ({answers.get(o.position, 'no answer')})"
                      for o in view.offers]  # fmt: skip
            lines += _wrap("bank offered to ", [o + "," for o in offers[:-1]] + offers[-1:])
        if self.context.tile_set_id:
            lines.append(f"tile set {self.context.tile_set_id}")
        if view.voided is not None:
            detail = f" ({view.voided.detail})" if view.voided.detail else ""
            lines.append(f"ROUND VOIDED: {view.voided.reason}{detail}")
        if view.completed is None:
            lines.append("the round was never completed (no round_completed)")
        return lines

    def _bank_lines(self) -> list[str]:
        view, banking = self.view, self.banking
        if banking.mode is BankingMode.CALIFORNIA:
            stake = next((e for _, e in view.placed if e.position == self.layout.dealer), None)
            if stake is None:
                return ["banking: California table, no player-dealer wager recorded"]
            who = stake.player_id or "unnamed player"
            took = f", took the bank at {self.name(view.bank.position)}" if view.bank else ""
            covers = dollars(live_wagers(view, wagers.WagerKind.PAI_GOW).get(0, Decimal(0)))
            return [f"banking: California player-dealer {who}{took}",
                    f"the player-dealer takes action on wagers, in settlement order, "
                    f"up to its wager of {covers}"]  # fmt: skip
        if banking.mode is BankingMode.DEALER:
            return ["banking: the dealer banks for the house"]
        bank = banking.taken
        assert bank is not None  # a player bank or co-bank was taken
        who = bank.player_id or "unnamed player"
        chips = f", {dollars(bank.chips_on_table)} on the table" if bank.chips_on_table else ""
        where = self.name(bank.position)
        if banking.mode is BankingMode.CO_BANK:
            line = f"banking: co-bank at {where} ({who}{chips}), 50/50 with the house"
        else:
            line = f"banking: player bank at {where} ({who}{chips})"
        against = view.dealer_wager
        if against is not None and against.amount > 0:
            return [line, f"the dealer wagers {dollars(against.amount)} against the bank"]
        return [line, "no dealer wager against the bank"]

    # --- 2. Wagers ---------------------------------------------------------------------------

    def wagers_step(self) -> list[str]:
        view = self.view
        call = view.no_more_bets
        lines: list[str] = []
        for index, event in enumerate(view.events):
            late = '   AFTER "no more bets"' if call is not None and index > call else ""
            match event:
                case wagers.WagerPlaced():
                    self._wager_fact(event, late=bool(late), called=call is not None)
                    kind = "Pai Gow" if event.kind is wagers.WagerKind.PAI_GOW else "Pair Fortunes"
                    who = event.player_id or "player not recorded"
                    lines.append(f"  {self.name(event.position):<14}{kind:<22}"
                                 f"{dollars(event.amount):>12}   {who}{late}")  # fmt: skip
                case wagers.WagerWithdrawn():
                    self._wager_fact(event, late=bool(late), called=call is not None)
                    kind = "Pai Gow" if event.kind is wagers.WagerKind.PAI_GOW else "Pair Fortunes"
                    lines.append(f"  {self.name(event.position):<14}{'withdrew ' + kind:<22}"
                                 f"{dollars(event.amount):>12}{late}")  # fmt: skip
                case wagers.DealerWagerAgainstBank():
                    lines.append(f"  {'Dealer':<14}{'against the bank':<22}"
                                 f"{dollars(event.amount):>12}{late}")  # fmt: skip
                case play.NoMoreBets():
                    lines.append('  "no more bets"' + ("   (again)" if index != call else ""))
                    said = "called" if index == call else "called again"
                    self.facts[StepKind.WAGERS].append(
                        Compared('"no more bets"', said, at=event.occurred_at)
                    )
        if not any(isinstance(e, wagers.WagerPlaced) for e in view.events):
            lines.insert(0, "  no wagers recorded")
        if call is None:
            lines.append('  "no more bets" never recorded')
        pai_gow = live_wagers(view, wagers.WagerKind.PAI_GOW)
        side = live_wagers(view, wagers.WagerKind.PAIR_FORTUNES)
        total = f"Pai Gow action {dollars(sum(pai_gow.values(), Decimal(0)))}"
        total += f" at {len(pai_gow)} position(s)"
        if side:
            total += f"; Pair Fortunes {dollars(sum(side.values(), Decimal(0)))}"
        return [*lines, total]

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

    def count_step(self) -> list[str]:
        view = self.view
        dealt_at = view.delivered[0][0] if view.delivered else len(view.events)
        lines: list[str] = []
        for index, event in enumerate(view.events):
            after = " (after the deal)" if index > dealt_at else ""
            match event:
                case play.ShakerShaken():
                    times = "time" if event.count == 1 else "times"
                    lines.append(f"shaken {event.count} {times} by the {event.shaken_by}{after}")
                case play.DiceRevealed():
                    lines.append(self._dice_line(event) + after)
                    self.facts[StepKind.COUNT].append(
                        Compared("dice", self._dice_line(event), at=event.occurred_at)
                    )
                case play.NoRollCalled():
                    lines.append(f"no roll called: {event.reason.replace('_', ' ')}")
                case play.RngNumberShown():
                    lines.append(f"RNG number shown: {event.number}{after}")
                    self.facts[StepKind.COUNT].append(
                        Compared("RNG number", str(event.number), at=event.occurred_at)
                    )
        counted = deal_count(self.view)
        if counted is None:
            return [*lines, "no dice or RNG number recorded: no count to follow"]
        total, source, _ = counted
        return lines + self._count_lines(total, source)

    def _dice_line(self, event: play.DiceRevealed) -> str:
        faces = " ".join(str(f) for f in event.faces)
        try:
            total = str(dice_total(event.faces))
        except RulesError:
            total = "?"
        said = "" if event.announced_total is None else f" (announced {event.announced_total})"
        flat = "all flat" if event.all_flat else "NOT all flat"
        inside = "all in the shaker" if event.all_in_shaker else "a die OUT of the shaker"
        return f"dice {faces} = {total}{said}, {flat}, {inside}"

    def _count_lines(self, total: int, source: NumberSource) -> list[str]:
        layout, bank = self.layout, self.banking.bank
        first = layout.dealer if bank is None else bank
        way = "clockwise" if layout.count_clockwise else "counterclockwise"
        try:
            lap = [starting_position(k, layout, first=bank, source="rng")
                   for k in range(1, HAND_COUNT + 1)]  # fmt: skip
            expected = starting_position(total, layout, first=bank, source=source)
        except RulesError as error:
            return [f"the rules cannot count {total} ({error})"]
        shown = range(1, total + 1) if total <= 3 * HAND_COUNT else range(1, HAND_COUNT + 1)
        words = [f"{short_name(layout, lap[(k - 1) % HAND_COUNT])}({k})" for k in shown]
        if total > 3 * HAND_COUNT:
            words += ["...", f"{short_name(layout, expected)}({total})"]
        which = " (the last throw)" if source == "dice" and len(self.view.dice) > 1 else ""
        lines = [f"count {total}{which} from {self.name(first)} as 1, {way}:"]
        lines += _wrap("  ", words)
        first_stack = next((e for _, e in self.view.delivered if e.order == 0), None)
        lands = f"the count lands on {self.name(expected)}"
        if first_stack is None:
            lines.append(f"{lands}; no stack delivered")
        else:
            got = self.name(first_stack.position)
            same = first_stack.position == expected
            lines.append(f"{lands}; the first stack (order 0) went to {got}   [{mark(same)}]")
            self.facts[StepKind.COUNT].append(
                Compared(
                    f"count {total}: first stack to",
                    got,
                    self.name(expected),
                    same,
                    at=first_stack.occurred_at,
                )
            )
        if layout.button_on_dealer is not None and source == "dice":
            lines.append(f"action button: {self.name(action_button(total, layout))}")
        return lines

    # --- 4. Stacks and the deal --------------------------------------------------------------

    def deal_step(self) -> list[str]:
        view = self.view
        lines: list[str] = []
        for event in view.events:
            match event:
                case play.StackingTileExposed():
                    lines.append(f"tile exposed while stacking: {event.tile or 'not recorded'}")
                case play.TilesRemixed():
                    lines.append(f"tiles remixed: {event.reason}")
        formed = dealt_stacks(self.view)
        times = sum(isinstance(e, play.StacksFormed) for e in view.events)
        if formed is None or formed.stacks is None:
            lines.append("stacks: not recorded by the table's device")
        else:
            if times > 1:
                lines.append(f"stacks formed {times} times; the last before the deal was dealt")
            lines += _stack_grid(formed.stacks)
        lines += self._cut_and_style()
        lines += self._deliveries(formed)
        lines += self._after_deal()
        return lines

    def _cut_and_style(self) -> list[str]:
        view, lines = self.view, []
        if view.cut is not None:
            try:
                cut = view.cut.cut()
                order = " ".join(str(i + 1) for i in cut.order)
                lines.append(f"cut: {cut!r}")
                lines.append(f"  form {cut.form}: the stacks as formed now run {order}")
            except RulesError as error:
                lines.append(f"cut recorded as start {view.cut.start}, stop {view.cut.stop}, "
                             f"to_right {view.cut.to_right}: not a cut ({error})")  # fmt: skip
        elif self.banking.bank is not None:
            lines.append("cut: none")
        if view.style is not None:
            style = view.style.style
            lines.append(f"delivery: {STYLE_NAMES[style]}, "
                         f"chosen by the {view.style.chosen_by}")  # fmt: skip
        else:
            style = self.ruleset.default_delivery_style
            lines.append(f"delivery: none recorded, so the standard {STYLE_NAMES[style]}")
        return lines

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

    def _deliveries(self, formed: play.StacksFormed | None) -> list[str]:
        view = self.view
        if not view.delivered:
            return ["no stack delivered"]
        groups, why = self._expected_groups(formed)
        first = next((e for _, e in view.delivered if e.order == 0), None)
        walk = deal_order(first.position, self.layout) if first is not None else None
        lines = [f"  {'order':<7}{'received by':<15}{'tiles':<22}expected by the style and stacks"]
        for _, event in view.delivered:
            got = f"  {event.order + 1:<7}{self.name(event.position):<15}{_tiles(event.tiles):<22}"
            label = f"stack {event.order + 1}"
            if groups is None:
                lines.append(got + f"cannot say: {why}")
                self.facts[StepKind.DEAL].append(
                    Compared(label, self.name(event.position), f"cannot say: {why}",
                             pieces=tuple(event.tiles), at=event.occurred_at)
                )  # fmt: skip
                continue
            where = walk[event.order] if walk is not None else event.position
            want = groups[event.order]
            same = set(event.tiles) == set(want) and where == event.position
            lines.append(got + f"{self.name(where):<15}{_tiles(want):<22}[{mark(same)}]")
            self.facts[StepKind.DEAL].append(
                Compared(label, self.name(event.position), self.name(where), same,
                         tuple(event.tiles), tuple(want), at=event.occurred_at)
            )  # fmt: skip
        return lines

    def _after_deal(self) -> list[str]:
        view, lines = self.view, []
        unwagered = unwagered_positions(
            self.layout,
            [p for p in self.banking.wagered if p in self.layout.betting],
            dealer_plays=self.banking.dealer_plays,
        )
        names = ", ".join(self.name(p) for p in unwagered) or "none"
        if view.collected is not None:
            got = ", ".join(self.name(p) for p in view.collected.positions) or "none"
            same = set(view.collected.positions) >= set(unwagered)
            lines.append(f"stacks collected unseen: {got}")
            lines.append(f"  positions without a wager: {names}   [{mark(same)}]")
        elif view.delivered:
            lines.append(f"no stacks collected; positions without a wager: {names}")
        for _, exposed in view.exposed:
            tile = exposed.tile or "tile not recorded"
            lines.append(f"tile exposed at {self.name(exposed.position)}: {tile}")
        for voided in view.player_voids:
            lines.append(f"{self.name(voided.position)} voided the hand after an exposed tile")
        return lines

    # --- 5. Hands as set ---------------------------------------------------------------------

    def hands_step(self) -> list[str]:
        view = self.view
        if not view.hands:
            return ["no hand set"]
        dealt = view.delivered_to()
        sets: dict[int, list[play.HandSet]] = {}
        for event in view.events:
            if isinstance(event, play.HandSet):
                sets.setdefault(event.position, []).append(event)
        house_set = self._house_set_positions()
        lines: list[str] = []
        for position in sorted(view.hands):
            hand = view.hands[position]
            label = self.name(position)
            by = hand.set_by.replace("_", " ")
            lines.append(f"  {label:<14}high  {_tiles(hand.high):<11}{_hand_name(hand.high):<26}"
                         f"set by the {by}")  # fmt: skip
            lines.append(f"  {'':<14}low   {_tiles(hand.low):<11}{_hand_name(hand.low)}")
            notes = self._hand_notes(hand, dealt.get(position), sets[position])
            if position in house_set:
                notes += self._house_way_lines(hand, dealer=position == self.layout.dealer)
            elif position == self.layout.dealer and self.banking.mode is BankingMode.CALIFORNIA:
                notes += self._free_setting(hand)
            lines += [f"  {'':<14}{note}" for note in notes]
            self.facts[StepKind.HANDS].append(
                self._hand_fact(hand, house_set=position in house_set)
            )
        for index, surrendered in view.surrenders:
            revealed = view.reveals.get(surrendered.position)
            when = "before" if revealed is None or revealed > index else "AFTER"
            lines.append(f"  {self.name(surrendered.position)} surrendered, "
                         f"{when} its hands were revealed")  # fmt: skip
        return lines

    def _hand_fact(self, hand: play.HandSet, *, house_set: bool) -> Compared:
        """Return a hand as set (high then low tiles) beside the house way, where it binds.

        The house way binds the dealer's hand and a co-bank's (PA 621a.9(e)); a player
        sets freely, so a player's hand has nothing expected beside it.
        """
        label = self.name(hand.position)
        shown = f"high {_tiles(hand.high)} ({_hand_name(hand.high)}), " \
            f"low {_tiles(hand.low)} ({_hand_name(hand.low)})"  # fmt: skip
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

    def _hand_notes(
        self, hand: play.HandSet, delivered: list[str] | None, history: list[play.HandSet]
    ) -> list[str]:
        notes: list[str] = []
        setting = hand_setting(hand)
        if setting is not None and not is_ordered(setting, self.ruleset.ranking):
            notes.append("the high hand ranks BELOW the low hand")
        tiles = [*hand.high, *hand.low]
        if delivered is not None and Counter(tiles) != Counter(delivered):
            notes.append(f"NOT the tiles delivered: {_tiles(delivered)}")
        elif delivered is None and self.view.delivered:
            notes.append("no stack was delivered to this position")
        for earlier in history[:-1]:
            notes.append(f"reset: first set {_tiles(earlier.high)} / {_tiles(earlier.low)}")
        return notes

    def _house_way_lines(self, hand: play.HandSet, *, dealer: bool) -> list[str]:
        ruleset = self.ruleset
        setting = hand_setting(hand)
        if setting is None:
            return ["house way: cannot say (the tiles are not four different tiles)"]
        way = ruleset.house_way
        try:
            expected = way.setting(setting.tiles, ruleset.ranking)
        except RulesError:
            return ["house way: cannot say"]
        same = same_setting(setting, expected, ruleset.ranking)
        lines = [f"house way ({way.name}): {expected}   [{mark(same)}]"]
        if not dealer or not ruleset.regulatory_dealer_rule:
            return lines
        try:
            permitted = permitted_settings(setting.tiles, ruleset.ranking)
            clause = rule_clause(setting.tiles, ruleset.ranking)
        except RulesError:
            return lines
        cited = ruleset.citations.get("dealer-setting", "dealer rule") + CLAUSES[clause]
        if setting in permitted:
            return [*lines, f"dealer rule {cited}: permits this setting   [{OK}]"]
        lines.append(f"dealer rule {cited}: does NOT permit this setting   [{MISMATCH}]")
        allowed = sorted(str(s) for s in permitted)
        return lines + _wrap("  it permits ", [f"{s} or" for s in allowed[:-1]] + allowed[-1:], 80)

    def _free_setting(self, hand: play.HandSet) -> list[str]:
        setting = hand_setting(hand)
        way = self.ruleset.house_way
        try:
            expected = way.setting(setting.tiles, self.ruleset.ranking) if setting else None
        except RulesError:
            expected = None
        lines = ["the player-dealer sets freely (no dealer rule binds it)"]
        if expected is not None:
            lines.append(f"for reference, the house way ({way.name}): {expected}")
        return lines

    # --- 6. Settlement -----------------------------------------------------------------------

    def settlement_step(self) -> list[str]:
        view = self.view
        facts = read_settlement(view, self.ruleset)
        expected = expect_settlement(view, self.ruleset, facts)
        rows: list[str] = []
        assumed = False
        for _, event in view.settled:
            if event.kind is wagers.WagerKind.PAIR_FORTUNES:
                rows += self._side_rows(event, facts)
                continue
            name = self.name(event.position)
            if facts.settled.get(event.position) is not event:
                rows += _row(name, None, _recorded(event))
                rows.append(f"    (no Pai Gow wager left to settle at {name})   [{MISMATCH}]")
                continue
            rows += _row(name, facts.stakes[event.position], _recorded(event))
            found = expected.lines.get(event.position)
            if found is None:
                rows.append("    expected: cannot be derived from the record")
                self._settled_fact(name, facts.stakes[event.position], event, None)
                continue
            line, known = found
            want = _expected_row(line)
            assumed |= not known
            label = "  expected" + ("" if known else "*")
            rows += _row(label, None, want, same=want == _recorded(event))
            self._settled_fact(name, facts.stakes[event.position], event, want)
        unsettled = [
            (self.name(p), facts.stakes[p]) for p in facts.stakes if p not in facts.settled
        ]
        unsettled += [(f"{self.name(p)} PF", facts.side[p]) for p in facts.side
                      if p not in facts.side_settled]  # fmt: skip
        for label, stake in sorted(unsettled):
            rows.append(f"  {label:<16}{dollars(stake):>10}  not settled   [{MISMATCH}]")
        lines = [_ROW_HEADER, *rows] if rows else ["no wager settled"]
        if assumed:
            lines.append("* the hands cannot decide this wager: its recorded outcome is assumed")
        if facts.side_settled or facts.stray_side:
            lines.append("PF: the Pair Fortunes wager, paid by the table's paytable")
        lines += self._order_line(facts.settled_order)
        if facts.mode is BankingMode.CALIFORNIA:
            return lines + self._california(facts, expected)
        return lines + self._bank_flows(facts.mode, expected)

    def _side_rows(self, event: settlement.WagerSettled, facts: SettlementFacts) -> list[str]:
        label = f"{self.name(event.position)} PF"
        if facts.side_settled.get(event.position) is not event:
            rows = _row(label, None, _recorded(event))
            return [*rows, f"    (no Pair Fortunes wager left to settle)   [{MISMATCH}]"]
        amount = facts.side[event.position]
        rows = _row(label, amount, _recorded(event))
        want = self._pair_fortunes(event.position, amount)
        self._settled_fact(label, amount, event, want)
        if want is None:
            return [*rows, "    expected: cannot be derived (no paytable, or the tiles unknown)"]
        return rows + _row("  expected", None, want, same=want == _recorded(event))

    def _settled_fact(
        self, label: str, stake: Cents, event: settlement.WagerSettled, want: _Money | None
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

    def _flow_fact(self, what: str, event: Event | None, pairs: dict[str, _Pair]) -> None:
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

    def _pair_fortunes(self, position: int, amount: Cents) -> _Money | None:
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

    def _order_line(self, recorded: list[int]) -> list[str]:
        """Say in which order the wagers were settled, beside the order the rules give."""
        if not recorded:
            return []
        layout = self.layout
        try:
            if layout.button_on_dealer is None:
                ring = settlement_order(layout)
                how = "from the dealer's right"
            else:
                button = action_button_at(self.view, self.ruleset)
                if button is None:
                    return ["settlement order: no valid throw, so no action button to start from"]
                ring = settlement_order(layout, button)
                how = f"clockwise from the button at {self.name(button)}"
        except RulesError:
            return []
        # PA 621a.8(e): a surrendered wager is collected at once, outside the order.
        surrendered = {s.position for _, s in self.view.surrenders}
        played = [p for p in recorded if p not in surrendered]
        got = " ".join(short_name(layout, p) for p in played)
        rule = " ".join(short_name(layout, p) for p in ring if p in played)
        lines = [f"settlement order: {got}"]
        if surrendered:
            lines[0] += " (surrendered wagers were collected at once)"
        return [*lines, f"  by the rules:   {rule} ({how})   [{mark(got == rule)}]"]

    def _bank_flows(self, mode: BankingMode, expected: ExpectedSettlement) -> list[str]:
        view, settled = self.view, expected.settlement
        lines: list[str] = []
        got, want = view.dealer_wager_settled, expected.dealer_wager
        if got is not None or want is not None:
            shown = f"{got.outcome} {dollars(got.amount)}" if got is not None else "not settled"
            line = f"dealer's wager against the bank: recorded {shown}"
            if want is not None:
                owed = f"{want.outcome.value} {dollars(abs(want.result))}"
                line += f"; expected {owed}   [{mark(shown == owed)}]"
            lines.append(line)

        def pair(event: Event | None, name: str, engine: str) -> _Pair:
            return _amount(event, name), getattr(settled, engine) if settled else None

        flows: list[tuple[str, Event | None, dict[str, _Pair]]] = []
        if mode is BankingMode.PLAYER_BANK:  # PA 621a.9(o)
            flows.append(("bank shortfall", view.shortfall, {
                "paid in by the bank": pair(view.shortfall, "amount", "shortfall_from_bank"),
            }))  # fmt: skip
            flows.append(("bank surplus", view.surplus, {
                "surplus": pair(view.surplus, "surplus", "surplus"),
                "vigorish": pair(view.surplus, "vigorish", "surplus_vigorish"),
                "to the bank": pair(view.surplus, "paid_to_bank", "surplus_to_bank"),
            }))  # fmt: skip
        elif mode is BankingMode.CO_BANK:  # PA 621a.9(r)
            split = view.co_bank_split
            flows.append(("co-bank split", split, {
                "co-bank pays in": pair(split, "shortfall_from_co_bank", "shortfall_from_bank"),
                "house pays in": pair(split, "shortfall_from_house", "shortfall_from_house"),
                "surplus to house": pair(split, "surplus_to_house", "surplus_to_house"),
                "vigorish": pair(split, "surplus_vigorish", "surplus_vigorish"),
                "to the co-bank": pair(split, "surplus_to_co_bank", "surplus_to_bank"),
            }))  # fmt: skip
        for what, event, pairs in flows:
            lines += _flow_lines(what, pairs)
            self._flow_fact(what, event, pairs)
        if settled is not None:
            nets = [f"{self._party(p)} {_signed(c)}" for p, c in settled.nets().items()]
            lines += _wrap("expected nets: ", [n + "," for n in nets[:-1]] + nets[-1:])
            self.facts[StepKind.SETTLEMENT].append(
                Compared("nets", "each party's net, as the engine settles the round", amounts=tuple(
                    Amount(str(self._party(p)), None, c) for p, c in settled.nets().items()
                ))
            )  # fmt: skip
        else:
            lines.append("expected nets: cannot be derived (a wager could not be settled)")
        return lines

    def _party(self, party: int | str) -> str:
        return short_name(self.layout, party) if isinstance(party, int) else party

    def _california(self, facts: SettlementFacts, expected: ExpectedSettlement) -> list[str]:
        view, lines = self.view, []
        if facts.player_dealer > 0 and expected.lines:
            result = sum(line.collected - line.paid for line, _ in expected.lines.values())
            lines.append(f"player-dealer: wager {dollars(facts.player_dealer)}, expected result "
                         f"{_signed(result)} (action up to its wager)")  # fmt: skip
        schedule = self.ruleset.collection_schedule
        if schedule is None:
            return lines
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
        lines.append(f"collection fees (schedule option {schedule.option}):")
        for position in sorted(set(want) | set(got)):
            taken, owed = got.get(position, 0), want.get(position, 0)
            lines.append(f"  {self.name(position):<16}recorded {dollars(taken):>8}   "
                         f"expected {dollars(owed):>8}   [{mark(taken == owed)}]")  # fmt: skip
            self.facts[StepKind.SETTLEMENT].append(
                Compared(f"{self.name(position)} collection fee", dollars(taken), dollars(owed),
                         taken == owed, amounts=(Amount("fee", taken, owed),))
            )  # fmt: skip
        options = sorted({fee.schedule_option for fee in view.fees} - {schedule.option})
        if options:
            lines.append(f"  fees recorded under schedule option(s) {options}   [{MISMATCH}]")
        return lines


_Money = tuple[str, Cents, Cents, Cents, Cents]
"""A settlement as (outcome, paid, collected, vigorish, returned), in cents."""
_Pair = tuple[Cents | None, Cents | None]
"""One bank flow's sum: (recorded, expected), in cents; ``None`` where there is none."""

_ROW_HEADER = (
    f"  {'':<16}{'wager':>10}  {'outcome':<12}{'paid':>10}{'collected':>11}"
    f"{'vigorish':>10}{'returned':>10}"
)


def _row(label: str, stake: Cents | None, money: _Money, same: bool | None = None) -> list[str]:
    """Return one settlement row under :data:`_ROW_HEADER`, marked when ``same`` is given."""
    outcome, paid, collected, vig, returned = money
    amount = dollars(stake) if stake is not None else ""
    shown = "" if same is None else f"   [{mark(same)}]"
    return [f"  {label:<16}{amount:>10}  {outcome:<12}{_money(paid):>10}{_money(collected):>11}"
            f"{_money(vig):>10}{_money(returned):>10}{shown}"]  # fmt: skip


def _stack_grid(stacks: Sequence[Sequence[str]]) -> list[str]:
    """Return the stacks as the dealer sees them: stack 1 on the dealer's right, top row first."""
    lines = ["stacks as formed (stack 1 on the dealer's right; each top to bottom):"]
    lines.append("  " + " " * 8 + "".join(f"{i + 1:>6}" for i in range(len(stacks))))
    height = max((len(s) for s in stacks), default=0)
    for layer in range(height):
        label = "top" if layer == 0 else "bottom" if layer == height - 1 else ""
        row = "".join(f"{s[layer] if layer < len(s) else '':>6}" for s in stacks)
        lines.append(f"  {label:<8}{row}")
    return lines


def _recorded(event: settlement.WagerSettled) -> _Money:
    """Return a recorded settlement in cents."""
    return (
        event.outcome,
        to_cents(event.paid),
        to_cents(event.collected),
        to_cents(event.vigorish),
        to_cents(event.returned),
    )


def _expected_row(line: SettlementLine) -> _Money:
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


def _flow_lines(what: str, pairs: dict[str, _Pair]) -> list[str]:
    """Return one bank flow, recorded beside expected; nothing when neither moved money."""
    if all(not got and not want for got, want in pairs.values()):
        return []
    lines = [f"{what}:"]
    if all(got is None for got, _ in pairs.values()):
        lines.append("  recorded  nothing")
    else:
        lines += _wrap(
            "  recorded  ", _listed((name, got or 0) for name, (got, _) in pairs.items())
        )
    if any(want is None for _, want in pairs.values()):
        return [*lines, "  expected  cannot be derived"]
    same = all((got or 0) == want for got, want in pairs.values())
    owed = _listed((name, want or 0) for name, (_, want) in pairs.items())
    owed[-1] += f"   [{mark(same)}]"
    return lines + _wrap("  expected  ", owed)


def _listed(amounts: Iterable[tuple[str, Cents]]) -> list[str]:
    """Return ``name $x.xx`` items as words for :func:`_wrap`, each but the last with a comma."""
    words = [f"{name} {dollars(amount)}," for name, amount in amounts]
    return [*words[:-1], words[-1].rstrip(",")] if words else []
