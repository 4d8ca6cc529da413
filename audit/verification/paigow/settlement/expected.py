"""What the engine says a round should have settled: each wager's line, the bank's flows and
the dealer's wager, by the table's banking mode and rounding.

Each wager's outcome comes from the recorded hands through the engine
(``BankerSetting.outcome``). A wager whose outcome the hands cannot give (a hand missing,
a tile repeated, a setting out of order) is settled on its recorded outcome, and its
line is marked not derived: the arithmetic is still checked, the call is not. The bank's
flows are the engine's settlement of the whole round (how ``bank.py`` judges them is
said there).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from audit.games.errors import RulesError
from audit.games.money import Cents, decimal_cents
from audit.games.paigow.banking import settle_co_bank, settle_player_bank
from audit.games.paigow.california import settle_california
from audit.games.paigow.layout import Position
from audit.games.paigow.outcome import BankerSetting
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import (
    BankingMode,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
    settle_dealer_banked,
    settle_voided_round,
    settle_wager,
)
from audit.games.wagering import Outcome
from audit.verification.paigow.readings import hand_settings
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.facts import SettlementFacts, expected_order

_PLAYED = ("win", "push", "lose")


def hand_outcome(
    view: RoundView, ruleset: RuleSet, player: Position, banker: Position
) -> Outcome | None:
    settings = hand_settings(view)
    return outcome_against(settings.get(player), banker_setting(view, ruleset, banker))


def banker_setting(view: RoundView, ruleset: RuleSet, banker: Position) -> BankerSetting | None:
    """Return the banker's hands as set, read to decide wagers, if they were recorded."""
    theirs = hand_settings(view).get(banker)
    return None if theirs is None else BankerSetting(theirs, ruleset.ranking)


def outcome_against(mine: Setting | None, banker: BankerSetting | None) -> Outcome | None:
    """Return a player's outcome against the banker, ``None`` where the hands cannot decide it."""
    if mine is None or banker is None:
        return None
    try:
        return banker.outcome(mine)
    except RulesError:  # out of order, or tiles shared: PG-SET-* and PG-TILE-* report it
        return None


def expected_wagers(
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
    settings, banker = hand_settings(view), banker_setting(view, ruleset, facts.banker)
    for position in positions:
        amount = facts.stakes[position]
        if position in voided:  # PA 621a.10(d): returned
            yield Wager(position, amount, voided=True), True
        elif position in surrendered:  # PA 621a.8(e)
            yield Wager(position, amount, surrendered=True), True
        else:
            outcome = outcome_against(settings.get(position), banker)
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


def label(wager: Wager) -> str:
    """Return how a settlement records the wager's end: its outcome, surrendered or returned."""
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
    outcome = hand_outcome(view, ruleset, ruleset.layout.dealer, facts.banker)  # PA 621a.9(n)
    if outcome is not None:
        return DealerWager(amount, outcome), True, True
    recorded = view.dealer_wager_settled
    if recorded is None:
        return None, False, False
    return DealerWager(amount, Outcome(recorded.outcome)), False, True


def california_order(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> list[Position]:
    expected = expected_order(view, ruleset, facts) or sorted(facts.stakes)
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
        order = california_order(view, ruleset, facts)
        for wager_known in expected_wagers(view, ruleset, facts, order):
            if wager_known is None:
                break  # later coverage depends on this wager's result
            played.append(wager_known)
        known = {w.position: k for w, k in played}
        settled = settle_california([w for w, _ in played], facts.player_dealer)
        result.lines = {line.position: (line, known[line.position]) for line in settled.lines}
        return result
    rounding = ruleset.vig_rounding
    if rounding is None:
        return result
    found: list[tuple[Wager, bool]] = []
    complete = True
    order = expected_order(view, ruleset, facts) or sorted(facts.stakes)
    for wager_known in expected_wagers(view, ruleset, facts, order):
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
