"""``tablewatch rules``: a person asks the engine from a shell."""

import pytest

from audit.games.paigow.tiles import TILE_NAMES
from consumers.cli import main


def run(capsys, *argv):
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_rank_names_the_hand_and_cites_the_table(capsys):
    status, out, _ = run(capsys, "rank", "6-6", "4-5")
    assert status == 0
    assert "Teen Wong" in out
    assert "rank 17 of 20" in out
    assert "PA 621a.3(c)" in out


def test_compare_gives_each_hand_and_the_outcome(capsys):
    status, out, _ = run(capsys, "compare", "6-6 4-5 / 1-2 1-3", "1-1 3-3 / 2-6 1-5")
    assert status == 0
    assert "high: Teen Wong vs 8" in out
    assert "wager: win" in out


def test_house_way_shows_the_setting_and_the_regulatory_set(capsys):
    status, out, _ = run(capsys, "--rules", "nj", "house-way", "1-2", "2-4", "3-3", "2-2",
                         "--way", "california-posted")  # fmt: skip
    assert status == 0
    assert "3-3a 2-4 / 2-2a 1-2" in out
    assert "NJ 19:47-10.7(d)(1)" in out
    assert "DEPARTS" in out


def test_house_way_for_california_has_no_regulatory_rule(capsys):
    status, out, _ = run(capsys, "--rules", "california", "house-way", "6-6", "6-6", "1-2", "1-3")
    assert status == 0
    assert "California posted house way" in out
    assert "dealer rule" not in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["start", "4", "5", "6"], "Position 6 receives"),  # PA 621a.6(c)(2): 15
        (["start", "2", "3", "4"], "Dealer receives"),  # PA 621a.6(c)(1): 9
        (["--rules", "nj", "start", "4", "5", "6", "--bank", "3"], "Position 1 receives"),
        (["start", "--rng", "17"], "Dealer receives"),
    ],
)
def test_start(capsys, argv, expected):
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert expected in out


def test_rng_refused_where_the_rule_set_has_none(capsys):
    status, _, err = run(capsys, "--rules", "nj", "start", "--rng", "17")
    assert status == 2
    assert "nj allows no RNG" in err


def test_bad_tile_is_one_line_and_exit_2(capsys):
    status, out, err = run(capsys, "rank", "7-7", "1-1")
    assert status == 2
    assert out == ""
    assert err == "tablewatch: invalid tile kind: '7-7'\n"


def test_pair_fortunes_shows_the_paytable_odds(capsys):
    status, out, _ = run(capsys, "pair-fortunes", "6-6", "6-6", "1-2", "2-4")
    assert status == 0
    assert "gee joon and heaven, pays 300 to 1" in out


def test_deal_lists_each_position(capsys):
    tiles = " ".join(TILE_NAMES)  # stack order: each stack top first, dealer's right first
    status, out, _ = run(capsys, "deal", tiles, "--style", "cup_say_right", "--start", "3")
    assert status == 0
    assert "Position 3: 6-6a 6-6b 4-4a 4-4b" in out
    assert "PA 621a.7(2)" in out


def test_rule_sets_lists_every_rule_set(capsys):
    status, out, _ = run(capsys, "rule-sets")
    assert status == 0
    for name in ("pa-2012", "pa-2019", "nj", "california"):
        assert f"{name}:" in out


def test_rule_sets_show_table_options_apart_and_the_paytable_whole(capsys):
    status, out, _ = run(capsys, "rule-sets")
    assert status == 0
    pa_2019 = out.split("pa-2019:")[1].split("nj:")[0]
    fixed, table = pa_2019.split("table options (table_opened.options):")
    assert "vig_roundings_allowed" in fixed
    assert "vig_roundings_allowed" not in table
    assert "vig_rounding: cent  [cent or quarter, as the rule set allows; PA 621a.11(a)]" in table
    assert "gee_joon_and_heaven: 300 to 1" in table  # the paytable, every row
    assert table.count(" to 1\n") == 12
    california = out.split("california:")[1]
    assert "collection_schedule: option 1  [1 to 10 (California)" in california
