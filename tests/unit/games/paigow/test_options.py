"""Table options (audit/games/paigow/options.py): every option taken, every bad one named."""

import pytest

from audit.games.paigow.collection import COLLECTION_SCHEDULES
from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.options import DEFAULT_RULE_SET, TABLE_OPTIONS, apply_options, rule_set_for
from audit.games.paigow.pair_fortunes import ILLUSTRATIVE_PAYTABLE
from audit.games.paigow.rulesets import RULE_SETS, get_rule_set
from audit.games.paigow.vigorish import VigRounding


@pytest.mark.parametrize(
    ("rule_set", "options", "field", "value"),
    [
        ("pa-2012", {"vig_rounding": "quarter"}, "vig_rounding", VigRounding.QUARTER),
        ("nj", {"house_way": "california-posted"}, "house_way", "california-posted"),
        ("pa-2019", {"player_banking": "no"}, "player_banking", False),
        ("pa-2019", {"co_banking": "false"}, "co_banking", False),
        ("nj", {"adjacent_spots": "0"}, "adjacent_spots", False),
        ("pa-2012", {"default_delivery_style": "chee_yee"}, "default_delivery_style",
         DeliveryStyle.CHEE_YEE),
        ("california", {"collection_schedule": "3"}, "collection_schedule",
         COLLECTION_SCHEDULES[3]),
        ("pa-2019", {"pair_fortunes": "off"}, "pair_fortunes", None),
        ("pa-2019", {"pair_fortunes": "illustrative"}, "pair_fortunes", ILLUSTRATIVE_PAYTABLE),
        ("pa-2012", {"tile_change_hours": "8"}, "tile_change_hours", 8),
        ("nj", {"dice_change_hours": "12"}, "dice_change_hours", 12),
    ],
)  # fmt: skip
def test_each_option_is_taken(rule_set, options, field, value):
    rules, problems = apply_options(get_rule_set(rule_set), options)
    assert problems == []
    got = getattr(rules, field)
    assert (got.name if field == "house_way" else got) == value


@pytest.mark.parametrize(
    ("rule_set", "options", "reason"),
    [
        ("pa-2012", {"vig_roundng": "quarter"}, "not a table option"),
        ("pa-2012", {"vig_rounding": "quater"}, "not one of ['cent', 'quarter']"),
        ("california", {"vig_rounding": "cent"}, "california takes no vigorish"),
        ("california", {"co_banking": "true"}, "california does not allow it"),
        ("pa-2012", {"player_banking": "maybe"}, "not one of"),
        ("california", {"collection_schedule": "11"}, "not one of ['1', '2'"),
        ("pa-2012", {"collection_schedule": "3"}, "pa-2012 has no collection schedule"),
        ("pa-2012", {"pair_fortunes": "illustrative"}, "pa-2012 has no Pair Fortunes wager"),
        ("california", {"default_delivery_style": "chee_yee"}, "not one of ['house_way_right']"),
        ("pa-2012", {"tile_change_hours": "13"}, "pa-2012 requires a change within 12 h"),
        ("pa-2012", {"dice_change_hours": "-1"}, "not a whole number of hours"),
        ("nj", {"house_way": "my-way"}, "not one of ['california-posted', 'dealer-rule-max-low']"),
    ],
)
def test_a_bad_option_is_named_and_the_rule_sets_value_stands(rule_set, options, reason):
    base = get_rule_set(rule_set)
    rules, problems = apply_options(base, options)
    assert rules == base
    [problem] = problems
    assert (problem.name, problem.value) == next(iter(options.items()))
    assert reason in problem.reason


def test_good_options_are_taken_beside_a_bad_one():
    rules, problems = apply_options(
        get_rule_set("pa-2012"), {"vig_rounding": "quarter", "house_wey": "x"}
    )
    assert rules.vig_rounding is VigRounding.QUARTER
    assert [p.name for p in problems] == ["house_wey"]


def test_every_table_option_is_a_rule_set_field_and_cites_a_rule_somewhere():
    fields = set(get_rule_set("pa-2012").options())
    for name, option in TABLE_OPTIONS.items():
        assert name in fields
        assert any(option.rule_key in r.citations for r in RULE_SETS.values()), name


def test_docs_list_every_table_option():
    from pathlib import Path

    rules_md = (Path(__file__).resolve().parents[4] / "docs" / "rules.md").read_text()
    for name in TABLE_OPTIONS:
        assert f"| `{name}` |" in rules_md, name


def test_the_reconciliations_thresholds_are_known_options_read_elsewhere():
    from audit.accounting.controls import Thresholds
    from audit.games.table_options import READ_ELSEWHERE

    options = {"variance_report_over": "10", "variance_escalate_at": "50"}
    assert apply_options(get_rule_set("pa-2012"), options)[1] == []
    assert Thresholds.from_options(options) == Thresholds(1_000, 5_000)
    assert set(options) == READ_ELSEWHERE


def test_rule_set_for_applies_options_and_falls_back_to_the_default():
    """What accounting and statistics settle by: the table's rules with its options taken."""
    assert rule_set_for("pa-2012", {"vig_rounding": "quarter"}).vig_rounding.value == "quarter"
    assert rule_set_for("pa-2012", {"vig_rounding": "quater"}).vig_rounding.value == "cent"
    assert rule_set_for("no-such-rules", {}).name == DEFAULT_RULE_SET == "pa-2019"
