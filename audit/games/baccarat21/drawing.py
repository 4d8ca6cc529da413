"""Dealing a round: which hand each card goes to, and which cards count (PA 681a.7(e)-(g)).

PA 681a.7(e) deals Player, Banker, Player, Banker. Then:

- a natural in either hand (681a.1) stops both hands. With no Bonus Wager on
  the table nothing more is dealt (681a.7(f)(1)); with one, each hand under 17
  gets exactly one more card that "shall count only for purposes of the Bonus
  Wager" (681a.7(f)(2)), not for the Player, Banker or Tie Wagers;
- otherwise "the dealer shall draw one additional card face up to the Player or
  Banker Hand if either ... has a total value of less than a soft or hard 17"
  (681a.7(g)); the layout reads "Hands shall draw to 16 and stand on all 17s"
  (681a.2(b)(7)(i)).

Whether 681a.7(g) means one card, or cards until 17, is the one real question
of reading here, and :class:`DrawRule` names the readings. The default,
:attr:`DrawRule.ONE_CARD`, takes the text as written: one additional card, as in
681a.7(f)(2) whose words it repeats. It is also the only reading under which
every hand is the three-card hand the Bonus of 681a.3(e) describes, and under
which the Tie Wager at 10 to 1 keeps a house edge (about 3%; drawing to 17 makes
ties so common that 10 to 1 gives players an edge near 25%; see
``bench/baccarat21.py --hold``). Drawing to 17 is kept as an option, with the
order the hands draw in, which the text would then leave open.

:func:`next_card` judges a recorded round card by card; :func:`deal_round` deals a
whole round from the cards coming out of the shoe, and :func:`play_round` is the
same procedure on plain ints for simulation.

>>> from audit.games.cards.deck import parse_cards
>>> deal = deal_round(parse_cards("AS 9H KD 5C 4S"), bonus_on_table=True)
>>> str(deal)
'P: AS KD | B: 9H 5C +4S'
>>> deal.player_total, deal.banker_total, deal.used
(21, 14, 5)
>>> str(deal_round(parse_cards("TS 2H 3D 2C 2S 3H 9C"), bonus_on_table=False))
'P: TS 3D 2S | B: 2H 2C 3H'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from audit.games.baccarat21.bonus import PAIR_CODES, THREE_CARD_CODES, BonusHand, classify_bonus
from audit.games.baccarat21.cards import CARD_VALUES
from audit.games.baccarat21.hands import STATE_TOTALS, STEPS, hand_total, is_natural
from audit.games.cards.deck import ACE, CARD_NAMES, CARD_RANKS, Card, check_cards
from audit.games.errors import InvalidDealError

STAND_ON = 17
"""PA 681a.2(b)(7)(i), 681a.7(g): a hand under 17 draws; "all 17s", soft or hard, stand."""


class Hand(Enum):
    """The two hands dealt each round."""

    PLAYER = "player"
    BANKER = "banker"


class Action(Enum):
    """What the drawing rules require of a hand next."""

    DRAW = "draw"
    STAND = "stand"


class DrawRule(Enum):
    """How PA 681a.7(g) is read when neither hand is a natural."""

    ONE_CARD = "one_card"
    """As written: each hand under 17 draws one card. 681a.7(g) gives no order (only the
    first four cards have one, 681a.7(e)); :func:`next_card` deals the Player's first, one
    order of two the text allows, and :class:`DrawOrder` says whether a table requires it."""
    TO_17_PLAYER_FIRST = "to_17_player_first"
    """Each hand draws until 17 or more, the Player's Hand finishing first."""
    TO_17_ALTERNATE = "to_17_alternate"
    """Each hand draws until 17 or more, one card at a time, Player then Banker."""


class DrawOrder(Enum):
    """In what order the hands take the cards after the first four, under
    :attr:`DrawRule.ONE_CARD` and after a natural (681a.7(f)(2)).

    Neither 681a.7(f)(2) nor 681a.7(g) gives one, so by default either hand may take its
    card first; a house procedure that deals the Player's first is an option.
    """

    ANY = "any"
    """As written: no order."""
    PLAYER_FIRST = "player_first"
    """House procedure: the Player's Hand takes its card before the Banker's."""


INITIAL_ORDER: tuple[Hand, ...] = (Hand.PLAYER, Hand.BANKER, Hand.PLAYER, Hand.BANKER)
"""PA 681a.7(e)(1)-(4)."""


@dataclass(frozen=True, slots=True)
class DealtCard:
    """One card out of the shoe: the hand it went to, and whether it counts only for the Bonus."""

    card: Card
    hand: Hand
    bonus_only: bool = False

    def __str__(self) -> str:
        return ("+" if self.bonus_only else "") + CARD_NAMES[self.card]


@dataclass(frozen=True, slots=True)
class NextCard:
    """Where the next card out of the shoe must go."""

    hand: Hand
    bonus_only: bool = False


