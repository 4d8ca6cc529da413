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
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved, B21WagerSettled
from audit.events.envelope import ARRIVING, Event
from audit.events.ingest import INGEST, INGEST_EVENTS, EventIdReused, SequenceGapObserved
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
    B21WagerPlaced, B21WagerRemoved, CoverCardAppeared, CardFoundFaceUp, B21CardDealt,
    B21WagerSettled, B21RoundVoided,
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
    | ShoeShuffled | ShoeCut | ShoeLoaded | CardBurned | B21WagerPlaced | B21WagerRemoved
    | CoverCardAppeared
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


REASON_MAX_CHARS = 2_000
"""The longest reason an InvalidEventError gives: the input it quotes is cut, not the verdict."""


def _printable(message: str) -> str:
    """Return ``message`` safe to encode as UTF-8 (a lone surrogate escaped) and of bounded size.

    >>> _printable("bad id '\\ud800'")
    "bad id '\\\\ud800'"
    """
    if len(message) > REASON_MAX_CHARS:
        message = message[: REASON_MAX_CHARS - 1] + "…"
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


class InvalidEventError(ValueError):
    """Raised for input that is not a valid event; the message names the event and field.

    The message quotes what arrived, so it is escaped and cut to stay a reason that
    a dead letter's header and the store can always carry.
    """

    def __init__(
        self, message: str, event_type: str | None = None, event_id: str | None = None
    ) -> None:
        super().__init__(_printable(message))
        self.event_type = event_type
        self.event_id = event_id


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """Rewrite an event dict of an older ``schema_version`` as the current version."""
    kind = data.get("type")
    event_class = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
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


def parse_event(raw: bytes | str | dict[str, Any], context: dict[str, Any] | None = None) -> Event:
    """Return the validated, current-version event for what arrived, or raise InvalidEventError.

    Nothing else escapes for any input, however large, deep or strange: the ingest
    relies on that to dead-letter a message and go on. ``context`` is pydantic's
    validation context (``{ARRIVING: True}`` applies the wire rules; see
    :func:`parse_arriving`).
    """
    if isinstance(raw, bytes | str):
        if len(raw) > MAX_EVENT_BYTES:
            raise InvalidEventError(f"message of {len(raw)} bytes exceeds {MAX_EVENT_BYTES}")
        try:  # the fast path: current-version events validate straight from the bytes
            return EVENT_ADAPTER.validate_json(raw, context=context)
        except ValidationError as error:
            # pydantic's parser is the strict one: UTF-8 only, no lone surrogate, nesting
            # and numbers bounded. What it cannot read is not JSON, whatever json.loads says.
            syntax = error.errors()[0]
            if syntax["type"] == "json_invalid":
                raise InvalidEventError(
                    f"{_not_utf8(raw) or 'not JSON'}: {syntax['msg']}"
                ) from None
            # Otherwise an older version to upcast, or bad fields: the dict path says which.
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise InvalidEventError(f"not JSON: {error}") from None
    else:
        data = raw
    if not isinstance(data, dict):
        raise InvalidEventError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise InvalidEventError(
            f"unknown event type {kind!r} (event {data.get('event_id', '?')!r})",
            event_id=str(data.get("event_id")),
        )
    data = upcast(data)
    try:
        return EVENT_ADAPTER.validate_python(data, context=context)
    except ValidationError as error:
        raise InvalidEventError(
            _describe(error, data), event_type=kind, event_id=str(data.get("event_id"))
        ) from None


def _not_utf8(raw: bytes | str) -> str | None:
    """Say why ``raw`` is not UTF-8 text (a UTF-16 message, say), or None if it is."""
    if isinstance(raw, str):
        return None
    if raw.startswith(b"\xef\xbb\xbf"):
        return "not UTF-8 without a byte-order mark"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"not UTF-8 ({error.reason} at byte {error.start})"
    return None


_WIRE = {ARRIVING: True}
_NUL_ESCAPE = "\\u0000"


def parse_arriving(raw: bytes | str) -> Event:
    """Return the event a producer sent, held to the wire rules of docs/events.md.

    Beyond :func:`parse_event`: money only as a decimal string of at most two
    decimals, no NUL in any text (PostgreSQL's text cannot hold one), and none of
    the ingest's own facts: only the ingest observes gaps and reused ids, and a
    producer's claim to be the ingest would be taken for its observation.

    >>> from audit.events.examples import EXAMPLES
    >>> parse_arriving(json.dumps({**EXAMPLES["wager_placed"], "amount": 25}))
    Traceback (most recent call last):
    ...
    audit.events.catalogue.InvalidEventError: ...: amount: ...money is a decimal string ...
    """
    event = parse_event(raw, _WIRE)
    if type(event) in INGEST_EVENTS or event.recorded_by == INGEST:
        raise InvalidEventError(
            f"{event.type_name()} event {str(event.event_id)!r}: recorded_by {INGEST!r} and the "
            f"types {sorted(c.type_name() for c in INGEST_EVENTS)!r} are the ingest's own",
            event_type=event.type_name(),
            event_id=str(event.event_id),
        )
    escaped = _NUL_ESCAPE.encode() in raw if isinstance(raw, bytes) else _NUL_ESCAPE in raw
    if escaped and _has_nul(json.loads(raw)):  # rare: look closely only then
        raise InvalidEventError(
            f"{event.type_name()} event {str(event.event_id)!r}: text holds a NUL character",
            event_type=event.type_name(),
            event_id=str(event.event_id),
        )
    return event


def _has_nul(value: Any) -> bool:
    """Return whether any string in a JSON value, keys included, holds a NUL."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


def event_json(event: Event) -> str:
    """Return the event as compact JSON, fields in declaration order."""
    # Each event class's own serializer (pydantic builds one per dataclass): not the union's,
    # which would first have to find the member the event is.
    return type(event).__pydantic_serializer__.to_json(event).decode()  # type: ignore[attr-defined]


def event_dict(event: Event) -> dict[str, Any]:
    """Return the event as a JSON-ready dict (the form stored and hashed)."""
    return type(event).__pydantic_serializer__.to_python(event, mode="json")  # type: ignore[attr-defined]


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema of the whole catalogue, generated from the models."""
    return EVENT_ADAPTER.json_schema()
