"""Win-rate statistics: observed player win rates by table, dealer or position against expectation.

Each settled Pai Gow wager is a trial: a *win* (PA 621a.8(i)) is a success, a
push or a loss is not. Surrendered and returned wagers are not trials and are
left out, as are Pair Fortunes wagers. Each settled 21 Baccarat wager is a trial
too, with its own bet's win chance from that engine
(:mod:`audit.games.baccarat21.probabilities`, by the table's deck count). The
expected win chance of each Pai Gow wager comes from the rules engine
(:mod:`audit.games.paigow.probabilities`: both sides set by the table's house
way, under its hand ranking); a group's expected rate is the mean over its
wagers, so a group that spans rule sets and games stays fair.

A group is flagged only when its expected rate lies outside the **Wilson score
interval** of its observed rate at the chosen confidence (default 99.9%). The
interval narrows like ``1 / sqrt(n)``, so 40 hands never raise an alarm that
4,000 would.

>>> low, high = wilson_interval(12, 40)
>>> round(low, 3), round(high, 3)
(0.127, 0.558)
>>> wilson_interval(1_200, 4_000)[1] - wilson_interval(1_200, 4_000)[0] < high - low
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

from audit.events.envelope import Event
from audit.games.baccarat21.probabilities import lookup as b21_lookup
from audit.games.baccarat21.rulesets import PA_681A
from audit.games.baccarat21.rulesets import RuleSet as B21RuleSet
from audit.games.baccarat21.settlement import Bet
from audit.games.errors import RulesError
from audit.games.paigow.probabilities import (
    PRECOMPUTED_SEED,
    expected_rates,
    lookup,
)
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import parse_tile
from audit.verification.baccarat21.context import rule_set_for as b21_rule_set_for
from audit.verification.paigow.context import rule_set_for

DEFAULT_CONFIDENCE = 0.999
GroupBy = Literal["table", "dealer", "position"]
GROUP_BYS: tuple[GroupBy, ...] = ("table", "dealer", "position")
TRIAL_OUTCOMES = frozenset({"win", "push", "lose"})
"""Outcomes that count as trials; ``surrendered`` and ``returned`` do not."""
_FALLBACK_SAMPLES = 200_000
"""Draws for a house way and ranking with no precomputed rates (about a second, once)."""


@dataclass(frozen=True)
class SettledWager:
    """One settled wager (Pai Gow or 21 Baccarat), with the rules engine's win chance for it."""

    table_id: str
    dealer_id: str | None
    position: int
    outcome: str
    """``win``, ``push``, ``lose``, ``surrendered`` or ``returned``."""
    expected_win: float
    """The player's win chance under the table's rules (a probability, not money)."""

    def key(self, by: GroupBy) -> str:
        """Return this wager's group under ``by``."""
        if by == "table":
            return self.table_id
        if by == "dealer":
            return self.dealer_id or "-"
        return str(self.position)


@dataclass(frozen=True)
class GroupStats:
    """One group's trials, observed and expected win rates, interval and flag."""

    by: GroupBy
    group: str
    n: int
    wins: int
    pushes: int
    losses: int
    observed: float
    expected: float
    low: float
    high: float
    confidence: float

    @property
    def flagged(self) -> bool:
        """Whether the expected rate lies outside the interval around the observed rate."""
        return self.n > 0 and not (self.low <= self.expected <= self.high)

    @property
    def direction(self) -> str:
        """``"low"``: players win less than expected; ``"high"``: more; ``""``: not flagged."""
        if not self.flagged:
            return ""
        return "low" if self.high < self.expected else "high"

    def as_dict(self) -> dict[str, object]:
        """Return the row as plain JSON-ready values."""
        return {
            "by": self.by,
            "group": self.group,
            "n": self.n,
            "wins": self.wins,
            "pushes": self.pushes,
            "losses": self.losses,
            "observed": self.observed,
            "expected": self.expected,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
            "flagged": self.flagged,
            "direction": self.direction,
        }


