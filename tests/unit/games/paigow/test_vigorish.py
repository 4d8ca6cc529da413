import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.paigow.vigorish import QUARTER, VIGORISH_PERCENT, VigRounding, vigorish


@pytest.mark.parametrize(
    ("amount_won", "cent", "quarter"),
    [
        (1000, 50, 50),  # $10 -> 50¢ either way
        (1100, 55, 75),  # $11 -> 55¢, or the next multiple of 25¢
        (100, 5, 25),  # $1 -> 5¢, or the 25¢ minimum
        (1010, 51, 75),  # $10.10 -> 50.5¢ rounds up to 51¢
        (0, 0, 0),
        (1, 1, 25),
        (500, 25, 25),
        (501, 26, 50),
        (2000, 100, 100),
    ],
)
def test_vigorish_examples(amount_won, cent, quarter):
    assert vigorish(amount_won, VigRounding.CENT) == cent
    assert vigorish(amount_won, VigRounding.QUARTER) == quarter


def test_rate_is_five_percent():
    assert VIGORISH_PERCENT == 5
    assert QUARTER == 25


@pytest.mark.parametrize("bad", [-1, 1.5, 10.0, "100", None, True])
def test_bad_amounts_are_refused_naming_the_value(bad):
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        vigorish(bad, VigRounding.CENT)


def test_unknown_rounding_is_refused():
    with pytest.raises(InvalidSettlementError, match="'quarter'"):
        vigorish(100, "quarter")


@given(st.integers(min_value=0, max_value=10**12))
def test_vigorish_is_never_negative_and_quarter_at_least_cent(amount_won):
    cent = vigorish(amount_won, VigRounding.CENT)
    quarter = vigorish(amount_won, VigRounding.QUARTER)
    assert 0 <= cent <= quarter
    assert quarter % QUARTER == 0
    # Each is the smallest value of its step that is at least 5% of the win.
    assert cent * 100 >= amount_won * 5 > (cent - 1) * 100
    assert quarter * 100 >= amount_won * 5 > (quarter - QUARTER) * 100
    assert (amount_won > 0) == (cent > 0) == (quarter >= QUARTER)
