"""Build Pai Gow rounds to settle: dealer-banked, player-banked, co-banked and California
rounds, and the settlement findings of a table."""

from tests.builders.paigow_table import (
    DEALER,
    LOSES,
    LOSES_TOO,
    PUSHES,
    WINS,
    Table,
    facts,
)

SETTLEMENT_CODES = (
    "PG-SETTLE-OUTCOME", "PG-SETTLE-PAYOUT", "PG-SETTLE-VIG-UNCOLLECTED", "PG-SETTLE-VIG-SHORT",
    "PG-SETTLE-VIG-OVER", "PG-SETTLE-UNBALANCED", "PG-BANK-SHORTFALL", "PG-BANK-SURPLUS",
    "PG-BANK-DEALER-WAGER-LIMIT", "PG-BANK-DEALER-WAGER-CO-BANK", "PG-COBANK-SPLIT",
    "PG-CA-COVERAGE", "PG-CA-ORDER", "PG-CA-FEE", "PG-PF-PAYOUT",
)  # fmt: skip


WINS_TOO = "1-4 2-3 / 3-5 1-2"  # a Chop Ng pair over 4: beats DEALER both ways


def found(table):
    return sorted((facts(f) for f in table.findings(*SETTLEMENT_CODES)), key=str)


def dealer_round(changes=None, rule_set="pa-2012"):
    """Three wagers against the dealer's DEALER hand: a $25 win, a $50 loss and a $30 push."""
    table = Table(rule_set).start().wager(1, "25.00").wager(2, "50.00").wager(3, "30.00")
    table.hand(1, WINS)
    table.hand(2, LOSES)
    table.hand(3, PUSHES)
    table.hand(0, DEALER, set_by="dealer")
    lines = {
        1: ("win", {"paid": "25.00", "vigorish": "1.25"}),
        2: ("lose", {"collected": "50.00"}),
        3: ("push", {"returned": "30.00"}),
        **(changes or {}),
    }
    for position, (outcome, money) in lines.items():
        table.reveal(position)
        table.settle(position, outcome, **money)
    return table.complete()


def banked_round(
    first="100.00", dealer_wager="40.00", flows=(), dealer_settled="lose", vig=None, third="30.00"
):
    """A dealer-banked round (position 2 wagers $40), then position 2 banks against 1 and 3.

    The dealer's LOSES loses to the bank's DEALER hand; 1 wins ``first``; 3 loses $30, of
    which ``third`` is collected.
    """
    table = Table().start().wager(2, "40.00")
    table.hand(2, LOSES)
    table.hand(0, DEALER, set_by="dealer")
    table.settle(2, "lose", collected="40.00")
    table.complete()
    table.start(bank=2, dealer_wager=dealer_wager).wager(1, first).wager(3, "30.00")
    table.hand(1, WINS)
    table.hand(3, LOSES_TOO)
    table.hand(2, DEALER)
    if dealer_wager:
        table.hand(0, LOSES, set_by="dealer")
    table.reveal(2)
    if dealer_wager:
        table.add("dealer_wager_settled", outcome=dealer_settled, amount=dealer_wager)
    table.settle(1, "win", paid=first, vigorish=vig or FIVE_PERCENT[first])
    table.settle(3, "lose", collected=third)
    for event_type, fields in flows:
        table.add(event_type, **fields)
    return table.complete()


FIVE_PERCENT = {"25.00": "1.25", "50.00": "2.50", "100.00": "5.00"}


SHORTFALL = [("bank_shortfall_collected", {"amount": "30.00"})]  # $100 paid from $30 + $40


def co_banked_round(split, first="100.00", third="30.00", dealer_wager=None):
    table = Table().start(bank=2, co_bank=True, dealer_wager=dealer_wager)
    table.wager(1, first).wager(3, third)
    table.hand(1, WINS)
    table.hand(3, LOSES_TOO)
    table.hand(2, DEALER, set_by="dealer")
    table.settle(1, "win", paid=first, vigorish=FIVE_PERCENT[first])
    table.settle(3, "lose", collected=third)
    table.add("co_bank_split", **split)
    return table.complete()


HALVES = {"shortfall_from_co_bank": "35.00", "shortfall_from_house": "35.00"}


CA = "CA Pai Gow Tiles"


# The dice total 12 puts the button on seat 3: settled 3, 4, 5, 6, 7, 1, 2. The $50
# player-dealer pays seat 3's $40, can pay only $10 of seat 4's $30, and is then exhausted:
# seat 1's losing $20 goes back.
CA_LINES = {
    3: ("win", {"paid": "40.00"}),
    4: ("win", {"paid": "10.00", "returned": "20.00"}),
    1: ("lose", {"returned": "20.00"}),
}


CA_FEES = {3: "1.00", 4: "1.00", 1: "1.00", 0: "1.00"}  # schedule option 1


def ca_round(changes=None, order=(3, 4, 1), fees=None):
    table = Table("california").start().wager(0, "50.00")
    table.wager(3, "40.00").wager(4, "30.00").wager(1, "20.00")
    table.add("dice_revealed", faces=[3, 4, 5], announced_total=12)
    table.hand(3, WINS)
    table.hand(4, WINS_TOO)
    table.hand(1, LOSES)
    table.hand(0, DEALER)
    table.reveal(0)
    lines = {**CA_LINES, **(changes or {})}
    for position in order:
        table.reveal(position)
        table.settle(position, lines[position][0], **lines[position][1])
    for position, amount in (CA_FEES if fees is None else fees).items():
        table.add("collection_fee_taken", position=position, amount=amount, schedule_option=1)
    return table.complete()
