"""Every event type, one discriminated union, and the way bytes become events.

``parse_event`` takes what arrived (bytes, text or a dict), upcasts an older
``schema_version`` to the current one, and validates it. Anything that is not
a valid event raises :class:`InvalidEventError`, whose message names the event
and the field.

>>> envelope = {"event_id": "00000000-0000-4000-8000-000000000001", "table_id": "PG-01",
...             "round_id": "r1", "seq": 7, "occurred_at": "2026-11-21T20:00:00Z",
...             "recorded_by": "dealer-17"}
>>> event = parse_event({"type": "no_more_bets", **envelope})
>>> type(event).__name__, event.seq, event.schema_version
('NoMoreBets', 7, 1)
>>> parse_event({"type": "dice_revealed", **envelope, "faces": [1, 2, 9]})
Traceback (most recent call last):
...
audit.events.catalogue.InvalidEventError: ...: faces: Value error, a die shows 1 to 6, not 9
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError

from audit.events.accounting import (
    BuyInRecorded,
    CloserRecorded,
    CreditRecorded,
    DropBoxExchanged,
    DropCounted,
    FillRecorded,
    OpenerRecorded,
)
from audit.events.baccarat21.play import B21CardDealt, B21RoundVoided
from audit.events.baccarat21.shoe import (
    CardBurned,
    CardFoundFaceUp,
    CoverCardAppeared,
    ShoeCut,
    ShoeLoaded,
    ShoeShuffled,
)
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerSettled
from audit.events.envelope import Event
from audit.events.ingest import EventIdReused, SequenceGapObserved
from audit.events.paigow.equipment import (
    DicePlacedInShaker,
    TileSetFoundUnsuitable,
    TileSetInspected,
    TileSetReceived,
    TileSetReplaced,
)
from audit.events.paigow.play import (
    BankAccepted,
    BankDeclined,
    BankOffered,
    CoBankRequested,
    DeliveryStyleChosen,
    DiceRevealed,
    HandSet,
    HandsRevealed,
    HandVoided,
    NoMoreBets,
    NoRollCalled,
    RngNumberShown,
    RoundVoided,
    ShakerShaken,
    StackDelivered,
    StackingTileExposed,
    StacksFormed,
    Surrendered,
    TileExposed,
    TilesCut,
    TilesMixed,
    TilesRemixed,
    UnwageredStacksCollected,
)
from audit.events.paigow.settlement import (
    BankShortfallCollected,
    BankSurplusSettled,
    CoBankSplit,
    CollectionFeeTaken,
    DealerWagerSettled,
    WagerSettled,
)
from audit.events.paigow.wagers import DealerWagerAgainstBank, WagerPlaced, WagerWithdrawn
from audit.events.rounds import RoundCompleted, RoundStarted
from audit.events.table import DealerChanged, TableClosed, TableOpened

MAX_EVENT_BYTES = 64 * 1024
"""An event is a few hundred bytes; anything this large is refused unread."""

EVENT_CLASSES: tuple[type[Event], ...] = (
    # table
    TableOpened, DealerChanged, TableClosed,
    TileSetReceived, TileSetInspected, TileSetFoundUnsuitable, TileSetReplaced,
    DicePlacedInShaker,
    # round, in the order a round plays
    RoundStarted, TilesMixed, StacksFormed, StackingTileExposed, TilesRemixed,
    BankOffered, BankDeclined, BankAccepted, CoBankRequested, TilesCut,
    DealerWagerAgainstBank, WagerPlaced, WagerWithdrawn, NoMoreBets,
    ShakerShaken, DiceRevealed, RngNumberShown, NoRollCalled, DeliveryStyleChosen,
    StackDelivered, UnwageredStacksCollected, TileExposed, HandVoided, HandSet,
    Surrendered, HandsRevealed,
    WagerSettled, DealerWagerSettled, BankShortfallCollected, BankSurplusSettled,
    CoBankSplit, CollectionFeeTaken, RoundVoided, RoundCompleted,
    # 21 Baccarat: the shoe between rounds, then a round (opened and closed by the shared
    # round_started and round_completed)
    ShoeShuffled, ShoeCut, ShoeLoaded, CardBurned,
    B21WagerPlaced, CoverCardAppeared, CardFoundFaceUp, B21CardDealt, B21WagerSettled,
    B21RoundVoided,
    # the table's money: slips, buy-ins, drop and count
    OpenerRecorded, FillRecorded, CreditRecorded, BuyInRecorded, CloserRecorded,
    DropBoxExchanged, DropCounted,
    # observed by the ingest
    SequenceGapObserved, EventIdReused,
)  # fmt: skip
EVENT_TYPES: dict[str, type[Event]] = {cls.type_name(): cls for cls in EVENT_CLASSES}

AnyEvent = Annotated[
    TableOpened | DealerChanged | TableClosed | TileSetReceived | TileSetInspected
    | TileSetFoundUnsuitable | TileSetReplaced | DicePlacedInShaker | RoundStarted
    | TilesMixed | StacksFormed | StackingTileExposed | TilesRemixed | BankOffered
    | BankDeclined | BankAccepted | CoBankRequested | TilesCut | DealerWagerAgainstBank
    | WagerPlaced | WagerWithdrawn | NoMoreBets | ShakerShaken | DiceRevealed
    | RngNumberShown | NoRollCalled | DeliveryStyleChosen | StackDelivered
    | UnwageredStacksCollected | TileExposed | HandVoided | HandSet | Surrendered
    | HandsRevealed | WagerSettled | DealerWagerSettled | BankShortfallCollected
    | BankSurplusSettled | CoBankSplit | CollectionFeeTaken | RoundVoided | RoundCompleted
    | ShoeShuffled | ShoeCut | ShoeLoaded | CardBurned | B21WagerPlaced | CoverCardAppeared
    | CardFoundFaceUp | B21CardDealt | B21WagerSettled | B21RoundVoided
    | OpenerRecorded | FillRecorded | CreditRecorded | BuyInRecorded | CloserRecorded
    | DropBoxExchanged | DropCounted | SequenceGapObserved | EventIdReused,
    Field(discriminator="type"),
]  # fmt: skip
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(AnyEvent)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def _wager_placed_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Add `kind: pai_gow`: before Pair Fortunes (PA 621a.8(j), 2019) every wager was Pai Gow."""
    return {**data, "kind": "pai_gow", "schema_version": 2}


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("wager_placed", 1): _wager_placed_v1_to_v2,
}
"""(type, version) -> a function that rewrites that version's dict as the next version."""


