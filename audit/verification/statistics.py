"""Win-rate statistics: observed player win rates by table, dealer, position or player against
expectation, by count and by money.

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

**By player.** Each wager carries the ``player_id`` its ``wager_placed`` (or
``b21_wager_placed``) recorded; a wager placed without one is grouped under ``-``.
``--by dealer,player`` groups by the pair, the view an analyst reads for a dealer
who favours one player.

**By money.** Each trial also adds its stake and what the player won on it (paid
less collected and vigorish: exact, in integer cents), and the engine's expected
result on that stake with its variance. The player's result per unit is ``+k`` on a
win (``k`` = 0.95 where a 5% vigorish is charged on Pai Gow wins, PA 621a.8(k); 1 in
California; 21 Baccarat by the engine's per-bet moments, 681a.8), 0 on a push, -1 on
a loss; the sums over a group's wagers give money expected and its standard deviation.
Money won is flagged when the expected amount lies outside ``won +/- z * sd``: a
normal approximation to a sum of many independent wagers, **a statistical estimate**
(vigorish rounding and 17s paid 1 to 2 are averaged, not settled), shown in cents,
never used to settle anything.

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
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved, B21WagerSettled
from audit.events.envelope import Event
from audit.events.paigow.play import BankAccepted, HandSet
from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind, WagerPlaced, WagerWithdrawn
from audit.events.rounds import RoundCompleted, RoundStarted
from audit.events.table import DealerChanged, TableClosed, TableOpened
from audit.games.baccarat21.probabilities import lookup as b21_lookup
from audit.games.baccarat21.probabilities import lookup_moments
from audit.games.baccarat21.rulesets import PA_681A
from audit.games.baccarat21.rulesets import RuleSet as B21RuleSet
from audit.games.baccarat21.settlement import Bet
from audit.games.confidence import DEFAULT_CONFIDENCE, wilson_interval, z_for
from audit.games.errors import RulesError
from audit.games.money import Cents, to_cents
from audit.games.paigow.deals import deal_mask
from audit.games.paigow.options import rule_set_for
from audit.games.paigow.probabilities import (
    PRECOMPUTED_SEED,
    ExpectedRates,
    expected_rates,
    lookup,
)
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import TILE_BY_NAME, parse_tile
from audit.games.paigow.vigorish import VIGORISH_PERCENT
from audit.verification.rules_by_game import RULES_FOR, AnyRuleSet

GroupBy = Literal["table", "dealer", "position", "player", "dealer,player"]
GROUP_BYS: tuple[GroupBy, ...] = ("table", "dealer", "position", "player", "dealer,player")
NO_ID = "-"
"""The group of a wager whose dealer or player was not recorded."""
TRIAL_OUTCOMES = frozenset({"win", "push", "lose"})
"""Outcomes that count as trials; ``surrendered`` and ``returned`` do not."""
_FALLBACK_SAMPLES = 200_000
"""Draws for a house way and ranking with no precomputed rates (about a second, once)."""


@dataclass(slots=True)
class _OpenRound:
    """What a round's trials read until it completes."""

    dealer: str | None = None
    """The round's ``round_started`` dealer."""
    banker: int = 0
    """The banker's position (0, the dealer, unless a player's bank was accepted)."""
    house_way: dict[int, bool] = field(default_factory=dict)
    """Position -> whether its hand was set by the table's house way."""
    stakes: dict[tuple[int, str], tuple[str | None, Cents]] = field(default_factory=dict)
    """(position, bet) -> the player recorded and the chips staked."""


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
    player_id: str | None = None
    stake: Cents = 0
    """The wager, in cents."""
    won: Cents = 0
    """What the player won on it, in cents: paid less collected and vigorish (negative: lost)."""
    unit_mean: float = 0.0
    """The player's expected result per unit staked (an estimate from the engine's chances)."""
    unit_variance: float = 0.0
    """Its variance per unit staked."""

    def key(self, by: GroupBy) -> str:
        """Return this wager's group under ``by``."""
        if by == "table":
            return self.table_id
        if by == "dealer":
            return self.dealer_id or NO_ID
        if by == "player":
            return self.player_id or NO_ID
        if by == "dealer,player":
            return f"{self.dealer_id or NO_ID},{self.player_id or NO_ID}"
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
    wagered: Decimal = Decimal("0.00")
    """Dollars staked on the group's trials (exact)."""
    won: Decimal = Decimal("0.00")
    """Dollars the players won on them, net (exact; negative: the players lost)."""
    expected_won: Decimal = Decimal("0.00")
    """Dollars the engine expects them to win on those stakes (an estimate, to the cent)."""
    won_low: Decimal = Decimal("0.00")
    won_high: Decimal = Decimal("0.00")
    """The interval around ``won`` at ``confidence`` (an estimate, to the cent)."""

    @property
    def flagged(self) -> bool:
        """Whether the expected rate lies outside the interval around the observed rate."""
        return self.n > 0 and not (self.low <= self.expected <= self.high)

    @property
    def money_flagged(self) -> bool:
        """Whether the money expected lies outside the interval around the money won."""
        return self.wagered > 0 and not (self.won_low <= self.expected_won <= self.won_high)

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
            "wagered": str(self.wagered),
            "won": str(self.won),
            "expected_won": str(self.expected_won),
            "won_low": str(self.won_low),
            "won_high": str(self.won_high),
            "money_flagged": self.money_flagged,
        }


