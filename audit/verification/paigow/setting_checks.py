"""Setting the hands: order, the dealer's house way and regulatory rule, and late surrenders.

PA 621a.8(a)-(e), 621a.9(e), 621a.10(f); NJ 19:47-10.7(a)-(f), 10.8(e), 10.9(f). Each
check judges the hands as finally set (``RoundView.hands`` keeps the last ``hand_set``
of a position, so a hand reset under 621a.10(f) is judged as reset). A hand whose
tiles are unknown or repeated is another module's finding (PG-TILE-*); here it is
skipped, never guessed at.

Every earlier setting is kept too (``RoundView.resets``) and judged by who set the
hand again: a player who touches the tiles after placing them face down breaks
621a.8(b); the dealer may touch a player's tiles (8(b)), and resets its own or the
bank's hands when they were set against the house way (10(f)), so those are traces
(info) an analyst can see, not breaches.
"""

from __future__ import annotations

from decimal import Decimal

from audit.events.paigow.play import HandSet
from audit.events.paigow.wagers import WagerKind
from audit.findings.finding import ZERO
from audit.games.errors import RulesError
from audit.games.paigow.dealer_rule import complies, permitted_settings
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting, is_ordered
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.readings import banking, hand_settings, same_setting
from audit.verification.paigow.round_view import RoundView


def _pai_gow_action(view: RoundView, exclude: int) -> Decimal:
    """Return the Pai Gow wagers placed (less any withdrawn) at every position but one."""
    total = ZERO
    for _, placed in view.placed:
        if placed.kind is WagerKind.PAI_GOW and placed.position != exclude:
            total += placed.amount
    for _, withdrawn in view.withdrawn:
        if withdrawn.kind is WagerKind.PAI_GOW and withdrawn.position != exclude:
            total -= withdrawn.amount
    return max(total, ZERO)


def _house_set_hands(view: RoundView, ruleset: RuleSet) -> list[HandSet]:
    """Return the hands the house sets.

    PA 621a.8(c), (d): the dealer's own hand, in a dealer-banked round or when the
    dealer wagers against a player bank (9(n)); PA 621a.9(e): when co-banking, the
    dealer also sets the co-bank's hand, "as specified in the ... Rules Submission".
    A California player-dealer is a player and sets freely: nothing here.
    """
    if ruleset.is_player_dealer_table:
        return []
    dealer = ruleset.layout.dealer
    found = [view.hands[dealer]] if dealer in view.hands else []
    who = banking(view, ruleset)
    if who.mode is BankingMode.CO_BANK and who.bank in view.hands and who.bank != dealer:
        found.append(view.hands[who.bank])
    return found


def _at_risk(view: RoundView, ruleset: RuleSet, position: int) -> Decimal:
    """Return the Pai Gow money a hand decides: a player's wager, or all the action it banks."""
    dealer = ruleset.layout.dealer
    bank = banking(view, ruleset).bank
    if position == dealer and bank is not None:
        # Against a player bank the dealer plays only its own wager (PA 621a.9(h), (n)).
        return view.dealer_wager.amount if view.dealer_wager else ZERO
    if position in (dealer, bank):
        return _pai_gow_action(view, position)  # the banker's hand decides every wager
    return sum((w.amount for w in view.pai_gow_wagers().get(position, [])), ZERO)


def _misordered(view: RoundView, context: TableContext, emit: Emit) -> None:
    """PA 621a.8(a) / NJ 10.7(a): a high hand and a low hand, the high ranking at least as high."""
    ranking = context.ruleset.ranking
    settings = hand_settings(view)
    for position, hand in sorted(view.hands.items()):
        setting = settings[position]
        if setting is None or is_ordered(setting, ranking):
            continue
        emit("PG-SET-MISORDERED", position=position,
             recorded=f"{' '.join(hand.high)} / {' '.join(hand.low)}",
             expected=str(Setting(setting.low, setting.high)),
             exposure=_at_risk(view, context.ruleset, position), events=[hand])  # fmt: skip


