"""The heads file: every chain's head and length, signed, to keep outside the database.

A chain alone cannot show its newest links cut off, or a whole history
re-chained by someone who can write the database: the filed heads can. The file
is JSON::

    {"format": "tablewatch-heads/1", "exported_at": "...", "store": "...",
     "last_notification_id": 812,
     "tables": {"PG-01": {"head": "<sha-256 hex>", "count": 40}, ...},
     "rejections": {"table-events[0]": {"head": "...", "count": 2}, ...},
     "signature": {"algorithm": "HMAC-SHA256", "value": "<hex>"}}

The signature is HMAC-SHA256, keyed by ``TABLEWATCH_HEADS_KEY``, over the
canonical JSON (sorted keys, no spaces) of everything but ``signature``: a
filed file edited to match a tampered store no longer verifies. The key is
read from the environment only, and never printed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

HEADS_FORMAT = "tablewatch-heads/1"
KEY_VARIABLE = "TABLEWATCH_HEADS_KEY"
SIGNATURE_ALGORITHM = "HMAC-SHA256"
_MIN_KEY_LENGTH = 16


class HeadsKeyError(ValueError):
    """Raised when the signing key is missing or too short."""


class HeadsFileError(ValueError):
    """Raised for a heads file that cannot be read, or whose signature does not verify."""


@dataclass(frozen=True)
class ChainHead:
    """One chain's head and how many records it covers."""

    head: str
    count: int


@dataclass(frozen=True)
class FiledHeads:
    """Every chain's head at one moment, and the store's last notification id then."""

    exported_at: str
    last_notification_id: int
    tables: dict[str, ChainHead] = field(default_factory=dict)
    rejections: dict[str, ChainHead] = field(default_factory=dict)

    def chains(self, kind: str) -> dict[str, ChainHead]:
        """Return the table chains (``table``) or the rejection chains (``rejections``)."""
        return self.tables if kind == "table" else self.rejections


def heads_key(environ: Mapping[str, str] | None = None) -> bytes:
    """Return the signing key from the environment, or raise saying what is wrong (not the key)."""
    key = (os.environ if environ is None else environ).get(KEY_VARIABLE, "")
    if not key:
        raise HeadsKeyError(f"{KEY_VARIABLE} is not set: the heads file is signed with it")
    if len(key) < _MIN_KEY_LENGTH:
        raise HeadsKeyError(
            f"{KEY_VARIABLE} is too short: use at least {_MIN_KEY_LENGTH} characters"
        )
    return key.encode()


def _canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _signature(body: Mapping[str, Any], key: bytes) -> str:
    return hmac.new(key, _canonical(body), hashlib.sha256).hexdigest()


def _chains(heads: Mapping[str, ChainHead]) -> dict[str, dict[str, Any]]:
    return {name: {"head": head.head, "count": head.count} for name, head in sorted(heads.items())}


def dump_heads(filed: FiledHeads, key: bytes, store: str) -> str:
    """Return the signed heads file's text; ``store`` says which store (password masked)."""
    body = {
        "format": HEADS_FORMAT,
        "exported_at": filed.exported_at,
        "store": store,
        "last_notification_id": filed.last_notification_id,
        "tables": _chains(filed.tables),
        "rejections": _chains(filed.rejections),
    }
    signature = {"algorithm": SIGNATURE_ALGORITHM, "value": _signature(body, key)}
    return json.dumps({**body, "signature": signature}, indent=2, ensure_ascii=False) + "\n"


def load_heads(text: str, key: bytes) -> FiledHeads:
    """Read a heads file's text, check its signature with ``key``, and return its heads."""
    try:
        document = json.loads(text)
    except ValueError as error:
        raise HeadsFileError(f"not a heads file: not JSON ({error})") from None
    if not isinstance(document, dict) or document.get("format") != HEADS_FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise HeadsFileError(f"not a heads file: format {found!r}, expected {HEADS_FORMAT!r}")
    signature = document.pop("signature", None)
    if not isinstance(signature, dict) or signature.get("algorithm") != SIGNATURE_ALGORITHM:
        raise HeadsFileError(f"the heads file is not signed with {SIGNATURE_ALGORITHM}")
    value = signature.get("value")
    if not isinstance(value, str) or not hmac.compare_digest(value, _signature(document, key)):
        raise HeadsFileError(
            f"the heads file's signature does not verify: it was altered, or {KEY_VARIABLE} "
            "is not the key it was signed with"
        )
    try:
        return FiledHeads(
            exported_at=str(document["exported_at"]),
            last_notification_id=int(document["last_notification_id"]),
            tables=_read_chains(document["tables"]),
            rejections=_read_chains(document["rejections"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise HeadsFileError(f"the heads file is signed but malformed: {error!r}") from None


def _read_chains(chains: Mapping[str, Any]) -> dict[str, ChainHead]:
    return {str(name): ChainHead(str(c["head"]), int(c["count"])) for name, c in chains.items()}
