"""The round replay (audit/verification/paigow/replay.py): each step's lines, recorded beside
expected, and every finding placed under the step it concerns."""

import random
from dataclasses import replace
from decimal import Decimal

import pytest

from audit.events.paigow import play, settlement, wagers
from audit.games.paigow.dealing import Cut
from audit.games.paigow.delivery import DeliveryStyle
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.paigow.replay import StepKind, replay_round, step_for
from audit.verification.paigow.verify import verify_stream
from audit.verification.replay_model import RoundNotInEventsError
from consumers.replay_text import step_lines
from consumers.replay_text.marks import MISMATCH, OK
from tests.builders.paigow_rounds import ROUND, TABLE, clean_round

STEPS = [
    StepKind.ROUND,
    StepKind.WAGERS,
    StepKind.COUNT,
    StepKind.DEAL,
    StepKind.HANDS,
    StepKind.SETTLEMENT,
    StepKind.OTHER,
]


def lines_of(replay, kind):
    return step_lines(replay, replay.step(kind))


def text(replay, kind):
    return "\n".join(step_lines(replay, replay.step(kind)))


def codes(replay, kind):
    return [f.code for f in replay.step(kind).findings]


def everything(replay):
    return "\n".join(line for step in replay.steps for line in step_lines(replay, step))


# --- A clean round, step by step --------------------------------------------------------------


def test_a_clean_dealer_banked_round_replays_in_seven_steps_without_a_mismatch():
    replay = replay_round(clean_round().events, ROUND)
    assert [s.kind for s in replay.steps] == STEPS
    assert replay.findings == ()
    assert MISMATCH not in everything(replay)
    header = text(replay, StepKind.ROUND)
    assert f"table {TABLE}; gaming day 2026-11-21" in header
    assert "rule set pa-2019: Pennsylvania" in header
    assert f"round 1, id {ROUND}; dealer dealer-1" in header
    assert "banking: the dealer banks for the house" in header
    assert text(replay, StepKind.OTHER) == "no findings in this round"


def test_the_wagers_step_lists_each_wager_and_the_call():
    lines = lines_of(replay_round(clean_round().events, ROUND), StepKind.WAGERS)
    assert lines[0].split() == ["Position", "1", "Pai", "Gow", "$25.00", "P-1"]
    assert lines[1].split() == ["Position", "3", "Pai", "Gow", "$40.00", "P-3"]
    assert lines[2].strip() == '"no more bets"'
    assert lines[-1] == "Pai Gow action $65.00 at 2 position(s)"


def test_the_count_names_every_position_counted_from_the_dealer():
    replay = replay_round(clean_round(dice=(3, 1, 5)).events, ROUND)
    lines = lines_of(replay, StepKind.COUNT)
    assert "dice 3 1 5 = 9 (announced 9), all flat, all in the shaker" in lines
    assert "count 9 from Dealer as 1, counterclockwise:" in lines
    assert "  Dealer(1) P1(2) P2(3) P3(4) P4(5) P5(6) P6(7) Dead(8) Dealer(9)" in lines
    assert lines[-1].endswith(f"the first stack (order 0) went to Dealer   [{OK}]")


def test_a_player_bank_counts_from_the_bank_and_shows_the_cut_and_its_flows():
    cut = Cut(start=5, stop=8, to_right=3)
    rnd = clean_round(bank=3, dealer_wager="25.00", cut=cut, style=DeliveryStyle.JUNG_QUAT)
    replay = replay_round(rnd.events, ROUND)
    header = text(replay, StepKind.ROUND)
    assert "banking: player bank at Position 3 (P-BANK, $5,000.00 on the table)" in header
    assert "the dealer wagers $25.00 against the bank" in header
    assert "count 9 from Position 3 as 1, counterclockwise:" in text(replay, StepKind.COUNT)
    deal = text(replay, StepKind.DEAL)
    assert "cut: Cut(start=5, stop=8, to_right=3, crossed=False)" in deal
    assert "the stacks as formed now run 6 7 8 1 2 3 4 5" in deal
    assert "delivery: Jung Quat, chosen by the bank" in deal
    assert deal.count(f"[{OK}]") == 9  # eight deliveries and the unwagered stacks
    settled = text(replay, StepKind.SETTLEMENT)
    assert "bank surplus:" in settled
    assert "expected nets: P1 -$25.00" in settled


