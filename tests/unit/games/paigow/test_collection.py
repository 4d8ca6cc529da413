import re

import pytest

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.paigow import collection
from audit.games.paigow.collection import (
    COLLECTION_SCHEDULES,
    CollectionBand,
    CollectionBasis,
    CollectionSchedule,
    collection_band,
    collection_fee,
    collection_fees,
    collection_schedule,
    is_below_schedule,
    table_action,
)

# The Collection Rates Schedule as printed in the CA text, transcribed row by row
# independently of the module's data: (option, band, fee, player-dealer fee).
PRINTED = """
1  $1-$100        $1.00   $1.00
1  $101-$200      $2.00
1  $201-$300      $3.00
1  $301-$400      $4.00
1  $401+          $5.00
2  $1-$100        $1.00   $2.00
2  $101-$200      $2.00
2  $201-$300      $3.00
2  $301-$400      $4.00
2  $401+          $5.00
3  $1-$200        $1.00   $1.00
3  $201-$400      $3.00
3  $401-$600      $5.00
3  $601-$800      $7.00
3  $801+          $9.00
4  $1-$200        $2.00   $2.00
4  $201-$600      $4.00
4  $601-$1,000    $8.00
4  $1,001-$1,400  $12.00
4  $1,401+        $15.00
5  $100-$400      $2.00   $2.00
5  $401-$800      $6.00
5  $801-$1,400    $11.00
5  $1,401-$2,000  $15.00
5  $2,001+        $20.00
6  $1-$49         $0.50
6  $50-$99        $1.00
6  $100-$199      $2.00
6  $200-$299      $3.00
6  $300+          $5.00
7  $1-$74         $1.00
7  $75-$199       $2.00
7  $200-$399      $4.00
7  $400-$699      $7.00
7  $700+          $10.00
8  $1-$99         $1.00
8  $100-$299      $3.00
8  $300-$499      $5.00
8  $500-$799      $8.00
8  $800+          $12.00
9  $1-$299        $3.00
9  $300-$499      $5.00
9  $500-$799      $8.00
9  $800-$1,199    $12.00
9  $1,200+        $20.00
10 $100-$999      $5.00
10 $1,000-$1,999  $15.00
10 $2,000-$2,999  $25.00
10 $3,000-$3,999  $35.00
10 $4,000+        $45.00
"""


def _cents(text):
    dollars, _, cents = text.lstrip("$").replace(",", "").partition(".")
    return int(dollars) * 100 + int(cents or 0)


def _printed_rows():
    """Return (option, low cents, high cents or None, fee cents, player-dealer fee or None)."""
    rows = []
    for line in PRINTED.strip().splitlines():
        option, band, fee, *player_dealer = line.split()
        low, _, high = band.rstrip("+").partition("-")
        rows.append(
            (
                int(option),
                _cents(low),
                _cents(high) if high else None,
                _cents(fee),
                _cents(player_dealer[0]) if player_dealer else None,
            )
        )
    return rows


ROWS = _printed_rows()


def _band_rows(option):
    return [row for row in ROWS if row[0] == option]


def test_every_option_is_transcribed():
    assert sorted(COLLECTION_SCHEDULES) == list(range(1, 11))
    assert {row[0] for row in ROWS} == set(range(1, 11))
    for option, schedule in COLLECTION_SCHEDULES.items():
        assert schedule.option == option
        assert collection_schedule(option) is schedule
        expected_basis = (
            CollectionBasis.PLAYER_WAGER if option <= 5 else CollectionBasis.TABLE_ACTION
        )
        assert schedule.basis is expected_basis
        rows = _band_rows(option)
        assert [(b.low * 100, b.fee) for b in schedule.bands] == [(r[1], r[3]) for r in rows]
        assert [None if b.high is None else b.high * 100 for b in schedule.bands] == [
            r[2] for r in rows
        ]
        assert schedule.player_dealer_fee == (rows[0][4] or 0)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"option{r[0]}-{r[1] // 100}")
