"""Every irregularity the careless Pai Gow dealer can inject, one :class:`~.plan.Plan` each.

Each topic's module lists its plans (``PLANS``) in the order a plan is drawn from (the
dealer's generator picks by index among those that fit), so a new irregularity is added in
its topic's module alone; the topics' order here is part of a seed too.
"""

from __future__ import annotations

from audit.simulation.paigow.careless import (
    bank_flows,
    california,
    count,
    deal,
    pair_fortunes,
    payouts,
    records,
    rotation,
    setting,
    tiles,
    wagers,
)
from audit.simulation.paigow.careless.plan import Plan

PLAY_KINDS: tuple[type[Plan], ...] = (
    *count.PLANS,
    *deal.PLANS,
    *wagers.PLANS,
    *tiles.PLANS,
    *setting.PLANS,
    *rotation.PLANS,
    *records.PLANS,
)
"""The irregularities of play: the count, the deal, wagers, tiles, setting, the bank's
rotation, equipment and the record."""

MONEY_KINDS: tuple[type[Plan], ...] = (
    *payouts.PLANS,
    *california.PLANS,
    *pair_fortunes.PLANS,
    *bank_flows.PLANS,
)
"""The irregularities of money: outcomes, payouts, vigorish, California, Pair Fortunes, the
bank's flows."""

KINDS: tuple[type[Plan], ...] = (*PLAY_KINDS, *MONEY_KINDS)
"""Every irregularity: of play, then of money."""
