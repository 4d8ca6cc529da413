"""The simulated casino: every event valid, the stream seeded, and every round rule-correct.

Each check reads the events alone and recomputes what it needs with the rules
engine, never with the simulator's own state.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cached_property
from itertools import pairwise

import pytest

from audit.events.catalogue import event_dict, parse_event
from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.games.money import to_cents
from audit.games.paigow.collection import collection_fees
from audit.games.paigow.dealing import apply_cut, deal
from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.layout import (
    action_button,
    settlement_order,
    starting_position,
    unwagered_positions,
)
from audit.games.paigow.outcome import wager_outcome
from audit.games.paigow.rulesets import RULE_SETS, RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import TILES, parse_tile
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.simulation import Frequencies, ShiftConfig, simulate_shift
from audit.simulation.count_room import COUNT_ROOM
from audit.simulation.shift import InvalidShiftConfigError

SEED = 20261121
CONFIG = ShiftConfig(tables=6, rounds_per_table=40)


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return list(simulate_shift(CONFIG, random.Random(SEED)))


def rule_sets(events: list[Event]) -> dict[str, RuleSet]:
    """Return each table's rule set, with the options its table_opened names."""
    found = {}
    for e in events:
        if isinstance(e, TableOpened):
            options = {k: VigRounding(v) for k, v in e.options.items()}
            found[e.table_id] = RULE_SETS[e.rule_set].with_options(**options)
    return found


def tiles(names) -> tuple[int, ...]:
    return tuple(parse_tile(n) for n in names)


def pair(names) -> tuple[int, int]:
    first, second = tiles(names)
    return first, second


def setting(hand_set) -> Setting:
    return Setting(pair(hand_set.high), pair(hand_set.low))


@dataclass
class Round:
    """One round's events, and what the tests read from them."""

    rule_set: RuleSet
    events: list[Event]

    def of(self, kind: str) -> list:
        return [e for e in self.events if e.type_name() == kind]

    def first(self, kind: str):
        found = self.of(kind)
        return found[0] if found else None

    @property
    def is_california(self) -> bool:
        return self.rule_set.collection_schedule is not None

    @property
    def bank(self):
        """Return the bank_accepted of a PA/NJ player bank, or None."""
        return None if self.is_california else self.first("bank_accepted")

    @property
    def mode(self) -> str:
        if self.is_california:
            return "california"
        if self.bank is None:
            return "dealer"
        return "co_bank" if self.of("co_bank_requested") else "player_bank"

    @property
    def voided(self) -> bool:
        return bool(self.of("round_voided"))

    @property
    def banker_position(self) -> int:
        return self.bank.position if self.mode in ("player_bank", "co_bank") else 0

    @cached_property
    def delivered(self) -> dict[int, tuple[int, ...]]:
        return {e.position: tiles(e.tiles) for e in self.of("stack_delivered")}

    @cached_property
    def hand_sets(self) -> dict[int, Setting]:
        return {e.position: setting(e) for e in self.of("hand_set")}

    def pai_gow_wagers(self) -> dict[int, int]:
        return {
            e.position: to_cents(e.amount)
            for e in self.of("wager_placed")
            if e.kind.value == "pai_gow" and e.position != 0
        }


@pytest.fixture(scope="module")
def rounds(events) -> dict[str, list[Round]]:
    """Return each table's rounds, in order."""
    rules = rule_sets(events)
    by_round: dict[str, list[Event]] = defaultdict(list)
    for e in events:
        if e.round_id is not None:
            by_round[e.round_id].append(e)
    tables: dict[str, list[Round]] = defaultdict(list)
    for round_events in by_round.values():
        table = round_events[0].table_id
        tables[table].append(Round(rules[table], round_events))
    return tables


def all_rounds(rounds) -> list[Round]:
    return [r for table in rounds.values() for r in table]


# --- The stream --------------------------------------------------------------------------------


def test_every_event_round_trips_through_the_catalogue(events):
    assert len(events) > 8000
    for event in events:
        assert parse_event(event_dict(event)) == event


def test_same_seed_same_stream_and_another_seed_another():
    config = ShiftConfig(tables=3, rounds_per_table=4)
    first = list(simulate_shift(config, random.Random(5)))
    assert first == list(simulate_shift(config, random.Random(5)))
    other = list(simulate_shift(config, random.Random(6)))
    assert [e.event_id for e in first] != [e.event_id for e in other]
    assert [{**event_dict(e), "event_id": None} for e in first] != [
        {**event_dict(e), "event_id": None} for e in other
    ]


