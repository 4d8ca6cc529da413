"""What each step of a Pai Gow replay reads, as data: the events it shows and verification's
readings of them (who banks, the count, the stacks, the settings, the settlement).

``audit/verification/paigow/replay.py`` fills one of these per step;
``consumers/replay_text/paigow.py`` draws them as text. Positions are the layout's
numbers (the replay's ``position_names`` name them); money is as the events carry it
(dollars) or in cents where the engine computed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from audit.events.envelope import Event
from audit.events.paigow import play, settlement
from audit.games.money import Cents
from audit.games.paigow.dealing import Cut
from audit.games.paigow.layout import NumberSource
from audit.games.paigow.settlement import BankingMode


@dataclass(frozen=True)
class Bank:
    """Who banks (verification's reading) and what the round step says of it.

    ``player_id`` and ``chips`` are the bank's as taken (California: the player-dealer's
    wager's player); ``position`` where it was taken; ``covers`` the California
    player-dealer's wager; ``stake_recorded`` whether that wager was recorded.
    """

    mode: BankingMode
    player_id: str | None = None
    position: int | None = None
    chips: Decimal | None = None
    stake_recorded: bool = False
    covers: Decimal = Decimal(0)
    dealer_wager: Decimal | None = None
    """The dealer's wager against a player bank, if one above nothing was recorded."""


@dataclass(frozen=True)
class Heading:
    """The round step: the table, its rules, the round's start, who banks and the offers."""

    table_id: str
    round_id: str
    gaming_day: date | None
    rule_set: str
    rule_title: str
    round_number: int | None
    dealer_id: str | None
    started_at: datetime
    house_way: str
    vig_rounding: str | None
    """How vigorish rounds; ``None``: collection fees instead."""
    options: tuple[tuple[str, object], ...]
    bank: Bank
    offers: tuple[tuple[int, str], ...]
    """Each position offered the bank, with its answer (``accepted``, ``declined``...)."""
    tile_set_id: str | None
    voided: play.RoundVoided | None
    completed: bool


@dataclass(frozen=True)
class Wagers:
    """The wagering events in order, each with whether it came after "no more bets" (for a
    "no more bets", whether it repeats the first)."""

    events: tuple[tuple[Event, bool], ...]
    called: bool
    placed: bool
    pai_gow: Decimal
    """The Pai Gow action live at the end, over ``positions`` positions."""
    positions: int
    pair_fortunes: Decimal | None
    """The Pair Fortunes action live at the end (``None``: none)."""


@dataclass(frozen=True)
class Throw:
    """One event of the dice step: a shake, the dice, a no-roll or the RNG number.

    ``after`` when it came after the deal; ``said`` is the dice as their fact reads.
    """

    event: play.ShakerShaken | play.DiceRevealed | play.NoRollCalled | play.RngNumberShown
    after: bool
    said: str = ""


@dataclass(frozen=True)
class Count:
    """The count from the dice or the RNG number to the starting position (PA 621a.6)."""

    total: int
    source: NumberSource
    first: int
    """The position counted as 1."""
    clockwise: bool
    lap: tuple[int, ...] = ()
    """The positions counted 1 to 8."""
    lands: int | None = None
    error: str | None = None
    """Why the rules cannot count ``total``, if they cannot."""
    last_throw: bool = False
    first_stack: int | None = None
    """Where the first stack (order 0) went, if one was delivered."""
    button: int | None = None
    """The action button the dice put, where the layout has one."""


@dataclass(frozen=True)
class Dice:
    """The dice step: its throws in order and the count, if a number was recorded."""

    throws: tuple[Throw, ...]
    count: Count | None


@dataclass(frozen=True)
class Delivery:
    """One stack delivered beside where and which tiles the stacks, cut and style give."""

    event: play.StackDelivered
    expected_at: int | None = None
    expected: tuple[str, ...] = ()
    same: bool = False


@dataclass(frozen=True)
class Deal:
    """The stacks, the cut, the delivery style, the deliveries and what followed them."""

    incidents: tuple[play.StackingTileExposed | play.TilesRemixed, ...]
    stacks: tuple[tuple[str, ...], ...] | None
    times_formed: int
    cut: play.TilesCut | None
    parsed_cut: Cut | None
    """The recorded cut as the rules read it, if it is one."""
    cut_error: str | None
    """Why the recorded cut is not a cut, if it is not."""
    bank_taken: bool
    style: play.DeliveryStyleChosen | None
    default_style: str
    """The standard style's name, used when none was recorded."""
    deliveries: tuple[Delivery, ...]
    why_not: str
    """Why the expected deliveries cannot be said (empty when they can)."""
    unwagered: tuple[int, ...]
    collected: play.UnwageredStacksCollected | None
    exposed: tuple[play.TileExposed, ...]
    player_voids: tuple[play.HandVoided, ...]


@dataclass(frozen=True)
class HouseWay:
    """A hand the house sets beside the house way, and the dealer rule where it binds."""

    way: str
    expected: str | None
    """The house way's setting; ``None``: it cannot say (``why``)."""
    why: str = ""
    same: bool = False
    cited: str | None = None
    """The dealer rule's citation, where it binds the dealer's hand."""
    permitted: bool = False
    allowed: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetHand:
    """One hand as set: its tiles' names and what the replay notes beside it."""

    hand: play.HandSet
    high_name: str
    low_name: str
    below: bool
    """The high hand ranks below the low."""
    delivered: tuple[str, ...] | None
    """The tiles delivered, when the hand does not hold them."""
    undelivered: bool
    """No stack was delivered to the position (while others were)."""
    resets: tuple[play.HandSet, ...]
    house_way: HouseWay | None = None
    free: HouseWay | None = None
    """A California player-dealer's hand, set freely: the house way's, for reference."""


@dataclass(frozen=True)
class Hands:
    """Every hand as set, and each surrender with whether it came after the reveal."""

    hands: tuple[SetHand, ...]
    surrenders: tuple[tuple[int, bool], ...]


Money = tuple[str, Cents, Cents, Cents, Cents]
"""A settlement as (outcome, paid, collected, vigorish, returned), in cents."""
Pair = tuple[Cents | None, Cents | None]
"""One bank flow's sum: (recorded, expected), in cents; ``None`` where there is none."""


@dataclass(frozen=True)
class Settled:
    """One wager settled, beside the engine's settlement.

    ``stake`` is ``None`` for a settlement with no wager left to settle (``stray``);
    ``expected`` ``None`` where the record cannot give it; ``known`` ``False`` when the
    hands could not decide it and its recorded outcome was assumed.
    """

    position: int
    side: bool
    recorded: Money
    stake: Cents | None
    expected: Money | None
    known: bool = True
    stray: bool = False


@dataclass(frozen=True)
class Order:
    """The order the wagers were settled in, beside the rules' (or why none can be said)."""

    played: tuple[int, ...]
    rule: tuple[int, ...]
    how: str
    button: int | None
    """The action button the order starts from, where the layout has one."""
    surrendered: bool
    no_button: bool = False


@dataclass(frozen=True)
class Flow:
    """One bank flow (PA 621a.9(o), (r)): each sum recorded beside the engine's."""

    what: str
    pairs: tuple[tuple[str, Pair], ...]


@dataclass(frozen=True)
class Fee:
    """One position's California collection fee, recorded beside the schedule's."""

    position: int
    taken: Cents
    owed: Cents


@dataclass(frozen=True)
class Settlement:
    """The settlement step: each wager, the order, and the bank's flows or California's fees."""

    rows: tuple[Settled, ...]
    unsettled: tuple[tuple[int, bool, Cents], ...]
    """Wagers never settled: (position, Pair Fortunes, stake)."""
    pair_fortunes: bool
    order: Order | None
    mode: BankingMode
    dealer_wager: tuple[settlement.DealerWagerSettled | None, str | None] | None = None
    """The dealer's wager against the bank: as settled, and the engine's (outcome amount)."""
    flows: tuple[Flow, ...] = ()
    nets: tuple[tuple[int | str, Cents], ...] | None = None
    """Each party's net as the engine settles the round; ``None`` when it cannot."""
    player_dealer: tuple[Cents, Cents] | None = None
    """California: the player-dealer's wager and its expected result."""
    schedule: int | None = None
    """California: the collection schedule's option, if fees are taken."""
    fees: tuple[Fee, ...] = ()
    stray_options: tuple[int, ...] = ()


@dataclass(frozen=True)
class Summary:
    """The last step: how many findings the round has, and whether any is filed here."""

    counts: tuple[tuple[str, int], ...]
    others: bool
