"""The SVG pictures (consumers/web/render): every tile and every card, drawn and well formed."""

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from audit.games.cards.deck import CARD_NAMES, CARD_SUITS
from audit.games.paigow.tiles import GEE_JOON_KINDS, TILE_KINDS, TILE_NAMES, TILE_SPOTS
from consumers.web.render.cards import card_svg
from consumers.web.render.hold_chart import HoldRow, hold_chart_svg, parse_band
from consumers.web.render.tiles import tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def pips(root: ET.Element) -> list[ET.Element]:
    return [c for c in root.iter(f"{SVG}circle") if "pip" in c.get("class", "")]


@pytest.mark.parametrize("tile", range(len(TILE_NAMES)))
def test_every_tile_shows_its_spots_as_pips(tile):
    root = parsed(tile_svg(TILE_NAMES[tile]))
    assert len(pips(root)) == TILE_SPOTS[tile]
    assert root.get("data-tile") == TILE_NAMES[tile]
    assert TILE_NAMES[tile] in root.find(f"{SVG}title").text


def test_only_the_two_gee_joon_tiles_are_marked():
    marked = [n for n in TILE_NAMES if "gee-joon" in parsed(tile_svg(n)).get("class")]
    assert sorted(marked) == ["1-2", "2-4"]
    assert all(TILE_KINDS[TILE_NAMES.index(n)] in GEE_JOON_KINDS for n in marked)
    assert "GJ" in tile_svg("2-4")
    assert "GJ" not in tile_svg("4-5")


def test_the_ones_and_fours_are_red():
    red = [c for c in pips(parsed(tile_svg("1-4"))) if "red" in c.get("class")]
    assert len(red) == 5
    assert not [c for c in pips(parsed(tile_svg("5-6"))) if "red" in c.get("class")]


@pytest.mark.parametrize("name", ["7-7", "", "<script>", "6-6c"])
def test_a_name_that_is_no_tile_is_drawn_blank_and_escaped(name):
    root = parsed(tile_svg(name))
    assert root.get("class") == "tile unknown"
    assert pips(root) == []
    assert "<script>" not in tile_svg(name)


@pytest.mark.parametrize("card", range(52))
def test_every_card_shows_its_rank_and_suit(card):
    name = CARD_NAMES[card]
    root = parsed(card_svg(name))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    rank = "10" if name[0] == "T" else name[0]
    assert texts.count(rank) == 2
    assert ("red" in root.get("class")) == (CARD_SUITS[card] in (1, 2))


def test_a_name_that_is_no_card_is_drawn_blank():
    root = parsed(card_svg("1Z"))
    assert root.get("class") == "card unknown"
    assert "not a card" in root.find(f"{SVG}title").text


def test_a_label_joins_the_accessible_name():
    assert 'aria-label="6-6a (Teen), expected"' in tile_svg("6-6a", label="expected")


# --- The MGR's hold chart ----------------------------------------------------------------------


def test_each_shift_is_a_band_and_a_dot_coloured_by_whether_the_hold_is_inside():
    rows = [
        HoldRow("PG-01 day", Decimal("12.00"), (Decimal("-4.1"), Decimal("18.6"))),
        HoldRow("PG-02 day", Decimal("31.50"), (Decimal("2.0"), Decimal("20.0"))),
        HoldRow("PG-03 day", None, None),
    ]
    root = parsed(hold_chart_svg(rows))
    dots = [c for c in root.iter(f"{SVG}circle")]
    assert [d.get("class") for d in dots] == ["hold inside", "hold outside"]
    bands = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "band"]
    assert len(bands) == 2
    # The outside dot sits right of its band's right edge.
    band = bands[1]
    assert float(dots[1].get("cx")) > float(band.get("x")) + float(band.get("width"))
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "no hold: no drop counted" in texts


def test_a_band_is_read_from_the_mgr_text():
    assert parse_band("2.5..7.25") == (Decimal("2.5"), Decimal("7.25"))
    assert parse_band("") is None
