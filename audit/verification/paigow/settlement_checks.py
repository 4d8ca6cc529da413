"""Settlement: outcomes, payouts, vigorish, bank flows, California coverage, order and fees.

Each wager's outcome comes from the recorded hands through the engine
(``wager_outcome``), and the money it should have moved from the banking mode's
settlement (``settle_dealer_banked``, ``settle_player_bank``, ``settle_co_bank``,
``settle_california``, ``settle_voided_round``, ``settle_pair_fortunes``) with the
table's rounding. The recorded ``wager_settled`` events are compared with that.

Readings, where the record or the texts leave a choice:

- A wager whose outcome the hands cannot give (a hand missing, a tile repeated, a
  setting out of order) is judged on its recorded outcome: the arithmetic is still
  checked, the call is not.
- Vigorish is 5% of the amount won (PA 621a.8(k)). Where the payout itself was
  wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the amount paid is
  accepted, so one wrong payout is one finding, not also a vigorish finding.
- California coverage is judged in the order the wagers were actually settled; a
  settlement out of clockwise order is PG-CA-ORDER, with the money the order moved
  as its stake. California charges no vigorish: any taken is a wrong fee (PG-CA-FEE).
- Bank flows are judged against the engine's settlement of the whole round, so a
  wrong payout that changed the bank's pay-in shows in both.
- PG-SETTLE-UNBALANCED reads only the record. Dealer-banked and California
  wagers settle directly with the house or the player-dealer, so what one side
  records the other receives; the centre of a player- or co-banked layout is
  where money can appear or vanish (PA 621a.9(o), (r)).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from audit.events.envelope import Event
from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind
from audit.games.errors import RulesError
from audit.games.money import Cents, decimal_cents, to_dollars
from audit.games.paigow.banking import (
    CentreFlows,
    centre_totals,
    co_bank_flows,
    dealer_wager_limit,
    player_bank_flows,
    settle_co_bank,
    settle_player_bank,
)
from audit.games.paigow.california import settle_california
from audit.games.paigow.collection import collection_fees
from audit.games.paigow.layout import Position, action_button, dice_total, settlement_order
from audit.games.paigow.outcome import BankerSetting, Outcome
from audit.games.paigow.pair_fortunes import (
    PairFortunesCategory,
    Paytable,
    classify_distinct,
    pair_fortunes_payout,
)
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import (
    BankingMode,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
    line_amounts,
    settle_dealer_banked,
    settle_voided_round,
    settle_wager,
)
from audit.games.paigow.tiles import TILE_BY_NAME, Tile, parse_tile
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.setting_checks import hand_settings, is_player_dealer_table

_PLAYED = ("win", "push", "lose")
_OUTCOME_OF = {outcome.value: outcome for outcome in Outcome}
"""Each played outcome by the name a settlement records it under."""
_CENTRE_MODES = (BankingMode.PLAYER_BANK, BankingMode.CO_BANK)
# The section each banking mode settles a wager under (the kinds' own key otherwise).
_MODE_RULES = {
    BankingMode.PLAYER_BANK: "bank-settlement",  # PA 621a.9(o)
    BankingMode.CO_BANK: "co-bank-settlement",  # PA 621a.9(r)
}
_VOID_RULES = {"wrong_deal": "wrong-deal", "banker_tile_exposed": "exposed-dealer-tile"}


def _rule(context: TableContext, key: str | None) -> str | None:
    """Return ``key`` if the table's rules cite it, else ``None`` (the kind's own rule)."""
    return key if key is not None and key in context.ruleset.citations else None


# --- What the round recorded -------------------------------------------------------------------


@dataclass
class SettlementFacts:
    """What the settlement checks read from one round's record, in cents (``read_settlement``)."""

    mode: BankingMode
    banker: Position
    """The position whose hand the players play against."""
    stakes: dict[Position, Cents]
    """Players' Pai Gow wagers (placed less withdrawn), the banker's own excluded."""
    side: dict[Position, Cents]
    """Pair Fortunes wagers."""
    player_dealer: Cents
    """A California player-dealer's wager: what it covers."""
    settled: dict[Position, WagerSettled] = field(default_factory=dict)
    """Each position's (first) Pai Gow settlement."""
    side_settled: dict[Position, WagerSettled] = field(default_factory=dict)
    stray: list[WagerSettled] = field(default_factory=list)
    """Pai Gow settlements of no placed wager, or of one already settled."""
    stray_side: list[WagerSettled] = field(default_factory=list)
    settled_order: list[Position] = field(default_factory=list)
    """Positions in the order their Pai Gow wagers were settled."""


def _mode(view: RoundView, ruleset: RuleSet) -> BankingMode:
    if is_player_dealer_table(ruleset):
        return BankingMode.CALIFORNIA
    if view.bank is None:
        return BankingMode.DEALER
    return BankingMode.CO_BANK if view.co_bank is not None else BankingMode.PLAYER_BANK


def _stakes(view: RoundView) -> tuple[dict[Position, Cents], dict[Position, Cents]]:
    """Return each position's Pai Gow and Pair Fortunes wagers: placed less withdrawn.

    One walk over the wagers for both kinds (a wager is one or the other). A position can
    be left with nothing, or less (withdrawn beyond its wager): the caller drops it.
    """
    pai_gow: dict[Position, Cents] = {}
    side: dict[Position, Cents] = {}
    pai_gow_kind = WagerKind.PAI_GOW
    for _, placed in view.placed:
        amounts = pai_gow if placed.kind is pai_gow_kind else side
        position = placed.position
        amounts[position] = amounts.get(position, 0) + decimal_cents(placed.amount)
    for _, withdrawn in view.withdrawn:
        amounts = pai_gow if withdrawn.kind is pai_gow_kind else side
        position = withdrawn.position
        if position in amounts:
            amounts[position] -= decimal_cents(withdrawn.amount)
    return pai_gow, side


