"""The rule set as data: options allowed by the text, and a citation for every rule key."""

import re

import pytest

from audit.games.baccarat21.bonus import BONUS_PAYTABLES
from audit.games.baccarat21.drawing import DrawRule
from audit.games.baccarat21.irregularities import IRREGULARITIES
from audit.games.baccarat21.rulesets import PA_681A, UnknownRuleSetError, get_rule_set

ALLOWED = {4: "ABC", 8: "DEF"}  # PA 681a.8(c): the paytables by the number of decks


def test_get_rule_set():
    assert get_rule_set("pa-681a") is PA_681A
    with pytest.raises(UnknownRuleSetError, match="'nj'"):
        get_rule_set("nj")


@pytest.mark.parametrize("decks", [4, 8])
@pytest.mark.parametrize("letter", "ABCDEF")
def test_paytables_only_with_their_deck_count(decks, letter):
    if letter in ALLOWED[decks]:
        rules = PA_681A.with_options(decks=decks, paytable=letter)
        assert rules.paytable is BONUS_PAYTABLES[letter]
        assert rules.options()["paytable"] == letter
    else:
        with pytest.raises(UnknownRuleSetError, match=repr(letter)):
            PA_681A.with_options(decks=decks, paytable=letter)


def test_changing_decks_moves_to_the_matching_paytable():
    assert PA_681A.with_options(paytable="E").with_options(decks=4).paytable.letter == "B"


def test_options_are_checked():
    with pytest.raises(UnknownRuleSetError, match="'colour'"):
        PA_681A.with_options(colour="red")
    with pytest.raises(UnknownRuleSetError, match="6"):
        PA_681A.with_options(decks=6)
    with pytest.raises(UnknownRuleSetError, match="'G'"):
        PA_681A.with_options(paytable="G")
    with pytest.raises(UnknownRuleSetError):
        PA_681A.with_options(draw_rule="one_card")
    rules = PA_681A.with_options(draw_rule=DrawRule.TO_17_ALTERNATE, batches=True)
    assert rules.batches
    assert rules.options()["draw_rule"] == "to_17_alternate"
    assert PA_681A.draw_rule is DrawRule.ONE_CARD  # 681a.7(g) as written


def test_every_citation_is_a_section_of_681a_or_says_it_is_none():
    for key, citation in PA_681A.citations.items():
        assert re.fullmatch(r"PA 681a\.\d(\([a-z0-9]+\))*(.*)", citation) or key == "records"
    with pytest.raises(UnknownRuleSetError, match="'nope'"):
        PA_681A.cite("nope")


@pytest.mark.parametrize("key", sorted(IRREGULARITIES))
def test_every_irregularity_cites_a_rule(key):
    entry = IRREGULARITIES[key]
    assert entry.rule == key
    assert PA_681A.cite(key).startswith("PA 681a.")


def test_the_four_irregularities_of_681a_9_have_remedies():
    with_remedy = {k for k, v in IRREGULARITIES.items() if v.remedy}
    assert {PA_681A.cite(k) for k in with_remedy} == {f"PA 681a.9({p})" for p in "abcd"}