def test_every_band_edge(row):
    option, low, high, fee, _ = row
    schedule = COLLECTION_SCHEDULES[option]
    rows = _band_rows(option)
    index = rows.index(row)
    # The printed low and high dollars are in the band.
    assert collection_fee(schedule, low) == fee
    if high is not None:
        assert collection_fee(schedule, high) == fee
        # One cent over the top is the next band, printed one dollar higher.
        assert collection_fee(schedule, high + 1) == rows[index + 1][3]
        assert rows[index + 1][1] == high + 100
    else:
        assert collection_fee(schedule, 10**9) == fee
    if index == 0:
        # One cent under the lowest band is in no band: no fee, and flagged.
        assert collection_fee(schedule, low - 1) == 0
        assert collection_band(schedule, low - 1) is None
        assert is_below_schedule(schedule, low - 1)
        assert is_below_schedule(schedule, 0)
        assert not is_below_schedule(schedule, low)
    else:
        # Between the printed dollars ($100.01 to $100.99 for "$101-$200") is this band.
        assert collection_fee(schedule, low - 99) == fee
        assert collection_fee(schedule, low - 100) == rows[index - 1][3]


def test_a_hundred_dollars_and_fifty_cents_falls_in_the_second_band():
    band = collection_band(COLLECTION_SCHEDULES[1], 10050)
    assert band == CollectionBand(101, 200, 200)


def test_collection_fees_per_player_wager():
    fees = collection_fees(COLLECTION_SCHEDULES[4], [50, 20000, 20001, 140100], bonus_action=999)
    assert fees == ((0, 200, 400, 1500), 200)


def test_collection_fees_on_table_action():
    assert table_action([2500, 2500], 4999) == 9999
    assert collection_fees(COLLECTION_SCHEDULES[10], [2500, 2500], 4999) == ((0, 0), 0)
    assert collection_fees(COLLECTION_SCHEDULES[10], [2500, 2500], 5000) == ((0, 0), 500)
    assert collection_fees(COLLECTION_SCHEDULES[6], [], 0) == ((), 0)


def test_reprs_round_trip():
    namespace = vars(collection)
    for schedule in COLLECTION_SCHEDULES.values():
        assert eval(repr(schedule), namespace) == schedule


@pytest.mark.parametrize("option", [0, 11, "1", None])
def test_unknown_option_is_refused(option):
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(option))):
        collection_schedule(option)


@pytest.mark.parametrize("bad", [-1, 10.0, "100", None])
def test_bad_amounts_are_refused(bad):
    schedule = COLLECTION_SCHEDULES[1]
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        collection_fee(schedule, bad)
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        collection_fees(schedule, [100, bad])
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        collection_fees(schedule, [100], bonus_action=bad)


def test_malformed_schedules_are_refused():
    basis = CollectionBasis.PLAYER_WAGER
    with pytest.raises(InvalidSettlementError, match="do not join"):
        CollectionSchedule(1, basis, (CollectionBand(1, 100, 100), CollectionBand(102, None, 200)))
    with pytest.raises(InvalidSettlementError, match="open-ended"):
        CollectionSchedule(1, basis, (CollectionBand(1, 100, 100),))
    with pytest.raises(InvalidSettlementError, match="open-ended"):
        CollectionSchedule(1, basis, ())


def _band_by_scan(schedule, amount):
    """The band an amount falls in, by reading the bands in order: the lookup's reference."""
    if amount < schedule.bands[0].floor:
        return None
    return next(band for band in schedule.bands if band.covers(amount))


@pytest.mark.parametrize("option", sorted(COLLECTION_SCHEDULES))
def test_the_band_looked_up_is_the_first_that_covers_the_amount(option):
    schedule = COLLECTION_SCHEDULES[option]
    edges = {band.low * 100 + d for band in schedule.bands for d in (-101, -100, -99, -1, 0, 1)}
    edges |= {band.high * 100 + d for band in schedule.bands if band.high for d in (-1, 0, 1)}
    for amount in sorted({a for a in edges if a >= 0} | set(range(0, 600_000, 997))):
        assert collection_band(schedule, amount) == _band_by_scan(schedule, amount), amount
