"""Every layer's registry keyed by game covers every game in audit/events/games.py
(docs/games.md lists them).

A game added to ``GAMES`` and missing from one layer fails here, named, rather than on a
floor where that layer meets its first table.
"""

import pytest

from audit.accounting import games as accounting
from audit.events.games import GAMES
from audit.floor.verify import VERIFIERS
from audit.simulation.shift import table_games
from audit.verification import equipment
from audit.verification.rules_by_game import RULES_FOR
from consumers.replay_cli import REPLAYS
from consumers.replay_text import RENDERERS
from consumers.run_cli import GAME_MIXES
from projections.hand_history import HANDS
from projections.table_state import STATES

REGISTRIES = {
    "verification VERIFIERS": lambda: VERIFIERS,
    "accounting GAMES": lambda: accounting.GAMES,
    "replay REPLAYS": lambda: REPLAYS,
    "replay text RENDERERS": lambda: RENDERERS,
    "simulation table_games()": table_games,
    "verification RULES_FOR": lambda: RULES_FOR,
    "equipment screens' round results": lambda: equipment._RESULTS,
    "hand history HANDS": lambda: HANDS,
    "table state STATES": lambda: STATES,
}


@pytest.mark.parametrize("name", list(REGISTRIES))
def test_the_registry_covers_every_game_and_no_other(name):
    assert set(REGISTRIES[name]()) == set(GAMES)


def test_the_simulator_can_put_each_game_alone_on_a_floor():
    for game in GAMES:
        assert GAME_MIXES[game] == ((game, 1.0),)
