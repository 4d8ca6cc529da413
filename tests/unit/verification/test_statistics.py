"""Win-rate statistics: the Wilson interval, narrowing with volume, and when a group is flagged."""

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.catalogue import event_json, parse_event
from audit.events.examples import EXAMPLES
from audit.events.paigow.play import HandSet
from audit.games.confidence import wilson_interval, z_for
from audit.games.paigow.probabilities import PRECOMPUTED
from audit.games.paigow.rulesets import RULE_SETS, get_rule_set
from audit.games.paigow.tiles import TILE_NAMES
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.statistics import (
    GROUP_BYS,
    SettledWager,
    TrialReader,
    _by_house_way,
    _by_house_way_read,
    expected_win,
    group_stats,
    pai_gow_moments,
    settled_wagers,
)

EXPECTED = PRECOMPUTED[("dealer-rule-max-low", "pa")].win


def wagers(
    n: int, win_rate: float, dealer: str = "dealer-1", table: str = "PG-01", position: int = 1
) -> list[SettledWager]:
    """``n`` wagers with exactly ``round(n * win_rate)`` wins; the rest split push and lose."""
    wins = round(n * win_rate)
    rest = n - wins
    outcomes = ["win"] * wins + ["push"] * (rest // 2) + ["lose"] * (rest - rest // 2)
    return [SettledWager(table, dealer, position, o, EXPECTED) for o in outcomes]


@pytest.mark.parametrize(
    ("successes", "n", "confidence", "low", "high"),
    [
        (5, 10, 0.95, 0.2366, 0.7634),  # the textbook example
        (0, 10, 0.95, 0.0, 0.2775),
        (10, 10, 0.95, 0.7225, 1.0),
        (12, 40, 0.95, 0.1807, 0.4543),
    ],
)
def test_wilson_interval_known_values(successes, n, confidence, low, high):
    got = wilson_interval(successes, n, confidence)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_z_and_bad_inputs():
    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.999) == pytest.approx(3.290527, abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="confidence"):
            z_for(bad)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)


def test_interval_narrows_with_n():
    intervals = [wilson_interval(round(n * 0.3), n) for n in (40, 400, 4_000, 40_000)]
    widths = [high - low for low, high in intervals]
    assert widths == sorted(widths, reverse=True)
    assert widths[0] / widths[2] == pytest.approx(10, rel=0.2)  # ~ 1 / sqrt(n)


def test_forty_hands_do_not_flag_what_four_thousand_do():
    rate = EXPECTED - 0.05
    (few,) = group_stats(wagers(40, rate), by="dealer")
    (many,) = group_stats(wagers(4_000, rate), by="dealer")
    assert few.observed == pytest.approx(many.observed, abs=0.01)
    assert not few.flagged
    assert few.direction == ""
    assert many.flagged
    assert many.direction == "low"


def test_a_biased_dealer_is_flagged_and_a_fair_one_is_not():
    rng = random.Random(5)
    fair = [
        SettledWager(
            "PG-01",
            "fair",
            2,
            rng.choices(["win", "push", "lose"], [0.295, 0.398, 0.307])[0],
            EXPECTED,
        )
        for _ in range(4_000)
    ]
    biased = wagers(4_000, EXPECTED - 0.05, dealer="biased")
    rows = {r.group: r for r in group_stats(fair + biased, by="dealer")}
    assert rows["biased"].flagged
    assert not rows["fair"].flagged
    assert rows["biased"].n == 4_000
    assert rows["biased"].wins == round(4_000 * (EXPECTED - 0.05))


def test_surrendered_and_returned_are_not_trials():
    ws = [
        *wagers(10, 0.3),
        SettledWager("PG-01", "dealer-1", 1, "surrendered", EXPECTED),
        SettledWager("PG-01", "dealer-1", 1, "returned", EXPECTED),
    ]
    (row,) = group_stats(ws, by="table")
    assert (row.n, row.wins, row.pushes + row.losses) == (10, 3, 7)
    only_returned = [SettledWager("PG-02", "d", 3, "returned", EXPECTED)]
    assert group_stats(only_returned) == []


def test_grouping_and_mixed_expectations():
    ws = [
        SettledWager("PG-01", "a", 1, "win", 0.30),
        SettledWager("PG-02", "a", 10, "lose", 0.20),
        SettledWager("PG-02", "b", 2, "push", 0.20),
    ]
    by_dealer = {r.group: r for r in group_stats(ws, by="dealer")}
    assert by_dealer["a"].expected == pytest.approx(0.25)  # the mean over its wagers
    assert [r.group for r in group_stats(ws, by="position")] == ["1", "2", "10"]
    assert [r.group for r in group_stats(ws, by="table")] == ["PG-01", "PG-02"]
    with pytest.raises(ValueError, match="group by"):
        group_stats(ws, by="seat")


def test_expected_win_follows_the_rule_set():
    assert expected_win(get_rule_set("pa-2019")) == EXPECTED
    assert expected_win(get_rule_set("california")) == PRECOMPUTED[("california-posted", "pa")].win
    assert expected_win(get_rule_set("nj")) == PRECOMPUTED[("dealer-rule-max-low", "nj")].win


