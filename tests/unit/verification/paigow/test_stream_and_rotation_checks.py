"""Stream, equipment and banking-rotation checks, each from a hand-written table."""

from datetime import timedelta

from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_stream import (
    Table,
    codes,
)


def test_a_clean_table_has_no_stream_or_rotation_findings():
    table = Table()
    table.round(1, wagers=(2, 3))
    table.round(2, bank=2, offers=[1, 2], wagers=(1, 2, 3))
    table.round(3)
    assert codes(table, "PG-ROT") == []
    assert codes(table, "PG-EQ") == []
    assert codes(table, "DATA-") == []


def test_a_bank_in_the_games_first_round():
    table = Table()
    table.round(1, bank=2, offers=[1, 2], wagers=(2, 3))
    [finding] = codes(table, "PG-ROT-START")
    assert (finding.rule, finding.position, str(finding.exposure)) == ("PA 621a.9(b)", 2, "25.00")


def test_a_tile_set_replacement_starts_a_new_game():
    table = Table()
    table.round(1)
    table.add("tile_set_received", tile_set_id="TS-2")
    table.add("tile_set_inspected", tile_set_id="TS-2")
    table.add("tile_set_replaced", old_tile_set_id="TS-1", new_tile_set_id="TS-2",
              reason="scheduled_change")  # fmt: skip
    table.round(2, bank=3, offers=[3], wagers=(3,))
    assert [f.code for f in codes(table, "PG-ROT")] == ["PG-ROT-START-OF-GAME"]
    assert codes(table, "PG-EQ") == []  # the new set was inspected before it went in


def test_the_same_player_banking_two_rounds_running():
    table = Table(rule_set="nj")
    table.round(1, wagers=(2, 3))
    table.round(2, bank=2, offers=[2], wagers=(2, 3))
    table.round(3, bank=2, offers=[2], wagers=(2, 3))
    [finding] = codes(table, "PG-ROT-CONSECUTIVE")
    assert (finding.rule, finding.round_id) == ("NJ 19:47-10.8(c)", "r3")


def test_california_allows_two_rounds_running_but_not_three():
    table = Table(rule_set="california")
    for number in (1, 2, 3):
        table.round(number, bank=4, offers=[4], wagers=(4, 5))
    [finding] = codes(table, "PG-ROT")
    assert (finding.code, finding.round_id) == ("PG-ROT-CONSECUTIVE", "r3")
    assert finding.rule.startswith("CA Pai Gow Tiles")


def test_a_bank_that_did_not_wager_in_the_last_dealer_banked_round():
    table = Table()
    table.round(1, wagers=(3,))
    table.round(2, bank=5, offers=[5], wagers=(3, 5))
    [finding] = codes(table, "PG-ROT-NO-PRIOR")
    assert (finding.rule, finding.position) == ("PA 621a.9(d)", 5)


def test_a_bank_without_chips_to_cover_the_table():
    table = Table()
    table.round(1, wagers=(2, 3, 4))
    table.round(2, bank=2, offers=[1, 2], wagers=(2, 3, 4), chips="40.00")
    [finding] = codes(table, "PG-ROT-INSUFF")
    assert (finding.recorded, finding.expected, str(finding.exposure)) == (
        "40.00 on the table", "at least 50.00", "10.00",
    )  # fmt: skip


def test_the_bank_offered_out_of_rotation_order():
    table = Table()
    table.round(1, wagers=(2, 3, 5))
    table.round(2, bank=2, offers=[5, 3, 2], wagers=(2, 3, 5))
    [finding] = codes(table, "PG-ROT-OUT")  # counterclockwise from 5: ... 2, 3, so 2 goes back
    assert (finding.rule, finding.position) == ("PA 621a.9(c)", 2)


