"""Every kind of Pai Gow finding: stable codes, severities, titles and the rule each enforces.

Codes are stable identifiers: alerts, labels and reports key on them. The rule
key is looked up in the table's rule set, so one kind cites ``PA 621a.6(c)`` on
a Pennsylvania table and ``NJ 19:47-10.6(c)`` on a New Jersey one.
"""

from __future__ import annotations

from audit.findings.finding import FindingKind, Money, Severity
from audit.verification.record_kinds import RECORD_KINDS

_I, _W, _C = Severity.INFO, Severity.WARNING, Severity.CRITICAL
_S, _E, _X, _N = Money.AT_STAKE, Money.EXPOSURE, Money.EITHER, Money.NONE

KINDS: dict[str, FindingKind] = {
    kind.code: kind
    for kind in (
        # Dealing
        FindingKind("PG-DEAL-START", _W, "first stack dealt to the wrong starting position", "starting-position", _E, step="count", injectable=True),
        FindingKind("PG-DEAL-SETTLED-AFTER-WRONG-DEAL", _C, "wagers settled after a wrong deal instead of returned", "wrong-deal", _S, step="count", injectable=True),
        FindingKind("PG-DEAL-STACK-ORDER", _C, "tiles delivered other than the style and stacks dictate", "delivery", _S, step="deal", injectable=True),
        FindingKind("PG-DEAL-STYLE", _W, "delivery style not allowed for who banks the round", "alternative-delivery", _E, step="deal", injectable=True),
        FindingKind("PG-DEAL-SHAKES", _W, "fewer than three shakes before the dice were read", "shake", _E, step="count", injectable=True),
        FindingKind("PG-DEAL-DICE-TOTAL", _W, "dice total announced wrongly", "starting-position", _E, step="count", injectable=True),
        FindingKind("PG-DEAL-NO-ROLL", _W, "dice not flat or out of the shaker, and no no-roll called", "no-roll", _E, step="count", injectable=True),
        FindingKind("PG-DEAL-UNWAGERED", _W, "stacks of unwagered positions not collected unseen", "unwagered-stacks", _N, step="deal", injectable=True),
        FindingKind("PG-DEAL-EXPOSED-NOT-VOIDED", _C, "a banker's, dead or unwagered tile exposed and the round not voided", "exposed-dealer-tile", _S, step="deal", injectable=True),
        FindingKind("PG-DEAL-BEFORE-NO-MORE-BETS", _W, "tiles dealt before \"no more bets\"", "wager-timing", _E, step="count", injectable=True),
        # Wagers
        FindingKind("PG-WAGER-PAST-POST", _C, "wager placed, raised or withdrawn after \"no more bets\"", "wager-timing", _S, step="wagers", injectable=True),
        FindingKind("PG-WAGER-SPOTS", _W, "a player on more than two spots, or on spots not adjacent", "adjacent-spots", _E, step="wagers", injectable=True),
        FindingKind("PG-WAGER-BANK-SPOTS", _W, "the bank wagering on more than one spot", "bank-one-spot", _E, step="wagers", injectable=True),
        # Tile integrity: each a possible switch
        FindingKind("PG-TILE-DUPLICATE", _C, "a tile appears twice in one round", "tile-set", _S, step="deal", injectable=True),
        FindingKind("PG-TILE-MISSING", _C, "the stacks do not hold the full set of 32 tiles", "tile-set", _S, step="deal", injectable=True),
        FindingKind("PG-TILE-HAND-MISMATCH", _C, "a hand set with tiles other than those delivered to it", "player-setting", _S, step="deal", injectable=True),
        # Setting
        FindingKind("PG-SET-HOUSE-WAY", _W, "dealer's (or co-bank's) hand not set by the table's house way", "dealer-reset", _E, step="hands", injectable=True),
        FindingKind("PG-SET-DEALER-RULE", _W, "dealer's hand set outside the regulatory dealer rule", "dealer-setting", _E, step="hands", injectable=True),
        FindingKind("PG-SET-MISORDERED", _W, "high hand set lower than the low hand", "player-setting", _E, step="hands", injectable=True),
        FindingKind("PG-SET-SURRENDER-LATE", _W, "surrender accepted after the player's hands were exposed", "surrender", _E, step="hands", injectable=True),
        FindingKind("PG-SET-RESET", _W, "a player's hands set again after being placed face down", "player-touch", _E, step="hands", injectable=True),
        FindingKind("PG-SET-CORRECTED", _I, "a player's hands set again by the dealer", "player-touch", _N, step="hands", injectable=True),
        FindingKind("PG-SET-DEALER-RESET", _I, "the dealer's or bank's hands set again", "dealer-reset", _N, step="hands", injectable=True),
        # Settlement
        FindingKind("PG-SETTLE-OUTCOME", _C, "wager settled with the wrong outcome", "round-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-SETTLE-PAYOUT", _C, "wrong amount paid or collected", "round-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-SETTLE-VIG-UNCOLLECTED", _C, "vigorish not collected on a winning wager", "vigorish", _S, step="settlement", injectable=True),
        FindingKind("PG-SETTLE-VIG-SHORT", _C, "vigorish collected short", "vigorish", _S, step="settlement", injectable=True),
        FindingKind("PG-SETTLE-VIG-OVER", _C, "vigorish collected over", "vigorish", _S, step="settlement", injectable=True),
        FindingKind("PG-SETTLE-UNBALANCED", _C, "the round's money does not balance", "round-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-BANK-SHORTFALL", _C, "wrong bank shortfall collected", "bank-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-BANK-SURPLUS", _C, "wrong bank surplus, surplus vigorish or amount paid to the bank", "bank-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-BANK-DEALER-WAGER-LIMIT", _W, "dealer's wager against the bank over its limit", "dealer-wager-vs-bank", _E, step="settlement", injectable=True),
        FindingKind("PG-BANK-DEALER-WAGER-CO-BANK", _W, "dealer wagering against the bank while co-banking", "co-banking", _E, step="settlement", injectable=True),
        FindingKind("PG-COBANK-SPLIT", _C, "wrong co-bank split with the house", "co-bank-settlement", _S, step="settlement", injectable=True),
        FindingKind("PG-CA-COVERAGE", _C, "player-dealer paid or collected beyond its wager, or uncovered wager not returned", "player-dealer-coverage", _S, step="settlement", injectable=True),
        FindingKind("PG-CA-ORDER", _W, "wagers settled out of clockwise order from the action button", "settlement-order", _X, step="settlement", injectable=True),
        FindingKind("PG-CA-FEE", _C, "wrong collection fee", "collection", _S, step="settlement", injectable=True),
        FindingKind("PG-PF-PAYOUT", _C, "Pair Fortunes wager paid or collected wrongly", "pair-fortunes", _S, step="settlement", injectable=True),
        # Banking rotation
        FindingKind("PG-ROT-START-OF-GAME", _W, "a player banks the first round of a game", "bank-start-of-game", _E, step="other", injectable=True),
        FindingKind("PG-ROT-CONSECUTIVE", _W, "the same player banks too many consecutive rounds", "bank-rotation", _E, step="other", injectable=True),
        FindingKind("PG-ROT-NO-PRIOR-WAGER", _W, "bank taken without a wager in the last dealer-banked round", "bank-eligibility", _E, step="other", injectable=True),
        FindingKind("PG-ROT-INSUFFICIENT-CHIPS", _W, "bank without chips to cover the table", "bank-eligibility", _E, step="other", injectable=True),
        FindingKind("PG-ROT-OUT-OF-ORDER", _W, "the bank offered out of rotation order", "bank-rotation", _N, step="other", injectable=True),
        # Equipment and time
        FindingKind("PG-EQ-TILES-OVERDUE", _W, "tiles in use past their change interval", "tile-change", _N, step="other", injectable=False),
        FindingKind("PG-EQ-DICE-OVERDUE", _W, "dice in the shaker on the table past 24 hours", "dice-change", _N, step="other", injectable=False),
        FindingKind("PG-EQ-NOT-INSPECTED", _W, "tiles not inspected before play", "tile-inspection", _N, step="other", injectable=True),
        # Table configuration
        FindingKind("PG-TABLE-OPTION", _W, "table opened with a rule set or option that cannot be taken", "records", _N, step="other", injectable=True),
    )
}  # fmt: skip
KINDS.update(RECORD_KINDS)  # the record's integrity: the same codes for every game
