"""Collusion injected at chosen tables, with labels: what the collusion screens must find.

Four patterns (audit/verification/collusion/screens.py judges them), each asked for as
``PATTERN=N`` (N instances):

- ``pair_results``: the table's opening dealer stacks the deal for one player: in the
  rounds the house banks, the round is dealt again (up to :data:`TRIES` times, the same
  rules, a different shuffle) until that player wins. Every fact stays rule-correct, so only
  the pair's money against the odds shows it.
- ``error_benefit``: the opening dealer "forgets" the vigorish on half of one player's winning
  wagers (``PG-SETTLE-VIG-UNCOLLECTED``, labelled round by round as the careless dealer's are).
- ``bank_walk``: two players walk chips through the player bank: when one banks and the
  other wagers, the deal is stacked (as above) so the money goes from the first to the second.
- ``pair_recurs``: a roaming dealer opens :data:`FOLLOW_TABLES` tables and one player
  follows to each (the simulator's tables play at once, so the pair is at them at the same
  time: the screen reads table-days, not hours).

Each instance's associates are the first players seated when the colluding dealer first
deals (the first two for ``bank_walk``), kept seated and in chips for the day; a colluding
dealer relieved by the floor takes the table back before the next round (a recorded
``dealer_changed``), as a dealer who wants that player's game would. Its label names
the table (``round_id`` None, kind the pattern) and the screen's code; ``pair_recurs`` names
the first of its tables in id order, as the screen's finding does.

The tables are chosen without a draw (the highest-numbered Pai Gow tables that fit each
pattern, so the lowest stay the loaded dice's), and the colluding dealer plays from its own
generator: every other table's stream is exactly the clean floor's for the same seed.

>>> Collusion.parse(["pair_results=2", "bank_walk=1"]).counts
(('pair_results', 2), ('bank_walk', 1))
>>> Collusion.parse(["card_counting=1"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
audit.simulation.collusion.InvalidCollusionError: unknown collusion pattern: 'card_counting' ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from audit.events.envelope import Event
from audit.events.table import DealerChanged
from audit.games.paigow.settlement import BankingMode
from audit.games.wagering import Outcome
from audit.simulation.irregularities import CarelessDealer
from audit.simulation.labels import Label
from audit.simulation.paigow.careless.payouts import VigorishUncollected
from audit.simulation.paigow.careless.plan import Plan, fork_table
from audit.simulation.paigow.players import Player
from audit.simulation.paigow.round import play_round
from audit.simulation.paigow.state import RoundState
from audit.simulation.paigow.table import SimTable
from audit.verification.collusion.kinds import BANK_WALK, ERROR_BENEFIT, PAIR_RECURS, PAIR_RESULTS

PATTERNS: dict[str, str] = {
    "pair_results": PAIR_RESULTS,
    "error_benefit": ERROR_BENEFIT,
    "bank_walk": BANK_WALK,
    "pair_recurs": PAIR_RECURS,
}
"""Pattern name (``--collusion NAME=N``) -> the screen's code that must find it."""
TRIES = 4
"""Deals tried for a stacked round: a player who wins 3 in 10 fair rounds wins about 3 in 4."""
ERROR_SHARE = 0.5
"""The share of the favoured player's wins on which the dealer leaves the vigorish."""
FOLLOW_TABLES = 6
"""Tables a roaming dealer opens, the follower at each."""
_BANKS = (BankingMode.PLAYER_BANK, BankingMode.CO_BANK, BankingMode.CALIFORNIA)


class InvalidCollusionError(ValueError):
    """Raised for a collusion request that is not ``PATTERN=N``, or that the floor cannot hold."""