@pytest.fixture(scope="module")
def clean_shift():
    return list(simulate_shift(ShiftConfig(tables=6, rounds_per_table=60), random.Random(1)))


def test_a_clean_simulated_shift_flags_nothing(clean_shift):
    settled = list(settled_wagers(clean_shift))
    assert len(settled) > 500
    assert all(w.dealer_id and w.dealer_id.startswith("dealer-") for w in settled)
    for by in GROUP_BYS:
        rows = group_stats(settled, by=by)
        assert rows, by
        assert [r.group for r in rows if r.flagged] == [], by


def test_only_house_way_contests_of_pai_gow_wagers_count(clean_shift):
    pai_gow = {
        (e.round_id, e.position)
        for e in clean_shift
        if e.type == "wager_settled" and getattr(e.kind, "value", e.kind) == "pai_gow"
    }
    counted = {(w.table_id, w.position) for w in settled_wagers(clean_shift)}
    assert counted  # most players take the house way
    assert len(list(settled_wagers(clean_shift))) < len(pai_gow)  # some set their own


def test_a_hand_set_off_the_house_way_takes_its_wager_out(clean_shift):
    from audit.games.paigow.rulesets import get_rule_set
    from audit.games.paigow.setting import settings_for
    from audit.games.paigow.tiles import parse_tile, tile_name

    counted = list(settled_wagers(clean_shift))
    hand = next(
        e for e in clean_shift
        if e.type == "hand_set" and e.set_by == "house_way_on_request"
    )  # fmt: skip
    tiles = [parse_tile(t) for t in (*hand.high, *hand.low)]
    ranking = get_rule_set("pa-2019").ranking
    other = next(
        s for s in settings_for(tiles, ranking)
        if {tile_name(t) for t in s.high} != set(hand.high)
    )  # fmt: skip
    changed = replace(
        hand, high=[tile_name(t) for t in other.high], low=[tile_name(t) for t in other.low]
    )
    edited = [changed if e is hand else e for e in clean_shift]
    assert len(list(settled_wagers(edited))) == len(counted) - 1


def test_stats_command_prints_groups_and_flags(clean_shift, tmp_path, capsys):
    import argparse
    import json

    from consumers import stats_cli

    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in clean_shift))
    parser = argparse.ArgumentParser(prog="tablewatch")
    stats_cli.register(parser.add_subparsers(dest="command", required=True))

    args = parser.parse_args(["stats", str(path), "--by", "dealer"])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("dealer")
    assert "flagged: 0" in out

    args = parser.parse_args(["stats", str(path), "--by", "position", "--json"])
    assert args.handler(args) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["by"] for r in rows} == {"position"}
    assert all(r["low"] <= r["observed"] <= r["high"] for r in rows)
    with pytest.raises(SystemExit):
        parser.parse_args(["stats", str(path), "--confidence", "1.5"])


def test_21_baccarat_wagers_are_trials_with_their_own_bets_chances():
    from audit.games.baccarat21.drawing import DrawRule
    from audit.games.baccarat21.probabilities import lookup
    from audit.games.baccarat21.settlement import Bet

    config = ShiftConfig(tables=2, rounds_per_table=60, games=(("baccarat21", 1.0),))
    events = list(simulate_shift(config, random.Random(3)))
    decks = {e.table_id: int(e.options.get("decks", 8)) for e in events
             if e.type_name() == "table_opened"}  # fmt: skip
    settled = [e for e in events if e.type_name() == "b21_wager_settled"
               and e.outcome in ("win", "push", "lose")]  # fmt: skip
    wagers = list(settled_wagers(events))
    assert len(wagers) == len(settled) > 0
    for wager, event in zip(wagers, settled, strict=True):
        rates = lookup(decks[event.table_id], DrawRule.ONE_CARD)
        assert wager.expected_win == rates[Bet(event.bet.value)].win
    # A table where every 21 Baccarat wager wins is flagged high.
    rigged = [replace(e, **{"outcome": "win"}) if e in settled else e for e in events]
    (flag, *_) = [g for g in group_stats(list(settled_wagers(rigged)), "table") if g.flagged]
    assert flag.direction == "high"


def test_wagers_carry_their_player_and_group_by_player_and_dealer_with_player(clean_shift):
    placed = {
        (e.table_id, e.round_id, e.position): e.player_id
        for e in clean_shift
        if e.type == "wager_placed" and e.kind.value == "pai_gow"
    }
    reader = TrialReader()
    for event in clean_shift:
        trial = reader.feed(event)
        if trial is not None:
            assert trial.player_id == placed[(trial.table_id, event.round_id, trial.position)]
    settled = list(settled_wagers(clean_shift))
    players = {w.player_id for w in settled}
    by_player = {r.group: r for r in group_stats(settled, by="player")}
    assert set(by_player) == players
    assert None not in players
    pairs = group_stats(settled, by="dealer,player")
    assert {r.group for r in pairs} == {f"{w.dealer_id},{w.player_id}" for w in settled}
    trials = [w for w in settled if w.outcome in ("win", "push", "lose")]
    assert sum(r.n for r in pairs) == sum(r.n for r in by_player.values()) == len(trials)
    for player, row in by_player.items():
        mine = [w for w in trials if w.player_id == player]
        assert row.wagered == sum(Decimal(w.stake) for w in mine) / 100
        assert row.won == sum(Decimal(w.won) for w in mine) / 100


