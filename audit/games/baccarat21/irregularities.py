"""Irregularities as data: what each one is and what the text prescribes (PA 681a.9).

The four of PA 681a.9 each come with a remedy. The dealing procedure also has
rules a verifier checks with no remedy written for a breach (a missing burn, a
missed reshuffle, a misdrawn card); those are listed too, with ``remedy`` set to
``None`` rather than an invented one. Each entry's ``rule`` is a key of the rule
set's citations, so a finding quotes ``RuleSet.cite(entry.rule)``.

>>> IRREGULARITIES["face-up-card"].remedy
'do not use the card in that round; place it in the discard rack or a segregated area...'
>>> IRREGULARITIES["burn"].remedy is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Irregularity:
    """One irregularity: its rule key, what happened, and the prescribed remedy if any."""

    rule: str
    what: str
    remedy: str | None


IRREGULARITIES: Mapping[str, Irregularity] = MappingProxyType(
    {
        entry.rule: entry
        for entry in (
            # PA 681a.9: the irregularities the text names, with their remedies.
            Irregularity(
                "face-up-card",
                "a card found face up in the shoe",
                "do not use the card in that round; place it in the discard rack "
                "or a segregated area of the double shoe",
            ),
            Irregularity(
                "extra-card",
                "a hand has 17 and the dealer accidentally draws an additional card to it",
                "place the card in the discard rack",
            ),
            Irregularity(
                "shuffler-jam",
                "the automated shuffler jams, stops during a shuffle or fails to complete a cycle",
                "reshuffle the cards",
            ),
            Irregularity(
                "shuffler-out-of-order",
                "the automated shuffler malfunctions and cannot be used",
                "cover it or sign it out of order before any other method of shuffling is used",
            ),
            # Procedure the verifier checks; the text prescribes no remedy for a breach.
            Irregularity(
                "burn",
                "a card dealt before the burn after a batch was loaded or a new dealer came "
                "to the table",
                None,
            ),
            Irregularity(
                "reshuffle",
                "a round dealt from a shoe whose cover card came out in an earlier round",
                None,
            ),
            Irregularity(
                "batches",
                "the same batch used for two dealing shoes running",
                None,
            ),
            Irregularity(
                "cut",
                "the cover card placed fewer than ten cards from the top or the bottom to cut",
                None,
            ),
            Irregularity(
                "cover-card",
                "the cover card inserted fewer than ten cards above the bottom of the stack",
                None,
            ),
            Irregularity(
                "deal-order",
                "one of the first four cards dealt out of the order Player, Banker, Player, Banker",
                None,
            ),
            Irregularity(
                "draw",
                "a card drawn to a hand that must stand, or a hand left standing that must draw",
                None,
            ),
            Irregularity(
                "bonus-card",
                "after a natural, a Bonus-only card dealt with no Bonus Wager on the table, "
                "dealt to a hand at 17 or more, or counted toward the Player, Banker or Tie Wager",
                None,
            ),
        )
    }
)
