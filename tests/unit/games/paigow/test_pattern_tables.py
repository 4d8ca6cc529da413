"""The shipped pattern tables are the rules' own answers, and the rules read them.

test_house_way.py and test_dealer_rule.py hold the tables to the naive procedures deal by
deal; here the shipped module is checked against the rules, pattern by pattern, and a table
that is missing is still worked out.
"""

import random

import pytest

from audit.games.paigow import dealer_rule, pattern_tables
from audit.games.paigow.deals import DealTable, all_deals, deal_mask, kind_pattern
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING
from audit.games.paigow.house_way import HOUSE_WAYS
from audit.games.paigow.pattern_tables_data import TABLES

REGENERATE = "python -m audit.games.paigow.pattern_tables"


def test_patterns_are_every_deals_kind_pattern_once_ascending():
    patterns = {kind_pattern(deal) for deal in all_deals()}
    assert tuple(sorted(patterns)) == pattern_tables.PATTERNS


def test_a_table_is_shipped_for_every_rule_and_ranking():
    assert set(TABLES) == set(pattern_tables.rules()), f"run {REGENERATE}"
    assert len(TABLES) == 2 * (1 + len(HOUSE_WAYS))


def test_the_shipped_module_is_as_the_generator_writes_it():
    """Not edited by hand: written from its tables, it is the same text."""
    tables = {name: bytes.fromhex(answers) for name, answers in TABLES.items()}
    assert pattern_tables.module_text(tables) == pattern_tables.MODULE.read_text(), REGENERATE


@pytest.mark.parametrize("name", sorted(pattern_tables.rules()))
def test_each_shipped_table_is_its_rule_worked_out(name, monkeypatch):
    # Worked out from the rules alone: the max-low house way reads the dealer rule's table.
    monkeypatch.setattr(pattern_tables, "_reading", False)
    monkeypatch.setattr(dealer_rule, "_CODES", {})
    worked_out = pattern_tables.work_out(pattern_tables.rules()[name])
    monkeypatch.setattr(pattern_tables, "_reading", True)
    shipped = pattern_tables.shipped(name)
    assert shipped is not None
    assert bytes(shipped[p] for p in pattern_tables.PATTERNS) == worked_out, f"run {REGENERATE}"


def test_an_unshipped_table_is_none():
    assert pattern_tables.shipped(pattern_tables.house_way_table("not-a-way", True)) is None


@pytest.mark.parametrize("ranking", [PA_RANKING, NJ_RANKING], ids=["pa", "nj"])
@pytest.mark.parametrize("way", HOUSE_WAYS.values(), ids=list(HOUSE_WAYS))
def test_a_table_without_shipped_codes_sets_every_deal_alike(way, ranking):
    """Where no table is shipped (a house way being added), the rule is worked out instead."""
    shipped = way.table(ranking)
    worked = DealTable(lambda deal: way.procedure(deal, ranking))
    deals = random.Random(16).sample(list(all_deals()), 3_000)
    assert [worked[deal_mask(d)] for d in deals] == [shipped[deal_mask(d)] for d in deals]
