"""The games registry: each game's own events, and the one ``game`` field derived from it."""

import pytest
from pydantic import TypeAdapter

from audit.events.catalogue import EVENT_CLASSES, InvalidEventError, parse_event
from audit.events.examples import EXAMPLES
from audit.events.games import DEFAULT_GAME, GAMES
from audit.events.table import TableOpened


def package_game(cls):
    """Return the game whose event package defines ``cls`` (None for a shared module)."""
    parts = cls.__module__.split(".")
    return parts[2] if len(parts) > 3 else None


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda c: c.type_name())
def test_an_event_is_owned_by_the_game_whose_package_holds_it(cls):
    owners = [name for name, game in GAMES.items() if game.owns(cls.type_name())]
    expected = package_game(cls)
    assert owners == ([expected] if expected else [])


def test_every_event_a_game_declares_is_in_the_catalogue():
    types = {cls.type_name() for cls in EVENT_CLASSES}
    for game in GAMES.values():
        assert game.events <= types, game.name


def test_every_game_is_named_alike_by_its_key_and_has_a_package():
    for name, game in GAMES.items():
        assert game.name == name
        assert any(package_game(cls) == name for cls in EVENT_CLASSES), name
    assert DEFAULT_GAME in GAMES


@pytest.mark.parametrize("name", list(GAMES))
def test_table_opened_takes_every_game_and_no_other(name):
    assert parse_event({**EXAMPLES["table_opened"], "game": name}).game == name
    with pytest.raises(InvalidEventError, match="game"):
        parse_event({**EXAMPLES["table_opened"], "game": "craps"})


def test_the_json_schema_lists_the_games():
    field = TypeAdapter(TableOpened).json_schema()["properties"]["game"]
    assert field["enum"] == list(GAMES)
    assert field["default"] == DEFAULT_GAME
