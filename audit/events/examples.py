"""One valid example of every event type: for docs/events.md and the catalogue's tests."""

from __future__ import annotations

from typing import Any

_TABLE = {
    "event_id": "5f0c6a4e-8d1b-4b8e-9a65-0d1f7c3e2a10",
    "table_id": "PG-01",
    "seq": 12,
    "occurred_at": "2026-11-21T20:00:05Z",
    "recorded_by": "pit-terminal-3",
}
_ROUND = {**_TABLE, "round_id": "PG-01-2026-11-21-r42", "seq": 311, "recorded_by": "dealer-2207"}
_B21_TABLE = {**_TABLE, "table_id": "B21-03"}
_B21_ROUND = {**_B21_TABLE, "round_id": "B21-03-20261121-0042", "seq": 518,
              "recorded_by": "dealer-0302"}  # fmt: skip
_STACKS = [
    ["6-6a", "1-1a", "4-4a", "1-3a"], ["5-5a", "3-3a", "2-2a", "5-6a"],
    ["4-6a", "1-6a", "1-5a", "3-6"], ["4-5", "2-6", "3-5", "2-5"],
    ["3-4", "2-4", "1-4", "2-3"], ["1-2", "6-6b", "1-1b", "4-4b"],
    ["1-3b", "5-5b", "3-3b", "2-2b"], ["5-6b", "4-6b", "1-6b", "1-5b"],
]  # fmt: skip


def _table(event_type: str, /, **payload: Any) -> dict[str, Any]:
    return {"type": event_type, **_TABLE, **payload}


def _b21_table(event_type: str, /, **payload: Any) -> dict[str, Any]:
    return {"type": event_type, **_B21_TABLE, **payload}


def _b21_round(event_type: str, /, **payload: Any) -> dict[str, Any]:
    return {"type": event_type, **_B21_ROUND, **payload}


def _round(event_type: str, /, **payload: Any) -> dict[str, Any]:
    return {"type": event_type, **_ROUND, **payload}


