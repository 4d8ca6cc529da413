"""Dice and equipment statistics: screens over windows of play, and how long equipment stays in.

No single round shows dice that do not roll like dice, or a dealer whose first stacks
land too often on one seat. These screens count what many rounds show and test it:

- **Dice totals** (3 to 18) against the fair 3d6 distribution, per **dice set** (the dice
  the table's shaker holds: ``dice_placed_in_shaker`` names them, PA 621a.2(d)(1); the
  events name no shaker apart from its table, so a table's shaker is known by the dice
  in it), per **table** and gaming day, and per **dealer** and gaming day. Every throw
  read with all three dice flat in the shaker counts (PA 621a.6(a)(2), 621a.10(a)-(b)),
  a no roll's throw does not: its faces are not a throw of the game.
- **Starting positions** per dealer and gaming day: the position that took the first
  stack (``stack_delivered`` order 0) against what the count makes of fair dice from
  that round's first position (the dealer, or the bank when a player banks: PA 621a.6(c),
  621a.9(j)). Fair dice do not make the positions uniform (a count of 9 or 17 goes to
  the dealer: 28/216, a count of 6 or 14 to the fifth: 25/216), so each round adds its own
  expected distribution, which stays right when the bank moves. A count from a random
  number generator (621a.6(a)(1)) is taken as uniform over the eight steps of the count:
  the rules set no range for it.
- **21 Baccarat shoe results**, per shoe (one ``shoe_loaded`` to the next, or the table's
  close): the rounds won by the Player's Hand, by the Banker's Hand and tied, against the
  engine's own chances for the table's decks and drawing rule
  (audit/games/baccarat21/probabilities.py). A voided round is not a result.

Each window is tested once, when it closes: a dice set when new dice replace it or its
table closes, a table's day at ``table_closed``, a shoe at the next load or the close, and
a dealer's day once every table the dealer dealt at that day has closed (a dealer who
deals again the same day after that starts a new window). The test is Pearson's
chi-squared with sparse cells pooled (audit/verification/chi_squared.py), so a window
of 30 throws is judged on the few cells it can fill and a window of 3 throws not at all.

A window whose p-value is below ``1 - confidence`` is an alarm: a finding of warning
severity (``STAT-DICE-TOTALS``, ``STAT-START-POSITION``, ``STAT-B21-SHOE``) with the
counts as evidence, a prompt to look at the equipment and the game, never proof. The
default :data:`SCREEN_CONFIDENCE` is 99.99%: a clean floor of 40 Pai Gow tables of 1,000
rounds tests about 605 windows, so about 0.06 alarms a floor are expected by chance
(docs/equipment-statistics.md has the measured rates).

**Tenure** is how long each tile set, dice set and 21 Baccarat shoe stayed in play, in
rounds and minutes: from the opening's first set (or a ``tile_set_replaced``), the
``dice_placed_in_shaker``, the ``shoe_loaded``, to the next one or the table's close. It is
reported, not judged here: the 12- and 24-hour limits have their own checks.

The state is what the open windows have counted so far and each table's equipment in
play: flat in the length of the history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from audit.events.envelope import Event
from audit.findings.finding import Finding, FindingKind, Severity
from audit.games.baccarat21.cards import parse_card
from audit.games.baccarat21.hands import hand_total
from audit.games.baccarat21.options import rule_set_for as b21_rule_set_for
from audit.games.baccarat21.outcome import Winner, winner
from audit.games.baccarat21.probabilities import lookup as b21_lookup
from audit.games.baccarat21.rulesets import RuleSet as B21RuleSet
from audit.games.baccarat21.settlement import Bet
from audit.games.errors import RulesError
from audit.games.paigow.layout import HAND_COUNT, TableLayout, starting_position
from audit.games.paigow.options import rule_set_for
from audit.games.paigow.rulesets import RuleSet
from audit.verification.chi_squared import DICE_TOTALS, FAIR_3D6, GoodnessOfFit, goodness_of_fit

SCREEN_CONFIDENCE = 0.9999
"""A window alarms when its p-value is below 1 - this."""

SCREEN_KINDS: dict[str, FindingKind] = {
    kind.code: kind
    for kind in (
        FindingKind("STAT-DICE-TOTALS", Severity.WARNING,
                    "dice totals do not follow three fair dice", "statistical-screen",
                    injectable=True),
        FindingKind("STAT-START-POSITION", Severity.WARNING,
                    "a dealer's starting positions do not follow fair dice", "statistical-screen",
                    injectable=False),
        FindingKind("STAT-B21-SHOE", Severity.WARNING,
                    "a shoe's results do not follow the game's chances", "statistical-screen",
                    injectable=False),
    )
}  # fmt: skip
"""The screens' finding kinds: statistical alarms, each a prompt for review. A window of
play, not a round: no replay step shows them. The simulator loads dice (STAT-DICE-TOTALS)
but never skews a dealer's count alone or a shoe."""

