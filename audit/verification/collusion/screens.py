"""The collusion screens: four patterns between people that no single round shows.

Each screen counts over a **window** and tests it once, when the window closes; an alarm is a
warning finding, a prompt for review (docs/collusion-screens.md has each statistic's
reasoning):

- ``COL-PAIR-RESULTS``: per dealer, player and gaming day, the player's money won in rounds
  the house banks, against the money the engine's own odds expect on the same stakes
  (:class:`~audit.verification.statistics.TrialReader`'s trials, so only house-way contests,
  and 21 Baccarat's by its own moments); the z-score's one-sided tail, once 30 trials count.
- ``COL-ERROR-BENEFIT``: per dealer and gaming day, the dealer's house-way deviations and
  settlement errors at one player's spot (the verifier's own findings), against that
  player's share of the dealer's settled wagers: a binomial tail, once three errors count.
- ``COL-BANK-WALK``: per pair of players and gaming day, the money that moved from one to the
  other in rounds one of them banked (a wager against a player's bank), against what the
  engine's odds expect on those stakes; two-sided (walked either way), once 10 wagers count.
- ``COL-PAIR-RECURS``: over a rolling window of :data:`RECURRENCE_DAYS` gaming days, the
  table-days a player shared with a dealer against the dealer's share of all the floor's
  table-days: a binomial tail, once the pair met at three table-days at three tables.

A gaming day's windows close when every table that played that day has closed, or when a
table opens for a day two days later (a day never closed is retired then, as the accounts
retire days: docs/history.md). The rolling window keeps only the table-days of its days.
State is the open days' sums and the window's table-days: it grows with the dealers and
players active in the windows, never with the years stored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.games.money import Cents, to_cents, to_dollars
from audit.verification.collusion.kinds import (
    BANK_WALK,
    COLLUSION_KINDS,
    ERROR_BENEFIT,
    ERROR_CODES,
    PAIR_RECURS,
    PAIR_RESULTS,
    RATIONALE,
)
from audit.verification.collusion.tails import binomial_upper, normal_upper
from audit.verification.statistics import TrialReader, pai_gow_moments

SCREEN_CONFIDENCE = 0.9999
"""A window alarms when its p-value is below 1 - this (the equipment screens' default)."""
MIN_TRIALS = 30
"""Effective trials (equal-stake equivalents) before a pair's money is tested: the normal
approximation needs a few dozen."""
MIN_ERRORS = 3
"""Errors at one player's spot before the share is tested: two can be coincidence at any p."""
MIN_BANK_WAGERS = 10
"""Effective wagers between two players through the bank before their flow is tested."""
MIN_CONTEXTS = 3
"""Table-days a pair shares, at as many tables, before their recurrence is tested."""
RECURRENCE_DAYS = 30
"""The rolling window of the recurrence screen, in gaming days."""
EVIDENCE_ROUNDS = 12
"""Round ids kept as a window's evidence (the count is always whole)."""

_READ = frozenset({
    "table_opened", "table_closed", "dealer_changed", "round_started", "bank_accepted",
    "wager_placed", "wager_withdrawn", "hand_set", "wager_settled", "b21_wager_placed",
    "b21_wager_removed", "b21_wager_settled", "round_completed",
})  # fmt: skip


@dataclass
class Evidence:
    """What one window counted for one subject: money, trials, rounds and the facts' ids."""

    tables: set[str] = field(default_factory=set)
    rounds: list[str] = field(default_factory=list)
    round_count: int = 0
    trials: int = 0
    """Rounds with money counted (a round's wagers by one subject are one trial)."""
    stake: Cents = 0
    stake_squares: int = 0
    won: Cents = 0
    """Money won by the subject (a player; the second player of a bank pair), in cents."""
    mean: float = 0.0
    """Money the engine's odds expect the subject to win, in cents (an estimate)."""
    variance: float = 0.0
    first_event: str = ""
    last_event: str = ""
    last_table: str = ""
    last_round: str | None = None
    money_round: str | None = None
    round_stake: Cents = 0

    def note(self, table_id: str, round_id: str | None, event_id: str) -> None:
        """Count one fact of a round as this window's evidence."""
        self.tables.add(table_id)
        self.last_table = table_id
        if round_id is not None and round_id != self.last_round:
            self.last_round = round_id  # a round's facts come together: counted once
            self.round_count += 1
            if len(self.rounds) < EVIDENCE_ROUNDS:
                self.rounds.append(round_id)
        self.first_event = self.first_event or event_id
        self.last_event = event_id

    def money(
        self, round_id: str | None, stake: Cents, won: Cents, unit_mean: float, unit_variance: float
    ) -> None:
        """Count one wager: its stake, what the subject won, and the odds' moments on it.

        A round's wagers by one subject (two spots against one banker hand, a 21 Baccarat
        player's several bets) are not independent: they count as one trial whose variance
        is that of their sum taken as perfectly correlated, the most it can be.
        """
        if round_id is None or round_id != self.money_round:
            self.money_round, self.round_stake = round_id, 0
            self.trials += 1
        before, self.round_stake = self.round_stake, self.round_stake + stake
        grown = self.round_stake * self.round_stake - before * before
        self.stake += stake
        self.stake_squares += grown
        self.won += won
        self.mean += stake * unit_mean
        self.variance += grown * unit_variance

    @property
    def effective_trials(self) -> float:
        """Return the trials of equal stakes that would weigh as much (a few big wagers weigh
        like a few trials, however many small ones surround them)."""
        return self.stake * self.stake / self.stake_squares if self.stake_squares else 0.0

    @property
    def z(self) -> float:
        """Return money won against money expected, in standard deviations."""
        return (self.won - self.mean) / math.sqrt(self.variance) if self.variance > 0 else 0.0

    def round_list(self) -> str:
        """Return the evidence rounds as text, the count whole."""
        more = self.round_count - len(self.rounds)
        return ", ".join(self.rounds) + (f" and {more} more" if more > 0 else "")


@dataclass
class _Errors:
    count: int = 0
    at_stake: Cents = 0
    codes: dict[str, int] = field(default_factory=dict)
    evidence: Evidence = field(default_factory=Evidence)


@dataclass
class _Day:
    """One gaming day's windows, open until every table that played it has closed."""

    open_tables: set[str] = field(default_factory=set)
    pairs: dict[tuple[str, str], Evidence] = field(default_factory=dict)
    """(dealer, player) -> money won against the odds, in rounds the house banks."""
    hands: dict[str, dict[str, int]] = field(default_factory=dict)
    """Dealer -> player -> wagers settled."""
    errors: dict[tuple[str, str], _Errors] = field(default_factory=dict)
    flows: dict[tuple[str, str], Evidence] = field(default_factory=dict)
    """(a, b), a < b -> money from a to b through the bank (b's winnings)."""
    dealer_tables: dict[str, set[str]] = field(default_factory=dict)
    player_tables: dict[str, set[str]] = field(default_factory=dict)
    shared: dict[tuple[str, str], Evidence] = field(default_factory=dict)
    """(dealer, player) -> the tables they shared this day, with the player's stakes."""
    tables: set[str] = field(default_factory=set)
    closed_at: str | None = None


@dataclass
class _Round:
    dealer: str | None = None
    bank: tuple[int, str | None] | None = None
    """The position and player of a player's bank (PA/NJ player bank, CA player-dealer)."""


class CollusionScreens:
    """Reads a floor's stream and the verifier's findings; returns the alarms of closed windows."""

    def __init__(
        self, confidence: float = SCREEN_CONFIDENCE, recurrence_days: int | None = None
    ) -> None:
        self.confidence = confidence
        self.recurrence_days = RECURRENCE_DAYS if recurrence_days is None else recurrence_days
        self.trials = TrialReader()
        self.table_days: dict[str, str] = {}
        self.table_dealers: dict[str, str] = {}
        self.rounds: dict[tuple[str, str], _Round] = {}
        self.days: dict[str, _Day] = {}
        """Open gaming days (ISO dates)."""
        self.recent: dict[str, _Day] = {}
        """Closed days kept for the recurrence window: only their table-days are read."""
        self.recurring: dict[tuple[str, str], int] = {}
        """Pairs alarmed in the window -> the table-days they had then (alarm again on more)."""
        self.tested: dict[str, int] = dict.fromkeys(COLLUSION_KINDS, 0)
        """Windows tested so far, by code: what the false-alarm rate is reckoned against."""
        self.p_values: list[tuple[str, float]] | None = None
        """Every test's code and p-value, when a list is set (bench/false_alarms.py)."""

    @property
    def alpha(self) -> float:
        """Return the p-value below which a window alarms."""
        return 1.0 - self.confidence

    # --- reading -----------------------------------------------------------------------------

    def feed(self, event: Event, findings: Sequence[Finding] = ()) -> list[Finding]:
        """Take one fact and the verifier's findings of it; return the alarms it closes."""
        for finding in findings:
            if finding.code in ERROR_CODES and finding.player_id and finding.dealer_id:
                self._error(finding)
        kind = event.type  # type: ignore[attr-defined]
        if kind not in _READ:
            return []
        table = event.table_id
        round_key = (table, event.round_id or "")
        trial = self.trials.feed(event)
        if kind == "table_opened":
            alarms = self._opened(table, event.gaming_day)  # type: ignore[attr-defined]
            self.table_dealers[table] = event.dealer_id  # type: ignore[attr-defined]
            return alarms
        if kind == "table_closed":
            return self._closed(table, event)
        if kind == "dealer_changed":
            self.table_dealers[table] = event.incoming_dealer_id  # type: ignore[attr-defined]
        elif kind == "round_started":
            self.rounds[round_key] = _Round(event.dealer_id)  # type: ignore[attr-defined]
            self.table_dealers[table] = event.dealer_id  # type: ignore[attr-defined]
        elif kind == "bank_accepted":
            round_ = self.rounds.setdefault(round_key, _Round(self.table_dealers.get(table)))
            round_.bank = (event.position, event.player_id)  # type: ignore[attr-defined]
        elif kind in ("wager_settled", "b21_wager_settled"):
            self._settled(event, round_key, trial)
        elif kind == "round_completed":
            self.rounds.pop(round_key, None)
        return []

    def _day(self, table: str) -> _Day | None:
        day = self.table_days.get(table)
        return None if day is None else self.days.get(day)

    def _settled(self, event: Event, round_key: tuple[str, str], trial: object) -> None:
        day = self._day(event.table_id)
        round_ = self.rounds.get(round_key) or _Round(self.table_dealers.get(event.table_id))
        bet = getattr(event, "bet", None) or getattr(event, "kind", None)
        bet_key = getattr(bet, "value", "pai_gow")
        position: int = event.position  # type: ignore[attr-defined]  # a settlement's
        player, stake = self.trials.staked(round_key, position, bet_key)
        dealer = round_.dealer
        if day is None or player is None or dealer is None:
            return
        table, round_id, event_id = event.table_id, event.round_id, str(event.event_id)
        hands = day.hands.setdefault(dealer, {})
        hands[player] = hands.get(player, 0) + 1
        day.tables.add(table)
        day.dealer_tables.setdefault(dealer, set()).add(table)
        day.player_tables.setdefault(player, set()).add(table)
        shared = day.shared.setdefault((dealer, player), Evidence())
        shared.note(table, round_id, event_id)
        shared.stake += stake
        if round_.bank is not None:
            self._bank_flow(day, event, round_.bank, player, stake)
        elif trial is not None and trial.stake > 0:  # type: ignore[attr-defined]
            pair = day.pairs.setdefault((dealer, player), Evidence())
            pair.note(table, round_id, event_id)
            pair.money(round_id, trial.stake, trial.won, trial.unit_mean, trial.unit_variance)  # type: ignore[attr-defined]

    def _bank_flow(
        self, day: _Day, event: Event, bank: tuple[int, str | None], player: str, stake: Cents
    ) -> None:
        banker = bank[1]
        if getattr(event, "kind", None) is not None and event.kind.value != "pai_gow":  # type: ignore[attr-defined]
            return  # Pair Fortunes is the house's
        if banker is None or banker == player or event.outcome not in ("win", "push", "lose"):  # type: ignore[attr-defined]
            return
        won = to_cents(event.paid) - to_cents(event.collected) - to_cents(event.vigorish)  # type: ignore[attr-defined]
        rule_set = self.trials.pai_gow_rules(event.table_id)
        mean, variance = pai_gow_moments(rule_set)
        a, b = sorted((banker, player))
        sign = 1 if b == player else -1  # money from a to b: b's winnings, or a's as -
        flow = day.flows.setdefault((a, b), Evidence())
        flow.note(event.table_id, event.round_id, str(event.event_id))
        flow.money(event.round_id, stake, sign * won, sign * mean, variance)

    def _error(self, finding: Finding) -> None:
        day = self.days.get(finding.gaming_day or "") or self._day(finding.table_id)
        if day is None or finding.dealer_id is None or finding.player_id is None:
            return
        errors = day.errors.setdefault((finding.dealer_id, finding.player_id), _Errors())
        errors.count += 1
        errors.at_stake += to_cents(finding.at_stake)
        errors.codes[finding.code] = errors.codes.get(finding.code, 0) + 1
        event_id = finding.event_ids[0] if finding.event_ids else ""
        errors.evidence.note(finding.table_id, finding.round_id, event_id)

    # --- windows -----------------------------------------------------------------------------

    def _opened(self, table: str, gaming_day: date) -> list[Finding]:
        day = gaming_day.isoformat()
        alarms: list[Finding] = []
        previous = self.table_days.get(table)
        if previous is not None and previous != day and previous in self.days:
            alarms += self._leave(table, previous, None)  # a close never recorded
        self.table_days[table] = day
        self.days.setdefault(day, _Day()).open_tables.add(table)
        for old in sorted(d for d in self.days if d < (gaming_day - timedelta(days=1)).isoformat()):
            alarms += self._close_day(old, None)  # retired: a table of it never closed
        return alarms

    def _closed(self, table: str, event: Event) -> list[Finding]:
        day = self.table_days.get(table)
        for key in [k for k in self.rounds if k[0] == table]:
            del self.rounds[key]  # a round left open at the close
        if day is None or day not in self.days:
            return []
        return self._leave(table, day, event.occurred_at.isoformat())

    def _leave(self, table: str, day: str, at: str | None) -> list[Finding]:
        open_tables = self.days[day].open_tables
        open_tables.discard(table)
        return [] if open_tables else self._close_day(day, at)

    def finish(self) -> list[Finding]:
        """Close every open day (a finite stream's end): their windows are judged now."""
        return [f for day in sorted(self.days) for f in self._close_day(day, None)]

    def _close_day(self, day: str, at: str | None) -> list[Finding]:
        window = self.days.pop(day)
        window.closed_at = at
        alarms = self._pair_results(day, window) + self._error_benefit(day, window)
        alarms += self._bank_walk(day, window)
        window.pairs, window.hands, window.errors, window.flows = {}, {}, {}, {}
        if day in self.recent:  # a table opened for the day after its others had closed
            window = _merged(self.recent[day], window)
        self.recent[day] = window
        oldest = (date.fromisoformat(day) - timedelta(days=self.recurrence_days - 1)).isoformat()
        for old in [d for d in self.recent if d < oldest]:
            del self.recent[old]
        alarms += self._recurrence(day, window)
        return alarms

    def _test(self, code: str, p: float) -> float:
        """Count one window tested (and keep its p-value when asked); return the p-value."""
        self.tested[code] += 1
        if self.p_values is not None:
            self.p_values.append((code, p))
        return p

    def _pair_results(self, day: str, window: _Day) -> list[Finding]:
        found = []
        for (dealer, player), ev in sorted(window.pairs.items()):
            if ev.effective_trials < MIN_TRIALS or ev.variance <= 0:
                continue
            p = self._test(PAIR_RESULTS, normal_upper(ev.z))
            if p < self.alpha:
                found.append(self._finding(
                    PAIR_RESULTS, day, window, ev, dealer, player,
                    f"{player} won {to_dollars(ev.won)} in {ev.trials} rounds "
                    f"({to_dollars(ev.stake)} staked) with {dealer}: z = {ev.z:.2f}, p = {p:.2g}",
                    _band(ev, self.alpha),
                    to_dollars(max(0, round(ev.won - ev.mean))),
                ))  # fmt: skip
        return found

    def _error_benefit(self, day: str, window: _Day) -> list[Finding]:
        found = []
        for (dealer, player), errors in sorted(window.errors.items()):
            hands = window.hands.get(dealer, {})
            total_errors = sum(e.count for (d, _), e in window.errors.items() if d == dealer)
            total_hands = sum(hands.values())
            if errors.count < MIN_ERRORS or not total_hands:
                continue
            share = hands.get(player, 0) / total_hands
            tail = binomial_upper(errors.count, total_errors, share) if share else 0.0
            p = self._test(ERROR_BENEFIT, tail)
            if p < self.alpha:
                codes = ", ".join(f"{c} x{n}" for c, n in sorted(errors.codes.items()))
                found.append(self._finding(
                    ERROR_BENEFIT, day, window, errors.evidence, dealer, player,
                    f"{errors.count} of {dealer}'s {total_errors} errors at {player}'s spot "
                    f"({codes}; {to_dollars(errors.at_stake)} at stake in them), p = {p:.2g}",
                    f"{share:.1%} of them, {player}'s share of {dealer}'s {total_hands} wagers "
                    f"settled; p of at least {self.alpha:.2g}",
                    to_dollars(errors.at_stake),
                ))  # fmt: skip
        return found

    def _bank_walk(self, day: str, window: _Day) -> list[Finding]:
        found = []
        for (a, b), ev in sorted(window.flows.items()):
            if ev.effective_trials < MIN_BANK_WAGERS or ev.variance <= 0:
                continue
            p = self._test(BANK_WALK, min(1.0, 2 * normal_upper(abs(ev.z))))
            if p < self.alpha:
                giver, taker = (a, b) if ev.won > 0 else (b, a)
                found.append(self._finding(
                    BANK_WALK, day, window, ev, None, taker,
                    f"{to_dollars(abs(ev.won))} moved from {giver} to {taker} through the bank in "
                    f"{ev.trials} rounds ({to_dollars(ev.stake)} staked): z = {ev.z:.2f}, "
                    f"p = {p:.2g}",
                    _band(ev, self.alpha),
                    to_dollars(abs(ev.won)), f"{giver} and {taker}",
                ))  # fmt: skip
        return found

    def _recurrence(self, day: str, window: _Day) -> list[Finding]:
        days = list(self.recent.values())
        all_contexts = sum(len(d.tables) for d in days)
        found = []
        for dealer, player in sorted(window.shared):
            shared = [d.shared[(dealer, player)] for d in days if (dealer, player) in d.shared]
            k = sum(len(ev.tables) for ev in shared)
            tables = set().union(*(ev.tables for ev in shared))
            if (
                k < MIN_CONTEXTS
                or len(tables) < MIN_CONTEXTS
                or k <= self.recurring.get((dealer, player), 0)
            ):
                continue
            n = sum(len(d.player_tables.get(player, ())) for d in days)
            dealt = sum(len(d.dealer_tables.get(dealer, ())) for d in days)
            share = dealt / all_contexts if all_contexts else 1.0
            p = self._test(PAIR_RECURS, binomial_upper(k, n, share))
            if p < self.alpha:
                self.recurring[(dealer, player)] = k
                ev = Evidence(tables=tables, last_table=min(tables))
                for part in shared:
                    ev.rounds += part.rounds[: EVIDENCE_ROUNDS - len(ev.rounds)]
                    ev.round_count += part.round_count
                    ev.stake += part.stake
                    ev.first_event = ev.first_event or part.first_event
                    ev.last_event = part.last_event
                found.append(self._finding(
                    PAIR_RECURS, day, window, ev, dealer, player,
                    f"{player} played with {dealer} at {k} of their {n} table-days "
                    f"({', '.join(sorted(tables))}) in {len(days)} gaming days, p = {p:.2g}",
                    f"{share:.1%} of them, {dealer}'s share of the floor's {all_contexts} "
                    f"table-days; p of at least {self.alpha:.2g}",
                    to_dollars(ev.stake),
                ))  # fmt: skip
        for pair in [p for p in self.recurring if not any(p in d.shared for d in days)]:
            del self.recurring[pair]  # retired with the window
        return found

    def _finding(
        self,
        code: str,
        day: str,
        window: _Day,
        ev: Evidence,
        dealer: str | None,
        player: str,
        recorded: str,
        expected: str,
        exposure: Decimal,
        subject: str | None = None,
    ) -> Finding:
        kind = COLLUSION_KINDS[code]
        who = subject or (f"{dealer} with {player}" if dealer else player)
        table = min(ev.tables) if ev.tables else ev.last_table
        return Finding(
            code=code,
            severity=kind.severity,
            rule=f"{RATIONALE[code]} (statistical screen)",
            title=f"{kind.title} ({who}, gaming day {day})",
            table_id=table,
            round_id=None,
            position=None,
            dealer_id=dealer,
            recorded=f"{recorded}; rounds {ev.round_list()}",
            expected=expected,
            event_ids=(ev.first_event, ev.last_event),
            occurred_at=window.closed_at,
            exposure=exposure,
            gaming_day=day,
            player_id=player,
        )


def _band(ev: Evidence, alpha: float) -> str:
    """Return the money the odds expect and its standard deviation, and the p asked for."""
    sd = to_dollars(round(math.sqrt(ev.variance)))
    return (
        f"about {to_dollars(round(ev.mean))} +/- {sd} from the engine's odds; "
        f"p of at least {alpha:.2g}"
    )


def _merged(earlier: _Day, later: _Day) -> _Day:
    """Return one day's table-days from two windows of it (the recurrence screen's part)."""
    earlier.tables |= later.tables
    for mine, theirs in ((earlier.dealer_tables, later.dealer_tables),
                         (earlier.player_tables, later.player_tables)):  # fmt: skip
        for who, tables in theirs.items():
            mine.setdefault(who, set()).update(tables)
    for pair, ev in later.shared.items():
        kept = earlier.shared.setdefault(pair, Evidence())
        kept.tables |= ev.tables
        kept.rounds += ev.rounds[: EVIDENCE_ROUNDS - len(kept.rounds)]
        kept.round_count += ev.round_count
        kept.stake += ev.stake
        kept.first_event = kept.first_event or ev.first_event
        kept.last_event = ev.last_event or kept.last_event
    earlier.closed_at = later.closed_at
    return earlier