def test_each_table_runs_seq_without_gap_in_time_order(events):
    per_table: dict[str, list[Event]] = defaultdict(list)
    for e in events:
        if e.table_id != COUNT_ROOM:  # the count room is a station of its own, counted later
            per_table[e.table_id].append(e)
    assert len(per_table) == CONFIG.tables
    for table_events in per_table.values():
        assert [e.seq for e in table_events] == list(range(len(table_events)))
        times = [e.occurred_at for e in table_events]
        assert times == sorted(times)
        assert len(set(times)) == len(times)
        assert table_events[0].type == "table_opened"
        assert table_events[-1].type == "table_closed"


def test_tables_interleave_in_time_order(events):
    times = [e.occurred_at for e in events]
    assert times == sorted(times)
    assert events[0].occurred_at >= CONFIG.start
    assert len({e.table_id for e in events[: CONFIG.tables * 3]}) > 1


def test_event_ids_are_unique(events):
    assert len({e.event_id for e in events}) == len(events)


def test_rounds_follow_the_order_of_play(rounds):
    pre = ["round_started", "tiles_mixed", "stacks_formed"]
    for r in all_rounds(rounds):
        kinds = [e.type for e in r.events]
        assert kinds[:3] == pre
        assert kinds[-1] == "round_completed"
        assert kinds.index("no_more_bets") > max(
            (i for i, k in enumerate(kinds) if k in ("wager_placed", "bank_accepted")), default=0
        )
        assert [e.round_number for e in r.of("round_started")] == [int(r.events[0].round_id[-4:])]
        assert all(e.motions >= 8 for e in r.of("tiles_mixed"))
        if r.voided:
            continue
        order = [
            kinds.index(k)
            for k in (
                "no_more_bets",
                "stack_delivered",
                "unwagered_stacks_collected",
                "hand_set",
                "hands_revealed",
                "round_completed",
            )
            if k in kinds
        ]
        assert order == sorted(order)
        dealt = kinds.index("stack_delivered")
        for i, kind in enumerate(kinds):
            if kind == "shaker_shaken":  # PA 621a.6(a)(2); once more after the deal, 6(f)
                assert r.events[i].count >= 3 if i < dealt else r.events[i].count == 1
        last_set = max(i for i, k in enumerate(kinds) if k == "hand_set")
        assert all(
            kinds.index(k) > last_set for k in ("surrendered", "hands_revealed") if k in kinds
        )


# --- Money -------------------------------------------------------------------------------------


def _cents(value: Decimal) -> int:
    return to_cents(value)


def test_every_wager_is_settled_once_and_consistently(rounds):
    for r in all_rounds(rounds):
        placed = {
            (e.position, e.kind.value): to_cents(e.amount)
            for e in r.of("wager_placed")
            if not (r.is_california and e.position == 0)
        }
        settled = Counter((e.position, e.kind.value) for e in r.of("wager_settled"))
        assert settled == Counter(placed.keys())
        rounding = r.rule_set.vig_rounding
        for e in r.of("wager_settled"):
            amount = placed[(e.position, e.kind.value)]
            paid, collected, returned = _cents(e.paid), _cents(e.collected), _cents(e.returned)
            if e.outcome == "win":
                assert paid + returned == amount if r.is_california else paid > 0
                if e.kind.value == "pai_gow" and rounding is not None:
                    assert (paid, _cents(e.vigorish)) == (amount, vigorish(paid, rounding))
            elif e.outcome == "lose":
                assert (collected, paid) == (amount - returned, 0)
            elif e.outcome == "surrendered":
                assert (collected, paid, returned) == (amount, 0, 0)
            else:
                assert (returned, paid, collected) == (amount, 0, 0)