def hand_action(cards: Iterable[Card], rule: DrawRule = DrawRule.ONE_CARD) -> Action:
    """Return whether a hand with these counting cards draws or stands, absent any natural.

    PA 681a.7(g): under a soft or hard 17 the hand draws; at 17 or more it stands.
    Read as one card, a hand that has drawn stands whatever its total.

    >>> from audit.games.cards.deck import parse_cards
    >>> [hand_action(parse_cards(h)).name for h in ("TS 6H", "AS 6H", "AS 5H", "9S 8H")]
    ['DRAW', 'STAND', 'DRAW', 'STAND']
    >>> hand_action(parse_cards("2S 3H 4D")).name
    'STAND'
    >>> hand_action(parse_cards("2S 3H 4D"), DrawRule.TO_17_PLAYER_FIRST).name
    'DRAW'
    """
    hand = tuple(cards)
    if rule is DrawRule.ONE_CARD and len(hand) > 2:
        return Action.STAND
    return Action.DRAW if hand_total(hand) < STAND_ON else Action.STAND


def next_card(
    dealt: Sequence[DealtCard], bonus_on_table: bool, rule: DrawRule = DrawRule.ONE_CARD
) -> NextCard | None:
    """Return where the next card must go after the cards ``dealt`` so far, or ``None``
    when the round needs no more cards.

    A verifier calls this before each recorded card and compares. The cards so far
    are taken as dealt, right or wrong, so one misdealt card is one finding.

    >>> from audit.games.cards.deck import parse_card
    >>> P, B = Hand.PLAYER, Hand.BANKER
    >>> so_far = [DealtCard(parse_card(c), h) for c, h in zip("AS 9H KD 5C".split(), [P, B, P, B])]
    >>> next_card(so_far, bonus_on_table=True)
    NextCard(hand=<Hand.BANKER: 'banker'>, bonus_only=True)
    >>> next_card(so_far, bonus_on_table=False) is None
    True
    """
    if len(dealt) < 4:
        return NextCard(INITIAL_ORDER[len(dealt)])  # PA 681a.7(e)
    first_two = {hand: [d.card for d in dealt[:4] if d.hand is hand] for hand in Hand}
    if any(is_natural(cards) for cards in first_two.values()):
        if not bonus_on_table:
            return None  # PA 681a.7(f)(1)
        # PA 681a.7(f)(2): one card, for the Bonus only, to each hand under 17.
        has_bonus_card = {d.hand for d in dealt[4:] if d.bonus_only}
        for hand in Hand:
            if hand not in has_bonus_card and hand_total(first_two[hand]) < STAND_ON:
                return NextCard(hand, bonus_only=True)
        return None
    # PA 681a.7(g): a hand under 17 draws; 17 or more stands.
    drawing = [
        hand
        for hand in Hand
        if hand_action((d.card for d in dealt if d.hand is hand and not d.bonus_only), rule)
        is Action.DRAW
    ]
    if not drawing:
        return None
    if rule is DrawRule.TO_17_ALTERNATE and len(dealt) > 4 and dealt[-1].hand is Hand.PLAYER:
        return NextCard(drawing[-1])  # the Banker's turn, unless only the Player draws
    return NextCard(drawing[0])


@dataclass(frozen=True)
class Deal:
    """A round's cards in the order they left the shoe, each with its hand."""

    cards: tuple[DealtCard, ...]
    bonus_on_table: bool

    def __str__(self) -> str:
        return " | ".join(
            f"{hand.name[0]}: " + " ".join(str(d) for d in self.cards if d.hand is hand)
            for hand in Hand
        )

    @property
    def used(self) -> int:
        """Return how many cards the round took from the shoe."""
        return len(self.cards)

    def hand_cards(self, hand: Hand) -> tuple[Card, ...]:
        """Return the cards that count for the Player, Banker and Tie Wagers."""
        return tuple(d.card for d in self.cards if d.hand is hand and not d.bonus_only)

    def bonus_cards(self, hand: Hand) -> tuple[Card, ...]:
        """Return every card dealt to the hand, Bonus-only cards included (681a.7(f)(2))."""
        return tuple(d.card for d in self.cards if d.hand is hand)

    @property
    def player_total(self) -> int:
        """Return the Player's Hand total (PA 681a.3(d))."""
        return hand_total(self.hand_cards(Hand.PLAYER))

    @property
    def banker_total(self) -> int:
        """Return the Banker's Hand total (PA 681a.3(d))."""
        return hand_total(self.hand_cards(Hand.BANKER))

    def bonus_hand(self, hand: Hand) -> BonusHand:
        """Return the Bonus hand (PA 681a.3(e)) of the Player's or Banker's Hand."""
        return classify_bonus(self.bonus_cards(hand))


