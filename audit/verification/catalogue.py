"""Every kind of finding the floor reports, both games' and the accounting's, by code.

What docs/severities.md tabulates, and what a view reads to reclassify rows stored
before a kind's money or severity changed.
"""

from __future__ import annotations

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.verification.baccarat21.kinds import KINDS as BACCARAT21_KINDS
from audit.verification.collusion.kinds import COLLUSION_KINDS
from audit.verification.findings import FindingKind
from audit.verification.paigow.kinds import KINDS as PAIGOW_KINDS

KINDS_BY_CODE: dict[str, FindingKind] = {
    **PAIGOW_KINDS, **BACCARAT21_KINDS, **ACCOUNTING_KINDS, **COLLUSION_KINDS
}  # fmt: skip