def test_money_balances_in_every_round(rounds):
    """Players' net + bank + house = 0, from the settlement events alone."""
    seen = Counter()
    for r in all_rounds(rounds):
        seen[r.mode] += 1
        players = bank = house = 0
        for e in r.of("wager_settled"):
            net = _cents(e.paid) - _cents(e.collected) - _cents(e.vigorish)
            players += net
            house += _cents(e.vigorish)
            if e.kind.value == "pair_fortunes" or r.mode == "dealer":
                house -= net + _cents(e.vigorish)
            elif r.mode == "california":
                bank -= net
        for e in r.of("collection_fee_taken"):
            house += _cents(e.amount)
            if e.position == 0:
                bank -= _cents(e.amount)
            else:
                players -= _cents(e.amount)
        for e in r.of("dealer_wager_settled"):
            house += {"win": 1, "lose": -1, "push": 0}[e.outcome] * _cents(e.amount)
        for e in r.of("bank_shortfall_collected"):
            bank -= _cents(e.amount)
        for e in r.of("bank_surplus_settled"):
            assert _cents(e.surplus) == _cents(e.vigorish) + _cents(e.paid_to_bank)
            bank += _cents(e.paid_to_bank)
            house += _cents(e.vigorish)
        for e in r.of("co_bank_split"):
            bank += _cents(e.surplus_to_co_bank) - _cents(e.shortfall_from_co_bank)
            house += (
                _cents(e.surplus_to_house)
                + _cents(e.surplus_vigorish)
                - _cents(e.shortfall_from_house)
            )
        assert players + bank + house == 0, r.events[0].round_id
        if r.mode == "california":
            pd_wager = next(to_cents(e.amount) for e in r.of("wager_placed") if e.position == 0)
            pd_fee = sum(_cents(e.amount) for e in r.of("collection_fee_taken") if e.position == 0)
            assert -pd_wager <= bank + pd_fee <= pd_wager
    assert all(seen[mode] > 5 for mode in ("dealer", "player_bank", "co_bank", "california"))


def test_california_fees_follow_the_schedule(rounds):
    for r in all_rounds(rounds):
        if not r.is_california:
            continue
        schedule = r.rule_set.collection_schedule
        wagers = r.pai_gow_wagers()
        expected, dealer_fee = collection_fees(schedule, list(wagers.values()))
        fees = {e.position: _cents(e.amount) for e in r.of("collection_fee_taken")}
        assert fees == {p: f for p, f in zip(wagers, expected, strict=True) if f} | {0: dealer_fee}
        assert {e.schedule_option for e in r.of("collection_fee_taken")} == {schedule.option}


# --- Tiles and hands ---------------------------------------------------------------------------


def _count(r: Round) -> tuple[int, str]:
    shown = r.first("rng_number_shown")
    if shown is not None:
        return shown.number, "rng"
    valid = [e for e in r.of("dice_revealed") if e.all_flat and e.all_in_shaker]
    assert len(valid) == 1
    return sum(valid[0].faces), "dice"


def test_the_deal_is_the_engines_deal_from_the_right_position(rounds):
    for r in all_rounds(rounds):
        stacks = tuple(tiles(stack) for stack in r.first("stacks_formed").stacks)
        assert sorted(t for stack in stacks for t in stack) == list(TILES)
        delivered = [t for e in r.of("stack_delivered") for t in tiles(e.tiles)]
        assert len(set(delivered)) == len(delivered)
        if r.voided:
            continue
        assert sorted(delivered) == list(TILES)
        count, source = _count(r)
        first = r.bank.position if r.bank is not None else None
        start = starting_position(count, r.rule_set.layout, first=first, source=source)
        assert r.of("stack_delivered")[0].position == start
        cut_event = r.first("tiles_cut")
        cut = None if cut_event is None else cut_event.cut()
        style = r.first("delivery_style_chosen").style
        expected = deal(apply_cut(stacks, cut), style, start, r.rule_set.layout)
        assert r.delivered == expected
        assert [e.order for e in r.of("stack_delivered")] == list(range(8))


def test_each_hand_is_set_from_its_own_four_tiles_and_never_misordered(rounds):
    ranking_checked = 0
    for r in all_rounds(rounds):
        for position, hand in r.hand_sets.items():
            assert sorted(hand.tiles) == sorted(r.delivered[position])
            assert r.rule_set.ranking.key(*hand.high) >= r.rule_set.ranking.key(*hand.low)
            ranking_checked += 1
    assert ranking_checked > 1000


def test_banker_and_dealer_hands_are_the_house_way(rounds):
    for r in all_rounds(rounds):
        way, ranking = r.rule_set.house_way, r.rule_set.ranking
        banker_positions = {r.banker_position} | (
            {0} if r.of("dealer_wager_against_bank") else set()
        )
        for e in r.of("hand_set"):
            if e.position in banker_positions:
                assert setting(e) == way.setting(r.delivered[e.position], ranking)
                expected_by = "player" if r.mode in ("player_bank", "california") else "dealer"
                if e.position == 0 and r.mode == "player_bank":
                    expected_by = "dealer"
                assert e.set_by == expected_by