def _house_way(view: RoundView, context: TableContext, emit: Emit) -> None:
    """PA 621a.10(f) / NJ 10.9(f): a dealer's or co-bank's hand off the house way is reset."""
    ruleset = context.ruleset
    for hand in _house_set_hands(view, ruleset):
        setting = hand_settings(view)[hand.position]
        if setting is None:
            continue
        try:
            expected = ruleset.house_way.setting(setting.tiles, ruleset.ranking)
        except RulesError:
            continue
        if not same_setting(setting, expected, ruleset.ranking):
            emit("PG-SET-HOUSE-WAY", position=hand.position, recorded=str(setting),
                 expected=f"{expected} ({ruleset.house_way.name})",
                 exposure=_at_risk(view, ruleset, hand.position),
                 events=[hand])  # fmt: skip


def _dealer_rule(view: RoundView, context: TableContext, emit: Emit) -> None:
    """PA 621a.8(d) / NJ 10.7(d): the dealer's own hand within the regulatory dealer rule.

    The co-bank's hand is the bank's, set by the Rules Submission (9(e)), so only the
    house way binds it.
    """
    ruleset = context.ruleset
    if not ruleset.regulatory_dealer_rule or ruleset.is_player_dealer_table:
        return
    dealer = ruleset.layout.dealer
    hand = view.hands.get(dealer)
    setting = hand_settings(view).get(dealer)
    if hand is None or setting is None:
        return
    if complies(setting, ruleset.ranking):  # one lookup; the permitted set only to show it
        return
    permitted = permitted_settings(setting.tiles, ruleset.ranking)
    emit("PG-SET-DEALER-RULE", position=dealer, recorded=str(setting),
         expected=" or ".join(sorted(str(s) for s in permitted)),
         exposure=_at_risk(view, ruleset, dealer), events=[hand])  # fmt: skip


def _late_surrender(view: RoundView, context: TableContext, emit: Emit) -> None:
    """PA 621a.8(e) / NJ 10.7(f): surrender is announced before that player's hands are exposed."""
    for index, surrendered in view.surrenders:
        revealed = view.reveals.get(surrendered.position)
        if revealed is None or revealed > index:
            continue
        wagered = sum((w.amount for w in view.pai_gow_wagers().get(surrendered.position, [])), ZERO)
        emit("PG-SET-SURRENDER-LATE", position=surrendered.position,
             recorded="surrendered after the hands were revealed",
             expected="surrender before the player's hands are exposed", exposure=wagered,
             events=[view.events[revealed], surrendered])  # fmt: skip


def _banker_positions(view: RoundView, ruleset: RuleSet) -> set[int]:
    """Return the positions whose hands the players' are compared with: dealer and bank."""
    if ruleset.is_player_dealer_table:
        return set()  # the California player-dealer is a player and sets as one
    bank = banking(view, ruleset).bank
    return {ruleset.layout.dealer, *((bank,) if bank is not None else ())}


def _resets(view: RoundView, context: TableContext, emit: Emit) -> None:
    """PA 621a.8(b), 10(f) / NJ 10.7(b), 10.9(f): each hand set again, judged by who did it."""
    if not view.resets:
        return
    ruleset = context.ruleset
    bankers = _banker_positions(view, ruleset)
    banker_set = min((view.events.index(view.hands[p]) for p in bankers if p in view.hands),
                     default=None)  # fmt: skip
    for index, earlier, later in view.resets:
        position = later.position
        shown = f"{' '.join(earlier.high)} / {' '.join(earlier.low)}, then "
        shown += f"{' '.join(later.high)} / {' '.join(later.low)} by the {later.set_by}"
        if position in bankers:
            emit("PG-SET-DEALER-RESET", position=position, recorded=shown,
                 expected="a reset only to bring the hands to the house way",
                 events=[earlier, later])  # fmt: skip
        elif later.set_by != "player":
            emit("PG-SET-CORRECTED", position=position, recorded=shown,
                 expected="the player sets the hands; the dealer may only touch them",
                 events=[earlier, later])  # fmt: skip
        else:
            # After the banker's hands were set, a reset could be made knowing them.
            seen = banker_set is not None and banker_set < index
            emit("PG-SET-RESET", position=position,
                 recorded=shown + (", after the banker's hands were set" if seen else ""),
                 expected="no touching the tiles once placed face down",
                 exposure=_at_risk(view, ruleset, position) if seen else ZERO,
                 events=[earlier, later])  # fmt: skip


CHECKS: tuple[Check, ...] = (_misordered, _house_way, _dealer_rule, _late_surrender, _resets)
