"""Rule sets as data: each jurisdiction's options and the sections that state them.

A :class:`RuleSet` is a value. Where jurisdictions differ, the difference is a
field here, read by the engine's functions as an argument; nothing elsewhere
asks which jurisdiction it is in. Every rule a finding can cite has a stable
key in ``citations``.

>>> PA_2012.cite("starting-position")
'PA 621a.6(c)'
>>> NJ.cite("starting-position")
'NJ 19:47-10.6(c)'
>>> get_rule_set("california").layout.names[0]
'Player-Dealer'
>>> PA_2019.with_options(vig_rounding=VigRounding.CENT).vig_rounding
<VigRounding.CENT: 'cent'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from types import MappingProxyType
from typing import Any

from audit.games.errors import RulesError
from audit.games.paigow.collection import CollectionSchedule, collection_schedule
from audit.games.paigow.delivery import NJ_CITATIONS, PA_CITATIONS, DeliveryStyle
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING, HandRanking
from audit.games.paigow.house_way import CALIFORNIA, DEALER_RULE_MAX_LOW, HouseWay
from audit.games.paigow.layout import CALIFORNIA_LAYOUT, PA_NJ_LAYOUT, Position, TableLayout
from audit.games.paigow.pair_fortunes import ILLUSTRATIVE_PAYTABLE, Paytable
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.vigorish import VigRounding


class UnknownRuleSetError(RulesError):
    """Raised for a rule-set name, option or citation key that does not exist."""


@dataclass(frozen=True)
class RuleSet:
    """One jurisdiction's Pai Gow Tiles rules, with the table's configurable options."""

    name: str
    title: str
    jurisdiction: str
    ranking: HandRanking
    """Zero-zero hands: a copy to the banker (PA, CA) or broken on the tile (NJ)."""
    layout: TableLayout
    house_way: HouseWay
    """The casino's Rules Submission: how the dealer (and a co-bank) must set."""
    regulatory_dealer_rule: bool
    """PA 621a.8(d) / NJ 10.7(d) bind the dealer; a California player-dealer sets freely."""
    vig_rounding: VigRounding | None
    """``None`` where no vigorish is charged (California collects fees instead)."""
    vig_roundings_allowed: frozenset[VigRounding]
    player_banking: bool
    co_banking: bool
    adjacent_spots: bool
    """Whether a player may wager on two adjacent betting areas."""
    delivery_styles: frozenset[DeliveryStyle]
    default_delivery_style: DeliveryStyle
    styles_when_dealer_banks: frozenset[DeliveryStyle]
    """PA 621a.7 lets the dealer choose an alternative style; NJ offers them to the bank only."""
    style_citations: Mapping[DeliveryStyle, str]
    rng_allowed: bool
    """PA 621a.6(a)(1) allows a random number generator in place of the dice."""
    max_consecutive_banks: int
    """PA/NJ: a player may not bank two consecutive rounds; California: two, then it moves on."""
    collection_schedule: CollectionSchedule | None
    pair_fortunes: Paytable | None
    tile_change_hours: int | None
    dice_change_hours: int | None
    citations: Mapping[str, str] = field(repr=False, compare=False)

    @property
    def is_player_dealer_table(self) -> bool:
        """Whether the table has a California player-dealer: it settles from a button."""
        return self.layout.button_on_dealer is not None

    def banking_mode(self, bank_at: Position | None, *, co_bank: bool) -> BankingMode:
        """Return who banks a round, given where a bank was accepted and whether it co-banks.

        A California player-dealer banks every round, wherever it took the bank. Elsewhere
        a bank is a player's, accepted at that player's betting position (PA 621a.9(c),
        NJ 19:47-10.8(c)); one recorded anywhere else (the dealer's spot, the Dead Hand)
        is no player bank, and "the round of play shall proceed" as the dealer's.

        >>> PA_2019.banking_mode(3, co_bank=False).value
        'player_bank'
        >>> PA_2019.banking_mode(0, co_bank=True).value  # the dealer's own spot
        'dealer'
        """
        if self.is_player_dealer_table:
            return BankingMode.CALIFORNIA
        if bank_at is None or bank_at not in self.layout.betting:
            return BankingMode.DEALER
        return BankingMode.CO_BANK if co_bank else BankingMode.PLAYER_BANK

    def cite(self, key: str) -> str:
        """Return the section this rule set cites for a rule key, e.g. ``'PA 621a.6(c)'``."""
        try:
            return self.citations[key]
        except KeyError:
            raise UnknownRuleSetError(f"{self.name} has no rule for {key!r}") from None

    def with_options(self, **changes: Any) -> RuleSet:
        """Return a copy with some options changed, checking that each named option exists."""
        known = {f.name for f in fields(self)} - {"name", "jurisdiction", "citations"}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise UnknownRuleSetError(f"unknown rule-set options: {unknown!r}")
        rounding = changes.get("vig_rounding", self.vig_rounding)
        if rounding is not None and rounding not in self.vig_roundings_allowed:
            raise UnknownRuleSetError(f"{self.name} does not allow vigorish rounding {rounding!r}")
        return replace(self, **changes)

    def options(self) -> dict[str, str]:
        """Return the options as display strings, for the command line and reports."""
        shown = {}
        for f in fields(self):
            if f.name in ("name", "title", "citations", "style_citations", "layout", "ranking"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, CollectionSchedule):
                value = f"option {value.option}"
            elif isinstance(value, Paytable):
                value = "illustrative" if value == ILLUSTRATIVE_PAYTABLE else "custom"
            elif isinstance(value, frozenset):
                value = ", ".join(sorted(getattr(v, "value", str(v)) for v in value)) or "none"
            elif isinstance(value, Enum):  # as a table option names it: "quarter"
                value = value.value
            shown[f.name] = str(getattr(value, "name", value))
        shown["zero_hands"] = "copy to banker" if self.ranking.zero_hands_tie else "highest tile"
        return shown


