"""The per-table hash chain: each stored fact commits to everything stored before it.

``digest`` fingerprints one fact's JSON text exactly as stored; ``link`` chains
it to the table's previous link. Altering, removing or inserting a stored fact
out of place breaks every later link of that table.

>>> first = link(GENESIS, digest('{"type":"table_opened","seq":0}'))
>>> first == link(GENESIS, digest('{"type":"table_opened","seq":0}'))
True
>>> first == link(GENESIS, digest('{"type":"table_opened","seq":1}'))
False
"""

from __future__ import annotations

import hashlib

GENESIS = "0" * 64
"""The link before a table's first stored fact."""


def digest(fact_json: str) -> str:
    """Return the SHA-256 hex digest of a fact's JSON text, byte for byte as stored."""
    return hashlib.sha256(fact_json.encode()).hexdigest()


def link(previous: str, fact_digest: str) -> str:
    """Return the chain link that follows ``previous`` for a fact with ``fact_digest``."""
    return hashlib.sha256(f"{previous}:{fact_digest}".encode()).hexdigest()
