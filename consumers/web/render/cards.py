"""Playing cards as SVG pictures for the 21 Baccarat replay, named as events carry them.

A card shows its rank in the corners and its suit in the middle, hearts and diamonds in
red. A name that is no card (a record gone wrong) is drawn as a blank card showing the
name, never an error: the replay must show what was recorded.

>>> 'data-card="TH"' in card_svg("TH") and "#c8102e" in card_svg("TH")
True
>>> card_face("AS"), card_face("TD"), card_face("ZZ")
(('A', '♠', False), ('10', '♦', True), None)
"""

from __future__ import annotations

from html import escape

from audit.games.cards.deck import (
    RANK_NAMES,
    RANK_SYMBOLS,
    SUIT_NAMES,
    card_rank,
    card_suit,
    parse_card,
)
from audit.games.errors import RulesError

WIDTH, HEIGHT = 50, 70
SUIT_GLYPHS = "♣♦♥♠"
"""In the order of ``SUIT_SYMBOLS`` (clubs, diamonds, hearts, spades)."""
RED_SUITS = frozenset({1, 2})


def card_face(name: str) -> tuple[str, str, bool] | None:
    """Return a card's rank as printed, its suit's glyph and whether it is red; None if no card."""
    try:
        card = parse_card(name)
    except (RulesError, IndexError, ValueError):
        return None
    rank, suit = card_rank(card), card_suit(card)
    printed = "10" if RANK_SYMBOLS[rank] == "T" else RANK_SYMBOLS[rank]
    return printed, SUIT_GLYPHS[suit], suit in RED_SUITS


def card_svg(name: str, *, label: str | None = None) -> str:
    """Return one card as an inline SVG element, its ``<title>`` naming the card."""
    face = card_face(name)
    shown = escape(name)
    if face is None:
        described, classes = f"{shown}: not a card", "card unknown"
        body = (
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 4}" text-anchor="middle" font-size="11" '
            f'fill="#444">{shown[:5]}</text>'
        )
    else:
        rank, glyph, red = face
        card = parse_card(name)
        described = f"{RANK_NAMES[card_rank(card)]} of {SUIT_NAMES[card_suit(card)]}"
        classes = "card red" if red else "card"
        colour = "#c8102e" if red else "#111"
        body = (
            f'<text x="5" y="15" font-size="13" font-weight="bold" fill="{colour}">{rank}</text>'
            f'<text x="5" y="27" font-size="11" fill="{colour}">{glyph}</text>'
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 9}" text-anchor="middle" font-size="26" '
            f'fill="{colour}">{glyph}</text>'
            f'<text x="{WIDTH - 5}" y="{HEIGHT - 6}" text-anchor="end" font-size="13" '
            f'font-weight="bold" fill="{colour}">{rank}</text>'
        )
    if label:
        described += f", {escape(label)}"
    return (
        f'<svg class="{classes}" data-card="{shown}" role="img" aria-label="{described}" '
        f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}"><title>{described}</title>'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" fill="#fff" '
        f'stroke="#333" stroke-width="1.2"/>{body}</svg>'
    )
