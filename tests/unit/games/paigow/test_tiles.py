"""The 32 tiles, checked against the individual ranking table of PA 621a.3(h) / NJ 19:47-10.2(g).

Every expectation here is transcribed from the regulation text, not read back from the code.
"""

from collections import Counter

import pytest

from audit.games.errors import InvalidTileError, RulesError
from audit.games.paigow.tiles import (
    KIND_COUNT,
    KIND_NOTATIONS,
    KIND_RANKS,
    KIND_SPOTS,
    MATCHED_KINDS,
    TILE_KINDS,
    TILE_RANKS,
    TILE_SPOTS,
    TILES,
    check_distinct,
    kind_name,
    parse_kind,
    parse_tile,
    parse_tiles,
    tile_name,
)

NUMBER_WORDS = {
    "Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7,
    "Eight": 8, "Nine": 9, "Ten": 10, "Eleven": 11, "Twelve": 12,
}  # fmt: skip

# PA 621a.3(h), transcribed row by row: (ranking, tile as named, spots shown, number in set).
INDIVIDUAL_RANKING = [
    (1, "Twelve", "6-6", 2),
    (2, "Two", "1-1", 2),
    (3, "Eight", "4-4", 2),
    (4, "Four", "1-3", 2),
    (5, "Ten", "5-5", 2),
    (6, "Six", "3-3", 2),
    (7, "Four", "2-2", 2),
    (8, "Eleven", "5-6", 2),
    (9, "Ten", "4-6", 2),
    (10, "Seven", "1-6", 2),
    (11, "Six", "1-5", 2),
    (12, "Nine", "3-6", 1),
    (12, "Nine", "4-5", 1),
    (13, "Eight", "2-6", 1),
    (13, "Eight", "3-5", 1),
    (14, "Seven", "2-5", 1),
    (14, "Seven", "3-4", 1),
    (15, "Six", "2-4", 1),
    (16, "Five", "1-4", 1),
    (16, "Five", "2-3", 1),
    (17, "Three", "1-2", 1),
]
ROW_IDS = [f"{spots}-rank{rank}" for rank, _, spots, _ in INDIVIDUAL_RANKING]
RANK_OF = {spots: rank for rank, _, spots, _ in INDIVIDUAL_RANKING}
COUNT_OF = {spots: count for _, _, spots, count in INDIVIDUAL_RANKING}


def tiles_of(notation):
    return [t for t in TILES if TILE_KINDS[t] == parse_kind(notation)]


# --- The set -------------------------------------------------------------------------------------


def test_set_holds_32_tiles_of_21_kinds():
    assert sum(count for *_, count in INDIVIDUAL_RANKING) == 32  # the table itself
    assert len(INDIVIDUAL_RANKING) == 21
    assert len(TILES) == 32
    assert len(TILE_KINDS) == 32
    assert KIND_COUNT == 21
    assert len(set(TILE_KINDS)) == 21


def test_ranking_table_names_every_kind_once():
    assert sorted(KIND_NOTATIONS) == sorted(spots for _, _, spots, _ in INDIVIDUAL_RANKING)


@pytest.mark.parametrize(("rank", "word", "spots", "count"), INDIVIDUAL_RANKING, ids=ROW_IDS)
def test_number_of_tiles_in_set(rank, word, spots, count):
    assert len(tiles_of(spots)) == count


@pytest.mark.parametrize(("rank", "word", "spots", "count"), INDIVIDUAL_RANKING, ids=ROW_IDS)
def test_individual_rank_of_each_kind(rank, word, spots, count):
    assert KIND_RANKS[parse_kind(spots)] == rank


@pytest.mark.parametrize(("rank", "word", "spots", "count"), INDIVIDUAL_RANKING, ids=ROW_IDS)
def test_spots_of_each_kind(rank, word, spots, count):
    low, high = (int(half) for half in spots.split("-"))
    assert low + high == NUMBER_WORDS[word]  # the transcription agrees with itself
    assert KIND_SPOTS[parse_kind(spots)] == NUMBER_WORDS[word]


def test_the_eleven_matched_kinds_are_the_ones_with_two_tiles():
    with_two = {parse_kind(spots) for _, _, spots, count in INDIVIDUAL_RANKING if count == 2}
    assert len(with_two) == 11
    assert set(MATCHED_KINDS) == with_two


def test_shared_ranks_twelfth_to_sixteenth():
    # 621a.3(h) lists twelfth, thirteenth, fourteenth and sixteenth twice; fifteenth and
    # seventeenth once.
    shared = {rank: n for rank, n in Counter(KIND_RANKS).items() if n > 1}
    assert shared == {12: 2, 13: 2, 14: 2, 16: 2}
    assert KIND_RANKS[parse_kind("3-6")] == KIND_RANKS[parse_kind("4-5")] == 12
    assert KIND_RANKS[parse_kind("2-6")] == KIND_RANKS[parse_kind("3-5")] == 13
    assert KIND_RANKS[parse_kind("2-5")] == KIND_RANKS[parse_kind("3-4")] == 14
    assert KIND_RANKS[parse_kind("1-4")] == KIND_RANKS[parse_kind("2-3")] == 16


