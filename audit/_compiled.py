"""Choose, at import, between a compiled module and the Python source it was compiled from.

``setup.py`` compiles the verification's hot path (the Pai Gow engine and checks) from
its own ``.py`` files into extension modules beside them. Python alone would load an
extension whenever one is there, however old. :class:`SourceWhenStale` loads the source
instead where:

- ``TABLEWATCH_PURE_PYTHON=1`` asks for it: the reference run the compiled modules are
  tested against, and what a debugger, a profiler or coverage wants;
- in a source checkout, the extension is older than its source: the source changed
  after the build, and stale compiled code would judge by rules no longer written. A
  warning says so; ``make install`` rebuilds. An installed wheel's files carry the
  times they were unpacked at, not built at, and are not edited: not compared there.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

PACKAGES = ("audit.games.", "audit.verification.paigow.")
"""Where compiled modules can be (``setup.py``'s ``COMPILED``): no other import is looked at."""
PURE_PYTHON = "TABLEWATCH_PURE_PYTHON"
CHECKOUT = (Path(__file__).parents[1] / "setup.py").exists()
"""Whether this package runs from its source checkout (an editable install), not a wheel."""


class StaleCompiledModule(UserWarning):
    """A compiled module older than its source: the source is run instead."""


def source_of(extension: Path) -> Path:
    """Return the ``.py`` an extension module was compiled from (beside it, same name)."""
    name = extension.name
    for suffix in sorted(EXTENSION_SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            return extension.with_name(name[: -len(suffix)] + ".py")
    raise ValueError(f"not an extension module: {extension}")


def is_stale(extension: Path, source: Path) -> bool:
    """Return whether the source was changed after the extension was built from it."""
    return source.stat().st_mtime > extension.stat().st_mtime


class SourceWhenStale:
    """A meta path finder: the source, not its compiled module, when asked or when stale."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(PACKAGES):
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or not spec.origin:
            return spec
        extension = Path(spec.origin)
        source = source_of(extension)
        if not source.exists():
            return spec  # an installed wheel: compiled only
        if os.environ.get(PURE_PYTHON) == "1":
            return spec_from_file_location(fullname, source)
        if CHECKOUT and is_stale(extension, source):
            warnings.warn(
                f"{fullname}: the compiled module is older than {source.name}; running the "
                "source (make install rebuilds it)",
                StaleCompiledModule,
                stacklevel=2,
            )
            return spec_from_file_location(fullname, source)
        return spec


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once."""
    if not any(isinstance(finder, SourceWhenStale) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceWhenStale())


def compiled_modules() -> list[str]:
    """Return the names of the modules imported so far that run compiled, sorted."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith(PACKAGES)
        and isinstance(getattr(module, "__loader__", None), ExtensionFileLoader)
    )