def test_every_delivery_is_shown_beside_what_the_stacks_and_style_dictate():
    replay = replay_round(clean_round().events, ROUND)
    lines = lines_of(replay, StepKind.DEAL)
    grid = lines.index("stacks as formed (stack 1 on the dealer's right; each top to bottom):")
    assert lines[grid + 2].split() == ["top", "6-6a", "4-4a", "5-5a", "2-2a", "4-6a", "1-5a",
                                       "2-6", "2-4"]  # fmt: skip
    header = next(
        i for i, line in enumerate(lines) if line.split()[:3] == ["order", "received", "by"]
    )
    first = lines[header + 1]
    assert first.split() == ["1", "Dealer", "6-6a", "6-6b", "1-1a", "1-1b",
                             "Dealer", "6-6a", "6-6b", "1-1a", "1-1b", f"[{OK}]"]  # fmt: skip


def test_the_dealers_hand_is_shown_beside_the_house_way_and_the_rule():
    lines = lines_of(replay_round(clean_round().events, ROUND), StepKind.HANDS)
    dealer = next(i for i, line in enumerate(lines) if line.strip().startswith("Dealer"))
    assert "high" in lines[dealer]
    assert "low" in lines[dealer + 1]
    assert lines[dealer + 2].strip().startswith("house way (dealer-rule-max-low):")
    assert (
        lines[dealer + 3].strip() == f"dealer rule PA 621a.8(d)(2): permits this setting   [{OK}]"
    )


def test_each_wager_is_settled_beside_the_engines_settlement():
    lines = lines_of(replay_round(clean_round().events, ROUND), StepKind.SETTLEMENT)
    assert lines[0].split() == ["wager", "outcome", "paid", "collected", "vigorish", "returned"]
    recorded, expected = lines[1].split(), lines[2].split()
    assert recorded[:3] == ["Position", "1", "$25.00"]
    assert expected[0] == "expected"
    assert expected[-1] == f"[{OK}]"
    assert recorded[3:] == expected[1:-1]  # the same outcome and money


def test_a_california_round_counts_clockwise_and_shows_the_fees():
    rnd = clean_round("california", bank=2, dice=(4, 4, 2))
    replay = replay_round(rnd.events, ROUND)
    assert "banking: California player-dealer P-PD, took the bank at Seat 2" in text(
        replay, StepKind.ROUND
    )
    count = text(replay, StepKind.COUNT)
    assert "count 10 from Player-Dealer as 1, clockwise:" in count
    assert "PD(1) S1(2) S2(3) S3(4) S4(5) S5(6) S6(7) S7(8) PD(9) S1(10)" in count
    assert "action button: Seat 1" in count
    hands = text(replay, StepKind.HANDS)
    assert "the player-dealer sets freely (no dealer rule binds it)" in hands
    settled = text(replay, StepKind.SETTLEMENT)
    assert "player-dealer: wager $100.00" in settled
    assert "collection fees (schedule option 1):" in settled


def test_an_rng_count_and_a_voided_round():
    replay = replay_round(clean_round(rng=15, void_at_dealer=True).events, ROUND)
    assert "RNG number shown: 15" in text(replay, StepKind.COUNT)
    assert "ROUND VOIDED: banker_tile_exposed" in text(replay, StepKind.ROUND)
    settled = lines_of(replay, StepKind.SETTLEMENT)
    expected = [line for line in settled if line.startswith("    expected")]
    assert len(expected) == 2
    assert all(line.endswith(f"[{OK}]") and "returned" in line for line in expected)