def test_outcomes_are_the_engines(rounds):
    for r in all_rounds(rounds):
        banker = r.hand_sets.get(r.banker_position)
        for e in r.of("wager_settled"):
            if e.kind.value == "pai_gow" and e.outcome in ("win", "push", "lose"):
                outcome = wager_outcome(r.hand_sets[e.position], banker, r.rule_set.ranking)
                assert outcome.value == e.outcome
        for e in r.of("dealer_wager_settled"):
            outcome = wager_outcome(r.hand_sets[0], banker, r.rule_set.ranking)
            assert outcome.value == e.outcome


def test_unwagered_stacks_and_settlement_order(rounds):
    for r in all_rounds(rounds):
        wagers = r.pai_gow_wagers()
        if r.voided:
            continue
        wagered = set(wagers) | ({r.bank.position} if r.bank else set())
        dealer_plays = r.mode in ("dealer", "california") or bool(r.of("dealer_wager_against_bank"))
        expected = unwagered_positions(r.rule_set.layout, wagered, dealer_plays=dealer_plays)
        assert r.first("unwagered_stacks_collected").positions == list(expected)
        button = None
        if r.is_california:
            count, _ = _count(r)
            button = action_button(count, r.rule_set.layout)
        order = [p for p in settlement_order(r.rule_set.layout, button) if p in wagers]
        revealed = [e.position for e in r.of("hands_revealed") if e.position != r.banker_position]
        surrendered = {e.position for e in r.of("surrendered")}
        assert revealed == [p for p in order if p not in surrendered]


# --- Banking -----------------------------------------------------------------------------------


def test_no_player_banks_at_the_start_of_a_game(events, rounds):
    restarts = defaultdict(set)  # PA 621a.9(b): a new tile set restarts the game
    round_of_table = defaultdict(int)
    for e in events:
        if e.type == "round_started":
            round_of_table[e.table_id] += 1
        elif e.type == "tile_set_replaced":
            restarts[e.table_id].add(round_of_table[e.table_id] + 1)
    for table, table_rounds in rounds.items():
        if table_rounds[0].is_california:
            continue
        for number, r in enumerate(table_rounds, 1):
            if number == 1 or number in restarts[table]:
                assert not r.of("bank_offered"), r.events[0].round_id


def test_bank_rotation_and_eligibility(rounds):
    for table_rounds in rounds.values():
        previous_bank = None
        last_dealer_round: dict[str, list[int]] = {}
        player_dealers: list[str] = []
        for r in table_rounds:
            offers = [e.position for e in r.of("bank_offered")]
            if r.is_california:
                pd = next(e.player_id for e in r.of("wager_placed") if e.position == 0)
                player_dealers.append(pd)
                assert player_dealers[-3:] != [pd] * 3  # two consecutive rounds at most
                if offers:  # offered clockwise, which is seat order on this layout
                    assert _one_wrap(offers)
                continue
            if offers:
                assert _one_wrap(offers)  # counterclockwise: positions rise, wrapping once
            bank = r.bank
            if bank is not None:
                assert bank.player_id != previous_bank  # PA 621a.9(c)
                assert bank.player_id in last_dealer_round  # 9(d)(1)
                bank_wagers = [e for e in r.of("wager_placed") if e.player_id == bank.player_id]
                assert not bank_wagers  # 9(f): the bank wagers on its one area only
                for e in r.of("dealer_wager_against_bank"):
                    assert to_cents(e.amount) <= min(last_dealer_round[bank.player_id])
                previous_bank = bank.player_id
            else:
                previous_bank = None
                last_dealer_round = defaultdict(list)
                for e in r.of("wager_placed"):
                    if e.kind.value == "pai_gow":
                        last_dealer_round[e.player_id].append(to_cents(e.amount))


def _one_wrap(positions: list[int]) -> bool:
    drops = sum(b < a for a, b in pairwise(positions))
    return drops == 0 or (drops == 1 and positions[-1] < positions[0])


# --- Coverage ----------------------------------------------------------------------------------