@dataclass(frozen=True)
class Collusion:
    """How many instances of each pattern to inject."""

    counts: tuple[tuple[str, int], ...] = ()

    @classmethod
    def parse(cls, requests: Iterable[str]) -> Collusion:
        """Read ``PATTERN=N`` requests (``pair_results=2``)."""
        counts: dict[str, int] = {}
        for request in requests:
            name, equals, number = request.partition("=")
            if name not in PATTERNS:
                known = ", ".join(sorted(PATTERNS))
                raise InvalidCollusionError(f"unknown collusion pattern: {name!r} (one of {known})")
            if not equals or not number.isdigit() or int(number) < 1:
                raise InvalidCollusionError(f"a pattern takes a count of 1 or more: {request!r}")
            counts[name] = counts.get(name, 0) + int(number)
        return cls(tuple(counts.items()))

    def __bool__(self) -> bool:
        return bool(self.counts)


@dataclass
class Scheme:
    """One table's part in one instance: the pattern, its dealer, and its associates."""

    pattern: str
    dealer: str | None
    """The colluding dealer (None for a bank walk: the players need no dealer)."""
    follower: str | None = None
    """The player id the follower takes (``pair_recurs``)."""
    associates: list[Player] = field(default_factory=list)


def _fits(pattern: str, table: SimTable) -> bool:
    rules = table.rule_set
    if pattern == "bank_walk":
        return rules.collection_schedule is not None or rules.player_banking
    if pattern == "error_benefit":
        return rules.vig_rounding is not None
    return rules.collection_schedule is None


def plan_collusion(
    tables: Sequence[SimTable], collusion: Collusion, labels: list[Label]
) -> dict[str, Scheme]:
    """Choose the tables of each instance (no draw), set them up, and label each instance."""
    free = sorted(
        (t for t in tables if t.game == "paigow" and t.loaded_dice is None),
        key=lambda t: -t.number,
    )
    schemes: dict[str, Scheme] = {}
    for pattern, count in collusion.counts:
        for instance in range(1, count + 1):
            size = FOLLOW_TABLES if pattern == "pair_recurs" else 1
            chosen = [t for t in free if t.table_id not in schemes and _fits(pattern, t)][:size]
            if len(chosen) < size:
                raise InvalidCollusionError(
                    f"the floor has too few Pai Gow tables for {pattern}={count}"
                )
            roamer = f"dealer-roam-{instance:02d}" if pattern == "pair_recurs" else None
            for table in chosen:
                if roamer is not None:
                    table.dealers = (roamer, *table.dealers[1:])  # opens the table
                dealer = None if pattern == "bank_walk" else table.dealers[0]
                follower = f"player-follow-{instance:02d}" if roamer else None
                schemes[table.table_id] = Scheme(pattern, dealer, follower)
            first = min(t.table_id for t in chosen)
            labels.append(Label(first, None, pattern, (PATTERNS[pattern],), None))
    return schemes


