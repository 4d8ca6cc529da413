"""Build Pai Gow tables by hand: events in order (opening, then rounds), the hands of a
dealer-banked round, and a finding's facts."""

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from audit.events.catalogue import EVENT_TYPES, parse_event
from audit.events.envelope import event_fields
from audit.events.examples import EXAMPLES
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_rounds import carried

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


# A dealer's four tiles and their house way (dealer-rule-max-low, PA ranking): the Day
# Gong is the only pair, wong or gong, so PA 621a.8(d)(2) permits no other setting.
DEALER = "1-1a 2-6 / 3-3a 1-5a"


WINS = "4-6a 4-6b / 6-6a 5-6a"  # a Ping pair over 3: beats DEALER (Day Gong over 2) both ways


LOSES = "4-4a 2-5 / 2-2a 1-6a"  # 5 over 1: below DEALER both ways


PUSHES = "5-5a 1-6b / 4-4b 1-5b"  # 7 over 4: the high hand loses, the low hand wins


LOSES_TOO = "5-5b 4-5 / 3-3b 2-2b"  # set as the house way sets these tiles


class Table:
    """Builds one table's events in order: opening, then rounds, with seq and time running on."""

    def __init__(self, rule_set="pa-2012", **options):
        self.events = []
        self.seq = itertools.count()
        self.clock = START
        self.round_id = None
        self.rounds = 0
        self.add("table_opened", rule_set=rule_set, options=options)
        self.add("tile_set_received", tile_set_id="TS-1")
        self.add("tile_set_inspected", tile_set_id="TS-1")
        self.add("dice_placed_in_shaker")

    def add(self, event_type, /, **fields):
        """Add an event: the catalogue example's required fields, overridden by ``fields``."""
        self.clock += timedelta(seconds=5)
        model = EVENT_TYPES[event_type]
        required = {name for name, spec in event_fields(model).items() if spec.is_required()}
        example = {k: v for k, v in EXAMPLES[event_type].items() if k in required}
        envelope = {"table_id": "PG-07", "seq": next(self.seq), "event_id": str(uuid.uuid4()),
                    "occurred_at": self.clock.isoformat(), "recorded_by": "dealer-1"}  # fmt: skip
        if model.ROUND_LEVEL:
            envelope["round_id"] = self.round_id
        self.events.append(parse_event({**example, "type": event_type, **envelope, **fields}))
        return self.events[-1]

    def start(self, bank=None, co_bank=False, dealer_wager=None):
        """Start a round; a player bank (and its co-bank, or the dealer's wager) if given."""
        self.rounds += 1
        self.round_id = f"r{self.rounds}"
        self.add("round_started", round_number=self.rounds, dealer_id="dealer-1")
        if bank is not None:
            self.add("bank_offered", position=bank)
            self.add("bank_accepted", position=bank, chips_on_table="5000.00")
            if co_bank:
                self.add("co_bank_requested", position=bank)
        if dealer_wager is not None:
            self.add("dealer_wager_against_bank", amount=dealer_wager)
        return self

    def wager(self, position, amount, kind="pai_gow"):
        self.add("wager_placed", position=position, amount=amount, kind=kind)
        return self

    def deliver(self, position, tiles):
        self.add("stack_delivered", position=position, order=position, tiles=tiles.split())
        return self

    def hand(self, position, setting, set_by="player"):
        high, low = (part.split() for part in setting.split("/"))
        return self.add("hand_set", position=position, high=high, low=low, set_by=set_by)

    def reveal(self, position):
        return self.add("hands_revealed", position=position)

    def settle(self, position, outcome, kind="pai_gow", **money):
        return self.add("wager_settled", position=position, kind=kind, outcome=outcome, **money)

    def complete(self):
        self.add("round_completed")
        return self

    def findings(self, *codes):
        """Return the findings of the given codes over everything built so far."""
        return [f for f in verify_stream(self.events) if f.code in codes]


def facts(finding):
    return finding.code, finding.position, finding.rule, str(carried(finding))