def test_tiles_never_inspected_are_reported_once():
    table = Table(inspected=False)
    table.round(1)
    table.round(2)
    [finding] = codes(table, "PG-EQ")
    assert (finding.code, finding.rule, finding.round_id) == (
        "PG-EQ-NOT-INSPECTED", "PA 621a.4(a)", "r1",
    )  # fmt: skip


def test_tiles_over_twelve_hours_on_pa_but_not_nj():
    for rule_set, expected in (("pa-2012", ["PG-EQ-TILES-OVERDUE"]), ("nj", [])):
        table = Table(rule_set=rule_set)
        table.round(1, advance=timedelta(hours=12, minutes=1))
        assert [f.code for f in codes(table, "PG-EQ")] == expected, rule_set


def test_dice_over_twenty_four_hours():
    table = Table()
    table.round(1, advance=timedelta(hours=24, minutes=1))
    findings = {f.code: f for f in codes(table, "PG-EQ")}
    assert findings["PG-EQ-DICE-OVERDUE"].rule == "PA 621a.2(d)(1)"


def test_the_ingests_observations_become_findings():
    table = Table()
    table.add("sequence_gap_observed", recorded_by="tablewatch-ingest", expected_seq=4,
              observed_seq=6, about_round_id=None)  # fmt: skip
    table.add("event_id_reused", recorded_by="tablewatch-ingest")
    found = {f.code: f for f in codes(table, "DATA-")}
    assert found["DATA-SEQ-GAP"].recorded == "seq 6"
    assert found["DATA-ID-REUSED"].severity.value == "critical"
    assert found["DATA-SEQ-GAP"].rule == "tablewatch record integrity (no gaming regulation)"


def test_a_round_the_stream_never_completes():
    table = Table()
    table.round(1)
    table.add("round_started", "r2", round_number=2)
    table.add("no_more_bets", "r2")
    [finding] = codes(table, "DATA-ROUND")
    assert (finding.round_id, finding.recorded) == ("r2", "last recorded: no_more_bets")


def test_findings_have_stable_ids():
    table = Table()
    table.round(1, bank=2, offers=[2], wagers=(2, 3))
    first = [f.finding_id for f in verify_stream(table.events)]
    assert first == [f.finding_id for f in verify_stream(table.events)]
    assert len(set(first)) == len(first)


def test_an_option_the_rule_set_does_not_allow_never_stops_the_judging():
    from audit.games.paigow.options import rule_set_for

    ruleset = rule_set_for("california", {"vig_rounding": "quarter", "colour": "red"})
    assert ruleset.vig_rounding is None
    assert rule_set_for("pa-2012", {"vig_rounding": "quarter"}).vig_rounding.value == "quarter"


def test_rounds_open_when_the_table_closes_are_judged_incomplete_then():
    from audit.verification.paigow.verify import StreamVerifier

    table = Table()
    table.round(1)
    table.add("round_started", "r2", round_number=2)
    verifier = StreamVerifier()
    closing = table.add("table_closed")
    found = [f for e in table.events[:-1] for f in verifier.feed(e)]
    assert found == []
    [incomplete] = verifier.feed(closing)
    assert (incomplete.code, incomplete.round_id) == ("DATA-ROUND-INCOMPLETE", "r2")
    assert verifier.finish() == []


def test_an_incomplete_round_is_judged_against_the_table_as_it_began():
    """A round left open is judged at the table's close, but against the history it started with,
    not the banking of rounds recorded after it (found by the injected ground truth)."""
    table = Table()
    table.round(1, wagers=(2, 3))
    table.add("round_started", "r2", round_number=2)
    table.add("bank_offered", "r2", position=2)
    table.add("bank_accepted", "r2", position=2)  # eligible: position 2 wagered in round 1
    table.round(3, wagers=(3,))  # a later dealer-banked round without position 2
    table.add("table_closed")
    found = codes(table)
    assert "PG-ROT-NO-PRIOR-WAGER" not in [f.code for f in found]
    assert [f.code for f in found] == ["DATA-ROUND-INCOMPLETE"]