@dataclass
class ColludingDealer(CarelessDealer):
    """Deals a table where a collusion scheme plays, carelessly besides at the floor's rate."""

    scheme: Scheme | None = None

    def round(self) -> list[Event]:
        """Play the next round: the scheme's where it applies, else the careless dealer's."""
        scheme, table = self.scheme, self.table
        if scheme is None:
            return super().round()
        if not scheme.associates:
            if scheme.dealer is not None and table.dealer_id != scheme.dealer:
                return super().round()
            wanted = 2 if scheme.pattern == "bank_walk" else 1
            if len(table.seating.players) < wanted:
                return super().round()
            scheme.associates = list(table.seating.players[:wanted])
            for player in scheme.associates:
                player.banks = scheme.pattern == "bank_walk"  # the others stay off the bank
            if scheme.follower is not None:
                scheme.associates[0].player_id = scheme.follower
        if not self._keep_seated(scheme.associates, moves=scheme.pattern != "bank_walk"):
            return super().round()  # an associate's seat is taken: the scheme waits
        if scheme.dealer is not None and table.dealer_id != scheme.dealer:
            _take_back(table, scheme.dealer)
        if scheme.pattern == "error_benefit":
            return self._error() or super().round()
        if scheme.pattern == "pair_results":
            return self._stacked(lambda r: _house_banked_win(r, scheme.associates[0]))
        if scheme.pattern == "bank_walk":
            return self._stacked(lambda r: _walks(r, *scheme.associates))
        return super().round()

    def _keep_seated(self, associates: list[Player], *, moves: bool) -> bool:
        """Seat the associates again if they left: at their own spots, or (``moves``) at a free
        one; return whether all of them are seated. A banker never moves: a bank is offered
        by the seat's last wager (PA 621a.9(d)), which a new seat does not have."""
        seating, limits = self.table.seating, self.table.limits
        seated = 0
        for player in associates:
            player.chips = max(player.chips, 40 * limits.minimum * len(player.spots))
            if any(p is player for p in seating.players):
                seated += 1
                continue
            free = seating.free(self.table.layout.betting)
            if free and (
                moves or all(s in free for s in player.spots)
            ):  # back from a break, at their own spot if it is free: the scheme needs them
                if not all(s in free for s in player.spots):
                    player.spots = (free[0],)
                seating.players.append(player)
                seated += 1
        return seated == len(associates)

    def _stacked(self, wants: Callable[[RoundState], bool]) -> list[Event]:
        table = self.table
        for _ in range(TRIES):
            if wants(play_round(fork_table(table))):
                break
            table.rng.random()  # another shuffle: the next deal tried draws differently
        played = play_round(table)  # replays the last deal tried, draw for draw
        self._remember(played, completed=True)
        return table.recorder.drain()

    def _error(self) -> list[Event] | None:
        if self.rng.random() >= ERROR_SHARE:
            return None
        spots = tuple(s for p in self.scheme.associates for s in p.spots)  # type: ignore[union-attr]
        kinds, self.kinds = self.kinds, (_favour(spots),)
        try:
            return self._inject()
        finally:
            self.kinds = kinds


def _take_back(table: SimTable, dealer: str) -> None:
    """Bring the colluding dealer back to the table at once, as the floor records a relief.

    Within a second: the equipment's 12-hour checks were made between the rounds, just
    before, and a longer wait could carry the next round past a tile set's limit."""
    outgoing, table.dealer_id = table.dealer_id, dealer
    table.emit(DealerChanged, (0.5, 1), table.floorperson, outgoing_dealer_id=outgoing,
               incoming_dealer_id=dealer)  # fmt: skip


def _favour(spots: tuple[int, ...]) -> type[Plan]:
    """Return the vigorish left uncollected, at the favoured player's spots only."""

    class Favour(VigorishUncollected):
        name = "error_benefit"

        @classmethod
        def options(cls, round_: RoundState) -> list[int]:
            return [p for p in super().options(round_) if p in spots]

    return Favour


def _outcomes(round_: RoundState, player: Player) -> list[Outcome]:
    if round_.voided or round_.settlement is None:
        return []
    return [round_.outcome(s) for s in player.spots if s in round_.wagers]


def _house_banked_win(round_: RoundState, player: Player) -> bool:
    """Return whether the deal suits a dealer favouring ``player``: a win where the house banks."""
    if round_.mode is not BankingMode.DEALER:
        return True  # nothing to stack: the house does not bank
    outcomes = _outcomes(round_, player)
    return not outcomes or all(o is Outcome.WIN for o in outcomes)


def _walks(round_: RoundState, giver: Player, taker: Player) -> bool:
    """Return whether the deal walks money from ``giver`` to ``taker`` through the bank."""
    if round_.mode not in _BANKS or round_.bank is None:
        return True
    if round_.bank.player_id == giver.player_id:  # the round is a copy's: its own players
        return all(o is Outcome.WIN for o in _outcomes(round_, taker))
    if round_.bank.player_id == taker.player_id:
        return all(o is Outcome.LOSE for o in _outcomes(round_, giver))
    return True