SCREEN_CODES = {
    "dice-set": "STAT-DICE-TOTALS",
    "dice-table": "STAT-DICE-TOTALS",
    "dice-dealer": "STAT-DICE-TOTALS",
    "start-dealer": "STAT-START-POSITION",
    "b21-shoe": "STAT-B21-SHOE",
}
"""Each window's screen -> its finding code."""

_DICE_RULE = {
    "PA": "PA 621a.2(d), 621a.6(a)(2)",
    "NJ": "NJ 19:47-10.3(a)",
    "CA": "CA Pai Gow Tiles (player-dealer): the total of three dice",
}
"""What a fair throw rests on: a shaker that keeps the game's integrity and shakes the dice
into a random mixture (PA); dice meeting N.J.A.C. 19:46-1.15 (NJ)."""
_SHOE_RULE = "PA 681a.5(a)"
"""The cards shuffled into a single stack: a shoe whose results stray is looked at."""


def screen_rule(code: str, jurisdiction: str, citations: Mapping[str, str]) -> str:
    """Return the rule a screen's windows rest on at a table of these rules (its finding adds
    "(statistical screen)"): fair dice, fair dice counted to the start, a shuffled shoe."""
    if code == "STAT-B21-SHOE":
        return _SHOE_RULE
    if code == "STAT-START-POSITION":
        return citations["starting-position"]
    return _DICE_RULE.get(jurisdiction, "")


B21_RESULTS = ("player", "banker", "tie")


@dataclass
class Window:
    """One screen's counts over one window of play, and each cell's expected count."""

    screen: str
    """``dice-set``, ``dice-table``, ``dice-dealer``, ``start-dealer`` or ``b21-shoe``."""
    subject: str
    """What was screened: a dice set, a table, a dealer, a shoe (``B21-03 shoe 4``)."""
    table_id: str
    dealer_id: str | None
    gaming_day: str | None
    rule: str
    labels: tuple[str, ...]
    counts: list[int]
    expected: list[float]
    first_event: str = ""
    last_event: str = ""
    opened_at: str | None = None
    closed_at: str | None = None

    def add(self, cell: int, chances: Sequence[float], event: Event) -> None:
        """Count one observation in ``cell`` with each cell's chance for it."""
        self.counts[cell] += 1
        expected = self.expected
        for i, chance in enumerate(chances):
            expected[i] += chance
        if not self.first_event:
            self.first_event = str(event.event_id)
            self.opened_at = event.occurred_at.isoformat()
        self.last_event = str(event.event_id)

    @property
    def n(self) -> int:
        """Return the observations counted."""
        return sum(self.counts)

    def test(self) -> GoodnessOfFit | None:
        """Return the pooled chi-squared test (None when too few to judge)."""
        n = self.n
        if not n:
            return None
        return goodness_of_fit(self.counts, [e / n for e in self.expected], self.labels)


@dataclass(frozen=True)
class WindowResult:
    """A closed window: its counts, its test, and whether it alarms at the screen's confidence."""

    window: Window
    fit: GoodnessOfFit | None
    confidence: float

    @property
    def alarm(self) -> bool:
        """Whether the counts stray further than chance allows at the confidence."""
        return self.fit is not None and self.fit.p_value < 1.0 - self.confidence


@dataclass(frozen=True)
class Tenure:
    """How long one tile set, dice set or shoe stayed in play at a table."""

    equipment: str
    """``tile set``, ``dice`` or ``shoe``."""
    table_id: str
    item: str
    gaming_day: str | None
    since: str
    until: str
    rounds: int
    minutes: float
    ended_by: str
    """The event that took it out of play: ``tile_set_replaced``, ``table_closed``, ..."""


@dataclass
class _InPlay:
    item: str
    since: datetime
    rounds: int = 0


@dataclass
class _Table:
    game: str = "paigow"
    ruleset: RuleSet | None = None
    b21: B21RuleSet | None = None
    gaming_day: str | None = None
    dealer_id: str | None = None
    tiles: _InPlay | None = None
    dice: _InPlay | None = None
    shoe: _InPlay | None = None
    shoes: int = 0


@dataclass
class _Round:
    dealer_id: str | None = None
    throws: list[tuple[int, Event]] = field(default_factory=list)
    rng: int | None = None
    bank: int | None = None
    first: int | None = None
    cards: dict[str, list[str]] = field(default_factory=lambda: {"player": [], "banker": []})
    voided: bool = False