def read_settlement(view: RoundView, ruleset: RuleSet) -> SettlementFacts:
    """Return what one round recorded about its money, in cents, as the settlement checks read it.

    The banking mode and the banker's position, each position's Pai Gow and Pair Fortunes
    stakes (placed less withdrawn), each stake's first settlement in the order recorded,
    and the settlements that match no stake (``stray``). Reads only the record.
    """
    mode = _mode(view, ruleset)
    dealer = ruleset.layout.dealer
    banker = view.bank.position if mode in _CENTRE_MODES and view.bank else dealer
    net_pai_gow, net_side = _stakes(view)
    facts = SettlementFacts(
        mode=mode,
        banker=banker,
        stakes={p: a for p, a in net_pai_gow.items() if a > 0 and p != banker},
        side={p: a for p, a in net_side.items() if a > 0},
        player_dealer=max(net_pai_gow.get(dealer, 0), 0) if mode is BankingMode.CALIFORNIA else 0,
    )
    stakes, settled = facts.stakes, facts.settled
    side, side_settled, pair_fortunes = facts.side, facts.side_settled, WagerKind.PAIR_FORTUNES
    for _, event in view.settled:
        position = event.position
        if event.kind is pair_fortunes:
            if position in side and position not in side_settled:
                side_settled[position] = event
            else:
                facts.stray_side.append(event)
        elif position in stakes and position not in settled:
            settled[position] = event
            facts.settled_order.append(position)
        else:
            facts.stray.append(event)
    return facts


def _button(view: RoundView, ruleset: RuleSet) -> Position | None:
    """Return the California action button from the round's valid throw, if one was read."""
    if not view.dice:
        return None
    index, dice = view.dice[-1]
    if any(no_roll_index > index for no_roll_index, _ in view.no_rolls):
        return None  # the last throw was a no roll, and no valid one followed
    try:
        return action_button(dice_total(dice.faces), ruleset.layout)
    except RulesError:
        return None


def _expected_order(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts
) -> list[Position] | None:
    """Return the positions with wagers in the order the rules settle them, if known."""
    if facts.mode is BankingMode.CALIFORNIA:
        button = _button(view, ruleset)
        if button is None:
            return None
        ring = settlement_order(ruleset.layout, button)  # CA: clockwise from the button
    else:
        ring = settlement_order(ruleset.layout)  # PA 621a.8(f), 9(o): from the dealer's right
    ordered = [p for p in ring if p in facts.stakes]
    return ordered + sorted(p for p in facts.stakes if p not in ring)


# --- What the engine says ----------------------------------------------------------------------


def _hand_outcome(
    view: RoundView, ruleset: RuleSet, player: Position, banker: Position
) -> Outcome | None:
    settings = hand_settings(view)
    return _outcome(settings.get(player), _banker_setting(view, ruleset, banker))


def _banker_setting(view: RoundView, ruleset: RuleSet, banker: Position) -> BankerSetting | None:
    """Return the banker's hands as set, read to decide wagers, if they were recorded."""
    theirs = hand_settings(view).get(banker)
    return None if theirs is None else BankerSetting(theirs, ruleset.ranking)


def _outcome(mine: Setting | None, banker: BankerSetting | None) -> Outcome | None:
    """Return a player's outcome against the banker, ``None`` where the hands cannot decide it."""
    if mine is None or banker is None:
        return None
    try:
        return banker.outcome(mine)
    except RulesError:  # out of order, or tiles shared: PG-SET-* and PG-TILE-* report it
        return None


def _expected_wagers(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts, positions: Iterable[Position]
) -> Iterator[tuple[Wager, bool] | None]:
    """Yield each position's wager as the rules would settle it, and whether its outcome was
    derived; ``None`` for one that neither the hands nor the record decide.

    ``False`` means the hands could not decide it and the recorded outcome is assumed.
    The round's voided hands, surrenders and banker are read once, for every position.
    """
    voided = {v.position for v in view.player_voids}
    california = facts.mode is BankingMode.CALIFORNIA  # CA play has no surrender
    surrendered = set() if california else {s.position for _, s in view.surrenders}
    settings, banker = hand_settings(view), _banker_setting(view, ruleset, facts.banker)
    for position in positions:
        amount = facts.stakes[position]
        if position in voided:  # PA 621a.10(d): returned
            yield Wager(position, amount, voided=True), True
        elif position in surrendered:  # PA 621a.8(e)
            yield Wager(position, amount, surrendered=True), True
        else:
            outcome = _outcome(settings.get(position), banker)
            if outcome is None:
                yield _recorded_wager(facts, position, amount)
            else:
                yield Wager(position, amount, outcome), True


def _recorded_wager(
    facts: SettlementFacts, position: Position, amount: Cents
) -> tuple[Wager, bool] | None:
    """Return the wager as its recorded settlement ended it, marked not derived, if it can."""
    recorded = facts.settled.get(position)
    if recorded is None:
        return None
    if recorded.outcome in _PLAYED:
        return Wager(position, amount, Outcome(recorded.outcome)), False
    if recorded.outcome == "surrendered" and facts.mode is not BankingMode.CALIFORNIA:
        return Wager(position, amount, surrendered=True), False
    if recorded.outcome == "returned":
        return Wager(position, amount, voided=True), False
    return None


def _label(wager: Wager) -> str:
    if wager.surrendered:
        return "surrendered"
    if wager.voided or wager.outcome is None:
        return "returned"
    return wager.outcome.value