EXAMPLES: dict[str, dict[str, Any]] = {
    e["type"]: e
    for e in (
        _table("table_opened", game="paigow", rule_set="pa-2019",
               options={"vig_rounding": "quarter"}, gaming_day="2026-11-21",
               dealer_id="dealer-2207"),
        _table("dealer_changed", outgoing_dealer_id="dealer-2207",
               incoming_dealer_id="dealer-1180"),
        _table("table_closed"),
        _table("tile_set_received", tile_set_id="TS-0193"),
        _table("tile_set_inspected", tile_set_id="TS-0193", inspected_by="dealer-2207",
               verified_by="floor-0412", suitable=True),
        _table("tile_set_found_unsuitable", tile_set_id="TS-0193",
               reason="chipped 5-6b back", sealed_container_id="ENV-77812"),
        _table("tile_set_replaced", old_tile_set_id="TS-0193", new_tile_set_id="TS-0201",
               reason="scheduled_change"),
        _table("dice_placed_in_shaker", dice_set_id="D-55120", placed_by="floor-0412"),
        _round("round_started", round_number=42, dealer_id="dealer-2207"),
        _round("tiles_mixed", motions=10),
        _round("stacks_formed", stacks=_STACKS),
        _round("stacking_tile_exposed", tile="2-4"),
        _round("tiles_remixed", reason="tile exposed while stacking"),
        _round("bank_offered", position=1),
        _round("bank_declined", position=1),
        _round("bank_accepted", position=2, player_id="P-88120", chips_on_table="1500.00"),
        _round("co_bank_requested", position=2),
        _round("tiles_cut", start=5, stop=8, to_right=3, crossed=False),
        _round("dealer_wager_against_bank", amount="100.00"),
        _round("wager_placed", position=3, amount="25.00", kind="pai_gow", player_id="P-10442"),
        _round("wager_withdrawn", position=3, amount="25.00", kind="pai_gow"),
        _round("no_more_bets"),
        _round("shaker_shaken", count=3, shaken_by="dealer"),
        _round("dice_revealed", faces=[4, 5, 6], all_flat=True, all_in_shaker=True,
               announced_total=15),
        _round("rng_number_shown", number=15),
        _round("no_roll_called", reason="not_flat"),
        _round("delivery_style_chosen", style="cup_say_right", chosen_by="bank"),
        _round("stack_delivered", position=6, order=0, tiles=["6-6a", "1-1a", "4-4a", "1-3a"]),
        _round("unwagered_stacks_collected", positions=[4, 5]),
        _round("tile_exposed", position=3, tile="5-5b"),
        _round("hand_voided", position=3),
        _round("hand_set", position=6, high=["6-6a", "4-4a"], low=["1-1a", "1-3a"],
               set_by="player"),
        _round("surrendered", position=4),
        _round("hands_revealed", position=6),
        _round("wager_settled", position=6, kind="pai_gow", outcome="win", paid="25.00",
               vigorish="1.25"),
        _round("dealer_wager_settled", outcome="lose", amount="100.00"),
        _round("bank_shortfall_collected", amount="40.00"),
        _round("bank_surplus_settled", surplus="60.00", vigorish="3.00", paid_to_bank="57.00"),
        _round("co_bank_split", shortfall_from_co_bank="20.00", shortfall_from_house="20.00"),
        _round("collection_fee_taken", position=0, amount="1.00", schedule_option=1),
        _round("round_voided", reason="banker_tile_exposed", detail="dealer's 2-4 turned over"),
        _round("round_completed"),
        _b21_table("shoe_shuffled", batch=1, decks=8, method="automated", reason="cover_card",
                   new_decks=False),
        _b21_table("shoe_cut", stack_size=416, cut_at=187, cover_from_bottom=70,
                   cut_by="player"),
        _b21_table("shoe_loaded", batch=1, cards=416),
        _b21_table("card_burned"),
        _b21_round("b21_wager_placed", position=4, bet="bonus_banker", amount="5.00",
                   player_id="P-10442"),
        _b21_round("b21_wager_removed", position=4, bet="bonus_banker", amount="5.00",
                   player_id="P-10442"),
        _b21_round("cover_card_appeared"),
        _b21_round("card_found_face_up", card="7H", disposition="discarded"),
        _b21_round("b21_card_dealt", card="AS", hand="player", bonus_only=False),
        _b21_round("b21_wager_settled", position=4, bet="player", outcome="win",
                   paid="12.50"),
        _b21_round("b21_round_voided", reason="shuffler_malfunction",
                   detail="shoe jammed after the second card"),
        _table("opener_recorded", slip_number=4411, gaming_day="2026-11-21", shift="day",
               chips=[{"denomination": "100.00", "count": 20},
                      {"denomination": "25.00", "count": 120},
                      {"denomination": "5.00", "count": 200}],
               counted_by="dealer-2207", verified_by="floor-118"),
        _table("fill_recorded", slip_number=90211, gaming_day="2026-11-21", shift="day",
               chips=[{"denomination": "25.00", "count": 80}]),
        _table("credit_recorded", slip_number=30377, gaming_day="2026-11-21", shift="day",
               chips=[{"denomination": "100.00", "count": 10}]),
        _table("buy_in_recorded", instrument="cash", amount="300.00", position=3),
        _table("closer_recorded", slip_number=4452, gaming_day="2026-11-21", shift="day",
               chips=[{"denomination": "100.00", "count": 18},
                      {"denomination": "25.00", "count": 131},
                      {"denomination": "5.00", "count": 190}],
               counted_by="dealer-1180", verified_by="floor-118"),
        _table("drop_box_exchanged", removed_box_id="DB-PG01-A", installed_box_id="DB-PG01-B",
               gaming_day="2026-11-21", shift="day"),
        {**_table("drop_counted", box_id="DB-PG01-A", for_table_id="PG-01",
                  gaming_day="2026-11-21", shift="day", count="first",
                  cash=[{"denomination": "100.00", "count": 31},
                        {"denomination": "20.00", "count": 45}],
                  markers="500.00", counted_by="count-team-2"),
         "table_id": "COUNT-ROOM", "seq": 77},
        _table("sequence_gap_observed", recorded_by="tablewatch-ingest", expected_seq=312,
               observed_seq=314, observed_event_id="9d8c1b7e-2f4a-4c3d-8e5f-6a7b8c9d0e1f",
               about_round_id="PG-01-2026-11-21-r42"),
        _table("event_id_reused", recorded_by="tablewatch-ingest",
               reused_event_id="9d8c1b7e-2f4a-4c3d-8e5f-6a7b8c9d0e1f",
               first_digest="a" * 64, conflicting_digest="b" * 64,
               conflicting_event={"type": "wager_placed", "amount": "500.00"}),
    )
}  # fmt: skip