def test_a_moderate_shift_shows_everything_a_floor_does(events, rounds):
    kinds = Counter(e.type for e in events)
    for kind in (
        "dealer_changed",
        "tile_set_replaced",
        "no_roll_called",
        "rng_number_shown",
        "surrendered",
        "tiles_cut",
        "co_bank_requested",
        "dealer_wager_against_bank",
        "collection_fee_taken",
        "bank_shortfall_collected",
        "bank_surplus_settled",
    ):
        assert kinds[kind] > 0, kind
    styles = {e.style for e in events if e.type == "delivery_style_chosen"}
    assert styles == set(DeliveryStyle)
    for r in all_rounds(rounds):
        for e in r.of("delivery_style_chosen"):
            dealer = e.chosen_by == "dealer"
            allowed = r.rule_set.styles_when_dealer_banks if dealer else r.rule_set.delivery_styles
            assert e.style in allowed
    side = [e for e in events if e.type == "wager_settled" and e.kind.value == "pair_fortunes"]
    assert {"win", "lose"} <= {e.outcome for e in side} <= {"win", "lose", "returned"}
    assert {e.set_by for e in events if e.type == "hand_set"} == {
        "player",
        "dealer",
        "house_way_on_request",
    }
    own_way = [
        r
        for r in all_rounds(rounds)
        for e in r.of("hand_set")
        if setting(e) != r.rule_set.house_way.setting(r.delivered[e.position], r.rule_set.ranking)
    ]
    assert own_way
    two_spots = [
        r
        for r in all_rounds(rounds)
        if len({e.player_id for e in r.of("wager_placed")})
        < len({(e.player_id, e.position) for e in r.of("wager_placed")})
    ]
    assert two_spots
    assert {r.rule_set.name for r in all_rounds(rounds)} == {"pa-2019", "nj", "california"}


def test_voided_rounds_return_every_wager():
    config = ShiftConfig(
        tables=2,
        rounds_per_table=30,
        rule_set_mix=(("pa-2019", 1),),
        frequencies=Frequencies(dealer_tile_exposed=0.3),
    )
    by_round: dict[str, list[Event]] = defaultdict(list)
    for e in simulate_shift(config, random.Random(3)):
        if e.round_id is not None:
            by_round[e.round_id].append(e)
    voided = [r for r in by_round.values() if any(e.type == "round_voided" for e in r)]
    assert len(voided) > 5
    for r in voided:
        kinds = [e.type for e in r]
        at = kinds.index("round_voided")
        assert kinds[at - 2 : at] == ["stack_delivered", "tile_exposed"]
        assert (r[at - 2].position, r[at - 1].position) == (0, 0)
        assert r[at].reason == "banker_tile_exposed"
        assert "hand_set" not in kinds
        assert kinds[-1] == "round_completed"
        placed = Counter((e.position, e.kind, e.amount) for e in r if e.type == "wager_placed")
        returned = Counter(
            (e.position, e.kind, e.returned)
            for e in r
            if e.type == "wager_settled" and e.outcome == "returned"
        )
        assert placed == returned
        assert kinds[at + 1 : -1] == ["wager_settled"] * len(placed)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tables": -1}, "tables"),
        ({"rounds_per_table": 1.5}, "rounds_per_table"),
        ({"start": datetime(2026, 11, 21, 20, 0)}, "timezone"),
        ({"rule_set_mix": (("pa-2030", 1),)}, "pa-2030"),
        ({"rule_set_mix": (("nj", 0),)}, "positive"),
        ({"rule_set_mix": ()}, "names no rule set"),
        ({"tables": 2, "table_numbers": (3,)}, "2 distinct numbers"),
        ({"tables": 2, "table_numbers": (3, 3)}, "2 distinct numbers"),
        ({"tables": 2, "table_numbers": (3, 0)}, ">= 1"),
    ],
)
def test_a_shift_config_refuses_what_it_cannot_run(changes, message):
    with pytest.raises(InvalidShiftConfigError, match=message):
        ShiftConfig(**changes)


def test_given_table_numbers_keep_a_floor_the_same_tables_day_after_day():
    def tables(seed: int, numbers: tuple[int, ...] | None) -> set[str]:
        config = ShiftConfig(tables=3, rounds_per_table=1, table_numbers=numbers)
        events = simulate_shift(config, random.Random(seed))
        return {e.table_id for e in events if isinstance(e, TableOpened)}

    assert tables(1, (12, 4, 30)) == tables(2, (12, 4, 30)) == {"PG-04", "PG-12", "PG-30"}
    assert tables(1, None) != tables(2, None)  # drawn from 1-99 by each day's seed


def test_a_frequency_must_be_a_probability():
    with pytest.raises(ValueError, match="no_roll"):
        Frequencies(no_roll=1.5)


def test_start_and_gaming_day():
    config = ShiftConfig(tables=1, rounds_per_table=1, start=datetime(2026, 1, 2, 3, tzinfo=UTC))
    events = list(simulate_shift(config, random.Random(1)))
    assert events[0].gaming_day == config.day == date(2026, 1, 2)
    assert all(e.occurred_at >= config.start for e in events)
