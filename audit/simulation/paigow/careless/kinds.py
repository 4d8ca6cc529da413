"""Every irregularity the careless Pai Gow dealer can inject, one :class:`~.plan.Plan` each.

Listed in the order a plan is drawn from (the dealer's generator picks by index among those
that fit): kept, so that a seed injects the same plans whatever module a plan lives in.
"""

from __future__ import annotations

from audit.simulation.paigow.careless.bank_flows import (
    BankShortfallShort,
    BankSurplusVigorishKept,
    CoBankSplitWrong,
    DealerWagerAgainstCoBank,
)
from audit.simulation.paigow.careless.california import (
    CaliforniaCoverage,
    CaliforniaFee,
    CaliforniaOrder,
    CaliforniaVigorish,
)
from audit.simulation.paigow.careless.count import (
    CountedFromMiscall,
    DiceTotalMiscalled,
    FewShakes,
    NoMoreBetsLate,
    NoRollNotCalled,
)
from audit.simulation.paigow.careless.deal import (
    ExposedNotVoided,
    MisdeliveredStacks,
    StyleNotAllowed,
    UnwageredNotCollected,
    WrongStart,
)
from audit.simulation.paigow.careless.payouts import (
    PairFortunesWrong,
    VigorishOver,
    VigorishShort,
    VigorishUncollected,
    WrongOutcome,
    WrongPayout,
)
from audit.simulation.paigow.careless.plan import Plan
from audit.simulation.paigow.careless.records import (
    EventIdReused,
    OptionMisspelt,
    RoundNotCompleted,
    SequenceGap,
    TilesNotInspected,
)
from audit.simulation.paigow.careless.rotation import (
    BankAtStartOfGame,
    BankOfferedOutOfTurn,
    BankTwiceRunning,
    BankWithoutCover,
    BankWithoutPriorWager,
    DealerWagerOverLimit,
)
from audit.simulation.paigow.careless.setting import (
    DealerOffHouseWay,
    HandMisordered,
    HandSetAgain,
    LateSurrender,
)
from audit.simulation.paigow.careless.tiles import (
    TileDuplicated,
    TileSetTampered,
    TileSwitched,
)
from audit.simulation.paigow.careless.wagers import (
    BankSecondSpot,
    PastPosting,
    SpotNotAdjacent,
)

PLAY_KINDS: tuple[type[Plan], ...] = (
    FewShakes,
    DiceTotalMiscalled,
    CountedFromMiscall,
    NoRollNotCalled,
    NoMoreBetsLate,
    WrongStart,
    MisdeliveredStacks,
    StyleNotAllowed,
    UnwageredNotCollected,
    ExposedNotVoided,
    PastPosting,
    SpotNotAdjacent,
    BankSecondSpot,
    TileSwitched,
    TileDuplicated,
    TileSetTampered,
    DealerOffHouseWay,
    HandMisordered,
    HandSetAgain,
    LateSurrender,
    DealerWagerOverLimit,
    BankWithoutCover,
    BankOfferedOutOfTurn,
    BankAtStartOfGame,
    BankTwiceRunning,
    BankWithoutPriorWager,
    TilesNotInspected,
    OptionMisspelt,
    RoundNotCompleted,
    SequenceGap,
    EventIdReused,
)
"""The irregularities of play: the count, the deal, wagers, tiles, setting, the bank's
rotation, equipment and the record."""

MONEY_KINDS: tuple[type[Plan], ...] = (
    WrongOutcome,
    WrongPayout,
    VigorishUncollected,
    VigorishShort,
    VigorishOver,
    CaliforniaCoverage,
    CaliforniaVigorish,
    CaliforniaOrder,
    CaliforniaFee,
    PairFortunesWrong,
    BankShortfallShort,
    BankSurplusVigorishKept,
    CoBankSplitWrong,
    DealerWagerAgainstCoBank,
)
"""The irregularities of money: outcomes, payouts, vigorish, California, Pair Fortunes, the
bank's flows."""

KINDS: tuple[type[Plan], ...] = (*PLAY_KINDS, *MONEY_KINDS)
"""Every irregularity: of play, then of money."""