def z_for(confidence: float) -> float:
    """Return the two-sided standard-normal quantile for ``confidence`` (0.999 -> 3.29)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1: {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(
    successes: int, n: int, confidence: float = DEFAULT_CONFIDENCE
) -> tuple[float, float]:
    """Return the Wilson score interval for ``successes`` out of ``n`` trials.

    With no trials the interval is the whole of ``[0, 1]``: nothing is known.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n: {successes!r} of {n!r}")
    z = z_for(confidence)
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def group_stats(
    wagers: Iterable[SettledWager],
    by: GroupBy = "table",
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[GroupStats]:
    """Return each group's statistics, sorted by group; groups with no trials are left out."""
    if by not in GROUP_BYS:
        raise ValueError(f"group by one of {GROUP_BYS}: {by!r}")
    z_for(confidence)  # a bad confidence fails before any work
    counts: dict[str, list[int]] = {}
    expected_sums: dict[str, float] = {}
    for wager in wagers:
        if wager.outcome not in TRIAL_OUTCOMES:
            continue
        key = wager.key(by)
        tally = counts.setdefault(key, [0, 0, 0])
        tally[("win", "push", "lose").index(wager.outcome)] += 1
        expected_sums[key] = expected_sums.get(key, 0.0) + wager.expected_win
    rows = []
    for key in sorted(counts, key=_natural):
        wins, pushes, losses = counts[key]
        n = wins + pushes + losses
        low, high = wilson_interval(wins, n, confidence)
        rows.append(
            GroupStats(
                by=by,
                group=key,
                n=n,
                wins=wins,
                pushes=pushes,
                losses=losses,
                observed=wins / n,
                expected=expected_sums[key] / n,
                low=low,
                high=high,
                confidence=confidence,
            )
        )
    return rows


def _natural(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


_EXPECTED_WIN: dict[tuple[str, bool], float] = {}


def expected_win(rule_set: RuleSet) -> float:
    """Return the player's win chance at a table of ``rule_set`` (house way vs house way).

    The precomputed rates when there are some, else a seeded estimate, computed once.
    """
    way, ranking = rule_set.house_way, rule_set.ranking
    key = (way.name, ranking.zero_hands_tie)
    if key not in _EXPECTED_WIN:
        try:
            _EXPECTED_WIN[key] = lookup(way, ranking).win
        except KeyError:
            rng = random.Random(PRECOMPUTED_SEED)
            _EXPECTED_WIN[key] = expected_rates(way, ranking, _FALLBACK_SAMPLES, rng).win
    return _EXPECTED_WIN[key]


def _b21_win(rules: B21RuleSet | None, bet: Bet) -> float | None:
    """Return a 21 Baccarat wager's win chance at a table of ``rules`` (None: not tabled)."""
    try:
        return b21_lookup((rules or PA_681A).decks, (rules or PA_681A).draw_rule)[bet].win
    except KeyError:
        return None  # no precomputed rates for that drawing rule: not a trial, never a guess


def _by_house_way(hand: Event, ruleset: RuleSet) -> bool:
    """Return whether a recorded hand is the table's house way for its four tiles."""
    try:
        recorded = Setting(
            tuple(parse_tile(t) for t in hand.high),  # type: ignore[attr-defined,arg-type]
            tuple(parse_tile(t) for t in hand.low),  # type: ignore[attr-defined,arg-type]
        )
        return recorded == ruleset.house_way.setting(recorded.tiles, ruleset.ranking)
    except RulesError:
        return False


def settled_wagers(
    events: Iterable[Event], expected: Callable[[RuleSet], float] = expected_win
) -> Iterator[SettledWager]:
    """Yield the settled Pai Gow wagers of an event stream, each with its dealer and chance.

    A table's rule set comes from its ``table_opened`` (PA 2019 until one is seen);
    the dealer is the round's ``round_started`` dealer, else the table's latest.

    Only wagers whose player hand and banker hand were both set by the table's house
    way are yielded: the expected rate is for exactly that contest, and a player who
    sets a weaker way wins less through no fault of the dealer's.
    """
    rule_sets: dict[str, RuleSet] = {}
    table_dealers: dict[str, str] = {}
    round_dealers: dict[str, str] = {}
    house_way_hands: dict[tuple[str, str, int], bool] = {}
    b21_rules: dict[str, B21RuleSet] = {}
    bankers: dict[tuple[str, str], int] = {}
    default = rule_set_for("pa-2019", {})
    for event in events:
        kind = event.type  # type: ignore[attr-defined]
        table = event.table_id
        round_key = (table, event.round_id or "")
        if kind == "bank_accepted":
            bankers[round_key] = event.position  # type: ignore[attr-defined]
        elif kind == "hand_set":
            ruleset = rule_sets.get(table, default)
            house_way_hands[(*round_key, event.position)] = _by_house_way(event, ruleset)  # type: ignore[attr-defined]
        if kind == "table_opened":
            options = dict(getattr(event, "options", None) or {})
            if event.game == "baccarat21":  # type: ignore[attr-defined]
                b21_rules[table] = b21_rule_set_for(event.rule_set, options)  # type: ignore[attr-defined]
            else:
                rule_sets[table] = rule_set_for(event.rule_set, options)  # type: ignore[attr-defined]
            table_dealers[table] = event.dealer_id  # type: ignore[attr-defined]
        elif kind == "dealer_changed":
            table_dealers[table] = event.incoming_dealer_id  # type: ignore[attr-defined]
        elif kind == "round_started" and event.round_id is not None:
            round_dealers[event.round_id] = event.dealer_id  # type: ignore[attr-defined]
            table_dealers[table] = event.dealer_id  # type: ignore[attr-defined]
        elif kind == "b21_wager_settled" and event.outcome in TRIAL_OUTCOMES:  # type: ignore[attr-defined]
            chance = _b21_win(b21_rules.get(table), event.bet)  # type: ignore[attr-defined]
            if chance is not None:
                dealer = round_dealers.get(event.round_id or "") or table_dealers.get(table)
                yield SettledWager(table, dealer, event.position, str(event.outcome), chance)  # type: ignore[attr-defined]
        elif kind == "wager_settled":
            wager_kind = getattr(event, "kind", None)
            if wager_kind is not None and getattr(wager_kind, "value", wager_kind) != "pai_gow":
                continue
            banker = bankers.get(round_key, 0)
            contest = (house_way_hands.get((*round_key, event.position)),  # type: ignore[attr-defined]
                       house_way_hands.get((*round_key, banker)))  # fmt: skip
            if contest != (True, True):
                continue
            dealer = round_dealers.get(event.round_id or "") or table_dealers.get(table)
            yield SettledWager(
                table_id=table,
                dealer_id=dealer,
                position=event.position,  # type: ignore[attr-defined]
                outcome=str(event.outcome),  # type: ignore[attr-defined]
                expected_win=expected(rule_sets.get(table, default)),
            )
