"""Pai Gow verification (PA 621a, NJ 19:47-10, California): what readers outside it may use.

Projections and the command line take a table's context, a round's view and its
readings from here, never from the modules that hold them, so the checks can be
rearranged without touching their readers:

- :class:`TableContext`, built from a table's own events in order;
- :func:`view_round` (a :class:`RoundView`) and its readings: :func:`banking` (who
  banks, where the count starts, who plays), :func:`live_wagers`, :func:`hand_settings`;
- :func:`after_round`, the banking rotation a round leaves for the next;
- :class:`StreamVerifier` and :func:`replay_round`, the findings and the replay (each
  step's reading in ``replay_steps``), with :func:`short_name` for its positions.
"""

from audit.verification.paigow.context import TableContext
from audit.verification.paigow.readings import (
    Banking,
    banking,
    hand_setting,
    hand_settings,
    live_wagers,
)
from audit.verification.paigow.replay import StepKind, replay_round, short_name
from audit.verification.paigow.rotation_checks import after_round
from audit.verification.paigow.round_view import RoundView, view_round
from audit.verification.paigow.verify import StreamVerifier

__all__ = [
    "Banking",
    "RoundView",
    "StepKind",
    "StreamVerifier",
    "TableContext",
    "after_round",
    "banking",
    "hand_setting",
    "hand_settings",
    "live_wagers",
    "replay_round",
    "short_name",
    "view_round",
]