_FAIR = tuple(float(chance) for chance in FAIR_3D6)
_START_CHANCES: dict[tuple[object, ...], tuple[float, ...]] = {}
"""Each position's chance of the first stack, by layout, first position and count source."""


def _start_chances(layout: TableLayout, first: int | None, source: str) -> tuple[float, ...]:
    """Return each position's chance of the first stack: fair dice, or an RNG count taken
    as uniform over the count's eight steps (PA 621a.6(a)(1) sets no range)."""
    key = (layout.ring, layout.dealer, layout.count_clockwise, first, source)
    found = _START_CHANCES.get(key)
    if found is None:
        chances = [Fraction(0)] * HAND_COUNT
        if source == "dice":
            for total, chance in zip(DICE_TOTALS, FAIR_3D6, strict=True):
                chances[starting_position(total, layout, first, "dice")] += chance
        else:
            for step in range(1, HAND_COUNT + 1):
                chances[starting_position(step, layout, first, "rng")] += Fraction(1, HAND_COUNT)
        found = _START_CHANCES[key] = tuple(float(chance) for chance in chances)
    return found


_READ = frozenset({
    "table_opened", "dealer_changed", "table_closed", "tile_set_received", "tile_set_replaced",
    "dice_placed_in_shaker", "shoe_loaded", "round_started", "dice_revealed", "rng_number_shown",
    "bank_accepted", "stack_delivered", "b21_card_dealt", "b21_round_voided", "round_voided",
    "round_completed",
})  # fmt: skip
"""The facts the screens read; every other passes straight through."""
_NOTHING: tuple[Sequence[WindowResult], Sequence[Tenure]] = ((), ())


def _dealt_positions() -> tuple[str, ...]:
    return tuple(str(p) for p in range(HAND_COUNT))


