"""The console's filters: times in the casino's zone, money never from a float."""

from decimal import Decimal

import pytest

from consumers.web.templating import money, to_local


def test_a_utc_time_is_shown_in_the_casinos_zone_across_daylight_saving():
    assert to_local("2026-07-04T16:00:00+00:00", "America/New_York") == "2026-07-04 12:00:00 EDT"
    assert to_local("2026-11-21T16:00:00+00:00", "America/New_York") == "2026-11-21 11:00:00 EST"
    assert to_local("2026-11-21T16:00:00+00:00", "UTC") == "2026-11-21 16:00:00 UTC"


def test_a_time_stored_with_another_offset_is_converted_not_relabelled():
    assert to_local("2026-11-21T09:00:00-08:00", "America/New_York") == "2026-11-21 12:00:00 EST"


def test_money_shows_cents_and_sign():
    assert money(Decimal("1234567.5")) == "$1,234,567.50"
    assert money("-0.25") == "-$0.25"


def test_money_refuses_a_float_and_nonsense():
    with pytest.raises(TypeError, match="never a float"):
        money(0.1)
    with pytest.raises(ValueError, match="not an amount of money: 'ten'"):
        money("ten")