_ALL_STYLES = frozenset(DeliveryStyle)

# No section of ch. 621a or 19:47-10 governs the event record itself; say so, never invent one.
_RECORDS = "tablewatch record integrity (no gaming regulation)"

# Rule keys every jurisdiction that has the rule cites; findings quote these.
_PA_2012: dict[str, str] = {
    "tile-set": "PA 621a.3(a)",
    "tile-change": "PA 621a.3(b)",
    "pair-ranking": "PA 621a.3(c)",
    "copy-hand": "PA 621a.3(d)",
    "value": "PA 621a.3(e)",
    "gee-joon": "PA 621a.3(f)",
    "zero-hands": "PA 621a.3(g)",
    "tile-ranking": "PA 621a.3(h)",
    "dice-change": "PA 621a.2(d)(1)",
    "tile-inspection": "PA 621a.4(a)",
    "mixing": "PA 621a.4(d)",
    "exposed-while-stacking": "PA 621a.4(e)",
    "wager-timing": "PA 621a.5(c)",
    "adjacent-spots": "PA 621a.5(d)",
    "shake": "PA 621a.6(a)(2)",
    "starting-position": "PA 621a.6(c)",
    "delivery": "PA 621a.6(d)",
    "alternative-delivery": "PA 621a.7",
    "unwagered-stacks": "PA 621a.6(e)",
    "shake-after-deal": "PA 621a.6(f)",
    "player-setting": "PA 621a.8(a)",
    "player-touch": "PA 621a.8(b)",
    "house-way": "PA 621a.8(b)",
    "dealer-setting": "PA 621a.8(d)",
    "surrender": "PA 621a.8(e)",
    "reveal-order": "PA 621a.8(f)",
    "wager-lose": "PA 621a.8(g)",
    "wager-push": "PA 621a.8(h)",
    "wager-win": "PA 621a.8(i)",
    "win-payout": "PA 621a.8(k)",
    "round-settlement": "PA 621a.8(g)-(k)",
    "vigorish": "PA 621a.8(k)",
    "player-banking": "PA 621a.9(a)",
    "bank-start-of-game": "PA 621a.9(b)",
    "bank-rotation": "PA 621a.9(c)",
    "bank-eligibility": "PA 621a.9(d)",
    "co-banking": "PA 621a.9(e)",
    "bank-one-spot": "PA 621a.9(f)",
    "bank-cut": "PA 621a.9(g)",
    "dealer-wager-vs-bank": "PA 621a.9(h)",
    "bank-delivery-style": "PA 621a.9(i)",
    "bank-starting-position": "PA 621a.9(j)",
    "dealer-vs-bank": "PA 621a.9(n)",
    "bank-settlement": "PA 621a.9(o)",
    "bank-vigorish": "PA 621a.9(q)",
    "co-bank-settlement": "PA 621a.9(r)",
    "no-roll": "PA 621a.10(a)",
    "wrong-deal": "PA 621a.10(c)",
    "exposed-player-tile": "PA 621a.10(d)",
    "exposed-dealer-tile": "PA 621a.10(e)",
    "dealer-reset": "PA 621a.10(f)",
    "records": _RECORDS,
}
# The 2019 amendment rewrote 621a.8: Pair Fortunes is (j), tile collection moved to (k)
# and the vigorish and paytables moved to 621a.11, which is not among our texts.
_PA_2019 = _PA_2012 | {
    "surrender": "PA 621a.8(e) (2019)",
    "wager-win": "PA 621a.8(i) (2019)",
    "win-payout": "PA 621a.8(i) (2019)",  # pays the winner; the odds are in 621a.11(a)
    "vigorish": "PA 621a.11(a)",
    "pair-fortunes": "PA 621a.8(j) (2019)",
    "pair-fortunes-paytable": "PA 621a.11(b)",
}
_NJ: dict[str, str] = {
    "tile-set": "NJ 19:47-10.2(a)",
    "pair-ranking": "NJ 19:47-10.2(b)",
    "copy-hand": "NJ 19:47-10.2(c)",
    "value": "NJ 19:47-10.2(d)",
    "gee-joon": "NJ 19:47-10.2(e)",
    "zero-hands": "NJ 19:47-10.7(h)",
    "tile-ranking": "NJ 19:47-10.2(g)",
    "dice-change": "NJ 19:47-10.3(c)",
    "tile-inspection": "NJ 19:47-10.4(a)",
    "mixing": "NJ 19:47-10.4(d)",
    "exposed-while-stacking": "NJ 19:47-10.4(e)",
    "wager-timing": "NJ 19:47-10.5(c)",
    "adjacent-spots": "NJ 19:47-10.10",
    "shake": "NJ 19:47-10.6(a)",
    "starting-position": "NJ 19:47-10.6(c)",
    "delivery": "NJ 19:47-10.6(d)",
    "alternative-delivery": "NJ 19:47-10.8(k)",
    "unwagered-stacks": "NJ 19:47-10.6(e)",
    "shake-after-deal": "NJ 19:47-10.6(f)",
    "player-setting": "NJ 19:47-10.7(a)",
    "player-touch": "NJ 19:47-10.7(b)",
    "house-way": "NJ 19:47-10.7(e)",
    "dealer-setting": "NJ 19:47-10.7(d)",
    "surrender": "NJ 19:47-10.7(f)",
    "reveal-order": "NJ 19:47-10.7(g)",
    "wager-lose": "NJ 19:47-10.7(h)",
    "wager-push": "NJ 19:47-10.7(i)",
    "wager-win": "NJ 19:47-10.7(j)",
    "win-payout": "NJ 19:47-10.7(k)",
    "round-settlement": "NJ 19:47-10.7(h)-(k)",
    "vigorish": "NJ 19:47-10.7(k)",
    "player-banking": "NJ 19:47-10.8(a)",
    "bank-start-of-game": "NJ 19:47-10.8(b)",
    "bank-rotation": "NJ 19:47-10.8(c)",
    "bank-eligibility": "NJ 19:47-10.8(d)",
    "co-banking": "NJ 19:47-10.8(e)",
    "bank-one-spot": "NJ 19:47-10.8(f)",
    "bank-cut": "NJ 19:47-10.8(g)",
    "dealer-wager-vs-bank": "NJ 19:47-10.8(h)",
    "bank-delivery-style": "NJ 19:47-10.8(i)",
    "bank-starting-position": "NJ 19:47-10.8(j)",
    "dealer-vs-bank": "NJ 19:47-10.8(n)",
    "bank-settlement": "NJ 19:47-10.8(o)",
    "bank-vigorish": "NJ 19:47-10.8(r)",
    "co-bank-settlement": "NJ 19:47-10.8(p)",
    "no-roll": "NJ 19:47-10.9(a)",
    "wrong-deal": "NJ 19:47-10.9(c)",
    "exposed-player-tile": "NJ 19:47-10.9(d)",
    "exposed-dealer-tile": "NJ 19:47-10.9(e)",
    "dealer-reset": "NJ 19:47-10.9(f)",
    "records": _RECORDS,
}
_CA_DOC = "CA Pai Gow Tiles"
_CA: dict[str, str] = {
    "pair-ranking": f"{_CA_DOC}, Tile Values and Hand Rankings",
    "copy-hand": f"{_CA_DOC}, Tile Values and Hand Rankings",
    "value": f"{_CA_DOC}, Tile Values and Hand Rankings",
    "zero-hands": f"{_CA_DOC}, Tile Values and Hand Rankings",
    "tile-ranking": f"{_CA_DOC}, Tile Values and Hand Rankings",
    "house-way": f"{_CA_DOC}, House Way",
    "starting-position": f"{_CA_DOC}, Method used to Determine Action",
    "action-button": f"{_CA_DOC}, Method used to Determine Action",
    "delivery": f"{_CA_DOC}, Dealing Procedures and Round of Play",
    "wager-timing": f"{_CA_DOC}, Dealing Procedures and Round of Play",
    "wager-lose": f"{_CA_DOC}, How Winners are Determined and Paid",
    "wager-push": f"{_CA_DOC}, How Winners are Determined and Paid",
    "wager-win": f"{_CA_DOC}, How Winners are Determined and Paid",
    "win-payout": f"{_CA_DOC}, How Winners are Determined and Paid",
    "round-settlement": f"{_CA_DOC}, How Winners are Determined and Paid",
    "tile-set": f"{_CA_DOC}, Description and Number of Tiles Used",
    "player-setting": f"{_CA_DOC}, Dealing Procedures and Round of Play",
    "records": _RECORDS,
    "player-dealer-coverage": f"{_CA_DOC}, Type of Game",
    "settlement-order": f"{_CA_DOC}, Method used to Determine Action",
    "bank-rotation": f"{_CA_DOC}, Type of Game",
    "collection": f"{_CA_DOC}, Collection Rates Schedule",
}