# --- Findings, each under its step ------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("PG-WAGER-PAST-POST", StepKind.WAGERS),
        ("PG-DEAL-START", StepKind.COUNT),
        ("PG-DEAL-SHAKES", StepKind.COUNT),
        ("PG-DEAL-STACK-ORDER", StepKind.DEAL),
        ("PG-TILE-DUPLICATE", StepKind.DEAL),
        ("PG-SET-HOUSE-WAY", StepKind.HANDS),
        ("PG-SETTLE-PAYOUT", StepKind.SETTLEMENT),
        ("PG-BANK-SURPLUS", StepKind.SETTLEMENT),
        ("PG-COBANK-SPLIT", StepKind.SETTLEMENT),
        ("PG-CA-FEE", StepKind.SETTLEMENT),
        ("PG-PF-PAYOUT", StepKind.SETTLEMENT),
        ("PG-ROT-CONSECUTIVE", StepKind.OTHER),
        ("PG-EQ-TILES-OVERDUE", StepKind.OTHER),
        ("DATA-SEQ-GAP", StepKind.OTHER),
    ],
)
def test_findings_map_to_steps_by_code(code, kind):
    assert step_for(code) is kind


def test_a_wager_after_no_more_bets_is_marked_and_its_finding_is_under_wagers():
    rnd = clean_round()
    rnd.insert_after(rnd.first("no_more_bets"), wagers.WagerPlaced, position=5,
                     amount=Decimal("50.00"), kind=wagers.WagerKind.PAI_GOW,
                     player_id="P-5")  # fmt: skip
    replay = replay_round(rnd.events, ROUND)
    assert "PG-WAGER-PAST-POST" in codes(replay, StepKind.WAGERS)
    late = [line for line in lines_of(replay, StepKind.WAGERS) if "Position 5" in line]
    assert late
    assert late[0].endswith('AFTER "no more bets"')


def test_a_wrong_starting_position_is_marked_beside_the_count():
    rnd = clean_round(dice=(3, 1, 5))
    rnd.replace(rnd.first("dice_revealed"), faces=(3, 1, 6), announced_total=10)
    replay = replay_round(rnd.events, ROUND)
    # The wrong deal was settled, not voided: a second finding about the count.
    assert codes(replay, StepKind.COUNT) == ["PG-DEAL-START", "PG-DEAL-SETTLED-AFTER-WRONG-DEAL"]
    assert lines_of(replay, StepKind.COUNT)[-1] == (
        f"the count lands on Position 1; the first stack (order 0) went to Dealer   [{MISMATCH}]"
    )


def test_a_switched_tile_is_marked_in_the_deal_and_the_hand():
    rnd = clean_round()
    dealt = rnd.first("stack_delivered", position=1)
    tiles = list(dealt.tiles)
    tiles[0] = "6-6a"  # the Dealer's Teen, seen again at Position 1
    rnd.replace(dealt, tiles=tiles)
    replay = replay_round(rnd.events, ROUND)
    found = codes(replay, StepKind.DEAL)
    assert "PG-DEAL-STACK-ORDER" in found
    assert "PG-TILE-DUPLICATE" in found
    row = next(line for line in lines_of(replay, StepKind.DEAL) if "  Position 1  " in line)
    assert row.endswith(f"[{MISMATCH}]")
    assert "NOT the tiles delivered" in text(replay, StepKind.HANDS)


def test_a_dealer_hand_off_the_house_way_is_under_the_hands():
    rnd = clean_round()
    hand = rnd.first("hand_set", position=0)
    rnd.replace(hand, high=[hand.high[0], hand.low[0]], low=[hand.high[1], hand.low[1]])
    replay = replay_round(rnd.events, ROUND)
    assert "PG-SET-HOUSE-WAY" in codes(replay, StepKind.HANDS)
    assert f"[{MISMATCH}]" in text(replay, StepKind.HANDS)


def test_a_wrong_outcome_is_marked_in_the_settlement_once():
    rnd = clean_round(wagers_at={1: "25.00"})
    settled = rnd.first("wager_settled", position=1)
    assert settled.outcome == "lose"
    rnd.replace(settled, outcome="win", paid=Decimal("30.00"), collected=Decimal(0),
                vigorish=Decimal("1.50"), returned=Decimal(0))  # fmt: skip
    replay = replay_round(rnd.events, ROUND)
    # The wrong payout is the wrong outcome's evidence, not a second finding.
    assert codes(replay, StepKind.SETTLEMENT) == ["PG-SETTLE-OUTCOME"]
    expected = next(line for line in lines_of(replay, StepKind.SETTLEMENT) if "expected" in line)
    assert "lose" in expected
    assert expected.endswith(f"[{MISMATCH}]")


