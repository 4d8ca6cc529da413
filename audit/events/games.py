"""The games a table can open for, each declared once with what it says about itself.

``table_opened`` records one of these names, and every layer keeps one registry keyed
by them (verification's verifiers, accounting's money readers, the replays, the
simulator's tables, the projections' round readers); a test holds every registry to
:data:`GAMES`, so a game added here and missing from a layer fails there, not on a floor.

>>> GAMES["baccarat21"].label, GAMES["baccarat21"].pieces
('21 Baccarat', 'cards')
>>> GAMES[DEFAULT_GAME].owns("hand_set"), GAMES[DEFAULT_GAME].owns("b21_card_dealt")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal


@dataclass(frozen=True)
class Game:
    """One game: its name as recorded, its label as printed, and the events only it records."""

    name: str
    """The name ``table_opened`` records, and every registry's key."""
    label: str
    """The name reports and the console print."""
    pieces: Literal["tiles", "cards"]
    """What its hands are made of, as the console draws them."""
    events: frozenset[str]
    """The event types only this game records (the shared ones: table, rounds, accounting)."""

    def owns(self, event_type: str) -> bool:
        """Return whether ``event_type`` is one of this game's own events."""
        return event_type in self.events


PAI_GOW = Game(
    name="paigow",
    label="Pai Gow Tiles",
    pieces="tiles",
    events=frozenset({
        "tile_set_received", "tile_set_inspected", "tile_set_found_unsuitable",
        "tile_set_replaced", "dice_placed_in_shaker",
        "tiles_mixed", "stacks_formed", "stacking_tile_exposed", "tiles_remixed",
        "bank_offered", "bank_declined", "bank_accepted", "co_bank_requested", "tiles_cut",
        "dealer_wager_against_bank", "wager_placed", "wager_withdrawn", "no_more_bets",
        "shaker_shaken", "dice_revealed", "rng_number_shown", "no_roll_called",
        "delivery_style_chosen", "stack_delivered", "unwagered_stacks_collected",
        "tile_exposed", "hand_voided", "hand_set", "surrendered", "hands_revealed",
        "wager_settled", "dealer_wager_settled", "bank_shortfall_collected",
        "bank_surplus_settled", "co_bank_split", "collection_fee_taken", "round_voided",
    }),
)  # fmt: skip
BACCARAT_21 = Game(
    name="baccarat21",
    label="21 Baccarat",
    pieces="cards",
    events=frozenset({
        "shoe_shuffled", "shoe_cut", "shoe_loaded", "card_burned",
        "b21_wager_placed", "b21_wager_removed", "cover_card_appeared", "card_found_face_up",
        "b21_card_dealt", "b21_wager_settled", "b21_round_voided",
    }),
)  # fmt: skip

GAMES: dict[str, Game] = {game.name: game for game in (PAI_GOW, BACCARAT_21)}
"""Game name -> the game: every game a table can open for, in the order docs list them."""

DEFAULT_GAME = PAI_GOW.name
"""The game of a table whose opening names none (events from before the field) or that the
stream has not shown: Pai Gow, the first game the floor had."""

if TYPE_CHECKING:
    GameName = str
else:
    GameName = Literal[tuple(GAMES)]
    """A game's name, as the event schema validates it (derived from :data:`GAMES`)."""
