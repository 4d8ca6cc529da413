"""The hash chains: each stored fact commits to every stored field and to all before it.

``digest`` fingerprints one fact's JSON text exactly as stored (the ingest also
tells repeats from reused ids by it). ``link`` is the first link format
(``chain_version`` 1): it chains only that digest to the table's previous link,
so a fact's time, source, type or place could change unseen. Facts stored since
carry ``chain_version`` 2, whose link, :func:`fact_link`, hashes every stored
field: the aggregate and version it is stored as, the stored timestamp, the
type, the source and the digest. A rejected message's link,
:func:`rejection_link`, does the same for each of its fields, one chain per source.
A fact that arrived as a message is linked in ``chain_version`` 3: the same fields and,
last, the SHA-256 of the bytes received (kept beside the fact, ``audit/facts/received.py``),
so those bytes are evidence too. Facts with no received bytes (the ingest's own
observations, parsed events handed to the store) stay in format 2.

Each field goes into the hash as one element of a JSON array, so no field's
text can run into its neighbour's (a source holding ``:`` cannot pose as two
fields). Altering, removing or inserting a stored record out of place breaks
every later link of its chain.

>>> first = link(GENESIS, digest('{"type":"table_opened","seq":0}'))
>>> first == link(GENESIS, digest('{"type":"table_opened","seq":1}'))
False
>>> args = ("00000000-0000-0000-0000-000000000001", 2, "2026-11-21T08:00:00+00:00", "x", "s@1")
>>> fact_link(GENESIS, *args, digest("{}")) == fact_link(GENESIS, *args[:-1], "s@2", digest("{}"))
False
>>> sent, resent = (hashlib.sha256(raw).hexdigest() for raw in (b'{"a":1}', b'{"a": 1}'))
>>> len({fact_link(GENESIS, *args, digest("{}"), each) for each in (None, sent, resent)})
3
"""

from __future__ import annotations

import hashlib
import json

GENESIS = "0" * 64
"""The link before a chain's first record."""

LINK_FACT_ONLY = 1
"""A fact's link covers its JSON text only: facts stored before every field was hashed."""
LINK_ALL_FIELDS = 2
"""A fact's (or rejection's) link covers every stored field."""
LINK_RECEIVED = 3
"""A fact's link covers every stored field and the digest of the bytes it arrived as."""
CHAIN_VERSION = LINK_ALL_FIELDS
"""The link format the ingest writes for a fact with no received bytes."""


def digest(fact_json: str) -> str:
    """Return the SHA-256 hex digest of a fact's JSON text, byte for byte as stored."""
    return hashlib.sha256(fact_json.encode()).hexdigest()


def link(previous: str, fact_digest: str) -> str:
    """Return the version-1 link that follows ``previous`` for a fact with ``fact_digest``."""
    return hashlib.sha256(f"{previous}:{fact_digest}".encode()).hexdigest()


def _hash_fields(fields: list[object]) -> str:
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def fact_link(
    previous: str,
    aggregate_id: str,
    version: int,
    timestamp: str,
    fact_type: str,
    source: str,
    fact_digest: str,
    received_digest: str | None = None,
) -> str:
    """Return the link of a fact: every stored field, chained to ``previous``.

    ``timestamp`` is the stored time as ISO text (``datetime.isoformat``). With
    ``received_digest`` (the SHA-256 hex of the bytes received) the link is format 3,
    without it format 2.
    """
    if received_digest is None:
        return _hash_fields(
            ["fact", LINK_ALL_FIELDS, previous, aggregate_id, version, timestamp, fact_type,
             source, fact_digest]
        )  # fmt: skip
    return _hash_fields(
        ["fact", LINK_RECEIVED, previous, aggregate_id, version, timestamp, fact_type, source,
         fact_digest, received_digest]
    )  # fmt: skip


def rejection_link(
    previous: str,
    aggregate_id: str,
    version: int,
    timestamp: str,
    origin: str,
    reason: str,
    size: int,
    raw_base64: str,
    raw_sha256: str,
) -> str:
    """Return the link of a rejected message: every stored field, chained to ``previous``."""
    return _hash_fields(
        ["rejection", LINK_ALL_FIELDS, previous, aggregate_id, version, timestamp, origin,
         reason, size, raw_base64, raw_sha256]
    )  # fmt: skip


def case_link(
    previous: str, aggregate_id: str, version: int, timestamp: str, fact_type: str, fact_digest: str
) -> str:
    """Return the link of a case fact in the casebook: every stored field, chained."""
    return _hash_fields(
        ["case", LINK_ALL_FIELDS, previous, aggregate_id, version, timestamp, fact_type,
         fact_digest]
    )  # fmt: skip
