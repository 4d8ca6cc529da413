"""The replay as text: each game's steps of data (audit/verification/<game>/replay.py) drawn
as the lines ``tablewatch replay`` prints and the API and the console show.

One renderer per game, keyed like every other registry by the games of
``audit/events/games.py``; each draws one step of its game's replay.
"""

from __future__ import annotations

from collections.abc import Callable

from audit.verification.replay_model import RoundReplay, Step
from consumers.replay_text import baccarat21, paigow

RENDERERS: dict[str, Callable[[RoundReplay, Step], tuple[str, ...]]] = {
    "paigow": paigow.step_lines,
    "baccarat21": baccarat21.step_lines,
}
"""Game -> the lines of one step of one of its replays (indented by the caller)."""


def step_lines(replay: RoundReplay, step: Step) -> tuple[str, ...]:
    """Return one step of ``replay`` as lines of text, as its game's renderer draws it."""
    return RENDERERS[replay.game](replay, step)