class EquipmentScreens:
    """Reads a floor's stream one fact at a time; returns the windows and tenures it closes."""

    def __init__(self, confidence: float = SCREEN_CONFIDENCE) -> None:
        self.confidence = confidence
        self.tables: dict[str, _Table] = {}
        self.rounds: dict[tuple[str, str], _Round] = {}
        self.windows: dict[tuple[str, ...], Window] = {}
        self.dealer_tables: dict[tuple[str, str], set[str]] = {}
        """(dealer, gaming day) -> the tables dealt at that day and still open."""

    def feed(self, event: Event) -> tuple[Sequence[WindowResult], Sequence[Tenure]]:
        """Take one fact; return the windows it closes, tested, and the tenures it ends."""
        kind = event.type  # type: ignore[attr-defined]
        if kind not in _READ:
            return _NOTHING  # most facts: wagers, tiles, settlements
        table_id = event.table_id
        table = self.tables.get(table_id)
        if table is None:
            table = self.tables[table_id] = _Table()
        if event.round_id is not None:
            self._round_fact(event, kind, table)
            return _NOTHING
        closed: list[Window] = []
        tenures: list[Tenure] = []
        if kind == "table_opened":
            closed += self._close_table(table_id, table, event, tenures)  # a day never closed
            table.game = event.game  # type: ignore[attr-defined]
            options = dict(event.options or {})  # type: ignore[attr-defined]
            if table.game == "baccarat21":
                table.b21 = b21_rule_set_for(event.rule_set, options)  # type: ignore[attr-defined]
            else:
                table.ruleset = rule_set_for(event.rule_set, options)  # type: ignore[attr-defined]
            table.gaming_day = event.gaming_day.isoformat()  # type: ignore[attr-defined]
            table.dealer_id = event.dealer_id  # type: ignore[attr-defined]
        elif kind == "dealer_changed":
            table.dealer_id = event.incoming_dealer_id  # type: ignore[attr-defined]
        elif kind == "tile_set_received":
            if table.tiles is None:
                table.tiles = _InPlay(event.tile_set_id, event.occurred_at)  # type: ignore[attr-defined]
        elif kind == "tile_set_replaced":
            tenures += self._end(table_id, table, "tiles", event)
            table.tiles = _InPlay(event.new_tile_set_id, event.occurred_at)  # type: ignore[attr-defined]
        elif kind == "dice_placed_in_shaker":
            tenures += self._end(table_id, table, "dice", event)
            if table.dice is not None:
                closed += self._pop(("dice-set", table_id, table.dice.item))
            table.dice = _InPlay(event.dice_set_id, event.occurred_at)  # type: ignore[attr-defined]
        elif kind == "shoe_loaded":
            tenures += self._end(table_id, table, "shoe", event)
            closed += self._pop(("b21-shoe", table_id))
            table.shoes += 1
            table.shoe = _InPlay(f"shoe {table.shoes}", event.occurred_at)
        elif kind == "table_closed":
            closed += self._close_table(table_id, table, event, tenures)
        for window in closed:
            window.closed_at = window.closed_at or event.occurred_at.isoformat()
        results = [WindowResult(w, w.test(), self.confidence) for w in closed if w.n]
        return results, tenures

    # --- rounds ---------------------------------------------------------------------------

    def _round_fact(self, event: Event, kind: str, table: _Table) -> None:
        key = (event.table_id, event.round_id or "")
        round_ = self.rounds.get(key)
        if round_ is None:
            round_ = self.rounds[key] = _Round(dealer_id=table.dealer_id)
        if kind == "round_started":
            round_.dealer_id = event.dealer_id  # type: ignore[attr-defined]
        elif kind == "dice_revealed":
            if event.all_flat and event.all_in_shaker:  # type: ignore[attr-defined]
                round_.throws.append((sum(event.faces), event))  # type: ignore[attr-defined]
        elif kind == "rng_number_shown":
            round_.rng = event.number  # type: ignore[attr-defined]
        elif kind == "bank_accepted":
            round_.bank = event.position  # type: ignore[attr-defined]
        elif kind == "stack_delivered" and event.order == 0:  # type: ignore[attr-defined]
            round_.first = event.position  # type: ignore[attr-defined]
        elif kind == "b21_card_dealt" and not event.bonus_only:  # type: ignore[attr-defined]
            round_.cards[event.hand.value].append(event.card)  # type: ignore[attr-defined]
        elif kind in ("b21_round_voided", "round_voided"):
            round_.voided = True
        elif kind == "round_completed":
            del self.rounds[key]
            self._complete(event, table, round_)

    def _complete(self, event: Event, table: _Table, round_: _Round) -> None:
        for equipment in (table.tiles, table.dice, table.shoe):
            if equipment is not None:
                equipment.rounds += 1
        if table.game == "baccarat21":
            self._shoe_result(event, table, round_)
            return
        table_id, day, dealer = event.table_id, table.gaming_day or "", round_.dealer_id
        rule = screen_rule(
            "STAT-DICE-TOTALS", table.ruleset.jurisdiction if table.ruleset else "PA", {}
        )
        for total, throw in round_.throws:
            cell = total - DICE_TOTALS[0]
            if table.dice is not None:
                subject = f"{table_id} {table.dice.item}"
                key = ("dice-set", table_id, table.dice.item)
                self._window(key, table_id, None, day, rule, subject).add(cell, _FAIR, throw)
            self._window(("dice-table", table_id), table_id, None, day, rule,
                         table_id).add(cell, _FAIR, throw)  # fmt: skip
            if dealer is not None:
                self._dealer_window("dice-dealer", dealer, table_id, day, rule).add(
                    cell, _FAIR, throw
                )
        self._start(event, table, round_)

    def _start(self, event: Event, table: _Table, round_: _Round) -> None:
        ruleset, dealer = table.ruleset, round_.dealer_id
        if ruleset is None or dealer is None or round_.first is None:
            return
        layout = ruleset.layout
        first = None
        if ruleset.collection_schedule is None and round_.bank in layout.betting:
            first = round_.bank  # PA 621a.9(j): the count begins at the bank
        source = "dice" if round_.throws else "rng" if round_.rng is not None else None
        if source is None:
            return
        try:
            chances = _start_chances(layout, first, source)
        except RulesError:
            return  # a count the rules cannot apply: the round's own checks report it
        if not 0 <= round_.first < HAND_COUNT:
            return
        rule = screen_rule("STAT-START-POSITION", ruleset.jurisdiction, ruleset.citations)
        day = table.gaming_day or ""
        self._dealer_window("start-dealer", dealer, event.table_id, day, rule).add(
            round_.first, chances, event
        )

    def _shoe_result(self, event: Event, table: _Table, round_: _Round) -> None:
        if round_.voided or table.shoe is None or table.b21 is None:
            return
        try:
            rates = b21_lookup(table.b21.decks, table.b21.draw_rule)
            player = hand_total(parse_card(c) for c in round_.cards["player"])
            banker = hand_total(parse_card(c) for c in round_.cards["banker"])
        except (KeyError, RulesError, ValueError):
            return  # no chances for the table's rules, or cards that make no hand
        if not round_.cards["player"] or not round_.cards["banker"]:
            return
        result = winner(player, banker)
        chances = (rates[Bet.PLAYER].win, rates[Bet.BANKER].win, rates[Bet.PLAYER].push)
        cell = {Winner.PLAYER: 0, Winner.BANKER: 1, Winner.TIE: 2}[result]
        table_id = event.table_id
        window = self._window(("b21-shoe", table_id), table_id, None, table.gaming_day or "",
                              screen_rule("STAT-B21-SHOE", "PA", {}),
                              f"{table_id} {table.shoe.item}", B21_RESULTS)  # fmt: skip
        window.add(cell, chances, event)

    # --- windows --------------------------------------------------------------------------

    def _window(
        self,
        key: tuple[str, ...],
        table_id: str,
        dealer: str | None,
        day: str,
        rule: str,
        subject: str,
        labels: tuple[str, ...] | None = None,
    ) -> Window:
        window = self.windows.get(key)
        if window is None:
            if labels is None:
                labels = (
                    tuple(str(t) for t in DICE_TOTALS)
                    if key[0].startswith("dice")
                    else _dealt_positions()
                )
            window = self.windows[key] = Window(
                key[0], subject, table_id, dealer, day, rule, labels,
                [0] * len(labels), [0.0] * len(labels),
            )  # fmt: skip
        return window

    def _dealer_window(
        self, screen: str, dealer: str, table_id: str, day: str, rule: str
    ) -> Window:
        self.dealer_tables.setdefault((dealer, day), set()).add(table_id)
        window = self._window((screen, dealer, day), table_id, dealer, day, rule, dealer)
        window.table_id = table_id  # the table it last counted at
        return window

    def _pop(self, key: tuple[str, ...]) -> list[Window]:
        window = self.windows.pop(key, None)
        return [] if window is None else [window]

    def _close_table(
        self, table_id: str, table: _Table, event: Event, tenures: list[Tenure]
    ) -> list[Window]:
        closed = self._pop(("dice-table", table_id)) + self._pop(("b21-shoe", table_id))
        for key in [k for k in self.rounds if k[0] == table_id]:
            del self.rounds[key]  # a round left open at the close: never a result
        if table.dice is not None:
            closed += self._pop(("dice-set", table_id, table.dice.item))
        for equipment in ("tiles", "dice", "shoe"):
            tenures += self._end(table_id, table, equipment, event)
            setattr(table, equipment, None)
        for (dealer, day), open_tables in list(self.dealer_tables.items()):
            open_tables.discard(table_id)
            if not open_tables:
                del self.dealer_tables[(dealer, day)]
                closed += self._pop(("dice-dealer", dealer, day))
                closed += self._pop(("start-dealer", dealer, day))
        return closed

    def _end(self, table_id: str, table: _Table, equipment: str, event: Event) -> list[Tenure]:
        in_play: _InPlay | None = getattr(table, equipment)
        if in_play is None:
            return []
        names = {"tiles": "tile set", "dice": "dice", "shoe": "shoe"}
        minutes = (event.occurred_at - in_play.since).total_seconds() / 60
        return [Tenure(names[equipment], table_id, in_play.item, table.gaming_day,
                       in_play.since.isoformat(), event.occurred_at.isoformat(),
                       in_play.rounds, round(minutes, 1), event.type_name())]  # fmt: skip