def test_a_wrong_payout_is_marked_in_the_settlement():
    rnd = clean_round(wagers_at={1: "25.00"})
    settled = rnd.first("wager_settled", position=1)
    rnd.replace(settled, collected=Decimal("20.00"))
    replay = replay_round(rnd.events, ROUND)
    assert codes(replay, StepKind.SETTLEMENT) == ["PG-SETTLE-PAYOUT"]


def test_a_co_bank_and_its_missing_split():
    rnd = clean_round(bank=3)
    rnd.insert_after(rnd.first("bank_accepted"), play.CoBankRequested, position=3)
    replay = replay_round(rnd.events, ROUND)
    assert "banking: co-bank at Position 3" in text(replay, StepKind.ROUND)
    hands = text(replay, StepKind.HANDS)
    assert "house way (dealer-rule-max-low)" in hands  # the house sets the co-bank's hand
    assert "PG-COBANK-SPLIT" in codes(replay, StepKind.SETTLEMENT)
    assert f"[{MISMATCH}]" in text(replay, StepKind.SETTLEMENT)


def test_a_round_never_completed_is_another_finding():
    rnd = clean_round()
    rnd.remove(rnd.first("round_completed"))
    replay = replay_round(rnd.events, ROUND)
    assert codes(replay, StepKind.OTHER) == ["DATA-ROUND-INCOMPLETE"]
    assert "the round was never completed" in text(replay, StepKind.ROUND)


def test_the_bank_in_the_first_round_of_a_game_is_another_finding():
    replay = replay_round(clean_round(bank=3).events, ROUND)
    assert "PG-ROT-START-OF-GAME" in codes(replay, StepKind.OTHER)
    summary = f"{len(replay.findings)} finding(s) in this round"
    assert text(replay, StepKind.OTHER).startswith(summary)


# --- The context: earlier rounds judged as the stream judged them -----------------------------


def shift_with_faults():
    events = list(simulate_shift(ShiftConfig(5, 5), random.Random(3)))
    settled = [i for i, e in enumerate(events) if isinstance(e, settlement.WagerSettled)]
    for i in settled[::7]:  # every seventh settlement pays a dollar too much
        events[i] = replace(events[i], **{"paid": events[i].paid + 1})
    # One table's tiles are never inspected: the stream reports it in its first round only.
    uninspected = events[0].table_id
    return [e for e in events if not (e.type == "tile_set_inspected" and e.table_id == uninspected)]


def test_the_replay_finds_what_the_stream_finds_in_every_round():
    events = shift_with_faults()
    streamed = list(verify_stream(events))
    assert streamed
    rounds = {(e.table_id, e.round_id) for e in events if e.round_id}
    for table, round_id in sorted(rounds):
        mine = [e for e in events if e.table_id == table]
        replay = replay_round(mine, round_id)
        want = sorted(f.finding_id for f in streamed if f.round_id == round_id)
        assert sorted(f.finding_id for f in replay.findings) == want, round_id
        assert all(len(line) <= 96 for step in replay.steps for line in step_lines(replay, step))
    assert sum(f.code == "PG-EQ-NOT-INSPECTED" for f in streamed) == 1


def test_a_sequence_gap_in_the_round_is_reported_with_it():
    from audit.verification.stream import as_stored

    rnd = clean_round()
    rnd.remove(rnd.first("tiles_mixed"))  # the table's seq now skips one
    replay = replay_round(list(as_stored(rnd.events)), ROUND)
    assert codes(replay, StepKind.OTHER) == ["DATA-SEQ-GAP"]


# --- Which round ------------------------------------------------------------------------------


def test_a_round_not_in_the_events_is_an_error():
    with pytest.raises(RoundNotInEventsError, match="no events of round 'nope'"):
        replay_round(clean_round().events, "nope")


def test_a_round_id_at_two_tables_needs_the_table():
    first, second = clean_round(), clean_round()
    moved = [replace(e, **{"table_id": "PG-99"}) for e in second.events]
    events = first.events + moved
    with pytest.raises(RoundNotInEventsError, match="several tables"):
        replay_round(events, ROUND)
    assert replay_round(events, ROUND, table_id="PG-99").table_id == "PG-99"
