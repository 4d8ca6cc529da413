"""Deals and place codes: the keys the rule tables are built on (audit/games/paigow/deals.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from audit.games.paigow.deals import (
    deal_mask,
    kind_pattern,
    place_code,
    setting_of_place_code,
)
from audit.games.paigow.setting import Setting, splits
from audit.games.paigow.tiles import TILE_KINDS

DEALS = st.lists(st.sampled_from(range(32)), min_size=4, max_size=4, unique=True).map(
    lambda tiles: tuple(sorted(tiles))
)


@given(DEALS)
def test_the_six_codes_are_the_three_splits_either_hand_high(deal):
    by_code = [setting_of_place_code(deal, code) for code in range(6)]
    expected = {Setting(high, low) for first, second in splits(deal) for high, low in
                ((first, second), (second, first))}  # fmt: skip
    assert set(by_code) == expected
    assert len(set(by_code)) == 6


@given(DEALS, st.integers(0, 5), st.data())
def test_a_setting_keeps_its_code_however_its_tiles_are_listed(deal, code, data):
    setting = setting_of_place_code(deal, code)
    high = tuple(data.draw(st.permutations(setting.high)))
    low = tuple(data.draw(st.permutations(setting.low)))
    assert place_code(Setting(high, low)) == code


@given(DEALS, st.integers(0, 5))
def test_even_codes_put_the_lowest_tile_high(deal, code):
    setting = setting_of_place_code(deal, code)
    assert (deal[0] in setting.high) is (code % 2 == 0)
    partner = [t for t in (setting.high if code % 2 == 0 else setting.low) if t != deal[0]]
    assert partner == [deal[1 + code // 2]]  # the split: the lowest tile with the 2nd, 3rd, 4th


@given(DEALS, st.data())
def test_kind_pattern_and_mask_ignore_the_order_of_the_tiles(deal, data):
    shuffled = data.draw(st.permutations(deal))
    assert kind_pattern(shuffled) == tuple(TILE_KINDS[t] for t in deal)
    assert deal_mask(shuffled) == deal_mask(deal) == sum(1 << t for t in deal)
