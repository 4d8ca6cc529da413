"""A Pai Gow replay's steps as text.

The Pai Gow replay (audit/verification/paigow/replay.py) still writes its steps' lines
itself; they move here, step by step, as its readings become data (#19).
"""

from __future__ import annotations

from audit.verification.replay_model import Step


def step_lines(step: Step) -> tuple[str, ...]:
    """Return a Pai Gow step's lines of text."""
    return step.lines