def deal_round(
    shoe: Iterable[Card], bonus_on_table: bool, rule: DrawRule = DrawRule.ONE_CARD
) -> Deal:
    """Deal one round from the cards coming out of the shoe, taking only the cards it needs.

    Raise :class:`~audit.games.errors.InvalidDealError` if the cards run out first.

    >>> from audit.games.cards.deck import parse_cards
    >>> str(deal_round(parse_cards("TS 5H 6D 9C AS 4D 8H"), bonus_on_table=False))
    'P: TS 6D AS | B: 5H 9C 4D'
    >>> str(deal_round(parse_cards("TS 5H 2D 9C 3S 2D 8H"), False, DrawRule.TO_17_PLAYER_FIRST))
    'P: TS 2D 3S 2D | B: 5H 9C 8H'
    """
    cards = iter(shoe)
    dealt: list[DealtCard] = []
    while (step := next_card(dealt, bonus_on_table, rule)) is not None:
        card = next(cards, None)
        if card is None:
            raise InvalidDealError(f"the shoe ran out mid-round after {len(dealt)} cards")
        dealt.append(DealtCard(check_cards((card,), "shoe")[0], step.hand, step.bonus_only))
    return Deal(tuple(dealt), bonus_on_table)


RoundTally = tuple[int, int, int, int, int]
"""What :func:`play_round` returns: the next shoe index, the Player's and Banker's totals,
and their Bonus hand codes (indexes into :data:`~audit.games.baccarat21.bonus.BONUS_HANDS`)."""

_NATURAL_PAIRS: tuple[bool, ...] = tuple(
    (CARD_RANKS[a] == ACE and (CARD_RANKS[b] == ACE or CARD_VALUES[b] == 10))
    or (CARD_RANKS[b] == ACE and CARD_VALUES[a] == 10)
    for a in range(52)
    for b in range(52)
)
"""``_NATURAL_PAIRS[card1 * 52 + card2]``: PA 681a.1 "natural"."""


def play_round(
    shoe: Sequence[Card], start: int, bonus_on_table: bool, rule: DrawRule = DrawRule.ONE_CARD
) -> RoundTally:
    """Deal a round from ``shoe[start:]`` on precomputed tables and tally it (no validation).

    Does what :func:`deal_round` does, without building objects: the simulator's hot path.

    >>> from audit.games.cards.deck import parse_cards
    >>> play_round(parse_cards("7S 7H 7C 7D 7H 7S 9S"), 0, bonus_on_table=True)
    (6, 21, 21, 0, 0)
    """
    steps, totals, ranks = STEPS, STATE_TOTALS, CARD_RANKS
    try:
        p1, b1, p2, b2 = shoe[start], shoe[start + 1], shoe[start + 2], shoe[start + 3]
        at = start + 4
        player = steps[steps[p1] * 52 + p2]  # steps[card] is an empty hand plus the card
        banker = steps[steps[b1] * 52 + b2]
        p_total, b_total = totals[player], totals[banker]
        p3 = b3 = -1
        if _NATURAL_PAIRS[p1 * 52 + p2] or _NATURAL_PAIRS[b1 * 52 + b2]:
            if bonus_on_table:  # PA 681a.7(f)(2): one card each under 17, for the Bonus only
                if p_total < STAND_ON:
                    p3 = shoe[at]
                    at += 1
                if b_total < STAND_ON:
                    b3 = shoe[at]
                    at += 1
        elif rule is DrawRule.ONE_CARD:  # PA 681a.7(g): one card to each hand under 17
            if p_total < STAND_ON:
                p3 = shoe[at]
                at += 1
                p_total = totals[steps[player * 52 + p3]]
            if b_total < STAND_ON:
                b3 = shoe[at]
                at += 1
                b_total = totals[steps[banker * 52 + b3]]
        elif rule is DrawRule.TO_17_PLAYER_FIRST:
            while p_total < STAND_ON:
                card = shoe[at]
                at += 1
                if p3 < 0:
                    p3 = card
                player = steps[player * 52 + card]
                p_total = totals[player]
            while b_total < STAND_ON:
                card = shoe[at]
                at += 1
                if b3 < 0:
                    b3 = card
                banker = steps[banker * 52 + card]
                b_total = totals[banker]
        else:
            while p_total < STAND_ON or b_total < STAND_ON:
                if p_total < STAND_ON:
                    card = shoe[at]
                    at += 1
                    if p3 < 0:
                        p3 = card
                    player = steps[player * 52 + card]
                    p_total = totals[player]
                if b_total < STAND_ON:
                    card = shoe[at]
                    at += 1
                    if b3 < 0:
                        b3 = card
                    banker = steps[banker * 52 + card]
                    b_total = totals[banker]
    except IndexError:
        raise InvalidDealError(f"the shoe ran out mid-round (round began at {start!r})") from None
    p_pair = ranks[p1] * 13 + ranks[p2]
    b_pair = ranks[b1] * 13 + ranks[b2]
    return (
        at,
        p_total,
        b_total,
        PAIR_CODES[p_pair] if p3 < 0 else THREE_CARD_CODES[p_pair * 13 + ranks[p3]],
        PAIR_CODES[b_pair] if b3 < 0 else THREE_CARD_CODES[b_pair * 13 + ranks[b3]],
    )
