"""The simulated shoe: shuffle, cut and cover card, load and burn (PA 681a.3(b), 681a.5,
681a.7(a)-(d)), each step through the engine's shoe functions and recorded as it is done."""

from __future__ import annotations

from audit.events.baccarat21.shoe import CardBurned, ShoeCut, ShoeLoaded, ShoeShuffled
from audit.events.table import DealerChanged
from audit.games.baccarat21.cards import shoe_cards
from audit.games.baccarat21.shoe import COVER_MARGIN, cut_stack, insert_cover_card, shuffle_cards
from audit.games.cards.deck import card_name
from audit.simulation.baccarat21.table import SimTable

_COVER_FROM_BOTTOM = {4: (26, 52), 8: (52, 78)}
"""Where dealers put the cover card: half a deck to a deck and a half above the bottom."""


def load_shoe(table: SimTable, reason: str) -> None:
    """Shuffle the next batch, cut it, insert the cover card, load the shoe and burn a card."""
    rng, rules = table.rng, table.rule_set
    table.batch = 1 - table.batch if rules.batches else 0  # 681a.3(b)(4): every other shoe
    new_decks = table.batch in table.new_decks  # 681a.3(c): the batch's decks opened for use
    table.new_decks.discard(table.batch)
    table.emit(ShoeShuffled, (60, 180), batch=table.batch, decks=rules.decks,
               method="automated" if rules.batches else "manual", reason=reason,
               new_decks=new_decks)  # fmt: skip
    stack = shuffle_cards(shoe_cards(rules.decks), rng)
    cut_at = rng.randint(COVER_MARGIN, len(stack) - COVER_MARGIN)  # 681a.5(c)
    from_bottom = rng.randint(*_COVER_FROM_BOTTOM[rules.decks])  # 681a.5(d)
    table.shoe = insert_cover_card(cut_stack(stack, cut_at), from_bottom, table.batch)
    cut_by = (
        "player" if table.seating.players and rng.random() < table.rates.player_cuts else "dealer"
    )
    table.emit(ShoeCut, (10, 30), stack_size=len(stack), cut_at=cut_at,
               cover_from_bottom=from_bottom, cut_by=cut_by)  # fmt: skip
    table.emit(ShoeLoaded, (5, 15), batch=table.batch, cards=len(stack))
    table.out, table.cover_out = 0, False
    burn(table)


def burn(table: SimTable) -> None:
    """Take the next card to the discard rack unseen (681a.7(c))."""
    assert table.shoe is not None
    card = table.shoe.cards[table.out]
    table.out += 1
    table.burn_due = False
    table.emit(CardBurned, (2, 5), card=card_name(card))


def change_dealer(table: SimTable) -> None:
    """A relief dealer takes over; they burn a card before dealing (681a.7(c))."""
    outgoing = table.dealer_id
    table.dealer_id = table.rng.choice([d for d in table.dealers if d != outgoing])
    table.emit(DealerChanged, (20, 60), table.floorperson, outgoing_dealer_id=outgoing,
               incoming_dealer_id=table.dealer_id)  # fmt: skip
    table.burn_due = True


def keep_shoe(table: SimTable) -> None:
    """Before a round: reshuffle after the cover card came out (681a.5(f), 681a.7(d)), or when a
    floorperson orders it, and burn for a new dealer.

    A new dealer facing the cover card as the next card in the shoe is given a fresh shoe
    instead: the burn of 681a.7(c) must not be the cover card.
    """
    assert table.shoe is not None
    if table.cover_out:
        load_shoe(table, "cover_card")
    elif table.rng.random() < table.rates.floorperson_reshuffle or (
        table.burn_due and table.out >= table.shoe.cover_at
    ):
        load_shoe(table, "floorperson")
    elif table.burn_due:
        burn(table)