def test_money_won_is_exact_and_matches_the_settlements(clean_shift):
    settled = list(settled_wagers(clean_shift))
    for w in settled[:200]:
        if w.outcome in ("lose", "surrendered"):
            assert w.won == -w.stake
        elif w.outcome == "push":
            assert w.won == 0
        else:  # even money, less any vigorish (PA 621a.8(k); none in California)
            assert 0 < w.won <= w.stake
    (row,) = group_stats([w for w in settled if w.table_id == settled[0].table_id], by="table")
    assert isinstance(row.won, Decimal)
    assert row.won == row.won.quantize(Decimal("0.01"))
    assert row.won_low < row.won < row.won_high


def _money_wagers(n: int, won_per_win: int, player: str) -> list[SettledWager]:
    mean, variance = pai_gow_moments(get_rule_set("pa-2019"))
    outcomes = (["win"] * 3 + ["push"] * 4 + ["lose"] * 3) * (n // 10)
    won = {"win": won_per_win, "push": 0, "lose": -10_000}
    return [
        SettledWager("PG-01", "d", 1, o, EXPECTED, player, 10_000, won[o], mean, variance)
        for o in outcomes
    ]


def test_a_player_paid_too_much_is_flagged_by_money_not_by_count():
    # The same wins, pushes and losses; one player is paid $150 instead of $95 on each win.
    honest = _money_wagers(2_000, 9_500, "honest")
    overpaid = _money_wagers(2_000, 15_000, "overpaid")
    rows = {r.group: r for r in group_stats(honest + overpaid, by="player")}
    assert not rows["honest"].money_flagged
    assert not rows["overpaid"].flagged
    assert rows["overpaid"].money_flagged
    assert rows["overpaid"].won - rows["honest"].won == Decimal(600 * 55)
    assert rows["overpaid"].as_dict()["money_flagged"] is True
    few = {r.group: r for r in group_stats(_money_wagers(20, 15_000, "overpaid"), by="player")}
    assert not few["overpaid"].money_flagged  # 20 hands cannot show what 2,000 do


def test_stats_by_player_from_a_file(clean_shift, tmp_path, capsys):
    from consumers.cli import main

    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in clean_shift))
    assert main(["stats", str(path), "--by", "dealer,player"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("dealer,player")
    assert out[1].split()[0].count(",") == 1
    assert out[-1].endswith("flagged: 0, money flagged: 0")


def test_rounds_never_completed_leave_with_their_table(clean_shift):
    """A voided or cut-off round has no ``round_completed``: its stakes and hands are dropped
    when its table closes, so the reader holds the open tables' rounds, not every round ever
    left open; the trials are those of the complete stream."""
    rounds = sorted({e.round_id for e in clean_shift if e.type == "round_completed"})
    left_open = set(rounds[::7])
    events = [
        e for e in clean_shift if not (e.type == "round_completed" and e.round_id in left_open)
    ]
    reader, most, trials = TrialReader(), 0, []
    for event in events:
        trial = reader.feed(event)
        if trial is not None:
            trials.append(trial)
        most = max(most, len(reader.rounds))
    assert most > 6  # the rounds left open were held while their tables played
    assert reader.rounds == {}  # every table closed: none is held
    assert trials == list(settled_wagers(clean_shift))


def _hand(high: list[int], low: list[int]) -> HandSet:
    names = {"high": [TILE_NAMES[t] for t in high], "low": [TILE_NAMES[t] for t in low]}
    hand = parse_event({**EXAMPLES["hand_set"], **names})
    assert isinstance(hand, HandSet)
    return hand


@settings(max_examples=300, deadline=None)
@given(
    tiles=st.lists(st.integers(0, 31), min_size=4, max_size=4),
    rule_set=st.sampled_from(sorted(RULE_SETS)),
)
def test_the_house_way_shortcut_reads_every_hand_as_the_full_reading(tiles, rule_set):
    """A hand is the house way by the table lookup exactly when it is by parsing and checking
    its setting; a tile named twice is never the house way, and the way's own setting is,
    however its tiles are listed."""
    ruleset = RULE_SETS[rule_set]
    hand = _hand(tiles[:2], tiles[2:])
    assert _by_house_way(hand, ruleset) == _by_house_way_read(hand, ruleset)
    if len(set(tiles)) < 4:
        assert not _by_house_way(hand, ruleset)
        return
    way = ruleset.house_way.setting(tiles, ruleset.ranking)
    assert _by_house_way(_hand(list(reversed(way.high)), list(way.low)), ruleset)