class InvalidEventError(ValueError):
    """Raised for input that is not a valid event; the message names the event and field."""

    def __init__(
        self, message: str, event_type: str | None = None, event_id: str | None = None
    ) -> None:
        super().__init__(message)
        self.event_type = event_type
        self.event_id = event_id


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """Rewrite an event dict of an older ``schema_version`` as the current version."""
    event_class = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if event_class is None:
        return data
    version = data.get("schema_version", event_class.SCHEMA_VERSION)
    while isinstance(version, int) and version < event_class.SCHEMA_VERSION:
        step = UPCASTERS.get((data["type"], version))
        if step is None:
            break  # validation then reports the version it cannot read
        data = step(data)
        version = data["schema_version"]
    return data


def _location(loc: tuple[int | str, ...]) -> str:
    # The first element of a discriminated union's location is the type tag itself.
    parts = [str(p) for p in loc[1:]] if loc and loc[0] in EVENT_TYPES else [str(p) for p in loc]
    return ".".join(parts) or "event"


_PLAINER = {
    "unexpected_keyword_argument": "Extra inputs are not permitted",
    "missing_keyword_only_argument": "Field required",
}
"""A dataclass's errors in the words of a message's fields, not of a Python call."""


def _describe(error: ValidationError, data: dict[str, Any]) -> str:
    kind = data.get("type", "?")
    event_id = data.get("event_id", "?")
    problems = "; ".join(
        f"{_location(e['loc'])}: {_PLAINER.get(e['type'], e['msg'])}" for e in error.errors()
    )
    return f"{kind} event {event_id}: {problems}"


def parse_event(raw: bytes | str | dict[str, Any]) -> Event:
    """Return the validated, current-version event for what arrived, or raise InvalidEventError."""
    if isinstance(raw, bytes | str):
        if len(raw) > MAX_EVENT_BYTES:
            raise InvalidEventError(f"message of {len(raw)} bytes exceeds {MAX_EVENT_BYTES}")
        try:  # the fast path: current-version events validate straight from the bytes
            return EVENT_ADAPTER.validate_json(raw)
        except ValidationError:
            pass  # an older version to upcast, or bad input: the dict path says which
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise InvalidEventError(f"not JSON: {error}") from None
    else:
        data = raw
    if not isinstance(data, dict):
        raise InvalidEventError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise InvalidEventError(
            f"unknown event type {kind!r} (event {data.get('event_id', '?')})",
            event_id=str(data.get("event_id")),
        )
    data = upcast(data)
    try:
        return EVENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise InvalidEventError(
            _describe(error, data), event_type=kind, event_id=str(data.get("event_id"))
        ) from None


def event_json(event: Event) -> str:
    """Return the event as compact JSON, fields in declaration order."""
    # Each event class's own serializer (pydantic builds one per dataclass): not the union's,
    # which would first have to find the member the event is.
    return type(event).__pydantic_serializer__.to_json(event).decode()  # type: ignore[attr-defined,no-any-return]


def event_dict(event: Event) -> dict[str, Any]:
    """Return the event as a JSON-ready dict (the form stored and hashed)."""
    return type(event).__pydantic_serializer__.to_python(event, mode="json")  # type: ignore[attr-defined,no-any-return]


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema of the whole catalogue, generated from the models."""
    return EVENT_ADAPTER.json_schema()
