"""Every kind of Pai Gow finding: stable codes, severities, titles and the rule each enforces.

Codes are stable identifiers: alerts, labels and reports key on them. The rule
key is looked up in the table's rule set, so one kind cites ``PA 621a.6(c)`` on
a Pennsylvania table and ``NJ 19:47-10.6(c)`` on a New Jersey one.
"""

from __future__ import annotations

from audit.verification.findings import FindingKind, Severity
from audit.verification.record_kinds import RECORD_KINDS

_I, _W, _C = Severity.INFO, Severity.WARNING, Severity.CRITICAL

KINDS: dict[str, FindingKind] = {
    kind.code: kind
    for kind in (
        # Dealing
        FindingKind("PG-DEAL-START", _C, "first stack dealt to the wrong starting position", "starting-position"),
        FindingKind("PG-DEAL-SETTLED-AFTER-WRONG-DEAL", _C, "wagers settled after a wrong deal instead of returned", "wrong-deal"),
        FindingKind("PG-DEAL-STACK-ORDER", _C, "tiles delivered other than the style and stacks dictate", "delivery"),
        FindingKind("PG-DEAL-STYLE", _W, "delivery style not allowed for who banks the round", "alternative-delivery"),
        FindingKind("PG-DEAL-SHAKES", _W, "fewer than three shakes before the dice were read", "shake"),
        FindingKind("PG-DEAL-DICE-TOTAL", _W, "dice total announced wrongly", "starting-position"),
        FindingKind("PG-DEAL-NO-ROLL", _W, "dice not flat or out of the shaker, and no no-roll called", "no-roll"),
        FindingKind("PG-DEAL-UNWAGERED", _W, "stacks of unwagered positions not collected unseen", "unwagered-stacks"),
        FindingKind("PG-DEAL-EXPOSED-NOT-VOIDED", _C, "a banker's, dead or unwagered tile exposed and the round not voided", "exposed-dealer-tile"),
        FindingKind("PG-DEAL-BEFORE-NO-MORE-BETS", _W, "tiles dealt before \"no more bets\"", "wager-timing"),
        # Wagers
        FindingKind("PG-WAGER-PAST-POST", _C, "wager placed, raised or withdrawn after \"no more bets\"", "wager-timing"),
        FindingKind("PG-WAGER-SPOTS", _W, "a player on more than two spots, or on spots not adjacent", "adjacent-spots"),
        FindingKind("PG-WAGER-BANK-SPOTS", _W, "the bank wagering on more than one spot", "bank-one-spot"),
        # Tile integrity: each a possible switch
        FindingKind("PG-TILE-DUPLICATE", _C, "a tile appears twice in one round", "tile-set"),
        FindingKind("PG-TILE-MISSING", _C, "the stacks do not hold the full set of 32 tiles", "tile-set"),
        FindingKind("PG-TILE-HAND-MISMATCH", _C, "a hand set with tiles other than those delivered to it", "player-setting"),
        # Setting
        FindingKind("PG-SET-HOUSE-WAY", _W, "dealer's (or co-bank's) hand not set by the table's house way", "dealer-reset"),
        FindingKind("PG-SET-DEALER-RULE", _W, "dealer's hand set outside the regulatory dealer rule", "dealer-setting"),
        FindingKind("PG-SET-MISORDERED", _W, "high hand set lower than the low hand", "player-setting"),
        FindingKind("PG-SET-SURRENDER-LATE", _W, "surrender accepted after the player's hands were exposed", "surrender"),
        FindingKind("PG-SET-RESET", _W, "a player's hands set again after being placed face down", "player-touch"),
        FindingKind("PG-SET-CORRECTED", _I, "a player's hands set again by the dealer", "player-touch"),
        FindingKind("PG-SET-DEALER-RESET", _I, "the dealer's or bank's hands set again", "dealer-reset"),
        # Settlement
        FindingKind("PG-SETTLE-OUTCOME", _C, "wager settled with the wrong outcome", "round-settlement"),
        FindingKind("PG-SETTLE-PAYOUT", _C, "wrong amount paid or collected", "round-settlement"),
        FindingKind("PG-SETTLE-VIG-UNCOLLECTED", _W, "vigorish not collected on a winning wager", "vigorish"),
        FindingKind("PG-SETTLE-VIG-SHORT", _W, "vigorish collected short", "vigorish"),
        FindingKind("PG-SETTLE-VIG-OVER", _W, "vigorish collected over", "vigorish"),
        FindingKind("PG-SETTLE-UNBALANCED", _C, "the round's money does not balance", "round-settlement"),
        FindingKind("PG-BANK-SHORTFALL", _C, "wrong bank shortfall collected", "bank-settlement"),
        FindingKind("PG-BANK-SURPLUS", _C, "wrong bank surplus, surplus vigorish or amount paid to the bank", "bank-settlement"),
        FindingKind("PG-BANK-DEALER-WAGER-LIMIT", _W, "dealer's wager against the bank over its limit", "dealer-wager-vs-bank"),
        FindingKind("PG-BANK-DEALER-WAGER-CO-BANK", _W, "dealer wagering against the bank while co-banking", "co-banking"),
        FindingKind("PG-COBANK-SPLIT", _C, "wrong co-bank split with the house", "co-bank-settlement"),
        FindingKind("PG-CA-COVERAGE", _C, "player-dealer paid or collected beyond its wager, or uncovered wager not returned", "player-dealer-coverage"),
        FindingKind("PG-CA-ORDER", _W, "wagers settled out of clockwise order from the action button", "settlement-order"),
        FindingKind("PG-CA-FEE", _W, "wrong collection fee", "collection"),
        FindingKind("PG-PF-PAYOUT", _C, "Pair Fortunes wager paid or collected wrongly", "pair-fortunes"),
        # Banking rotation
        FindingKind("PG-ROT-START-OF-GAME", _W, "a player banks the first round of a game", "bank-start-of-game"),
        FindingKind("PG-ROT-CONSECUTIVE", _W, "the same player banks too many consecutive rounds", "bank-rotation"),
        FindingKind("PG-ROT-NO-PRIOR-WAGER", _W, "bank taken without a wager in the last dealer-banked round", "bank-eligibility"),
        FindingKind("PG-ROT-INSUFFICIENT-CHIPS", _W, "bank without chips to cover the table", "bank-eligibility"),
        FindingKind("PG-ROT-OUT-OF-ORDER", _W, "the bank offered out of rotation order", "bank-rotation"),
        # Equipment and time
        FindingKind("PG-EQ-TILES-OVERDUE", _W, "tiles in use past their change interval", "tile-change"),
        FindingKind("PG-EQ-DICE-OVERDUE", _W, "dice in the shaker on the table past 24 hours", "dice-change"),
        FindingKind("PG-EQ-NOT-INSPECTED", _W, "tiles not inspected before play", "tile-inspection"),
        # Table configuration
        FindingKind("PG-TABLE-OPTION", _W, "table opened with a rule set or option that cannot be taken", "records"),
    )
}  # fmt: skip
KINDS.update(RECORD_KINDS)  # the record's integrity: the same codes for every game
