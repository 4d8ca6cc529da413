"""Two kinds of money and the severity that follows them (issue #22.2, #22.3), with each
finding's gaming day and player."""

from dataclasses import replace
from decimal import Decimal

import pytest

from audit.events.paigow import wagers
from audit.findings.finding import Money, Severity
from audit.findings.severities import RULE_SET_SEVERITIES, severity_of
from audit.floor.catalogue import KINDS_BY_CODE
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.kinds import KINDS
from tests.builders.paigow_rounds import clean_round
from tests.builders.paigow_settlement import ca_round, dealer_round
from tests.builders.paigow_stream import Table, codes

ACTION = Decimal("65.00")
"""The default clean round's Pai Gow wagers."""


def test_a_dice_total_announced_wrongly_is_exposure_not_money_at_stake():
    """The issue's example: the deal and settlement right, only the announcement wrong."""
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), announced_total=10)
    [finding] = rnd.findings("PG-DEAL-DICE-TOTAL")
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.WARNING, Decimal("0.00"), ACTION,
    )  # fmt: skip


def test_a_player_banking_rounds_running_touches_the_action_it_banks():
    """The issue's other example: PG-ROT-CONSECUTIVE moves no money wrongly."""
    table = Table(rule_set="nj")
    table.round(1, wagers=(2, 3))
    table.round(2, bank=2, offers=[2], wagers=(2, 3))
    table.round(3, bank=2, offers=[2], wagers=(2, 3))
    [finding] = codes(table, "PG-ROT-CONSECUTIVE")
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.WARNING, Decimal("0.00"), Decimal("25.00"),
    )  # fmt: skip


def test_california_holds_its_player_dealer_rotation_critical():
    """The California text makes the rotation what keeps the game a player-dealer game."""
    table = Table(rule_set="california")
    for number in (1, 2, 3):
        table.round(number, bank=4, offers=[4], wagers=(4, 5))
    [finding] = codes(table, "PG-ROT-CONSECUTIVE")
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.CRITICAL, Decimal("0.00"), Decimal("25.00"),
    )  # fmt: skip


def test_uncollected_vigorish_is_money_at_stake_and_critical():
    table = dealer_round({1: ("win", {"paid": "25.00", "vigorish": "0.00"})})
    [finding] = [f for f in table.findings("PG-SETTLE-VIG-UNCOLLECTED")]
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.CRITICAL, Decimal("1.25"), Decimal("0.00"),
    )  # fmt: skip


def test_a_settlement_order_that_moved_money_is_critical_money_at_stake():
    changes = {
        1: ("lose", {"collected": "20.00"}),
        3: ("win", {"paid": "30.00", "returned": "10.00"}),
        4: ("win", {"returned": "30.00"}),
    }
    [finding] = ca_round(changes, order=(1, 3, 4)).findings("PG-CA-ORDER")
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.CRITICAL, Decimal("40.00"), Decimal("0.00"),
    )  # fmt: skip


def test_a_settlement_order_that_moved_nothing_is_a_warning():
    kind = KINDS["PG-CA-ORDER"]
    assert severity_of(kind, "california", Decimal("0.00")) is Severity.WARNING
    assert severity_of(kind, "california", Decimal("0.01")) is Severity.CRITICAL


def test_a_check_passing_the_other_money_is_refused():
    emit = Emit(None, TableContext("PG-01"))
    with pytest.raises(ValueError, match="PG-DEAL-DICE-TOTAL carries money 'exposure'"):
        emit("PG-DEAL-DICE-TOTAL", recorded="r", expected="e", at_stake=Decimal("5"))
    with pytest.raises(ValueError, match="PG-SETTLE-PAYOUT carries money 'at stake'"):
        emit("PG-SETTLE-PAYOUT", recorded="r", expected="e", exposure=Decimal("5"))
    assert emit.findings == []


def test_every_kind_says_its_money_and_critical_only_where_money_or_a_void_went_wrong():
    for code, kind in KINDS_BY_CODE.items():
        if kind.severity is Severity.CRITICAL and not code.startswith("DATA-"):
            assert kind.money is Money.AT_STAKE, code
        if kind.money is Money.EXPOSURE:
            assert kind.severity is not Severity.CRITICAL, code


def test_rule_set_overrides_name_known_kinds_and_rule_sets():
    from audit.games.paigow.rulesets import RULE_SETS

    for name, table in RULE_SET_SEVERITIES.items():
        assert name in RULE_SETS
        assert set(table) <= set(KINDS_BY_CODE)


def test_a_finding_carries_its_gaming_day_and_the_player_at_its_position():
    rnd = clean_round("pa-2019", players={5: "P-10442"})
    rnd.insert_after(rnd.first("no_more_bets"), wagers.WagerPlaced, position=5,
                     amount=Decimal("60.00"), kind=wagers.WagerKind.PAI_GOW,
                     player_id="P-10442")  # fmt: skip
    [finding] = rnd.findings("PG-WAGER-PAST-POST")
    assert (finding.gaming_day, finding.player_id) == ("2026-11-21", "P-10442")


def test_a_bank_finding_names_the_banking_player_and_a_table_finding_none():
    table = Table(inspected=False)
    table.round(1, bank=2, offers=[1, 2], wagers=(2, 3))
    [bank] = codes(table, "PG-ROT-START-OF-GAME")
    assert (bank.position, bank.player_id, bank.gaming_day) == (2, "P-88120", "2026-11-21")
    [equipment] = codes(table, "PG-EQ-NOT-INSPECTED")
    assert (equipment.position, equipment.player_id) == (None, None)


def test_money_gaming_day_and_player_leave_the_finding_id_as_it_was():
    rnd = clean_round("pa-2019")
    rnd.replace(rnd.first("dice_revealed"), announced_total=10)
    [finding] = rnd.findings("PG-DEAL-DICE-TOTAL")
    other = replace(finding, exposure=Decimal("1.00"), gaming_day="2020-01-01", player_id="P")
    assert other.finding_id == finding.finding_id
