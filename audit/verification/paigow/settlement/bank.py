"""The bank: the dealer's wager against it, its flows, and a centre that balances.

Readings, where the record or the texts leave a choice:

- Bank flows are judged against the engine's settlement of the whole round, so a
  wrong payout that changed the bank's pay-in shows in both.
- PG-SETTLE-UNBALANCED reads only the record. Dealer-banked and California wagers
  settle directly with the house or the player-dealer, so what one side records the
  other receives; the centre of a player- or co-banked layout is where money can
  appear or vanish (PA 621a.9(o), (r)).
"""

from __future__ import annotations

from audit.events.envelope import Event
from audit.events.paigow.wagers import WagerKind
from audit.games.money import Cents, decimal_cents, to_dollars
from audit.games.paigow.banking import CentreFlows, dealer_wager_limit
from audit.games.paigow.layout import Position
from audit.games.paigow.settlement import BankingMode, RoundSettlement
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.expected import ExpectedSettlement
from audit.verification.paigow.settlement.facts import CENTRE_MODES, SettlementFacts, cited


def _judge_dealer_wager(
    view: RoundView, context: TableContext, emit: Emit, expected: ExpectedSettlement
) -> None:
    """PA 621a.9(n), (p): the dealer's wager against the bank, won, tied or lost."""
    settled = view.dealer_wager_settled
    if settled is None:
        return
    recorded = decimal_cents(settled.amount)
    rule = cited(context, "dealer-vs-bank")
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


def dealer_wager_limit_at(context: TableContext, bank: Position) -> Cents | None:
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
    if placed is None or bank is None or facts.mode not in CENTRE_MODES or placed.amount <= 0:
        return
    if facts.mode is BankingMode.CO_BANK:
        # PA 621a.9(e), (h) / NJ 10.8(e), (h): "the dealer may not place a wager against the bank".
        emit("PG-BANK-DEALER-WAGER-CO-BANK", position=bank.position,
             recorded=f"dealer wagered {placed.amount} against the co-bank",
             expected="no dealer wager while co-banking", exposure=placed.amount,
             events=[placed])  # fmt: skip
        return
    limit = dealer_wager_limit_at(context, bank.position)
    if limit is None:
        return  # the bank's last wager against the dealer is not known here
    amount = decimal_cents(placed.amount)
    if amount > limit:
        emit("PG-BANK-DEALER-WAGER-LIMIT", position=bank.position,
             recorded=f"dealer wagered {placed.amount}",
             expected=f"at most {to_dollars(limit)}, the bank's last wager against the dealer",
             exposure=to_dollars(amount - limit), events=[placed])  # fmt: skip


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

FlowAmount = tuple[str, str, str]
"""One amount of a bank flow event: its name in a finding, the event's field, and the field of
the engine's settlement (``RoundSettlement`` or ``CentreFlows``) that says what is owed."""

BANK_FLOWS: dict[BankingMode, tuple[tuple[str, str, tuple[FlowAmount, ...]], ...]] = {
    # PA 621a.9(r) / NJ 10.8(p): halves with the house.
    BankingMode.CO_BANK: (
        ("PG-COBANK-SPLIT", "co_bank_split", (
            ("co-bank pay-in", "shortfall_from_co_bank", "shortfall_from_bank"),
            ("house pay-in", "shortfall_from_house", "shortfall_from_house"),
            ("surplus to house", "surplus_to_house", "surplus_to_house"),
            ("vigorish", "surplus_vigorish", "surplus_vigorish"),
            ("to co-bank", "surplus_to_co_bank", "surplus_to_bank"),
        )),
    ),
    # PA 621a.9(o) / NJ 10.8(o): the bank pays in what the centre lacks, or takes the
    # surplus less 5%.
    BankingMode.PLAYER_BANK: (
        ("PG-BANK-SHORTFALL", "shortfall", (("shortfall", "amount", "shortfall_from_bank"),)),
        ("PG-BANK-SURPLUS", "surplus", (
            ("surplus", "surplus", "surplus"),
            ("vigorish", "vigorish", "surplus_vigorish"),
            ("paid to bank", "paid_to_bank", "surplus_to_bank"),
        )),
    ),
}  # fmt: skip
"""Each banking mode's bank flow events: the finding code, the round view's event, and its
amounts. The checks judge by it and the simulator labels by it."""


def flow_checks(
    view: RoundView, mode: BankingMode, owed: RoundSettlement | CentreFlows
) -> list[_FlowCheck]:
    """Return the bank flow events the banking mode records, each amount beside the one owed."""
    flows = BANK_FLOWS[
        BankingMode.CO_BANK if mode is BankingMode.CO_BANK else BankingMode.PLAYER_BANK
    ]
    checks: list[_FlowCheck] = []
    for code, attribute, amounts in flows:
        event = getattr(view, attribute)
        pairs = {
            name: (_field(event, field), getattr(owed, owing)) for name, field, owing in amounts
        }
        checks.append((code, event, pairs))
    return checks


def judge_bank(
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
    bank = facts.banker if facts.mode in CENTRE_MODES else None
    for code, event, amounts in flow_checks(view, facts.mode, settlement):
        _flows(emit, code, bank, [event], amounts)


def judge_balance(
    view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts
) -> None:
    """The centre of a banked layout pays out exactly what went in (PA 621a.9(o), (r))."""
    bank = view.bank
    if bank is None or facts.mode not in CENTRE_MODES or view.voided is not None:
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
        rule = cited(context, "co-bank-settlement" if split else "bank-settlement")
        flows = [e for e in (view.shortfall, view.surplus, split) if e is not None]
        emit("PG-SETTLE-UNBALANCED", position=bank.position,
             recorded=f"centre took in {to_dollars(taken_in)}, paid out {to_dollars(paid_out)}",
             expected="the centre pays out exactly what it took in",
             at_stake=to_dollars(abs(taken_in - paid_out)), events=flows or [bank],
             rule_key=rule)  # fmt: skip