@dataclass
class Tally:
    """One group's trials so far: outcomes counted, expected win chances summed."""

    wins: int = 0
    pushes: int = 0
    losses: int = 0
    expected_sum: float = 0.0
    wagered: Cents = 0
    won: Cents = 0
    expected_won: float = 0.0
    """Cents the players are expected to win (an estimate)."""
    won_variance: float = 0.0
    """Its variance, in cents squared."""

    def add(self, wager: SettledWager) -> None:
        """Count one trial."""
        if wager.outcome == "win":
            self.wins += 1
        elif wager.outcome == "push":
            self.pushes += 1
        else:
            self.losses += 1
        self.expected_sum += wager.expected_win
        self.wagered += wager.stake
        self.won += wager.won
        self.expected_won += wager.stake * wager.unit_mean
        self.won_variance += wager.stake * wager.stake * wager.unit_variance

    @property
    def n(self) -> int:
        """Return the number of trials."""
        return self.wins + self.pushes + self.losses


def tally(wagers: Iterable[SettledWager], by: GroupBy) -> dict[str, Tally]:
    """Return each group's tally under ``by``; wagers that are not trials are left out."""
    if by not in GROUP_BYS:
        raise ValueError(f"group by one of {GROUP_BYS}: {by!r}")
    tallies: dict[str, Tally] = {}
    for wager in wagers:
        if wager.outcome in TRIAL_OUTCOMES:
            tallies.setdefault(wager.key(by), Tally()).add(wager)
    return tallies


def stats_of(
    tallies: dict[str, Tally], by: GroupBy, confidence: float = DEFAULT_CONFIDENCE
) -> list[GroupStats]:
    """Return each group's statistics from its tally, sorted by group; empty groups left out."""
    z_for(confidence)  # a bad confidence fails before any work
    rows = []
    for key in sorted(tallies, key=_natural):
        t = tallies[key]
        if not t.n:
            continue
        low, high = wilson_interval(t.wins, t.n, confidence)
        half = z_for(confidence) * math.sqrt(max(t.won_variance, 0.0))
        rows.append(GroupStats(
            by=by, group=key, n=t.n, wins=t.wins, pushes=t.pushes, losses=t.losses,
            observed=t.wins / t.n, expected=t.expected_sum / t.n, low=low, high=high,
            confidence=confidence, wagered=_dollars(t.wagered), won=_dollars(t.won),
            expected_won=_dollars(t.expected_won), won_low=_dollars(t.won - half),
            won_high=_dollars(t.won + half),
        ))  # fmt: skip
    return rows


