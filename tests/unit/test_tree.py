"""The test tree mirrors the source tree, and tests share builders, not each other (#19).

Every directory under ``tests/unit/`` is a source package's: ``tests/unit/<path>`` tests
``audit/<path>``, and ``tests/unit/projections/...`` and ``tests/unit/consumers/...`` test
``projections/...`` and ``consumers/...``. What more than one test module uses lives in
``tests/builders/`` (or, for fixtures, a ``conftest.py``): no module imports a ``test_*``
module, and a test module imports from ``tests`` only its builders.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
UNIT = TESTS / "unit"
TOP_LEVEL = {"projections", "consumers"}
"""Packages at the root of the project; any other tests/unit/<path> is audit/<path>."""


def _source_of(test_dir: Path) -> Path:
    """Return the source package a directory of unit tests mirrors."""
    parts = test_dir.relative_to(UNIT).parts
    if parts[0] in TOP_LEVEL:
        return ROOT.joinpath(*parts)
    return ROOT.joinpath("audit", *parts)


def _imported(path: Path) -> set[str]:
    """Return the modules ``path`` imports, ``from a import b`` read as ``a`` and ``a.b``."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


UNIT_DIRS = sorted(
    d for d in UNIT.rglob("*") if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py"))
)
MODULES = sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_unit_test_directory_mirrors_a_source_package():
    strays = [
        f"tests/unit/{d.relative_to(UNIT)} (no {_source_of(d).relative_to(ROOT)}/ package)"
        for d in UNIT_DIRS
        if not (_source_of(d) / "__init__.py").is_file()
    ]
    assert strays == []


def test_the_tree_holds_the_games_and_the_layers():
    """A few directories the rule is about, so an empty walk cannot pass it."""
    names = {str(d.relative_to(UNIT)) for d in UNIT_DIRS}
    assert {"games/paigow", "games/baccarat21", "verification/paigow", "consumers/web"} <= names


def test_no_module_imports_a_test_module():
    imports = {
        str(module.relative_to(TESTS)): sorted(
            name for name in _imported(module) if name.rsplit(".", 1)[-1].startswith("test_")
        )
        for module in MODULES
    }
    assert {module: names for module, names in imports.items() if names} == {}


def test_a_test_module_imports_from_tests_only_its_builders():
    imports = {
        str(module.relative_to(TESTS)): sorted(
            name
            for name in _imported(module)
            if name.split(".")[0] == "tests" and not name.startswith("tests.builders")
        )
        for module in MODULES
        if module.name.startswith("test_")
    }
    assert {module: names for module, names in imports.items() if names} == {}