@dataclass
class ExpectedSettlement:
    """The engine's settlement of the round, as far as the record lets it go.

    Built by :func:`expect_settlement`.
    """

    lines: dict[Position, tuple[SettlementLine, bool]] = field(default_factory=dict)
    """Each position's expected line, and whether its outcome was derived from the hands
    (``False``: the hands could not decide it, and the recorded outcome was assumed)."""
    settlement: RoundSettlement | None = None
    """The whole round (bank flows included), when every wager could be settled."""
    dealer_wager: DealerWager | None = None
    dealer_outcome_known: bool = False


def _dealer_wager(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts
) -> tuple[DealerWager | None, bool, bool]:
    """Return the dealer's wager against the bank, whether its outcome was derived, and
    whether it could be settled at all."""
    placed = view.dealer_wager
    if placed is None or facts.mode is not BankingMode.PLAYER_BANK or placed.amount <= 0:
        return None, False, True
    amount = decimal_cents(placed.amount)
    outcome = _hand_outcome(view, ruleset, ruleset.layout.dealer, facts.banker)  # PA 621a.9(n)
    if outcome is not None:
        return DealerWager(amount, outcome), True, True
    recorded = view.dealer_wager_settled
    if recorded is None:
        return None, False, False
    return DealerWager(amount, Outcome(recorded.outcome)), False, True