def test_kind_numbers_follow_the_individual_ranking():
    # The module promises a lower kind number never ranks below a higher one.
    assert list(KIND_RANKS) == sorted(KIND_RANKS)


@pytest.mark.parametrize("tile", TILES, ids=tile_name)
def test_every_tile_spots_and_rank(tile):
    notation = kind_name(TILE_KINDS[tile])
    low, high = (int(half) for half in notation.split("-"))
    assert TILE_SPOTS[tile] == low + high
    assert TILE_RANKS[tile] == RANK_OF[notation]


# --- Names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("tile", TILES, ids=tile_name)
def test_tile_name_round_trips(tile):
    assert parse_tile(tile_name(tile)) == tile


@pytest.mark.parametrize("tile", TILES, ids=tile_name)
def test_tile_name_shows_the_kind_and_a_copy_letter_only_for_matched_kinds(tile):
    notation = kind_name(TILE_KINDS[tile])
    if COUNT_OF[notation] == 2:
        assert tile_name(tile) in (notation + "a", notation + "b")
    else:
        assert tile_name(tile) == notation


def test_tile_names_are_unique():
    assert len({tile_name(t) for t in TILES}) == 32


@pytest.mark.parametrize("notation", KIND_NOTATIONS)
def test_kind_name_round_trips(notation):
    assert kind_name(parse_kind(notation)) == notation


@pytest.mark.parametrize("notation", KIND_NOTATIONS)
def test_reversed_notation_names_the_same_kind(notation):
    low, high = notation.split("-")
    assert parse_kind(f"{high}-{low}") == parse_kind(notation)
    assert parse_tile(f"{high}-{low}") == parse_tile(notation)


def test_reversed_notation_examples():
    assert parse_tile("2-1") == parse_tile("1-2")
    assert tile_name(parse_tile("2-1")) == "1-2"
    assert parse_tile("3-1b") == parse_tile("1-3b")
    assert parse_tile("1:2") == parse_tile("1-2")


@pytest.mark.parametrize("notation", [n for n in KIND_NOTATIONS if COUNT_OF[n] == 2])
def test_matched_kind_parses_to_two_different_tiles(notation):
    first, second = parse_tiles(f"{notation} {notation}")
    assert first != second
    assert TILE_KINDS[first] == TILE_KINDS[second] == parse_kind(notation)
    assert {first, second} == {parse_tile(notation + "a"), parse_tile(notation + "b")}
    assert parse_tile(notation) == parse_tile(notation + "a")


def test_unlettered_tile_takes_the_copy_not_already_named():
    assert parse_tiles("6-6b 6-6") == (parse_tile("6-6b"), parse_tile("6-6a"))
    assert parse_tiles("6-6 6-6a") == (parse_tile("6-6b"), parse_tile("6-6a"))
    assert parse_tiles(["6-6", "6-6"]) == parse_tiles("6-6, 6-6")


def test_parse_tiles_returns_every_tile_of_the_set_once():
    every = " ".join(notation for _, _, notation, count in INDIVIDUAL_RANKING for _ in range(count))
    assert sorted(parse_tiles(every)) == list(TILES)


# --- Errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "7-7",
        "0-6",
        "6-7",
        "6-6c",
        "6-6A",
        "4-5b",
        "1-2a",
        "",
        "6",
        "6-6-6",
        "six-six",
        "-1-2",
        "7-7a",
    ],
)
def test_parse_tile_rejects_what_names_no_tile(text):
    with pytest.raises(InvalidTileError) as caught:
        parse_tile(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "6-6 6-6 6-6",  # 621a.3(h): two Twelves in the set
        "6-6a 6-6b 6-6",
        "4-5 4-5",  # one Nine (4-5) in the set
        "2-1 1-2",
        "6-6a 6-6a",
        "1-3b 3-1b",
    ],
)
def test_parse_tiles_rejects_more_tiles_than_the_set_holds(text):
    with pytest.raises(InvalidTileError) as caught:
        parse_tiles(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("tiles", [[-1], [32], ["6-6"], [0.0], [0, 0], [3, 5, 3]], ids=repr)
def test_check_distinct_rejects_non_tiles_and_repeats(tiles):
    with pytest.raises(InvalidTileError):
        check_distinct(tiles)


def test_check_distinct_passes_distinct_tiles_through():
    assert check_distinct([31, 0, 7]) == (31, 0, 7)


def test_tile_errors_belong_to_the_rules_error_family():
    assert issubclass(InvalidTileError, RulesError)
    assert issubclass(InvalidTileError, ValueError)
