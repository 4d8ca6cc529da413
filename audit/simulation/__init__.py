"""The simulated casino: seeded, rule-correct Pai Gow Tiles shifts as events of the catalogue.

Pure: no I/O and no clock. All randomness comes from the ``random.Random``
passed in and all times from the shift's start, so a seed always gives the
same stream. :func:`simulate_shift` is the entry point; a Pai Gow round is
played by the small steps of :data:`ROUND_STEPS`, each asking the round's
dealer (audit/simulation/paigow/dealer.py) what to do, which a careless dealer
overrides to perturb rounds.
"""

from audit.simulation.frequencies import Frequencies
from audit.simulation.paigow.round import ROUND_STEPS, VOID_STEPS, play_round
from audit.simulation.paigow.state import RoundState, Step
from audit.simulation.shift import DEFAULT_RULE_SET_MIX, ShiftConfig, simulate_shift

__all__ = [
    "DEFAULT_RULE_SET_MIX",
    "ROUND_STEPS",
    "VOID_STEPS",
    "Frequencies",
    "RoundState",
    "ShiftConfig",
    "Step",
    "play_round",
    "simulate_shift",
]