PA_2012 = RuleSet(
    name="pa-2012",
    title="Pennsylvania, 58 Pa. Code ch. 621a (2012)",
    jurisdiction="PA",
    ranking=PA_RANKING,
    layout=PA_NJ_LAYOUT,
    house_way=DEALER_RULE_MAX_LOW,
    regulatory_dealer_rule=True,
    vig_rounding=VigRounding.CENT,
    vig_roundings_allowed=frozenset(VigRounding),
    player_banking=True,
    co_banking=True,
    adjacent_spots=True,
    delivery_styles=_ALL_STYLES,
    default_delivery_style=DeliveryStyle.HOUSE_WAY_RIGHT,
    styles_when_dealer_banks=_ALL_STYLES,
    style_citations=MappingProxyType(PA_CITATIONS),
    rng_allowed=True,
    max_consecutive_banks=1,
    collection_schedule=None,
    pair_fortunes=None,
    tile_change_hours=12,
    dice_change_hours=24,
    citations=MappingProxyType(_PA_2012),
)
PA_2019 = replace(
    PA_2012,
    name="pa-2019",
    title="Pennsylvania, ch. 621a with the 2019 § 621a.8 (Pair Fortunes)",
    pair_fortunes=ILLUSTRATIVE_PAYTABLE,
    citations=MappingProxyType(_PA_2019),
)
NJ = RuleSet(
    name="nj",
    title="New Jersey, N.J.A.C. 19:47-10",
    jurisdiction="NJ",
    ranking=NJ_RANKING,
    layout=PA_NJ_LAYOUT,
    house_way=DEALER_RULE_MAX_LOW,
    regulatory_dealer_rule=True,
    vig_rounding=VigRounding.CENT,
    vig_roundings_allowed=frozenset(VigRounding),
    player_banking=True,
    co_banking=True,
    adjacent_spots=True,
    delivery_styles=_ALL_STYLES,
    default_delivery_style=DeliveryStyle.HOUSE_WAY_RIGHT,
    # NJ 10.6(d) fixes the dealer's delivery; the ten styles of 10.8(k) are the bank's.
    styles_when_dealer_banks=frozenset({DeliveryStyle.HOUSE_WAY_RIGHT}),
    style_citations=MappingProxyType(NJ_CITATIONS),
    rng_allowed=False,
    max_consecutive_banks=1,
    collection_schedule=None,
    pair_fortunes=None,
    tile_change_hours=None,
    dice_change_hours=24,
    citations=MappingProxyType(_NJ),
)
CALIFORNIA_RULES = RuleSet(
    name="california",
    title="California Pai Gow Tiles (player-dealer, collection schedule)",
    jurisdiction="CA",
    ranking=PA_RANKING,
    layout=CALIFORNIA_LAYOUT,
    house_way=CALIFORNIA,
    regulatory_dealer_rule=False,
    vig_rounding=None,
    vig_roundings_allowed=frozenset(),
    player_banking=True,
    co_banking=False,
    adjacent_spots=False,
    delivery_styles=frozenset({DeliveryStyle.HOUSE_WAY_RIGHT}),
    default_delivery_style=DeliveryStyle.HOUSE_WAY_RIGHT,
    styles_when_dealer_banks=frozenset({DeliveryStyle.HOUSE_WAY_RIGHT}),
    style_citations=MappingProxyType({DeliveryStyle.HOUSE_WAY_RIGHT: _CA["delivery"]}),
    rng_allowed=False,
    max_consecutive_banks=2,
    collection_schedule=collection_schedule(1),
    pair_fortunes=None,
    tile_change_hours=None,
    dice_change_hours=None,
    citations=MappingProxyType(_CA),
)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (PA_2012, PA_2019, NJ, CALIFORNIA_RULES)}


def get_rule_set(name: str) -> RuleSet:
    """Return a rule set by name, e.g. ``'pa-2019'``."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise UnknownRuleSetError(
            f"unknown rule set: {name!r} (one of {sorted(RULE_SETS)})"
        ) from None