def screen_finding(result: WindowResult) -> Finding:
    """Return an alarming window as a finding, its counts and test as the evidence."""
    window, fit = result.window, result.fit
    if fit is None:
        raise ValueError(f"a window too small to test is no alarm: {window.subject!r}")
    kind = SCREEN_KINDS[SCREEN_CODES[window.screen]]
    cells = " ".join(f"{label}:{count}" for label, count in zip(window.labels, window.counts,
                                                                   strict=True))  # fmt: skip
    pooled = " ".join(f"{label}:{e:.1f}" for label, e in zip(fit.labels, fit.expected,
                                                             strict=True))  # fmt: skip
    scope = window.screen.split("-")[1]
    return Finding(
        code=kind.code,
        severity=kind.severity,
        rule=f"{window.rule} (statistical screen)",
        title=f"{kind.title} ({scope} {window.subject}, gaming day {window.gaming_day})",
        table_id=window.table_id,
        round_id=None,
        position=None,
        dealer_id=window.dealer_id,
        recorded=(
            f"{window.n} counted ({cells}); chi-squared {fit.statistic:.1f} on {fit.df} df, "
            f"p = {fit.p_value:.2g}"
        ),
        expected=(
            f"p of at least {1 - result.confidence:.2g}; expected counts, sparse cells pooled: "
            f"{pooled}"
        ),
        event_ids=(window.first_event, window.last_event),
        occurred_at=window.closed_at,
        gaming_day=window.gaming_day or None,
    )
