"""Rule sets as data: 21 Baccarat's options and the sections that state each rule.

A :class:`RuleSet` is a value; the engine's functions read its fields as
arguments. Pennsylvania's chapter 681a leaves three things to the certificate
holder: four or eight decks (681a.3(a)), a Bonus paytable allowed for that deck
count (681a.8(c)), and an automated shuffler, which brings two alternating
batches (681a.3(b)). How 681a.7(g) draws is a reading of the text, kept as an
option: one card to each hand under 17 as written (the default), or cards until 17
(see :mod:`.drawing`).

>>> PA_681A.decks, PA_681A.paytable.letter
(8, 'D')
>>> from audit.games.baccarat21.bonus import BonusHand
>>> PA_681A.with_options(decks=4, paytable="B").paytable.odds[BonusHand.STRAIGHT]
Odds(numerator=12, denominator=1)
>>> PA_681A.cite("bonus-card")
'PA 681a.7(f)(2)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from audit.games.baccarat21.bonus import BONUS_PAYTABLES, BonusPaytable
from audit.games.baccarat21.cards import DECK_COUNTS
from audit.games.baccarat21.drawing import DrawOrder, DrawRule
from audit.games.errors import RulesError


class UnknownRuleSetError(RulesError):
    """Raised for a rule-set name, option or citation key that does not exist or is not allowed."""


@dataclass(frozen=True)
class RuleSet:
    """One jurisdiction's 21 Baccarat rules, with the table's chosen options."""

    name: str
    title: str
    jurisdiction: str
    decks: int
    """PA 681a.3(a): four or eight."""
    paytable: BonusPaytable
    """PA 681a.8(c): A, B or C with four decks; D, E or F with eight."""
    batches: bool
    """PA 681a.3(b): an automated shuffler (not a continuous one) alternates two batches."""
    draw_rule: DrawRule
    """PA 681a.7(g): :attr:`DrawRule.ONE_CARD` as written, or a draw to 17 in either order."""
    citations: Mapping[str, str] = field(repr=False, compare=False)
    draw_order: DrawOrder = DrawOrder.ANY
    """PA 681a.7(f)(2), (g) give the draws no order; a house may require the Player's first."""

    def __post_init__(self) -> None:
        if not isinstance(self.draw_rule, DrawRule):
            raise UnknownRuleSetError(f"invalid draw rule: {self.draw_rule!r}")
        if not isinstance(self.draw_order, DrawOrder):
            raise UnknownRuleSetError(f"invalid draw order: {self.draw_order!r}")
        if not isinstance(self.batches, bool):
            raise UnknownRuleSetError(f"batches must be True or False: {self.batches!r}")
        if self.decks not in DECK_COUNTS:
            raise UnknownRuleSetError(f"21 baccarat uses four or eight decks, not {self.decks!r}")

    @property
    def paytable_fits(self) -> bool:
        """Return whether the paytable is one 681a.8(c) allows with the decks (A-C with four,
        D-F with eight). Only a table's options as recorded may break it (``with_options``)."""
        return self.paytable.decks == self.decks

    def cite(self, key: str) -> str:
        """Return the section this rule set cites for a rule key, e.g. ``'PA 681a.7(c)'``."""
        try:
            return self.citations[key]
        except KeyError:
            raise UnknownRuleSetError(f"{self.name} has no rule for {key!r}") from None

    def with_options(self, as_recorded: bool = False, **changes: Any) -> RuleSet:
        """Return a copy with options changed; a paytable may be given by its letter.

        Changing the decks without naming a paytable keeps the paytable's place in
        its list (A becomes D, and so on), since no table serves both deck counts. A
        paytable named for the other deck count is refused (681a.8(c)), unless
        ``as_recorded``: a table's options as it recorded them are kept for judging, and
        verification reports the pairing (see :attr:`paytable_fits`).

        >>> PA_681A.with_options(decks=4, paytable="E", as_recorded=True).paytable_fits
        False
        """
        known = {f.name for f in fields(self)} - {"name", "jurisdiction", "citations"}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise UnknownRuleSetError(f"unknown rule-set options: {unknown!r}")
        paytable = changes.get("paytable", self.paytable)
        if isinstance(paytable, str):
            if paytable not in BONUS_PAYTABLES:
                raise UnknownRuleSetError(
                    f"unknown paytable: {paytable!r} (one of {sorted(BONUS_PAYTABLES)})"
                )
            paytable = BONUS_PAYTABLES[paytable]
        decks = changes.get("decks", self.decks)
        if "paytable" not in changes and decks != self.decks:
            paytable = _matching_paytable(paytable, decks)
        changes["paytable"] = paytable
        if paytable.decks != decks and not as_recorded:
            raise UnknownRuleSetError(
                f"paytable {paytable.letter!r} is for {paytable.decks} decks, not {decks!r}"
            )
        return replace(self, **changes)

    def options(self) -> dict[str, str]:
        """Return the options as display strings, for the command line and reports."""
        return {
            "decks": str(self.decks),
            "paytable": self.paytable.letter,
            "batches": "two (automated shuffler)" if self.batches else "one",
            "draw_rule": self.draw_rule.value,
            "draw_order": self.draw_order.value,
        }


