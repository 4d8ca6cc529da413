"""The truth about an injected irregularity: a :class:`Label` naming every finding it must yield.

Shared by both games' careless dealers, the books' mishaps and the loaded dice; the
scorer (:mod:`audit.simulation.scoring`) matches findings to labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.verification.baccarat21.kinds import KINDS as B21_FINDING_KINDS
from audit.verification.collusion.kinds import COLLUSION_KINDS
from audit.verification.equipment import SCREEN_KINDS
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS

_KNOWN_CODES = (
    FINDING_KINDS.keys()
    | B21_FINDING_KINDS.keys()
    | ACCOUNTING_KINDS.keys()
    | SCREEN_KINDS.keys()
    | COLLUSION_KINDS.keys()
)
"""The codes a label may name: either game's findings, the books', and the screens'."""


class InvalidLabelError(ValueError):
    """Raised for a label record that is not a label."""


@dataclass(frozen=True)
class Label:
    """What one injected irregularity should be found as: every finding code it must yield.

    ``position`` is set when every one of those findings is at that one position,
    and ``None`` when they are at several (or at none).
    """

    table_id: str
    round_id: str | None
    """``None`` for a variance of a table's shift rather than of one round."""
    kind: str
    codes: tuple[str, ...]
    position: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the label as a JSON-ready dict."""
        return {
            "table_id": self.table_id,
            "round_id": self.round_id,
            "codes": list(self.codes),
            "kind": self.kind,
            "position": self.position,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Label:
        """Read a label written by :meth:`as_dict`; raise :class:`InvalidLabelError` if not one."""
        if not isinstance(data, Mapping):
            raise InvalidLabelError(f"a label is a JSON object, not {type(data).__name__}")
        try:
            table_id, round_id, kind, codes = (
                data["table_id"],
                data["round_id"],
                data["kind"],
                data["codes"],
            )
        except KeyError as missing:
            raise InvalidLabelError(f"a label needs {missing.args[0]!r}") from None
        position = data.get("position")
        texts = (table_id, kind) if round_id is None else (table_id, round_id, kind)
        if not all(isinstance(text, str) and text for text in texts):
            raise InvalidLabelError(f"table_id, round_id and kind must be text: {texts!r}")
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise InvalidLabelError(f"codes must be a list of finding codes: {codes!r}")
        unknown = [code for code in codes if code not in _KNOWN_CODES]
        if unknown:
            raise InvalidLabelError(f"unknown finding codes: {unknown!r}")
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)):
            raise InvalidLabelError(f"position must be a whole number or null: {position!r}")
        return cls(table_id, round_id, kind, tuple(codes), position)
