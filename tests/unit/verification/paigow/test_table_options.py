"""A table's rule set and options as it opens: taken, or reported (PG-TABLE-OPTION), never
dropped in silence and never a halt."""

from tests.builders.paigow_table import DEALER, WINS, Table, facts

RECORDS = "tablewatch record integrity (no gaming regulation)"


def opened(rule_set="pa-2012", **options):
    table = Table(rule_set, **options).start().wager(1, "25.00")
    table.hand(1, WINS)
    table.hand(0, DEALER, set_by="dealer")
    table.reveal(1)
    return table


def option_findings(table):
    return [(*facts(f), f.recorded) for f in table.findings("PG-TABLE-OPTION")]


def test_a_table_with_good_options_raises_nothing():
    table = opened(vig_rounding="quarter")
    table.settle(1, "win", paid="25.00", vigorish="1.25")
    assert option_findings(table.complete()) == []


def test_a_misspelt_rounding_value_is_named_and_cited_and_cent_rounding_still_judges():
    table = opened(vig_rounding="Quarter")
    table.settle(1, "win", paid="25.00", vigorish="1.00")
    table.complete()
    assert option_findings(table) == [
        ("PG-TABLE-OPTION", None, "PA 621a.8(k)", "0.00", "option vig_rounding='Quarter'")
    ]
    # The rule set's own cent rounding stands: the short vigorish is still found.
    assert [facts(f)[0] for f in table.findings("PG-SETTLE-VIG-SHORT")] == ["PG-SETTLE-VIG-SHORT"]


def test_an_unknown_option_name_is_named():
    table = opened(vig_roundng="quarter").complete()
    [finding] = table.findings("PG-TABLE-OPTION")
    assert (finding.rule, finding.recorded) == (RECORDS, "option vig_roundng='quarter'")
    assert "vig_rounding" in finding.expected  # the options it could have meant


def test_an_unknown_rule_set_is_reported_and_the_table_still_judged():
    table = opened("pa-2021")
    table.settle(1, "win", paid="20.00", vigorish="1.00")
    table.complete()
    assert option_findings(table) == [
        ("PG-TABLE-OPTION", None, RECORDS, "0.00", "rule set 'pa-2021'")
    ]
    assert [f.code for f in table.findings("PG-SETTLE-PAYOUT")] == ["PG-SETTLE-PAYOUT"]


def test_a_california_table_on_schedule_three_takes_its_fees_without_a_finding():
    table = Table("california", collection_schedule="3").start().wager(0, "50.00")
    table.wager(3, "40.00")
    table.add("dice_revealed", faces=[3, 4, 5], announced_total=12)
    table.hand(3, WINS)
    table.hand(0, DEALER)
    table.reveal(0)
    table.reveal(3)
    table.settle(3, "win", paid="40.00")
    for position in (3, 0):  # option 3: $1-$200 pays $1; the player-dealer $1 a round
        table.add("collection_fee_taken", position=position, amount="1.00", schedule_option=3)
    table.complete()
    assert table.findings("PG-CA-FEE", "PG-TABLE-OPTION") == []
