# ruff: noqa: E501  (a catalogue reads best one row per line, as paigow/kinds.py)
"""Every kind of 21 Baccarat finding: stable codes, severities, titles and the rule each enforces.

Codes are stable identifiers: alerts, labels and reports key on them. The rule key
is a key of the table's rule set's citations (audit/games/baccarat21/rulesets.py),
so a finding cites e.g. ``PA 681a.7(g)``. A check may cite a narrower key than the
kind's own (a card drawn to a 17 cites 681a.9(b), a second draw 681a.7(g)).
"""

from __future__ import annotations

from audit.findings.finding import FindingKind, Money, Severity
from audit.verification.record_kinds import RECORD_KINDS

_I, _W, _C = Severity.INFO, Severity.WARNING, Severity.CRITICAL
_S, _E, _X, _N = Money.AT_STAKE, Money.EXPOSURE, Money.EITHER, Money.NONE

KINDS: dict[str, FindingKind] = {
    kind.code: kind
    for kind in (
        # The table
        FindingKind("B21-TABLE-OPTIONS", _W, "the table opened with options the rules do not allow (a paytable for the other deck count)", "bonus-payout", _N, step="other", injectable=True),
        # Dealing and drawing
        FindingKind("B21-DEAL-ORDER", _W, "cards dealt out of order (Player, Banker, Player, Banker, then the draws)", "deal-order", _E, step="cards", injectable=True),
        FindingKind("B21-CARD-WRONG-HAND", _W, "a card the rules called for one hand laid on the other, and judged where the rules send it", "card-placement", _E, step="cards", injectable=True),
        FindingKind("B21-DRAW-EXTRA", _C, "a card drawn to a hand that must stand (17 or more, or already drawn)", "draw", _S, step="cards", injectable=True),
        FindingKind("B21-DRAW-STOOD", _C, "a hand under 17 left standing without its card", "draw", _S, step="cards", injectable=True),
        FindingKind("B21-DRAW-AFTER-NATURAL", _C, "a card dealt after a natural with no Bonus Wager on the table", "natural-stop", _S, step="cards", injectable=True),
        FindingKind("B21-BONUS-CARD-COUNTED", _C, "a card dealt for the Bonus Wager only counted for the Player, Banker and Tie Wagers, as the settlement shows", "bonus-card", _S, step="cards", injectable=True),
        FindingKind("B21-BONUS-FLAG", _I, "a Bonus-only card recorded without the flag, or as counting, where the settlement does not show it counted (data quality)", "bonus-card", _N, step="cards", injectable=True),
        FindingKind("B21-BONUS-CARD-MISMARKED", _W, "a card recorded as Bonus-only where it counts for every wager", "bonus-card", _E, step="cards", injectable=False),
        FindingKind("B21-BONUS-CARD-MISSING", _W, "a hand under 17 not dealt its Bonus-only card after a natural", "bonus-card", _E, step="cards", injectable=False),
        # The shoe
        FindingKind("B21-SHOE-FACE-UP-USED", _C, "a card found face up in the shoe used in the round", "face-up-card", _S, step="cards", injectable=True),
        FindingKind("B21-SHOE-NO-BURN", _W, "cards dealt without the burn after a shoe was loaded or a new dealer came in", "burn", _E, step="cards", injectable=True),
        FindingKind("B21-SHOE-NO-RESHUFFLE", _W, "a round dealt after the cover card came out, without a reshuffle", "reshuffle", _E, step="cards", injectable=True),
        FindingKind("B21-SHOE-BATCH", _W, "the same batch used for two dealing shoes running", "batches", _E, step="cards", injectable=False),
        FindingKind("B21-SHOE-CARD-EXCESS", _C, "a card out of the shoe more often than its decks hold it (a fifth ace of spades from four decks)", "shoe-composition", _S, step="cards", injectable=True),
        FindingKind("B21-SHOE-DECKS-UNCHANGED", _W, "cards dealt from decks opened for use more than 24 hours before", "deck-change", _E, step="cards", injectable=True),
        FindingKind("B21-SHOE-DECKS", _W, "a shoe of a number of decks other than the table's", "decks", _N, step="cards", injectable=False),
        FindingKind("B21-SHOE-CUT", _W, "the cut fewer than ten cards from the top or the bottom of the stack", "cut", _N, step="cards", injectable=False),
        FindingKind("B21-SHOE-COVER-CARD", _W, "the cover card fewer than ten cards above the bottom of the stack", "cover-card", _N, step="cards", injectable=False),
        # Wagers
        FindingKind("B21-WAGER-LATE", _C, "a wager placed after the first card was dealt", "wager-timing", _S, step="wagers", injectable=True),
        FindingKind("B21-WAGER-REMOVED", _C, "a wager taken back after the first card, before it was settled", "wager-timing", _S, step="wagers", injectable=True),
        FindingKind("B21-WAGER-REMOVED-EARLY", _W, "a wager taken back before the first card, before it was settled", "wager-timing", _E, step="wagers", injectable=True),
        FindingKind("B21-WAGER-NO-MAIN", _W, "a Tie or Bonus Wager at a position with no Player or Banker Wager", "optional-wagers", _E, step="wagers", injectable=False),
        # Settlement
        FindingKind("B21-SETTLE-OUTCOME", _C, "wager settled with the wrong outcome", "player-wager", _S, step="settlement", injectable=True),
        FindingKind("B21-SETTLE-PAYOUT", _C, "wrong amount paid, collected or returned (1 to 2 on a 17, the paytable in force)", "main-payout", _S, step="settlement", injectable=True),
        FindingKind("B21-SETTLE-TWICE", _C, "a wager settled again after its settlement: a second payout, collection or return", "main-payout", _S, step="settlement", injectable=True),
        FindingKind("B21-SETTLE-MISSING", _W, "a wager placed and never settled", "settlement-order", _E, step="settlement", injectable=False),
        FindingKind("B21-SETTLE-UNPLACED", _C, "a wager settled that was never placed", "records", _S, step="settlement", injectable=False),
        FindingKind("B21-SETTLE-VOID", _C, "a wager of a voided round not returned in full", "records", _S, step="settlement", injectable=False),
    )
}  # fmt: skip
KINDS.update(RECORD_KINDS)  # the record's integrity: the same codes for every game
