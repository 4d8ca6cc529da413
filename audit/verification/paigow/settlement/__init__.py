"""The Pai Gow settlement checks: outcomes, payouts, vigorish, bank flows, California coverage,
order and fees, and Pair Fortunes.

Each wager's outcome comes from the recorded hands through the engine, and the money
it should have moved from the banking mode's settlement (``settle_dealer_banked``,
``settle_player_bank``, ``settle_co_bank``, ``settle_california``,
``settle_voided_round``, ``settle_pair_fortunes``) with the table's rounding. The
recorded ``wager_settled`` events are compared with that. ``checks`` is the round's one
check; the readings each part takes, where the record or the texts leave a choice, are
in its module's docstring.
"""
