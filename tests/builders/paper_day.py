"""A hand-written gaming day for two tables, worked out on paper (tests/unit/accounting/).

PG-01 (PA 2019, cents vigorish), two shifts; PG-02 (California, schedule option 1),
one shift. Every amount below is what a pit would record; the figures the tests
expect are worked out in the test's docstrings, from the MGR formula alone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from audit.events.catalogue import parse_event
from audit.events.envelope import Event

DAY = "2026-11-21"
_START = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


class Stream:
    """One station's events, numbered and timed in order."""

    counter = 0

    def __init__(self, table_id: str) -> None:
        self.table_id, self.seq = table_id, 0
        self.events: list[Any] = []

    def __call__(self, kind: str, round_id: str | None = None, /, **payload: Any) -> Event:
        Stream.counter += 1
        event = parse_event({
            "type": kind, "event_id": str(UUID(int=Stream.counter, version=4)),
            "table_id": self.table_id, "round_id": round_id, "seq": self.seq,
            "occurred_at": (_START + timedelta(minutes=Stream.counter)).isoformat(),
            "recorded_by": "pit-1", **payload,
        })  # fmt: skip
        self.seq += 1
        self.events.append(event)
        return event


def chips(**by_denomination: int) -> list[dict[str, Any]]:
    """Return a slip's chips: ``chips(d100=20, d25=4)`` is twenty $100 and four $25."""
    return [
        {"denomination": name[1:].replace("_", "."), "count": count}
        for name, count in by_denomination.items()
    ]


def slip(kind: str, number: int, shift: str, **by_denomination: int) -> dict[str, Any]:
    """Return the payload of a numbered slip."""
    fields: dict[str, Any] = {"slip_number": number, "gaming_day": DAY, "shift": shift,
                              "chips": chips(**by_denomination)}  # fmt: skip
    if kind in ("opener_recorded", "closer_recorded"):
        fields.update(counted_by="dealer-1", verified_by="floor-1")
    return fields


def paper_day() -> list[Event]:
    """Return the day's events in the order the store would hold them."""
    t1, t2, room = Stream("PG-01"), Stream("PG-02"), Stream("COUNT-ROOM")
    # --- PG-01, day shift ----------------------------------------------------------------
    t1("table_opened", rule_set="pa-2019", options={"vig_rounding": "cent"}, gaming_day=DAY,
       dealer_id="dealer-1")  # fmt: skip
    t1("opener_recorded", **slip("opener_recorded", 4001, "day", d100=100, d25=200))  # 15,000
    t1("buy_in_recorded", instrument="cash", amount="500.00", position=1)
    t1("buy_in_recorded", instrument="marker", amount="1000.00", position=2, reference="MK-1")
    t1("buy_in_recorded", instrument="coupon", amount="25.00", position=3, reference="CPN-1")
    # r1, dealer-banked: +1 wins 100 (vig 5), +2 loses 200, +3 loses a 50 Pair Fortunes.
    t1("round_started", "r1", round_number=1, dealer_id="dealer-1")
    t1("wager_placed", "r1", position=1, amount="100.00", kind="pai_gow")
    t1("wager_placed", "r1", position=2, amount="200.00", kind="pai_gow")
    t1("wager_placed", "r1", position=3, amount="50.00", kind="pair_fortunes")
    t1("wager_settled", "r1", position=1, outcome="win", paid="100.00", vigorish="5.00")
    t1("wager_settled", "r1", position=2, outcome="lose", collected="200.00")
    t1("wager_settled", "r1", position=3, kind="pair_fortunes", outcome="lose", collected="50.00")
    t1("round_completed", "r1")
    # r2, player 2 banks: the dealer's 100 against the bank wins, +1 wins 40 (vig 2),
    # the centre's surplus of 60 pays 3 vigorish.
    t1("round_started", "r2", round_number=2, dealer_id="dealer-1")
    t1("bank_accepted", "r2", position=2)
    t1("dealer_wager_against_bank", "r2", amount="100.00")
    t1("wager_placed", "r2", position=1, amount="40.00", kind="pai_gow")
    t1("dealer_wager_settled", "r2", outcome="win", amount="100.00")
    t1("wager_settled", "r2", position=1, outcome="win", paid="40.00", vigorish="2.00")
    t1("bank_surplus_settled", "r2", surplus="60.00", vigorish="3.00", paid_to_bank="57.00")
    t1("round_completed", "r2")
    t1("fill_recorded", **slip("fill_recorded", 90001, "day", d25=80))  # 2,000
    t1("credit_recorded", **slip("credit_recorded", 30001, "day", d100=10))  # 1,000
    t1("closer_recorded", **slip("closer_recorded", 5001, "day", d100=140, d25=29, d5=2))
    t1("drop_box_exchanged", removed_box_id="DB-1", installed_box_id="DB-2", gaming_day=DAY,
       shift="day")  # fmt: skip
    # --- PG-01, swing shift: one round whose 5.00 vigorish was never taken ------------------
    t1("opener_recorded", **slip("opener_recorded", 5001, "swing", d100=140, d25=29, d5=2))
    t1("round_started", "r3", round_number=3, dealer_id="dealer-1")
    t1("wager_placed", "r3", position=1, amount="100.00", kind="pai_gow")
    t1("wager_settled", "r3", position=1, outcome="win", paid="100.00")
    t1("round_completed", "r3")
    t1("closer_recorded", **slip("closer_recorded", 5002, "swing", d100=146, d25=1, d5=2))
    t1("drop_box_exchanged", removed_box_id="DB-2", installed_box_id="DB-3", gaming_day=DAY,
       shift="swing")  # fmt: skip
    # --- PG-02, California: the player-dealer covers; the house takes fees of 1 and 2 -------
    t2("table_opened", rule_set="california", gaming_day=DAY, dealer_id="dealer-2")
    t2("opener_recorded", **slip("opener_recorded", 4002, "day", d100=50))  # 5,000
    t2("buy_in_recorded", instrument="cash", amount="300.00", position=1)
    t2("round_started", "c1", round_number=1, dealer_id="dealer-2")
    t2("wager_placed", "c1", position=1, amount="100.00", kind="pai_gow")
    t2("wager_settled", "c1", position=1, outcome="lose", collected="100.00")
    t2("collection_fee_taken", "c1", position=1, amount="1.00", schedule_option=1)
    t2("collection_fee_taken", "c1", position=0, amount="2.00", schedule_option=1)
    t2("round_completed", "c1")
    t2("closer_recorded", **slip("closer_recorded", 5003, "day", d100=47))  # 4,700
    t2("drop_box_exchanged", removed_box_id="DB-9", installed_box_id="DB-10", gaming_day=DAY,
       shift="day")  # fmt: skip
    # --- the count room ------------------------------------------------------------------
    for count in ("first", "second"):
        room("drop_counted", box_id="DB-1", for_table_id="PG-01", gaming_day=DAY, shift="day",
             count=count, cash=chips(d100=5), markers="1000.00", coupons="25.00",
             counted_by="count-1")  # fmt: skip
        room("drop_counted", box_id="DB-2", for_table_id="PG-01", gaming_day=DAY,
             shift="swing", count=count, cash=[], counted_by="count-1")  # fmt: skip
        room("drop_counted", box_id="DB-9", for_table_id="PG-02", gaming_day=DAY, shift="day",
             count=count, cash=chips(d100=3), chips="3.00", counted_by="count-1")  # fmt: skip
    return t1.events + t2.events + room.events