def _dollars(cents: float) -> Decimal:
    """Return cents (exact, or an estimate rounded to the cent) as dollars."""
    return (Decimal(round(cents)) / 100).quantize(Decimal("0.01"))


def group_stats(
    wagers: Iterable[SettledWager],
    by: GroupBy = "table",
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[GroupStats]:
    """Return each group's statistics, sorted by group; groups with no trials are left out."""
    z_for(confidence)
    return stats_of(tally(wagers, by), by, confidence)


def _natural(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


_RATES: dict[tuple[str, bool], ExpectedRates] = {}


def _rates(rule_set: RuleSet) -> ExpectedRates:
    way, ranking = rule_set.house_way, rule_set.ranking
    key = (way.name, ranking.zero_hands_tie)
    if key not in _RATES:
        try:
            _RATES[key] = lookup(way, ranking)
        except KeyError:
            rng = random.Random(PRECOMPUTED_SEED)
            _RATES[key] = expected_rates(way, ranking, _FALLBACK_SAMPLES, rng)
    return _RATES[key]


def expected_win(rule_set: RuleSet) -> float:
    """Return the player's win chance at a table of ``rule_set`` (house way vs house way).

    The precomputed rates when there are some, else a seeded estimate, computed once.
    """
    return _rates(rule_set).win


def pai_gow_moments(rule_set: RuleSet) -> tuple[float, float]:
    """Return the player's expected result per unit staked and its variance (house way vs
    house way): a win keeps 0.95 where vigorish is charged (PA 621a.8(k)), all of it in
    California, where the house collects fees instead.

    >>> from audit.games.paigow.rulesets import get_rule_set
    >>> mean, variance = pai_gow_moments(get_rule_set("pa-2019"))
    >>> -0.05 < mean < 0 < variance < 1
    True
    """
    rates = _rates(rule_set)
    keeps = 1.0 if rule_set.vig_rounding is None else (100 - VIGORISH_PERCENT) / 100
    mean = keeps * rates.win - rates.lose
    return mean, keeps * keeps * rates.win + rates.lose - mean * mean


def _b21_win(rules: B21RuleSet | None, bet: Bet) -> float | None:
    """Return a 21 Baccarat wager's win chance at a table of ``rules`` (None: not tabled)."""
    try:
        return b21_lookup((rules or PA_681A).decks, (rules or PA_681A).draw_rule)[bet].win
    except KeyError:
        return None  # no precomputed rates for that drawing rule: not a trial, never a guess


def _b21_moments(rules: B21RuleSet | None, bet: Bet) -> tuple[float, float] | None:
    """Return a 21 Baccarat wager's expected player result per unit and its variance (None
    where the engine has no moments for the table's rules: its money is then not counted)."""
    rules = rules or PA_681A
    try:
        house = lookup_moments(rules.decks, rules.draw_rule, rules.paytable.letter)[bet]
    except KeyError:
        return None
    return -house.mean, house.variance


def _by_house_way(hand: HandSet, ruleset: RuleSet) -> bool:
    """Return whether a recorded hand is the table's house way for its four tiles."""
    # Nearly every hand: four distinct tiles by their canonical names, as events carry
    # them, compared with the way's table directly; anything else takes the full reading.
    by_name = TILE_BY_NAME
    if len(hand.high) == 2 and len(hand.low) == 2:
        (a, b), (c, d) = hand.high, hand.low
        tiles = by_name.get(a), by_name.get(b), by_name.get(c), by_name.get(d)
        if None not in tiles:
            mask = deal_mask(tiles)  # type: ignore[arg-type]  # no None: checked
            if mask.bit_count() == 4:
                table = ruleset.house_way.table(ruleset.ranking)
                way = table.settings.get(mask) or table.lookup(mask)
                high, low = sorted(tiles[:2]), sorted(tiles[2:])  # type: ignore[type-var]
                return way is not None and list(way.high) == high and list(way.low) == low
    return _by_house_way_read(hand, ruleset)


def _by_house_way_read(hand: HandSet, ruleset: RuleSet) -> bool:
    """:func:`_by_house_way` for any recorded hand: each tile parsed, the setting checked."""
    try:
        high, low = (tuple(parse_tile(t) for t in tiles) for tiles in (hand.high, hand.low))
        recorded = Setting((high[0], high[1]), (low[0], low[1]))
        return recorded == ruleset.house_way.setting(recorded.tiles, ruleset.ranking)
    except RulesError:
        return False


_READ = frozenset(
    {WagerPlaced, B21WagerPlaced, WagerWithdrawn, B21WagerRemoved, BankAccepted, HandSet,
     TableOpened, TableClosed, DealerChanged, RoundStarted, B21WagerSettled, WagerSettled,
     RoundCompleted}
)  # fmt: skip
"""The event classes :meth:`TrialReader.feed` reads; it passes over every other."""


class TrialReader:
    """Reads a stream one event at a time and returns each settled wager that is a trial.

    A table's rule set comes from its ``table_opened`` (PA 2019 until one is seen);
    the dealer is the round's ``round_started`` dealer, else the table's latest; the player
    and the stake are the ``wager_placed`` (``b21_wager_placed``) ones for the position (and
    bet), less what was withdrawn.

    Only Pai Gow wagers whose player hand and banker hand were both set by the table's
    house way are trials: the expected rate is for exactly that contest, and a player
    who sets a weaker way wins less through no fault of the dealer's. Every 21 Baccarat
    wager won, pushed or lost is a trial.
    """

    def __init__(self, expected: Callable[[RuleSet], float] = expected_win) -> None:
        self.expected = expected
        self.rules: dict[str, AnyRuleSet] = {}
        """Table -> the rules of the game its opening named."""
        self.table_dealers: dict[str, str] = {}
        self.rounds: dict[tuple[str, str], _OpenRound] = {}
        """(table, round) -> what a round's trials read, until it completes or its table
        closes: a round never completed (voided, cut off) leaves with its table, so the
        state holds the open tables' rounds, not every round ever left open."""
        self.default = rule_set_for("pa-2019", {})

    def feed(self, event: Event) -> SettledWager | None:
        """Take one event; return the trial it settles, if any."""
        if type(event) not in _READ:
            return None  # most of a round: one set lookup, not every case below
        table = event.table_id
        round_key = (table, event.round_id or "")
        match event:
            case WagerPlaced() | B21WagerPlaced():
                self._stake(event, round_key, placed=True)
            case WagerWithdrawn() | B21WagerRemoved():
                self._stake(event, round_key, placed=False)
            case BankAccepted():
                self._round(round_key).banker = event.position
            case HandSet():
                ruleset = self.pai_gow_rules(table)
                self._round(round_key).house_way[event.position] = _by_house_way(event, ruleset)
            case TableOpened():
                self._leave(table)  # a close never recorded
                options = dict(event.options or {})
                self.rules[table] = RULES_FOR[event.game](event.rule_set, options)
                self.table_dealers[table] = event.dealer_id
            case TableClosed():
                self._leave(table)
            case DealerChanged():
                self.table_dealers[table] = event.incoming_dealer_id
            case RoundStarted() if event.round_id is not None:
                self._round(round_key).dealer = event.dealer_id
                self.table_dealers[table] = event.dealer_id
            case B21WagerSettled() if event.outcome in TRIAL_OUTCOMES:
                return self._b21(event, round_key)
            case WagerSettled():
                return self._pai_gow(event, round_key)
            case RoundCompleted():
                self.rounds.pop(round_key, None)
        return None

    def _round(self, round_key: tuple[str, str]) -> _OpenRound:
        found = self.rounds.get(round_key)
        if found is None:
            found = self.rounds[round_key] = _OpenRound()
        return found

    def _leave(self, table: str) -> None:
        for key in [k for k in self.rounds if k[0] == table]:
            del self.rounds[key]

    def _stake(
        self,
        event: WagerPlaced | WagerWithdrawn | B21WagerPlaced | B21WagerRemoved,
        round_key: tuple[str, str],
        *,
        placed: bool,
    ) -> None:
        bet = event.bet if isinstance(event, (B21WagerPlaced, B21WagerRemoved)) else event.kind
        stakes, key = self._round(round_key).stakes, (event.position, bet.value)
        player, stake = stakes.get(key, (None, 0))
        amount = to_cents(event.amount)
        player = getattr(event, "player_id", None) or player
        stakes[key] = (player, stake + amount if placed else stake - amount)

    def _b21(self, event: B21WagerSettled, round_key: tuple[str, str]) -> SettledWager | None:
        found = self.rules.get(event.table_id)
        rules = found if isinstance(found, B21RuleSet) else None
        chance = _b21_win(rules, event.bet)
        if chance is None:
            return None
        player, stake = self.staked(round_key, event.position, event.bet.value)
        moments = _b21_moments(rules, event.bet)
        if moments is None:
            stake, won, moments = 0, 0, (0.0, 0.0)  # no moments: its money is not counted
        else:
            won = to_cents(event.paid) - to_cents(event.collected)
        return SettledWager(
            event.table_id, self._dealer(event, round_key), event.position, str(event.outcome),
            chance,
            player, stake, won, *moments,
        )  # fmt: skip

    def pai_gow_rules(self, table_id: str) -> RuleSet:
        """Return the Pai Gow rule set of ``table_id`` (the default where none is known)."""
        rules = self.rules.get(table_id)
        return rules if isinstance(rules, RuleSet) else self.default

    def _dealer(self, event: Event, round_key: tuple[str, str]) -> str | None:
        found = self.rounds.get(round_key)
        dealer = found.dealer if found is not None else None
        return dealer or self.table_dealers.get(event.table_id)

    def staked(
        self, round_key: tuple[str, str], position: int, bet: str
    ) -> tuple[str | None, Cents]:
        """Return the player recorded and the chips staked on a bet of an open round."""
        found = self.rounds.get(round_key)
        return (None, 0) if found is None else found.stakes.get((position, bet), (None, 0))

    def _pai_gow(self, event: WagerSettled, round_key: tuple[str, str]) -> SettledWager | None:
        if event.kind is not WagerKind.PAI_GOW:
            return None  # Pair Fortunes is judged by its paytable, not as a contest
        found = self.rounds.get(round_key)
        if found is None:
            return None  # no hand set in it: not a contest of house ways
        contest = (found.house_way.get(event.position), found.house_way.get(found.banker))
        if contest != (True, True):
            return None
        rule_set = self.pai_gow_rules(event.table_id)
        player, stake = self.staked(round_key, event.position, WagerKind.PAI_GOW.value)
        won = to_cents(event.paid) - to_cents(event.collected) - to_cents(event.vigorish)
        unit_mean, unit_variance = pai_gow_moments(rule_set)
        return SettledWager(
            table_id=event.table_id,
            dealer_id=self._dealer(event, round_key),
            position=event.position,
            outcome=str(event.outcome),
            expected_win=self.expected(rule_set),
            player_id=player,
            stake=stake,
            won=won,
            unit_mean=unit_mean,
            unit_variance=unit_variance,
        )


def settled_wagers(
    events: Iterable[Event], expected: Callable[[RuleSet], float] = expected_win
) -> Iterator[SettledWager]:
    """Yield the settled wagers of an event stream that are trials (see :class:`TrialReader`)."""
    reader = TrialReader(expected)
    for event in events:
        trial = reader.feed(event)
        if trial is not None:
            yield trial
