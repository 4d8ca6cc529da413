"""`tablewatch db migrate` knows every view: one it missed would have no table on PostgreSQL."""

import importlib
import pkgutil

import projections
from consumers.store_cli import _VIEW_OPENERS, _VIEW_POSITIONS


def _modules():
    for info in pkgutil.iter_modules(projections.__path__):
        yield importlib.import_module(f"projections.{info.name}")


def test_every_projection_view_is_created_by_the_migration():
    openers = {
        getattr(module, name)
        for module in _modules()
        for name in dir(module)
        if name.startswith("open_") and name.endswith("_view") and name != "open_view"
    }
    assert openers
    assert openers == set(_VIEW_OPENERS)


def test_every_view_position_is_one_the_reader_may_write():
    names = {module.TRACKING_NAME for module in _modules() if hasattr(module, "TRACKING_NAME")}
    assert names
    assert names <= set(_VIEW_POSITIONS)
