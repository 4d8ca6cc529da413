"""21 Baccarat's events: each type validates, cards are the engine's, bad input names its field."""

import pytest

from audit.events.baccarat21.play import B21CardDealt
from audit.events.baccarat21.shoe import CardFoundFaceUp
from audit.events.catalogue import EVENT_TYPES, InvalidEventError, parse_event
from audit.events.examples import EXAMPLES
from audit.games.baccarat21.drawing import Hand
from audit.games.baccarat21.settlement import Bet
from audit.games.cards.deck import CARD_NAMES

ROUND = {
    "event_id": "5f0c6a4e-8d1b-4b8e-9a65-0d1f7c3e2a10",
    "table_id": "B21-03",
    "round_id": "B21-03-r42",
    "seq": 40,
    "occurred_at": "2026-11-21T23:15:04Z",
    "recorded_by": "dealer-0302",
}
TABLE = {key: value for key, value in ROUND.items() if key != "round_id"}
B21_TYPES = (
    "shoe_shuffled", "shoe_cut", "shoe_loaded", "card_burned", "b21_wager_placed",
    "cover_card_appeared", "card_found_face_up", "b21_card_dealt", "b21_wager_settled",
    "b21_round_voided",
)  # fmt: skip


@pytest.mark.parametrize("name", B21_TYPES)
def test_every_21_baccarat_type_is_catalogued_with_a_valid_example(name):
    assert name in EVENT_TYPES
    assert type(parse_event(EXAMPLES[name])) is EVENT_TYPES[name]


def test_type_strings_do_not_reuse_pai_gow_names():
    pai_gow = {"round_voided", "wager_placed", "wager_settled", "wager_withdrawn"}
    assert not pai_gow & set(B21_TYPES)


@pytest.mark.parametrize("name", CARD_NAMES)
def test_every_card_of_the_engine_is_a_card_of_the_events(name):
    event = parse_event({**ROUND, "type": "b21_card_dealt", "card": name, "hand": "banker"})
    assert isinstance(event, B21CardDealt)
    assert (event.card, event.hand, event.bonus_only) == (name, Hand.BANKER, None)  # not said


def test_a_card_is_stored_in_its_canonical_spelling():
    event = parse_event({**ROUND, "type": "card_found_face_up", "card": "10h",
                         "disposition": "dealt"})  # fmt: skip
    assert isinstance(event, CardFoundFaceUp)
    assert event.card == "TH"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({**ROUND, "type": "b21_card_dealt", "card": "1S", "hand": "player"},
         "card: Value error, invalid card: '1S'"),
        ({**ROUND, "type": "card_found_face_up", "card": "AX", "disposition": "discarded"},
         "card: Value error, invalid card: 'AX'"),
        ({**TABLE, "type": "card_burned", "card": "ZZ"}, "card: Value error, invalid card: 'ZZ'"),
        ({**ROUND, "type": "b21_card_dealt", "card": "AS", "hand": "dealer"}, "hand: Input"),
        ({**ROUND, "type": "b21_wager_placed", "position": 9, "bet": "tie", "amount": "5.00"},
         "position: Input should be less than or equal to 8"),
        ({**ROUND, "type": "b21_wager_placed", "position": 0, "bet": "tie", "amount": "5.00"},
         "position: Input should be greater than or equal to 1"),
        ({**ROUND, "type": "b21_wager_placed", "position": 2, "bet": "dragon", "amount": "5.00"},
         "bet: Input should be"),
        ({**ROUND, "type": "b21_wager_settled", "position": 2, "bet": "tie", "outcome": "win",
          "paid": "-5.00"}, "paid: Input should be greater than or equal to 0"),
        ({**TABLE, "type": "shoe_shuffled", "decks": 6, "reason": "opening"}, "decks: Input"),
        ({**TABLE, "type": "shoe_loaded", "batch": 2, "cards": 416}, "batch: Input"),
        ({**TABLE, "type": "cover_card_appeared"}, "needs a round_id"),
        ({**ROUND, "type": "shoe_loaded", "cards": 416}, "round_id must be absent"),
    ],
)  # fmt: skip
def test_bad_input_names_the_field(payload, message):
    with pytest.raises(InvalidEventError) as error:
        parse_event(payload)
    assert message in str(error.value)


def test_a_seat_at_position_eight_can_buy_in():
    """PA 681a.2(a) allows eight players; the shared buy-in fact must take the eighth seat."""
    event = parse_event({**TABLE, "type": "buy_in_recorded", "instrument": "cash",
                         "amount": "100.00", "position": 8})  # fmt: skip
    assert event.position == 8


def test_bets_are_the_engine_bets():
    event = parse_event(EXAMPLES["b21_wager_placed"])
    assert event.bet is Bet.BONUS_BANKER
