"""Rule sets as data: each jurisdiction's options, and a citation for every rule key."""

import pytest

from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING
from audit.games.paigow.house_way import CALIFORNIA, DEALER_RULE_MAX_LOW
from audit.games.paigow.layout import CALIFORNIA_LAYOUT, PA_NJ_LAYOUT
from audit.games.paigow.rulesets import (
    CALIFORNIA_RULES,
    NJ,
    PA_2012,
    PA_2019,
    RULE_SETS,
    UnknownRuleSetError,
    get_rule_set,
)
from audit.games.paigow.vigorish import VigRounding

# Keys a PA or NJ finding may cite; each must resolve in both jurisdictions.
SHARED_KEYS = [
    "pair-ranking", "copy-hand", "value", "gee-joon", "zero-hands", "tile-ranking",
    "dice-change", "tile-inspection", "mixing", "exposed-while-stacking", "wager-timing",
    "adjacent-spots", "shake", "starting-position", "delivery", "alternative-delivery",
    "unwagered-stacks", "player-setting", "house-way", "dealer-setting", "surrender",
    "reveal-order", "wager-lose", "wager-push", "wager-win", "vigorish", "player-banking",
    "bank-start-of-game", "bank-rotation", "bank-eligibility", "co-banking", "bank-one-spot",
    "bank-cut", "dealer-wager-vs-bank", "bank-starting-position", "dealer-vs-bank",
    "bank-settlement", "bank-vigorish", "co-bank-settlement", "no-roll", "wrong-deal",
    "exposed-player-tile", "exposed-dealer-tile", "dealer-reset",
]  # fmt: skip


def test_registry_holds_each_rule_set_under_its_name():
    assert sorted(RULE_SETS) == ["california", "nj", "pa-2012", "pa-2019"]
    for name, ruleset in RULE_SETS.items():
        assert get_rule_set(name) is ruleset


@pytest.mark.parametrize("key", SHARED_KEYS)
def test_pa_and_nj_cite_their_own_sections(key):
    assert PA_2012.cite(key).startswith("PA 621a.")
    assert NJ.cite(key).startswith("NJ 19:47-10.")


@pytest.mark.parametrize(
    ("ruleset", "key", "citation"),
    [
        (PA_2012, "starting-position", "PA 621a.6(c)"),
        (NJ, "starting-position", "NJ 19:47-10.6(c)"),
        (PA_2012, "bank-starting-position", "PA 621a.9(j)"),
        (NJ, "bank-vigorish", "NJ 19:47-10.8(r)"),
        (PA_2012, "dealer-setting", "PA 621a.8(d)"),
        (PA_2012, "vigorish", "PA 621a.8(k)"),
        # The 2019 amendment moved the vigorish to 621a.11(a) and added Pair Fortunes.
        (PA_2019, "vigorish", "PA 621a.11(a)"),
        (PA_2019, "pair-fortunes", "PA 621a.8(j) (2019)"),
    ],
)
def test_citations(ruleset, key, citation):
    assert ruleset.cite(key) == citation


def test_rules_a_jurisdiction_lacks_have_no_citation():
    with pytest.raises(UnknownRuleSetError, match="'vigorish'"):
        CALIFORNIA_RULES.cite("vigorish")
    with pytest.raises(UnknownRuleSetError, match="'pair-fortunes'"):
        PA_2012.cite("pair-fortunes")
    assert CALIFORNIA_RULES.cite("collection").startswith("CA Pai Gow Tiles")


def test_jurisdictional_differences_are_options():
    # Zero-zero: PA 621a.3(g) and CA give it to the banker; NJ 19:47-10.2 has no such clause.
    assert PA_2012.ranking is PA_RANKING
    assert CALIFORNIA_RULES.ranking is PA_RANKING
    assert NJ.ranking is NJ_RANKING
    # NJ offers the alternative styles to a player bank only (10.6(d), 10.8(i)); PA 621a.7
    # lets the dealer choose them too.
    assert NJ.styles_when_dealer_banks == {DeliveryStyle.HOUSE_WAY_RIGHT}
    assert PA_2012.styles_when_dealer_banks == set(DeliveryStyle)
    assert PA_2012.rng_allowed
    assert not NJ.rng_allowed
    # California: seven seats and a player-dealer, no vigorish, fees, two banks running.
    assert CALIFORNIA_RULES.layout is CALIFORNIA_LAYOUT
    assert NJ.layout is PA_NJ_LAYOUT
    assert CALIFORNIA_RULES.vig_rounding is None
    assert CALIFORNIA_RULES.collection_schedule is not None
    assert (PA_2012.max_consecutive_banks, CALIFORNIA_RULES.max_consecutive_banks) == (1, 2)
    assert not CALIFORNIA_RULES.regulatory_dealer_rule
    assert PA_2012.regulatory_dealer_rule
    assert CALIFORNIA_RULES.house_way is CALIFORNIA
    assert NJ.house_way is DEALER_RULE_MAX_LOW
    # Pair Fortunes arrives with the 2019 amendment only.
    assert PA_2012.pair_fortunes is None
    assert PA_2019.pair_fortunes is not None


def test_with_options_changes_a_table_option():
    quartered = PA_2012.with_options(vig_rounding=VigRounding.QUARTER, adjacent_spots=False)
    assert quartered.vig_rounding is VigRounding.QUARTER
    assert not quartered.adjacent_spots
    assert PA_2012.vig_rounding is VigRounding.CENT


def test_with_options_refuses_unknown_or_disallowed_options():
    with pytest.raises(UnknownRuleSetError, match="'colour'"):
        PA_2012.with_options(colour="red")
    with pytest.raises(UnknownRuleSetError, match="vigorish rounding"):
        CALIFORNIA_RULES.with_options(vig_rounding=VigRounding.CENT)


def test_unknown_rule_set_names_the_input():
    with pytest.raises(UnknownRuleSetError, match="'ohio'"):
        get_rule_set("ohio")


@pytest.mark.parametrize("ruleset", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_every_rule_set_is_consistent(ruleset):
    assert ruleset.default_delivery_style in ruleset.delivery_styles
    assert ruleset.styles_when_dealer_banks <= ruleset.delivery_styles
    assert set(ruleset.style_citations) >= ruleset.delivery_styles
    assert ruleset.cite("starting-position")
    assert ruleset.cite("house-way")
    if ruleset.vig_rounding is not None:
        assert ruleset.vig_rounding in ruleset.vig_roundings_allowed
    assert "zero_hands" in ruleset.options()


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_only_california_is_a_player_dealer_table(name):
    """A player-dealer table settles from a button on the dealer's spot (Cal. Penal Code 330.11);
    PA and NJ tables are banked by the house or a player at a betting position."""
    assert RULE_SETS[name].is_player_dealer_table is (name == "california")