def _california_order(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> list[Position]:
    expected = _expected_order(view, ruleset, facts) or sorted(facts.stakes)
    return facts.settled_order + [p for p in expected if p not in facts.settled_order]


def expect_settlement(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts
) -> ExpectedSettlement:
    """Return the engine's settlement of the round read by :func:`read_settlement`.

    Each wager's outcome comes from the recorded hands where they decide it (else the
    recorded outcome is assumed, and the line marked not derived); the lines, the bank
    flows and the dealer's wager are then settled by the table's banking mode and
    rounding. What the record does not let the engine reach is left out: no lines
    without a California player-dealer wager, no round settlement while a wager
    cannot be settled. This is what every settlement finding is judged against.
    """
    result = ExpectedSettlement()
    if view.voided is not None:  # PA 621a.10(c), (e): "all wagers shall be returned"
        wagers = [Wager(p, a) for p, a in sorted(facts.stakes.items())]
        result.settlement = settle_voided_round(wagers, facts.mode)
        result.lines = {line.position: (line, True) for line in result.settlement.lines}
        return result
    if facts.mode is BankingMode.CALIFORNIA:
        if facts.player_dealer <= 0:
            return result  # no player-dealer wager recorded: nothing to measure coverage by
        played: list[tuple[Wager, bool]] = []
        order = _california_order(view, ruleset, facts)
        for found in _expected_wagers(view, ruleset, facts, order):
            if found is None:
                break  # later coverage depends on this wager's result
            played.append(found)
        known = {w.position: k for w, k in played}
        settled = settle_california([w for w, _ in played], facts.player_dealer)
        result.lines = {line.position: (line, known[line.position]) for line in settled.lines}
        return result
    rounding = ruleset.vig_rounding
    if rounding is None:
        return result
    found: list[tuple[Wager, bool]] = []
    complete = True
    order = _expected_order(view, ruleset, facts) or sorted(facts.stakes)
    for wager_known in _expected_wagers(view, ruleset, facts, order):
        if wager_known is None:
            complete = False
        else:
            found.append(wager_known)
    wagers = [wager for wager, _ in found]
    dealer_wager, dealer_known, dealer_complete = _dealer_wager(view, ruleset, facts)
    result.dealer_wager, result.dealer_outcome_known = dealer_wager, dealer_known
    if complete and dealer_complete:
        if facts.mode is BankingMode.PLAYER_BANK:
            result.settlement = settle_player_bank(wagers, rounding, dealer_wager)
        elif facts.mode is BankingMode.CO_BANK:
            result.settlement = settle_co_bank(wagers, rounding)  # a dealer wager: its own finding
        else:
            result.settlement = settle_dealer_banked(wagers, rounding)
    # Each wager's line as settle_wager gives it; the round's settlement, dealer- or
    # player-banked, is made of exactly those lines in this order: not settled a second time.
    if result.settlement is not None:
        lines = result.settlement.lines
    else:
        lines = tuple(settle_wager(wager, rounding) for wager in wagers)
    result.lines = {
        wager.position: (line, known) for (wager, known), line in zip(found, lines, strict=True)
    }
    return result


# --- Comparing ---------------------------------------------------------------------------------


def _shown(outcome: str, paid: Cents, collected: Cents, returned: Cents, vig: Cents = 0) -> str:
    text = f"{outcome}: paid {to_dollars(paid)}, collected {to_dollars(collected)}"
    text += f", returned {to_dollars(returned)}"
    return text + (f", vigorish {to_dollars(vig)}" if vig else "")


def _recorded_money(event: WagerSettled) -> tuple[Cents, Cents, Cents, Cents]:
    """Return a settlement's paid, collected, returned and vigorish in cents."""
    return (
        decimal_cents(event.paid),
        decimal_cents(event.collected),
        decimal_cents(event.returned),
        decimal_cents(event.vigorish),
    )


def _money_at_stake(
    recorded: tuple[Cents, Cents, Cents], expected: tuple[Cents, Cents, Cents]
) -> Cents:
    """Return the larger of the player's wrong result and the wrongly returned amount."""
    (paid, collected, returned), (want_paid, want_collected, want_returned) = recorded, expected
    net = abs((paid - collected) - (want_paid - want_collected))
    return max(net, abs(returned - want_returned))


def _stray(emit: Emit, events: Iterable[WagerSettled], code: str, what: str) -> None:
    """Report settlements of no placed wager, or of one settled already."""
    for event in events:
        paid, collected, returned, vig = _recorded_money(event)
        emit(code, position=event.position,
             recorded=_shown(event.outcome, paid, collected, returned, vig),
             expected=f"no {what} settlement: no wager left to settle at this position",
             at_stake=to_dollars(max(paid, collected, returned)), events=[event])  # fmt: skip


def _judge_vigorish(
    emit: Emit,
    context: TableContext,
    mode: BankingMode,
    event: WagerSettled,
    line: SettlementLine,
    paid: Cents,
    taken: Cents,
) -> None:
    """Judge the vigorish ``taken`` on a wager recorded as ``paid`` (both cents, as recorded)."""
    rounding = context.ruleset.vig_rounding
    if rounding is None:  # California: no vigorish, only the collection schedule's fees
        if taken:
            emit("PG-CA-FEE", position=event.position, recorded=f"vigorish {to_dollars(taken)}",
                 expected="no vigorish: collection fees only", at_stake=to_dollars(taken),
                 events=[event])  # fmt: skip
        return
    # PA 621a.8(k), 9(q) / NJ 10.7(k), 10.8(r): 5% of the amount won, at the payout. Where
    # the payout itself was wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the
    # amount paid is not reported again.
    accepted = {line.vigorish, vigorish(paid, rounding)}
    if taken in accepted:
        return
    owed = min(accepted, key=lambda amount: abs(amount - taken))
    code = "PG-SETTLE-VIG-OVER"
    if taken < owed:
        code = "PG-SETTLE-VIG-UNCOLLECTED" if taken == 0 else "PG-SETTLE-VIG-SHORT"
    rule = _rule(context, "bank-vigorish" if mode in _CENTRE_MODES else None)
    emit(code, position=event.position, recorded=f"vigorish {to_dollars(taken)}",
         expected=f"vigorish {to_dollars(owed)} ({rounding.value} rounding)",
         at_stake=to_dollars(abs(taken - owed)), events=[event], rule_key=rule)  # fmt: skip


def _is_line(event: WagerSettled, line: SettlementLine) -> bool:
    """Return whether a settlement records exactly the line: its outcome and every amount."""
    exact = (line.paid, line.collected, line.returned, line.vigorish)
    return event.outcome == _label(line.wager) and _recorded_money(event) == exact


def _judge_line(
    emit: Emit,
    context: TableContext,
    view: RoundView,
    facts: SettlementFacts,
    event: WagerSettled,
    expected: tuple[SettlementLine, bool],
) -> None:
    line, known = expected
    if _is_line(event, line):
        return  # the engine's line to the cent: no judgement below finds anything
    paid, collected, returned, taken = _recorded_money(event)
    want = (line.paid, line.collected, line.returned)
    if view.voided is not None:  # every wager returned whole, nothing else moved
        if (paid, collected, returned, taken) != (*want, 0):
            wrong = max(_money_at_stake((paid, collected, returned), want), taken)
            rule = _rule(context, _VOID_RULES.get(view.voided.reason))
            emit("PG-SETTLE-PAYOUT", position=event.position,
                 recorded=_shown(event.outcome, paid, collected, returned, taken),
                 expected=f"{_shown(_label(line.wager), *want, line.vigorish)} (round voided)",
                 at_stake=to_dollars(wrong),
                 events=[view.voided, event], rule_key=rule)  # fmt: skip
        return
    rule = _rule(context, _MODE_RULES.get(facts.mode))
    if known and event.outcome != _label(line.wager):
        emit("PG-SETTLE-OUTCOME", position=event.position, recorded=event.outcome,
             expected=_label(line.wager), at_stake=to_dollars(line.wager.amount), events=[event],
             rule_key=rule)  # fmt: skip
    if (paid, collected, returned) != want:
        code = "PG-SETTLE-PAYOUT"
        played = line.outcome in (Outcome.WIN, Outcome.LOSE)
        if facts.mode is BankingMode.CALIFORNIA and played and (line.returned or returned):
            # CA: collected or paid "to the extent that the player-dealer's wager covers",
            # the rest returned.
            code, rule = "PG-CA-COVERAGE", None
        emit(code, position=event.position,
             recorded=_shown(event.outcome, paid, collected, returned),
             expected=_shown(_label(line.wager), *want, line.vigorish),
             at_stake=to_dollars(_money_at_stake((paid, collected, returned), want)),
             events=[event], rule_key=rule)  # fmt: skip
    _judge_vigorish(emit, context, facts.mode, event, line, paid, taken)


def _wagers(
    view: RoundView,
    context: TableContext,
    emit: Emit,
    facts: SettlementFacts,
    expected: ExpectedSettlement,
) -> None:
    """Each Pai Gow wager: outcome, payout, vigorish (PA 621a.8(e)-(k), 9(o)-(r); CA coverage)."""
    for position, event in facts.settled.items():
        line = expected.lines.get(position)
        if line is not None:
            _judge_line(emit, context, view, facts, event, line)
    _stray(emit, facts.stray, "PG-SETTLE-PAYOUT", "Pai Gow")


# --- The bank ----------------------------------------------------------------------------------


def _judge_dealer_wager(
    view: RoundView, context: TableContext, emit: Emit, expected: ExpectedSettlement
) -> None:
    """PA 621a.9(n), (p): the dealer's wager against the bank, won, tied or lost."""
    settled = view.dealer_wager_settled
    if settled is None:
        return
    recorded = decimal_cents(settled.amount)
    rule = _rule(context, "dealer-vs-bank")
    if view.voided is not None:  # the dealer's chips simply go back to the table inventory
        if recorded:
            emit("PG-SETTLE-PAYOUT", position=context.ruleset.layout.dealer,
                 recorded=f"dealer wager {settled.outcome} {to_dollars(recorded)}",
                 expected="dealer wager returned (round voided)",
                 at_stake=to_dollars(recorded), events=[view.voided, settled],
                 rule_key=rule)  # fmt: skip
        return
    wager = expected.dealer_wager
    if wager is None:
        return
    if expected.dealer_outcome_known and settled.outcome != wager.outcome.value:
        emit("PG-SETTLE-OUTCOME", position=context.ruleset.layout.dealer,
             recorded=f"dealer wager {settled.outcome}",
             expected=f"dealer wager {wager.outcome.value}", at_stake=to_dollars(wager.amount),
             events=[settled], rule_key=rule)  # fmt: skip
    # Signed from the house's side, as DealerWager.result: a wrong direction counts twice,
    # and a push moves nothing.
    moved = {"win": recorded, "push": 0, "lose": -recorded}[settled.outcome]
    wrong = abs(moved - wager.result) or (recorded if settled.outcome == "push" else 0)
    if wrong:
        emit("PG-SETTLE-PAYOUT", position=context.ruleset.layout.dealer,
             recorded=f"dealer wager {settled.outcome} {to_dollars(recorded)}",
             expected=f"dealer wager {wager.outcome.value} {to_dollars(abs(wager.result))}",
             at_stake=to_dollars(wrong), events=[settled], rule_key=rule)  # fmt: skip


def _dealer_wager_limit(context: TableContext, bank: Position) -> Cents | None:
    """Return the most the dealer may wager against the bank at ``bank``, if it is known."""
    last = getattr(context, "last_dealer_banked_wagers", None)
    banks_last = last.get(bank) if last is not None else None
    if banks_last is None:
        return None
    return dealer_wager_limit(decimal_cents(banks_last))  # PA 621a.9(h) / NJ 10.8(h)


def _judge_dealer_wager_allowed(
    view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts
) -> None:
    """PA 621a.9(e), (h): none while co-banking, else at most the bank's last wager."""
    placed, bank = view.dealer_wager, view.bank
    if placed is None or bank is None or placed.amount <= 0:
        return
    if facts.mode is BankingMode.CO_BANK:
        # PA 621a.9(e), (h) / NJ 10.8(e), (h): "the dealer may not place a wager against the bank".
        emit("PG-BANK-DEALER-WAGER-CO-BANK", position=bank.position,
             recorded=f"dealer wagered {placed.amount} against the co-bank",
             expected="no dealer wager while co-banking", at_stake=placed.amount,
             events=[placed])  # fmt: skip
        return
    limit = _dealer_wager_limit(context, bank.position)
    if limit is None:
        return  # the bank's last wager against the dealer is not known here
    amount = decimal_cents(placed.amount)
    if amount > limit:
        emit("PG-BANK-DEALER-WAGER-LIMIT", position=bank.position,
             recorded=f"dealer wagered {placed.amount}",
             expected=f"at most {to_dollars(limit)}, the bank's last wager against the dealer",
             at_stake=to_dollars(amount - limit), events=[placed])  # fmt: skip


def _field(event: Event | None, name: str) -> Cents:
    """Return one money field of a bank flow event in cents: 0 when nothing was recorded."""
    return 0 if event is None else decimal_cents(getattr(event, name))


def _flows(
    emit: Emit,
    code: str,
    position: Position | None,
    events: list[Event | None],
    pairs: dict[str, tuple[Cents, Cents]],
) -> None:
    """Report one bank flow event whose amounts differ from the engine's."""
    wrong = {name: (got, want) for name, (got, want) in pairs.items() if got != want}
    if not wrong:
        return
    emit(code, position=position,
         recorded=", ".join(f"{name} {to_dollars(got)}" for name, (got, _) in wrong.items()),
         expected=", ".join(f"{name} {to_dollars(want)}" for name, (_, want) in wrong.items()),
         at_stake=to_dollars(max(abs(got - want) for got, want in wrong.values())),
         events=[e for e in events if e is not None])  # fmt: skip


_FlowCheck = tuple[str, Event | None, dict[str, tuple[Cents, Cents]]]
"""A bank flow event's finding code, the event (if recorded), and each amount recorded and owed."""


def _flow_checks(
    view: RoundView, mode: BankingMode, owed: RoundSettlement | CentreFlows
) -> list[_FlowCheck]:
    """Return the bank flow events the banking mode records, each amount beside the one owed."""
    if mode is BankingMode.CO_BANK:  # PA 621a.9(r) / NJ 10.8(p): halves with the house
        split = view.co_bank_split
        return [("PG-COBANK-SPLIT", split, {
            "co-bank pay-in": (_field(split, "shortfall_from_co_bank"), owed.shortfall_from_bank),
            "house pay-in": (_field(split, "shortfall_from_house"), owed.shortfall_from_house),
            "surplus to house": (_field(split, "surplus_to_house"), owed.surplus_to_house),
            "vigorish": (_field(split, "surplus_vigorish"), owed.surplus_vigorish),
            "to co-bank": (_field(split, "surplus_to_co_bank"), owed.surplus_to_bank),
        })]  # fmt: skip
    # PA 621a.9(o) / NJ 10.8(o): the bank pays in what the centre lacks, or takes the
    # surplus less 5%.
    shortfall, surplus = view.shortfall, view.surplus
    return [
        ("PG-BANK-SHORTFALL", shortfall,
         {"shortfall": (_field(shortfall, "amount"), owed.shortfall_from_bank)}),
        ("PG-BANK-SURPLUS", surplus, {
            "surplus": (_field(surplus, "surplus"), owed.surplus),
            "vigorish": (_field(surplus, "vigorish"), owed.surplus_vigorish),
            "paid to bank": (_field(surplus, "paid_to_bank"), owed.surplus_to_bank),
        }),
    ]  # fmt: skip


def _bank(
    view: RoundView,
    context: TableContext,
    emit: Emit,
    facts: SettlementFacts,
    expected: ExpectedSettlement,
) -> None:
    """The bank's flows (PA 621a.9(h), (n)-(r) / NJ 10.8(h), (n)-(r))."""
    if facts.mode is BankingMode.CALIFORNIA:
        return
    _judge_dealer_wager_allowed(view, context, emit, facts)
    _judge_dealer_wager(view, context, emit, expected)
    settlement = expected.settlement
    if settlement is None or view.completed is None:
        return  # the flows come after every wager: a round cut short has not reached them
    bank = view.bank.position if view.bank is not None else None
    for code, event, amounts in _flow_checks(view, facts.mode, settlement):
        _flows(emit, code, bank, [event], amounts)


def _balance(view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts) -> None:
    """The centre of a banked layout pays out exactly what went in (PA 621a.9(o), (r))."""
    if view.bank is None or view.voided is not None or is_player_dealer_table(context.ruleset):
        return
    unsettled = set(facts.stakes) - set(facts.settled)
    dealer_open = view.dealer_wager is not None and view.dealer_wager_settled is None
    if view.completed is None or unsettled or dealer_open:
        return  # money still on the layout: the centre cannot be balanced yet
    taken_in = paid_out = 0
    for _, event in view.settled:
        if event.kind is WagerKind.PAI_GOW:  # Pair Fortunes is the house's, outside the centre
            taken_in += decimal_cents(event.collected)
            paid_out += decimal_cents(event.paid)
    if view.dealer_wager_settled is not None:
        amount = decimal_cents(view.dealer_wager_settled.amount)
        if view.dealer_wager_settled.outcome == "lose":
            taken_in += amount
        elif view.dealer_wager_settled.outcome == "win":
            paid_out += amount
    if view.shortfall is not None:
        taken_in += decimal_cents(view.shortfall.amount)
    if view.surplus is not None:
        paid_out += decimal_cents(view.surplus.vigorish) + decimal_cents(view.surplus.paid_to_bank)
    split = view.co_bank_split
    if split is not None:
        taken_in += decimal_cents(split.shortfall_from_co_bank) + decimal_cents(
            split.shortfall_from_house
        )
        paid_out += sum(
            decimal_cents(x)
            for x in (split.surplus_to_house, split.surplus_vigorish, split.surplus_to_co_bank)
        )
    if taken_in != paid_out:
        rule = _rule(context, "co-bank-settlement" if split else "bank-settlement")
        flows = [e for e in (view.shortfall, view.surplus, split) if e is not None]
        emit("PG-SETTLE-UNBALANCED", position=view.bank.position,
             recorded=f"centre took in {to_dollars(taken_in)}, paid out {to_dollars(paid_out)}",
             expected="the centre pays out exactly what it took in",
             at_stake=to_dollars(abs(taken_in - paid_out)), events=flows or [view.bank],
             rule_key=rule)  # fmt: skip


# --- California --------------------------------------------------------------------------------


def _player_dealer_result(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts, order: list[Position]
) -> dict[Position, Cents] | None:
    """Return each player's net under California coverage in ``order``, if all are known."""
    wagers: list[Wager] = []
    for found in _expected_wagers(view, ruleset, facts, order):
        if found is None:
            return None
        wagers.append(found[0])
    settled = settle_california(wagers, facts.player_dealer)
    return {line.position: line.paid - line.collected for line in settled.lines}


def _order(view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts) -> None:
    """CA: wagers settled "in a clockwise manner ... starting with the player with the action
    button"."""
    ruleset = context.ruleset
    if facts.mode is not BankingMode.CALIFORNIA or view.voided is not None:
        return
    expected = _expected_order(view, ruleset, facts)
    if expected is None:
        return
    recorded = facts.settled_order
    wanted = [p for p in expected if p in facts.settled]
    if recorded == wanted:
        return
    first = next(
        i for i, (got, want) in enumerate(zip(recorded, wanted, strict=True)) if got != want
    )
    at_stake = 0
    if facts.player_dealer > 0:
        actual = _player_dealer_result(
            view, ruleset, facts, _california_order(view, ruleset, facts)
        )
        lawful = _player_dealer_result(view, ruleset, facts, expected)
        if actual is not None and lawful is not None:
            # What the order moved: each player's gain against the lawful order, the
            # player-dealer's included, summed over those who gained.
            deltas = [actual[p] - lawful[p] for p in lawful]
            deltas.append(-sum(deltas))
            at_stake = sum(d for d in deltas if d > 0)
    position = recorded[first]
    emit("PG-CA-ORDER", position=position, recorded=f"settled {recorded}",
         expected=f"clockwise from the button: {wanted}", at_stake=to_dollars(at_stake),
         events=[facts.settled[position]])  # fmt: skip


def _fees(view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts) -> None:
    """CA Collection Rates Schedule: each fee by the table's schedule option."""
    ruleset = context.ruleset
    schedule = ruleset.collection_schedule
    if schedule is None or view.completed is None:
        return  # fees are taken after every settlement
    positions = sorted(facts.stakes)
    want: dict[Position, Cents] = {}
    if view.voided is None:  # a voided round takes no fee (settle_voided_round)
        fees, player_dealer_fee = collection_fees(schedule, [facts.stakes[p] for p in positions])
        want = dict(zip(positions, fees, strict=True))
        want[ruleset.layout.dealer] = want.get(ruleset.layout.dealer, 0) + player_dealer_fee
    got: dict[Position, Cents] = {}
    for event in view.fees:
        got[event.position] = got.get(event.position, 0) + decimal_cents(event.amount)
        if event.schedule_option != schedule.option:
            emit("PG-CA-FEE", position=event.position,
                 recorded=f"schedule option {event.schedule_option}",
                 expected=f"schedule option {schedule.option}", events=[event])  # fmt: skip
    for position in sorted(set(want) | set(got)):
        taken, owed = got.get(position, 0), want.get(position, 0)
        if taken != owed:
            shown = [e for e in view.fees if e.position == position]
            emit("PG-CA-FEE", position=position, recorded=f"fee {to_dollars(taken)}",
                 expected=f"fee {to_dollars(owed)} (option {schedule.option})",
                 at_stake=to_dollars(abs(taken - owed)), events=shown)  # fmt: skip


# --- Pair Fortunes -----------------------------------------------------------------------------


def _tiles(names: Sequence[str]) -> list[Tile]:
    """Return the named tiles: canonical names (as events carry them) looked up, others parsed."""
    try:
        return [TILE_BY_NAME[name] for name in names]
    except KeyError:  # another spelling
        return [parse_tile(name) for name in names]


def _category(names: Sequence[str] | None) -> PairFortunesCategory | None:
    """Return the Pair Fortunes category of four named tiles; ``None`` without usable tiles."""
    if names is None:
        return None
    try:
        tiles = _tiles(names)
    except RulesError:  # an unknown tile: PG-TILE-* report it
        return None
    # Four distinct tiles, as classify_pairs would check: a repeated one is PG-TILE-*'s.
    return classify_distinct(tiles) if len(set(tiles)) == 4 == len(tiles) else None


def _delivered(view: RoundView, position: Position) -> list[str] | None:
    """Return the tiles last delivered to a position, if any were."""
    for _, event in reversed(view.delivered):
        if event.position == position:
            return event.tiles
    return None


def _pair_fortunes_owed(
    view: RoundView, position: Position, amount: Cents, paytable: Paytable
) -> tuple[Cents, Cents] | None:
    """Return what a Pair Fortunes wager is paid and collected on the four tiles delivered (or,
    lacking those, set); ``None`` without usable tiles.

    ``settle_pair_fortunes`` in its two steps, category then payout: its checks of the
    amount and the paytable cannot fail here (a stake is positive, the paytable the rules').
    """
    category = _category(_delivered(view, position))
    if category is None:
        hand = view.hands.get(position)
        category = _category([*hand.high, *hand.low] if hand else None)
    return None if category is None else pair_fortunes_payout(category, amount, paytable)


def _pair_fortunes(
    view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts
) -> None:
    """PA 621a.8(j) (2019): paid by the paytable on the four tiles, however they were set."""
    paytable = context.ruleset.pair_fortunes
    if paytable is None or not (facts.side_settled or facts.stray_side):
        return  # no Pair Fortunes wager settled: nothing to judge
    voids = {v.position for v in view.player_voids}
    for position, event in facts.side_settled.items():
        amount = facts.side[position]
        if view.voided is not None or position in voids:  # PA 621a.10(c)-(e): returned
            outcome, want = "returned", (0, 0, amount)
        else:
            owed = _pair_fortunes_owed(view, position, amount, paytable)
            if owed is None:
                continue
            outcome = "win" if owed[0] else "lose"
            want = (*owed, 0)
        paid, collected, returned, taken = _recorded_money(event)
        if event.outcome == outcome and (paid, collected, returned) == want and not taken:
            continue
        stake = _money_at_stake((paid, collected, returned), want) + taken
        emit("PG-PF-PAYOUT", position=position,
             recorded=_shown(event.outcome, paid, collected, returned, taken),
             expected=_shown(outcome, *want), at_stake=to_dollars(stake),
             events=[event])  # fmt: skip
    _stray(emit, facts.stray_side, "PG-PF-PAYOUT", "Pair Fortunes")


# --- The round ----------------------------------------------------------------------------------


def _settlement(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Read the round's money once and settle it once, then judge each part in turn.

    Every part judges against the same reading and the same expected settlement, so
    both are made here, not once per part; the parts report in this order.
    """
    ruleset = context.ruleset
    facts = read_settlement(view, ruleset)
    if not (
        _dealer_banked_clean(view, ruleset, facts)
        or _centre_clean(view, context, facts)
        or _california_clean(view, ruleset, facts)
    ):
        expected = expect_settlement(view, ruleset, facts)
        _wagers(view, context, emit, facts, expected)
        _bank(view, context, emit, facts, expected)
        _balance(view, context, emit, facts)
        _order(view, context, emit, facts)
    _fees(view, context, emit, facts)
    _pair_fortunes(view, context, emit, facts)


def _dealer_banked_clean(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    The usual round, cheaply: dealer-banked, not voided, no voided hand, no stray or
    bank-flow event, and every settlement the engine's line (``_settled_as_engine``).
    Then ``_wagers`` finds nothing, and in a dealer-banked round ``_bank``, ``_balance``
    and ``_order`` have nothing to judge. Anything else returns False and those parts
    run in full.
    """
    rounding = ruleset.vig_rounding
    if (
        facts.mode is not BankingMode.DEALER
        or rounding is None
        or view.voided is not None
        or view.player_voids
        or facts.stray
        or view.shortfall is not None
        or view.surplus is not None
    ):
        return False
    return _settled_as_engine(view, ruleset, facts, rounding) is not None


def _centre_clean(view: RoundView, context: TableContext, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    A player- or co-banked round as the engine settles it, cheaply: complete, not voided,
    no voided hand, no stray settlement, every stake settled as the engine's line
    (``_settled_as_engine``), a dealer's wager (if any) allowed and settled as the engine's
    (``_dealer_wager_as_engine``), no flow event of the other banking mode, and the flows
    recorded exactly as the engine's for what the centre took in and owes
    (``centre_totals``, ``player_bank_flows``, ``co_bank_flows``: the order the winners
    are paid in moves money between centre and pay-in, never the totals). Then
    ``_wagers`` finds nothing; ``_bank``'s dealer wager and flows agree; ``_balance`` adds
    up only the engine's amounts, and the engine's centre pays out what it took in;
    ``_order`` judges California only. Anything else returns False: the full comparison.
    """
    ruleset, mode = context.ruleset, facts.mode
    rounding = ruleset.vig_rounding
    if (
        mode not in _CENTRE_MODES
        or rounding is None
        or view.voided is not None
        or view.completed is None
        or view.player_voids
        or facts.stray
        or len(facts.settled) != len(facts.stakes)
    ):
        return False
    if mode is BankingMode.PLAYER_BANK:
        other_flows, owed_flows = view.co_bank_split is not None, player_bank_flows
    else:
        other_flows = view.shortfall is not None or view.surplus is not None
        owed_flows = co_bank_flows
    dealer_wager = None
    if view.dealer_wager is not None or view.dealer_wager_settled is not None:
        dealer_wager = _dealer_wager_as_engine(view, context, facts)
        if dealer_wager is None:
            return False
    totals = None if other_flows else _settled_as_engine(view, ruleset, facts, rounding)
    if totals is None:
        return False
    flows = owed_flows(*centre_totals(*totals, dealer_wager), rounding)
    checks = _flow_checks(view, mode, flows)
    return all(got == owed for _, _, amounts in checks for got, owed in amounts.values())


def _dealer_wager_as_engine(
    view: RoundView, context: TableContext, facts: SettlementFacts
) -> DealerWager | None:
    """Return the dealer's wager against a player bank if it was allowed, decided by the
    hands and settled as the engine settles it; else ``None``.

    What ``_judge_dealer_wager_allowed`` and ``_judge_dealer_wager`` pass: no more than
    the bank's last wager (PA 621a.9(h)), the outcome of the dealer's hands against the
    bank's (9(n)), and the house's result recorded (nothing on a push).
    """
    placed, settled = view.dealer_wager, view.dealer_wager_settled
    if facts.mode is not BankingMode.PLAYER_BANK or placed is None or settled is None:
        return None
    amount = decimal_cents(placed.amount)
    limit = _dealer_wager_limit(context, facts.banker)
    if amount <= 0 or (limit is not None and amount > limit):
        return None
    ruleset = context.ruleset
    outcome = _hand_outcome(view, ruleset, ruleset.layout.dealer, facts.banker)  # PA 621a.9(n)
    if outcome is None or settled.outcome != outcome.value:
        return None
    wager = DealerWager(amount, outcome)
    return wager if decimal_cents(settled.amount) == abs(wager.result) else None


def _california_clean(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    A California round as the engine settles it, cheaply: not voided, no voided hand, no
    stray settlement, a player-dealer wager, the wagers settled clockwise from the action
    button (as ``_order`` wants), each outcome decided by the hands, and each settlement
    exactly ``settle_california``'s line in that order. Then ``_wagers`` finds nothing,
    ``_order`` finds the order kept, and ``_bank`` and ``_balance`` judge no California
    round. Anything else returns False: the full comparison.
    """
    if (
        facts.mode is not BankingMode.CALIFORNIA
        or view.voided is not None
        or view.player_voids
        or facts.stray
        or facts.player_dealer <= 0
    ):
        return False
    clockwise = _expected_order(view, ruleset, facts)
    if clockwise is None or [p for p in clockwise if p in facts.settled] != facts.settled_order:
        return False
    settings, banker = hand_settings(view), _banker_setting(view, ruleset, facts.banker)
    wagers = []
    for position in facts.settled_order:
        outcome = _outcome(settings.get(position), banker)
        if outcome is None:
            return False  # the hands do not decide it: judged on the recorded outcome
        wagers.append(Wager(position, facts.stakes[position], outcome))
    # CA: covered clockwise as far as the player-dealer's wager goes, the rest returned.
    lines = settle_california(wagers, facts.player_dealer).lines
    return all(_is_line(facts.settled[line.position], line) for line in lines)


def _settled_as_engine(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts, rounding: VigRounding
) -> tuple[Cents, Cents] | None:
    """Return what the Pai Gow settlements collected and paid, if each is the engine's line.

    Each settled wager's outcome decided by the hands (or surrendered), and its settlement
    exactly ``settle_wager``'s (``line_amounts``). ``None`` at the first that is not.
    """
    surrendered = {s.position for _, s in view.surrenders} if view.surrenders else ()
    settings, stakes = hand_settings(view), facts.stakes
    banker = _banker_setting(view, ruleset, facts.banker)
    collected = paid = 0
    for position, event in facts.settled.items():
        amount, ended = stakes[position], event.outcome
        if position in surrendered:  # PA 621a.8(e)
            if ended != "surrendered":
                return None
            want = line_amounts(amount, None, rounding, surrendered=True)
        else:
            outcome = _outcome(settings.get(position), banker)
            if outcome is None or _OUTCOME_OF.get(ended) is not outcome:
                return None  # not the hands' outcome, or the hands do not decide it
            want = line_amounts(amount, outcome, rounding)
        if _recorded_money(event) != want:
            return None
        paid += want[0]
        collected += want[1]
    return collected, paid


CHECKS: tuple[Check, ...] = (_settlement,)
