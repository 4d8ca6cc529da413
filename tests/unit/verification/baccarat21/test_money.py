"""21 Baccarat findings: money at stake apart from exposure (issue #22.2), severity by it
(#22.3), and each finding's gaming day and player."""

from decimal import Decimal

from audit.events.baccarat21.wagers import B21WagerPlaced
from audit.events.envelope import event_fields
from audit.findings.finding import Severity
from audit.games.baccarat21.settlement import Bet
from tests.builders.baccarat21_rounds import Table

P, B = Bet.PLAYER, Bet.BANKER
CARDS = "P TS, B 9H, P 5D, B 8C, P 2S"


def _named(table: Table, player_id: str) -> None:
    """Name the player on the round's wagers at position 2 (the helper records none)."""
    for index, event in enumerate(table.events):
        if isinstance(event, B21WagerPlaced) and event.position == 2:
            named = object.__new__(type(event))
            for name in event_fields(type(event)):
                object.__setattr__(named, name, getattr(event, name))
            object.__setattr__(named, "player_id", player_id)
            table.events[index] = named


def test_a_wager_after_the_first_card_is_money_at_stake_for_its_player_and_day():
    table = Table().open()
    table.round([(1, B, 10_00)], CARDS, late=[(2, P, 40_00)])
    _named(table, "P-10442")
    [finding] = [f for f in table.findings() if f.code == "B21-WAGER-LATE"]
    assert (finding.severity, finding.at_stake, finding.exposure) == (
        Severity.CRITICAL, Decimal("40.00"), Decimal("0.00"),
    )  # fmt: skip
    assert (finding.gaming_day, finding.player_id) == ("2026-11-21", "P-10442")


def test_a_wager_taken_back_before_the_first_card_is_exposure_and_a_warning():
    table = Table().open()
    table.round([(2, P, 40_00)], CARDS, removed=[(2, P, 20_00)],
                settled={(2, P): ("win", 20_00, 0, 0)})  # fmt: skip
    _named(table, "P-7")
    [finding] = [f for f in table.findings() if f.code == "B21-WAGER-REMOVED-EARLY"]
    assert (finding.severity, finding.at_stake, finding.exposure, finding.player_id) == (
        Severity.WARNING, Decimal("0.00"), Decimal("20.00"), "P-7",
    )  # fmt: skip


def test_a_shoe_breach_with_right_money_is_exposure():
    """A round dealt without the burn: the cards are the shoe's, the money right."""
    table = Table().open(burn=False)
    table.round([(1, B, 10_00), (2, P, 15_00)], CARDS)
    [finding] = [f for f in table.findings() if f.code == "B21-SHOE-NO-BURN"]
    assert (finding.severity, finding.at_stake) == (Severity.WARNING, Decimal("0.00"))
    assert finding.gaming_day == "2026-11-21"
