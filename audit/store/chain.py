"""The per-table hash chain: each stored fact commits to everything stored before it.

``digest`` fingerprints one fact (canonical JSON, so key order and spacing do not
matter); ``link`` chains it to the table's previous link. Altering, removing or
inserting a stored fact out of place breaks every later link of that table.

>>> first = link(GENESIS, digest({"type": "table_opened", "seq": 0}))
>>> first == link(GENESIS, digest({"seq": 0, "type": "table_opened"}))
True
>>> first == link(GENESIS, digest({"type": "table_opened", "seq": 1}))
False
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64
"""The link before a table's first stored fact."""


def canonical_json(fact: dict[str, Any]) -> bytes:
    """Return the fact as canonical JSON bytes: sorted keys, no spaces, UTF-8."""
    return json.dumps(fact, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(fact: dict[str, Any]) -> str:
    """Return the SHA-256 hex digest of a fact's canonical JSON."""
    return hashlib.sha256(canonical_json(fact)).hexdigest()


def link(previous: str, fact_digest: str) -> str:
    """Return the chain link that follows ``previous`` for a fact with ``fact_digest``."""
    return hashlib.sha256(f"{previous}:{fact_digest}".encode()).hexdigest()
