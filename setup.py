"""Build tablewatch, compiling the verification's hot path from its own Python source.

Everything else about the package is in ``pyproject.toml``. This file adds only the
compiled modules: the Pai Gow rules engine and the Pai Gow checks, compiled with Cython
from the same ``.py`` files, unchanged (see docs/verification-speed.md). The Python
source stays the one statement of the rules; a compiled module is that source, run
faster, and the pure-Python run is the reference it is tested against
(``tests/unit/test_compiled.py``).

Cython is told to keep Python's semantics: annotations are not enforced as C types
(``annotation_typing=False``), so a value of an unexpected type behaves as it does in
Python instead of raising. Functions stay introspectable (``binding=True``).

The compiled modules are optional. Without a C compiler the build warns and installs the
pure-Python package, which behaves the same, slower; ``TABLEWATCH_REQUIRE_COMPILED=1``
makes that a failure instead. ``audit/_compiled.py`` chooses, at import, between a
compiled module and its source.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED = ("audit/games/money.py", "audit/games/paigow/*.py", "audit/verification/paigow/**/*.py")
"""The modules compiled: what ``bench/verify.py`` spends its time in. Keep
``audit/_compiled.py``'s ``PACKAGES`` in step."""
REQUIRED = os.environ.get("TABLEWATCH_REQUIRE_COMPILED") == "1"


def _sources() -> list[str]:
    here = Path(__file__).parent
    found = {str(p.relative_to(here)) for pattern in COMPILED for p in here.glob(pattern)}
    return sorted(name for name in found if not name.endswith("__init__.py"))


def _warn(message: str) -> None:
    if REQUIRED:
        raise SystemExit(f"tablewatch: {message}")
    print(f"tablewatch: {message}; installing the pure-Python modules", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build each compiled module if it can; without a compiler, leave it pure Python."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # one compiler per core: nearly 40 modules to build
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all: distutils' errors vary by platform
            _warn(f"cannot compile ({error})")

    def build_extension(self, ext: Extension) -> None:
        kept = self._kept(ext)
        if kept is not None:  # an editable install's module, already built from these sources
            built = Path(self.get_ext_fullpath(ext.name))
            built.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(kept, built)
            return
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(f"cannot compile {ext.name} ({error})")

    def _kept(self, ext: Extension) -> Path | None:
        """Return the module compiled in place, if an editable install and newer than its C.

        An editable install builds in a fresh directory each time: without this, every
        ``make install`` would compile every module again (a minute), not only those whose
        source changed (Cython rewrites a module's C only when its ``.py`` changed).
        """
        if not self.editable_mode:
            return None
        inplace = Path(self.get_ext_filename(ext.name))
        if not inplace.exists():
            return None
        newest = max(Path(source).stat().st_mtime for source in [*ext.sources, *ext.depends])
        return inplace if inplace.stat().st_mtime >= newest else None


def _extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn("Cython is not installed")
        return []
    from Cython.Compiler.Errors import CompileError

    try:
        return cythonize(
            _sources(),
            build_dir="build/cython",  # the generated C stays out of the source tree
            compiler_directives={
                "language_level": 3,
                "annotation_typing": False,  # Python's semantics: no C types from annotations
                "binding": True,  # functions as introspectable as Python's
                "autotestdict": False,  # doctests are collected from the functions themselves
            },
            nthreads=os.cpu_count() or 1,
            quiet=True,
        )
    except CompileError as error:
        _warn(f"cannot translate to C ({error})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
