"""The domain: rules engines, event schemas, the fact store, verification and accounting."""

from audit import _compiled

# Before any submodule is imported: a compiled module is run only while it is up to date.
_compiled.install()
