"""Every finding kind cites a paragraph of its rule set: checked for both games.

A kind whose own rule key no rule set of its game cites could never be raised; a
citation that spans paragraphs (``621a.8(g)-(k)``) names none of them. The golden
file ``kinds_by_rule_set.json`` holds which kinds apply under which rule set (the
accounting's and the screens' too), and what each cites there, so a change to either is a
visible, reviewed diff; ``tablewatch schema --findings-by-rule-set`` regenerates it.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from audit.floor.reference import render_kinds_by_rule_set
from audit.games.baccarat21.rulesets import RULE_SETS as B21_RULE_SETS
from audit.games.paigow.rulesets import RULE_SETS as PAIGOW_RULE_SETS
from audit.verification.baccarat21.kinds import KINDS as B21_KINDS
from audit.verification.paigow.kinds import KINDS as PAIGOW_KINDS

GOLDEN = Path(__file__).with_name("kinds_by_rule_set.json")
GAMES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (PAIGOW_KINDS, PAIGOW_RULE_SETS),
    (B21_KINDS, B21_RULE_SETS),
]
SPANS_ALLOWED = {
    # A round's money as a whole (PG-SETTLE-UNBALANCED), and a settlement whose end no
    # single paragraph gives: every paragraph of the round's settlement is in play.
    "round-settlement",
    # The Bonus wager's two payout paragraphs, Banker and Player, judged as one wager.
    "bonus-wager",
}
SPAN = re.compile(r"\)-\(")


def applicable(kinds, rule_set):
    return {code: rule_set.citations[kind.rule_key] for code, kind in sorted(kinds.items())
            if kind.rule_key in rule_set.citations}  # fmt: skip


@pytest.mark.parametrize(("kinds", "rule_sets"), GAMES, ids=["paigow", "baccarat21"])
def test_every_kind_is_cited_by_some_rule_set_of_its_game(kinds, rule_sets):
    cited = set().union(*(r.citations for r in rule_sets.values()))
    assert sorted(k.code for k in kinds.values() if k.rule_key not in cited) == []


@pytest.mark.parametrize(
    ("key", "citation"),
    sorted({(k, v) for _, sets in GAMES for r in sets.values() for k, v in r.citations.items()}),
)
def test_each_citation_names_a_paragraph_not_a_span(key, citation):
    if key not in SPANS_ALLOWED:
        assert not SPAN.search(citation), f"{key}: {citation}"


def test_which_kinds_apply_under_which_rule_set_is_the_golden_table():
    assert GOLDEN.read_text() == render_kinds_by_rule_set(), (
        "kinds or citations changed: if meant, regenerate with "
        "tablewatch schema --findings-by-rule-set > tests/unit/floor/kinds_by_rule_set.json"
    )


def test_a_round_kind_applies_where_its_rule_set_cites_it():
    golden = json.loads(GOLDEN.read_text())
    for kinds, rule_sets in GAMES:
        for rule_set in rule_sets.values():
            rounds = {c: t for c, t in golden[rule_set.name].items() if c in kinds}
            assert rounds == applicable(kinds, rule_set)


def test_each_rule_set_has_its_own_findings():
    golden = {name: set(codes) for name, codes in json.loads(GOLDEN.read_text()).items()}
    assert golden["pa-2019"] - golden["pa-2012"] == {"PG-PF-PAYOUT"}  # Pair Fortunes
    assert {"PG-CA-COVERAGE", "PG-CA-ORDER", "PG-CA-FEE"} <= golden["california"]
    assert not any(code.startswith("PG-SETTLE-VIG") for code in golden["california"])
    assert "PG-EQ-TILES-OVERDUE" in golden["pa-2012"] - golden["nj"]  # NJ sets no interval
    assert not any(code.startswith("PG-") for code in golden["pa-681a"])
    assert all("ACC-WIN-VARIANCE" in codes for codes in golden.values())


def test_the_settlement_findings_cite_paragraphs_of_their_own():
    pa = applicable(PAIGOW_KINDS, PAIGOW_RULE_SETS["pa-2012"])
    # The checks pass narrower keys (settlement_rule); each must be cited to a paragraph.
    for key in ("wager-lose", "wager-push", "wager-win", "win-payout", "surrender"):
        citation = PAIGOW_RULE_SETS["pa-2012"].citations[key]
        assert re.fullmatch(r"PA 621a\.8\([a-k]\)", citation), (key, citation)
    assert pa["PG-SETTLE-VIG-SHORT"] == "PA 621a.8(k)"
