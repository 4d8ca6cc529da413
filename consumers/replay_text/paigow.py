"""A Pai Gow replay's steps as text: the round and who banks, the wagers, the dice and the
count, the stacks and the deal, the hands beside the house way, the settlement beside the
engine's, and the summary of findings.

Each step is drawn from its reading (audit/verification/paigow/replay_steps.py) and
the replay's position names. Lines fit ``tablewatch replay``'s columns once indented.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from audit.events.paigow import play, wagers
from audit.games.money import Cents
from audit.games.paigow.delivery import STYLE_NAMES
from audit.games.paigow.layout import HAND_COUNT
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow import replay_steps as steps
from audit.verification.paigow import short_name
from audit.verification.replay_model import RoundReplay, Step, dollars
from consumers.replay_text.marks import MISMATCH, OK, mark


def step_lines(replay: RoundReplay, step: Step) -> tuple[str, ...]:
    """Return one step of a Pai Gow replay as lines of text."""
    draw = _Draw(replay.position_names)
    match step.reading:
        case steps.Heading() as heading:
            return tuple(draw.heading(heading))
        case steps.Wagers() as placed:
            return tuple(draw.wagers(placed))
        case steps.Dice() as dice:
            return tuple(draw.dice(dice))
        case steps.Deal() as deal:
            return tuple(draw.deal(deal))
        case steps.Hands() as hands:
            return tuple(draw.hands(hands))
        case steps.Settlement() as settled:
            return tuple(draw.settlement(settled))
        case steps.Summary() as summary:
            return tuple(_summary(summary))
    return ()


# --- Formatting --------------------------------------------------------------------------------


def _money(amount: Decimal | Cents) -> str:
    """Return a table cell: ``-`` for nothing, else dollars."""
    return "-" if amount == 0 else dollars(amount)


def _signed(cents: Cents) -> str:
    return ("+" if cents > 0 else "") + dollars(cents)


def _tiles(names: Iterable[str]) -> str:
    return " ".join(names)


def _wrap(prefix: str, words: Sequence[str], width: int = 96) -> list[str]:
    """Return ``words`` joined by spaces over as many lines as fit ``width``, each indented.

    >>> _wrap("  ", ["one", "two", "three"], width=10)
    ['  one two', '  three']
    """
    lines: list[str] = []
    current = prefix
    for word in words:
        if len(current) + len(word) + 1 > width and current.strip():
            lines.append(current.rstrip())
            current = " " * len(prefix)
        current += word + " "
    lines.append(current.rstrip())
    return lines


def _listed(amounts: Iterable[tuple[str, Cents]]) -> list[str]:
    """Return ``name $x.xx`` items as words for :func:`_wrap`, each but the last with a comma."""
    words = [f"{name} {dollars(amount)}," for name, amount in amounts]
    return [*words[:-1], words[-1].rstrip(",")] if words else []


def _summary(summary: steps.Summary) -> list[str]:
    if not summary.counts:
        return ["no findings in this round"]
    shares = ", ".join(f"{count} {severity}" for severity, count in summary.counts)
    total = sum(count for _, count in summary.counts)
    lines = [f"{total} finding(s) in this round ({shares})"]
    if not summary.others:
        lines.append("each is shown under the step it concerns; none other")
    return lines


_ROW_HEADER = (
    f"  {'':<16}{'wager':>10}  {'outcome':<12}{'paid':>10}{'collected':>11}"
    f"{'vigorish':>10}{'returned':>10}"
)


def _row(
    label: str, stake: Cents | None, money: steps.Money, same: bool | None = None
) -> list[str]:
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


def _flow_lines(what: str, pairs: dict[str, steps.Pair]) -> list[str]:
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


# --- Drawing each step -------------------------------------------------------------------------


class _Draw:
    """Draws the steps of one replay, naming positions as its layout does."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names

    def name(self, position: int) -> str:
        names = self.names
        return names[position] if 0 <= position < len(names) else f"position {position}"

    def short(self, position: int) -> str:
        return short_name(self.names, position)

    # --- 1. The round ------------------------------------------------------------------------

    def heading(self, heading: steps.Heading) -> list[str]:
        day = heading.gaming_day.isoformat() if heading.gaming_day else "unknown (no table_opened)"
        lines = [f"table {heading.table_id}; gaming day {day}"]
        lines.append(f"rule set {heading.rule_set}: {heading.rule_title}")
        number = (
            f"round {heading.round_number}"
            if heading.round_number is not None
            else "round (no round_started)"
        )
        dealer = heading.dealer_id or "not recorded"
        when = heading.started_at.strftime("%Y-%m-%d %H:%M:%S UTC")
        lines.append(f"{number}, id {heading.round_id}; dealer {dealer}; from {when}")
        vig = heading.vig_rounding or "none (collection fees)"
        lines.append(f"rules: house way {heading.house_way}; vigorish rounding {vig}")
        if heading.options:
            shown = ", ".join(f"{k}={v}" for k, v in heading.options)
            lines.append(f"table options: {shown}")
        lines += self._bank(heading.bank)
        if heading.offers:
            offers = [f"{self.name(p)} ({answer})" for p, answer in heading.offers]
            lines += _wrap("bank offered to ", [o + "," for o in offers[:-1]] + offers[-1:])
        if heading.tile_set_id:
            lines.append(f"tile set {heading.tile_set_id}")
        if heading.voided is not None:
            detail = f" ({heading.voided.detail})" if heading.voided.detail else ""
            lines.append(f"ROUND VOIDED: {heading.voided.reason}{detail}")
        if not heading.completed:
            lines.append("the round was never completed (no round_completed)")
        return lines

    def _bank(self, bank: steps.Bank) -> list[str]:
        if bank.mode is BankingMode.CALIFORNIA:
            if not bank.stake_recorded:
                return ["banking: California table, no player-dealer wager recorded"]
            who = bank.player_id or "unnamed player"
            took = (
                f", took the bank at {self.name(bank.position)}"
                if bank.position is not None
                else ""
            )
            return [f"banking: California player-dealer {who}{took}",
                    f"the player-dealer takes action on wagers, in settlement order, "
                    f"up to its wager of {dollars(bank.covers)}"]  # fmt: skip
        if bank.mode is BankingMode.DEALER:
            return ["banking: the dealer banks for the house"]
        assert bank.position is not None  # a player bank or co-bank was taken
        who = bank.player_id or "unnamed player"
        chips = f", {dollars(bank.chips)} on the table" if bank.chips else ""
        where = self.name(bank.position)
        if bank.mode is BankingMode.CO_BANK:
            line = f"banking: co-bank at {where} ({who}{chips}), 50/50 with the house"
        else:
            line = f"banking: player bank at {where} ({who}{chips})"
        if bank.dealer_wager is not None:
            return [line, f"the dealer wagers {dollars(bank.dealer_wager)} against the bank"]
        return [line, "no dealer wager against the bank"]

    # --- 2. Wagers ---------------------------------------------------------------------------

    def wagers(self, placed: steps.Wagers) -> list[str]:
        lines: list[str] = []
        for event, after in placed.events:
            late = '   AFTER "no more bets"' if after else ""
            match event:
                case wagers.WagerPlaced():
                    kind = "Pai Gow" if event.kind is wagers.WagerKind.PAI_GOW else "Pair Fortunes"
                    who = event.player_id or "player not recorded"
                    lines.append(f"  {self.name(event.position):<14}{kind:<22}"
                                 f"{dollars(event.amount):>12}   {who}{late}")  # fmt: skip
                case wagers.WagerWithdrawn():
                    kind = "Pai Gow" if event.kind is wagers.WagerKind.PAI_GOW else "Pair Fortunes"
                    lines.append(f"  {self.name(event.position):<14}{'withdrew ' + kind:<22}"
                                 f"{dollars(event.amount):>12}{late}")  # fmt: skip
                case wagers.DealerWagerAgainstBank():
                    lines.append(f"  {'Dealer':<14}{'against the bank':<22}"
                                 f"{dollars(event.amount):>12}{late}")  # fmt: skip
                case play.NoMoreBets():
                    lines.append('  "no more bets"' + ("   (again)" if after else ""))
        if not placed.placed:
            lines.insert(0, "  no wagers recorded")
        if not placed.called:
            lines.append('  "no more bets" never recorded')
        total = f"Pai Gow action {dollars(placed.pai_gow)} at {placed.positions} position(s)"
        if placed.pair_fortunes is not None:
            total += f"; Pair Fortunes {dollars(placed.pair_fortunes)}"
        return [*lines, total]

    # --- 3. Dice and the count ---------------------------------------------------------------

    def dice(self, dice: steps.Dice) -> list[str]:
        lines: list[str] = []
        for throw in dice.throws:
            after = " (after the deal)" if throw.after else ""
            match throw.event:
                case play.ShakerShaken() as shaken:
                    times = "time" if shaken.count == 1 else "times"
                    lines.append(f"shaken {shaken.count} {times} by the {shaken.shaken_by}{after}")
                case play.DiceRevealed():
                    lines.append(throw.said + after)
                case play.NoRollCalled() as no_roll:
                    lines.append(f"no roll called: {no_roll.reason.replace('_', ' ')}")
                case play.RngNumberShown() as shown:
                    lines.append(f"RNG number shown: {shown.number}{after}")
        if dice.count is None:
            return [*lines, "no dice or RNG number recorded: no count to follow"]
        return lines + self._count(dice.count)

    def _count(self, count: steps.Count) -> list[str]:
        total = count.total
        if count.error is not None or count.lands is None:
            return [f"the rules cannot count {total} ({count.error})"]
        way = "clockwise" if count.clockwise else "counterclockwise"
        lap = count.lap
        shown = range(1, total + 1) if total <= 3 * HAND_COUNT else range(1, HAND_COUNT + 1)
        words = [f"{self.short(lap[(k - 1) % HAND_COUNT])}({k})" for k in shown]
        if total > 3 * HAND_COUNT:
            words += ["...", f"{self.short(count.lands)}({total})"]
        which = " (the last throw)" if count.last_throw else ""
        lines = [f"count {total}{which} from {self.name(count.first)} as 1, {way}:"]
        lines += _wrap("  ", words)
        lands = f"the count lands on {self.name(count.lands)}"
        if count.first_stack is None:
            lines.append(f"{lands}; no stack delivered")
        else:
            got = self.name(count.first_stack)
            same = count.first_stack == count.lands
            lines.append(f"{lands}; the first stack (order 0) went to {got}   [{mark(same)}]")
        if count.button is not None:
            lines.append(f"action button: {self.name(count.button)}")
        return lines

    # --- 4. Stacks and the deal --------------------------------------------------------------

    def deal(self, deal: steps.Deal) -> list[str]:
        lines: list[str] = []
        for event in deal.incidents:
            match event:
                case play.StackingTileExposed():
                    lines.append(f"tile exposed while stacking: {event.tile or 'not recorded'}")
                case play.TilesRemixed():
                    lines.append(f"tiles remixed: {event.reason}")
        if deal.stacks is None:
            lines.append("stacks: not recorded by the table's device")
        else:
            if deal.times_formed > 1:
                lines.append(
                    f"stacks formed {deal.times_formed} times; the last before the deal was dealt"
                )
            lines += _stack_grid(deal.stacks)
        lines += self._cut_and_style(deal)
        lines += self._deliveries(deal)
        lines += self._after_deal(deal)
        return lines

    def _cut_and_style(self, deal: steps.Deal) -> list[str]:
        lines = []
        if deal.cut is not None:
            if deal.parsed_cut is not None:
                cut = deal.parsed_cut
                order = " ".join(str(i + 1) for i in cut.order)
                lines.append(f"cut: {cut!r}")
                lines.append(f"  form {cut.form}: the stacks as formed now run {order}")
            else:
                cut_at = f"start {deal.cut.start}, stop {deal.cut.stop}"
                lines.append(f"cut recorded as {cut_at}, to_right {deal.cut.to_right}: "
                             f"not a cut ({deal.cut_error})")  # fmt: skip
        elif deal.bank_taken:
            lines.append("cut: none")
        if deal.style is not None:
            lines.append(f"delivery: {STYLE_NAMES[deal.style.style]}, "
                         f"chosen by the {deal.style.chosen_by}")  # fmt: skip
        else:
            lines.append(f"delivery: none recorded, so the standard {deal.default_style}")
        return lines

    def _deliveries(self, deal: steps.Deal) -> list[str]:
        if not deal.deliveries:
            return ["no stack delivered"]
        lines = [f"  {'order':<7}{'received by':<15}{'tiles':<22}expected by the style and stacks"]
        for row in deal.deliveries:
            event = row.event
            got = f"  {event.order + 1:<7}{self.name(event.position):<15}{_tiles(event.tiles):<22}"
            if row.expected_at is None:
                lines.append(got + f"cannot say: {deal.why_not}")
                continue
            lines.append(got + f"{self.name(row.expected_at):<15}{_tiles(row.expected):<22}"
                         f"[{mark(row.same)}]")  # fmt: skip
        return lines

    def _after_deal(self, deal: steps.Deal) -> list[str]:
        lines = []
        names = ", ".join(self.name(p) for p in deal.unwagered) or "none"
        if deal.collected is not None:
            got = ", ".join(self.name(p) for p in deal.collected.positions) or "none"
            same = set(deal.collected.positions) >= set(deal.unwagered)
            lines.append(f"stacks collected unseen: {got}")
            lines.append(f"  positions without a wager: {names}   [{mark(same)}]")
        elif deal.deliveries:
            lines.append(f"no stacks collected; positions without a wager: {names}")
        for exposed in deal.exposed:
            tile = exposed.tile or "tile not recorded"
            lines.append(f"tile exposed at {self.name(exposed.position)}: {tile}")
        for voided in deal.player_voids:
            lines.append(f"{self.name(voided.position)} voided the hand after an exposed tile")
        return lines

    # --- 5. Hands as set ---------------------------------------------------------------------

    def hands(self, hands: steps.Hands) -> list[str]:
        if not hands.hands:
            return ["no hand set"]
        lines: list[str] = []
        for read in hands.hands:
            hand = read.hand
            label = self.name(hand.position)
            by = hand.set_by.replace("_", " ")
            lines.append(f"  {label:<14}high  {_tiles(hand.high):<11}{read.high_name:<26}"
                         f"set by the {by}")  # fmt: skip
            lines.append(f"  {'':<14}low   {_tiles(hand.low):<11}{read.low_name}")
            notes = self._hand_notes(read)
            if read.house_way is not None:
                notes += _house_way_lines(read.house_way)
            elif read.free is not None:
                notes.append("the player-dealer sets freely (no dealer rule binds it)")
                if read.free.expected is not None:
                    notes.append(
                        f"for reference, the house way ({read.free.way}): {read.free.expected}"
                    )
            lines += [f"  {'':<14}{note}" for note in notes]
        for position, after in hands.surrenders:
            when = "AFTER" if after else "before"
            lines.append(f"  {self.name(position)} surrendered, "
                         f"{when} its hands were revealed")  # fmt: skip
        return lines

    def _hand_notes(self, read: steps.SetHand) -> list[str]:
        notes: list[str] = []
        if read.below:
            notes.append("the high hand ranks BELOW the low hand")
        if read.delivered is not None:
            notes.append(f"NOT the tiles delivered: {_tiles(read.delivered)}")
        elif read.undelivered:
            notes.append("no stack was delivered to this position")
        for earlier in read.resets:
            notes.append(f"reset: first set {_tiles(earlier.high)} / {_tiles(earlier.low)}")
        return notes

    # --- 6. Settlement -----------------------------------------------------------------------

    def settlement(self, settled: steps.Settlement) -> list[str]:
        rows: list[str] = []
        assumed = False
        for row in settled.rows:
            name = self.name(row.position)
            label = f"{name} PF" if row.side else name
            rows += _row(label, row.stake, row.recorded)
            if row.stray:
                kind = "Pair Fortunes wager left to settle)" if row.side else (
                    f"Pai Gow wager left to settle at {name})")  # fmt: skip
                rows.append(f"    (no {kind}   [{MISMATCH}]")
            elif row.expected is None:
                rows.append(
                    "    expected: cannot be derived (no paytable, or the tiles unknown)"
                    if row.side
                    else "    expected: cannot be derived from the record"
                )
            else:
                assumed |= not row.known
                want = "  expected" + ("" if row.known else "*")
                rows += _row(want, None, row.expected, same=row.expected == row.recorded)
        unsettled = [(f"{self.name(p)} PF" if side else self.name(p), stake)
                     for p, side, stake in settled.unsettled]  # fmt: skip
        for label, stake in sorted(unsettled):
            rows.append(f"  {label:<16}{dollars(stake):>10}  not settled   [{MISMATCH}]")
        lines = [_ROW_HEADER, *rows] if rows else ["no wager settled"]
        if assumed:
            lines.append("* the hands cannot decide this wager: its recorded outcome is assumed")
        if settled.pair_fortunes:
            lines.append("PF: the Pair Fortunes wager, paid by the table's paytable")
        lines += self._order(settled.order)
        if settled.mode is BankingMode.CALIFORNIA:
            return lines + self._california(settled)
        return lines + self._bank_flows(settled)

    def _order(self, order: steps.Order | None) -> list[str]:
        if order is None:
            return []
        if order.no_button:
            return ["settlement order: no valid throw, so no action button to start from"]
        got = " ".join(self.short(p) for p in order.played)
        rule = " ".join(self.short(p) for p in order.rule)
        how = order.how if order.button is None else f"{order.how} at {self.name(order.button)}"
        lines = [f"settlement order: {got}"]
        if order.surrendered:
            lines[0] += " (surrendered wagers were collected at once)"
        return [*lines, f"  by the rules:   {rule} ({how})   [{mark(got == rule)}]"]

    def _bank_flows(self, settled: steps.Settlement) -> list[str]:
        lines: list[str] = []
        if settled.dealer_wager is not None:
            got, owed = settled.dealer_wager
            shown = f"{got.outcome} {dollars(got.amount)}" if got is not None else "not settled"
            line = f"dealer's wager against the bank: recorded {shown}"
            if owed is not None:
                line += f"; expected {owed}   [{mark(shown == owed)}]"
            lines.append(line)
        for flow in settled.flows:
            lines += _flow_lines(flow.what, dict(flow.pairs))
        if settled.nets is not None:
            nets = [f"{self._party(p)} {_signed(c)}" for p, c in settled.nets]
            lines += _wrap("expected nets: ", [n + "," for n in nets[:-1]] + nets[-1:])
        else:
            lines.append("expected nets: cannot be derived (a wager could not be settled)")
        return lines

    def _party(self, party: int | str) -> str:
        return self.short(party) if isinstance(party, int) else party

    def _california(self, settled: steps.Settlement) -> list[str]:
        lines = []
        if settled.player_dealer is not None:
            wager, result = settled.player_dealer
            lines.append(f"player-dealer: wager {dollars(wager)}, expected result "
                         f"{_signed(result)} (action up to its wager)")  # fmt: skip
        if settled.schedule is None:
            return lines
        lines.append(f"collection fees (schedule option {settled.schedule}):")
        for fee in settled.fees:
            same = mark(fee.taken == fee.owed)
            lines.append(f"  {self.name(fee.position):<16}recorded {dollars(fee.taken):>8}   "
                         f"expected {dollars(fee.owed):>8}   [{same}]")  # fmt: skip
        if settled.stray_options:
            lines.append(
                f"  fees recorded under schedule option(s) {list(settled.stray_options)}   "
                f"[{MISMATCH}]"
            )
        return lines


def _house_way_lines(way: steps.HouseWay) -> list[str]:
    if way.expected is None:
        return [f"house way: cannot say ({way.why})" if way.why else "house way: cannot say"]
    lines = [f"house way ({way.way}): {way.expected}   [{mark(way.same)}]"]
    if way.cited is None:
        return lines
    if way.permitted:
        return [*lines, f"dealer rule {way.cited}: permits this setting   [{OK}]"]
    lines.append(f"dealer rule {way.cited}: does NOT permit this setting   [{MISMATCH}]")
    allowed = list(way.allowed)
    return lines + _wrap("  it permits ", [f"{s} or" for s in allowed[:-1]] + allowed[-1:], 80)