def _matching_paytable(paytable: BonusPaytable, decks: int) -> BonusPaytable:
    letters = {count: [t.letter for t in BONUS_PAYTABLES.values() if t.decks == count]
               for count in DECK_COUNTS}  # fmt: skip
    if decks not in letters:
        raise UnknownRuleSetError(f"21 baccarat uses four or eight decks, not {decks!r}")
    place = letters[paytable.decks].index(paytable.letter)
    return BONUS_PAYTABLES[letters[decks][place]]


# No section of ch. 681a governs the event record itself; say so, never invent one.
_RECORDS = "tablewatch record integrity (no gaming regulation)"

_PA_681A: dict[str, str] = {
    "hard-total": "PA 681a.1",
    "soft-total": "PA 681a.1",
    "natural": "PA 681a.1",
    "layout": "PA 681a.2(b)",
    "draw-inscription": "PA 681a.2(b)(7)(i)",
    "payout-signage": "PA 681a.2(b)(7)(ii)",
    "decks": "PA 681a.3(a)",
    "shoe-composition": "PA 681a.3(a)",
    "batches": "PA 681a.3(b)",
    "deck-change": "PA 681a.3(c)",
    "card-values": "PA 681a.3(d)",
    "soft-ace": "PA 681a.3(d)(3)",
    "bonus-hands": "PA 681a.3(e)",
    "bonus-pair": "PA 681a.3(e)(5)",
    "inspection": "PA 681a.4",
    "shuffle": "PA 681a.5(a)",
    "cut-offer": "PA 681a.5(b)",
    "cut": "PA 681a.5(c)",
    "cover-card": "PA 681a.5(d)",
    "recut": "PA 681a.5(e)",
    "reshuffle": "PA 681a.5(f), 681a.7(d)",
    "idle-table": "PA 681a.5(g)",
    "wager-areas": "PA 681a.6(a)",
    "wager-timing": "PA 681a.6(b)",
    "main-wager": "PA 681a.6(c)",
    "optional-wagers": "PA 681a.6(d)",
    "shoe": "PA 681a.7(a)",
    "card-placement": "PA 681a.7(b)",
    "burn": "PA 681a.7(c)",
    "deal-order": "PA 681a.7(e)",
    "natural-stop": "PA 681a.7(f)(1)",
    "bonus-card": "PA 681a.7(f)(2)",
    "draw": "PA 681a.7(g)",
    # 681a.7(g) gives the draws no order; a table's house procedure may (rule-set option).
    "draw-order": "PA 681a.7(g) (which gives no order; the house's draw_order option)",
    "settlement-order": "PA 681a.7(h)",
    "player-wager": "PA 681a.7(i)",
    "banker-wager": "PA 681a.7(j)",
    "tie-wager": "PA 681a.7(k)(1)",
    "bonus-wager": "PA 681a.7(k)(2)-(3)",
    # The published text numbers this paragraph "(1)"; it follows (k), so it is (l).
    "discard": "PA 681a.7(l)",
    "card-handling": "PA 681a.7(m)",
    "main-payout": "PA 681a.8(a)",
    "tie-payout": "PA 681a.8(b)",
    "bonus-payout": "PA 681a.8(c)",
    "face-up-card": "PA 681a.9(a)",
    "extra-card": "PA 681a.9(b)",
    "shuffler-jam": "PA 681a.9(c)",
    "shuffler-out-of-order": "PA 681a.9(d)",
    "records": _RECORDS,
}

PA_681A = RuleSet(
    name="pa-681a",
    title="Pennsylvania, 58 Pa. Code ch. 681a (21 Baccarat, 2016)",
    jurisdiction="PA",
    decks=8,
    paytable=BONUS_PAYTABLES["D"],
    batches=False,
    draw_rule=DrawRule.ONE_CARD,
    citations=MappingProxyType(_PA_681A),
)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (PA_681A,)}


def get_rule_set(name: str) -> RuleSet:
    """Return a rule set by name, e.g. ``'pa-681a'``."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise UnknownRuleSetError(
            f"unknown rule set: {name!r} (one of {sorted(RULE_SETS)})"
        ) from None
