"""Render the event catalogue as Markdown: docs/events.md is this function's output."""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from audit.events.catalogue import EVENT_CLASSES, UPCASTERS
from audit.events.envelope import Event, event_fields
from audit.events.examples import EXAMPLES

_INTRO = """\
# The event catalogue

Every table action is an immutable event: a frozen pydantic dataclass with a stable
`type` and an explicit `schema_version` (`audit/events/`). Events arrive on the
Kafka topic `table-events`, keyed by `table_id`, as UTF-8 JSON objects.

This page is generated from the models: `tablewatch schema --markdown > docs/events.md`.
A test fails if it drifts. `tablewatch schema` prints the JSON Schema of the whole catalogue.

## The envelope

| field | meaning |
|---|---|
| `event_id` | UUID of this fact; an exact repeat is dropped, a reuse with other content flagged |
| `table_id` | the table; the Kafka key, so one table's events stay in order |
| `round_id` | the round; absent on table-level events, required on round events |
| `seq` | per-table sequence number, +1 per event; the ingest records gaps and reorders as facts |
| `occurred_at` | when it happened, with a UTC offset (stored in UTC) |
| `recorded_by` | the device or employee that recorded it |
| `schema_version` | the payload's version; older versions are upcast on read |
| `type` | the event type, below |

Money is a decimal string of dollars, exact to the cent, never negative: the
field name says which way it moved. `table_opened` names the table's game
(`paigow` or `baccarat21`); each game has its own round events beside the ones
every game shares (`round_started`, `round_completed`), and the accounting events
(slips, buy-ins, drop and count) are the same for every game.

- **Pai Gow Tiles.** Tiles are physical tiles: `6-6a` and `6-6b` are the two
  Teens. A matched kind needs its copy letter, and a device that cannot tell
  copies apart assigns `a` and `b` in order of appearance. Positions are `0` (the
  dealer, or the California player-dealer), `1`-`6` (the betting positions,
  counterclockwise from the dealer's right; California seats `1`-`7` clockwise)
  and `7` (the Dead Hand on PA and NJ tables).
- **21 Baccarat.** Cards are rank and suit, `AS`, `TD`, `7H` (`10h` is read as
  `TH`); seats are `1`-`8` (PA 681a.2(a)). The `b21_` events are this game's own.
- **The count room** records as a station of its own: its `table_id` is the count
  room's, and each count names the table in `for_table_id`.

A fact that breaks a gaming rule is still a valid event: it is stored and
judged later. Only input that is not a valid event goes to `table-events.dlq`.

## On the wire

What a producer sends is held to these rules; a message that breaks one is refused
with a reason naming the field, sent to `table-events.dlq` and kept among the
store's rejections, and the ingest goes on with the next message.

- **Bytes.** One JSON object in UTF-8, without a byte-order mark, at most 64 KiB,
  nested at most 200 deep. A lone surrogate (`"\\ud800"`) is not text.
- **Text.** No NUL character in any string.
- **Money.** A decimal string of dollars with at most two decimal places and no
  sign, exponent or leading zeros: `"25"`, `"25.5"` and `"25.50"`, never `25`,
  `25.5`, `"1E+2"` or `"-0.00"`.
- **`seq`.** A JSON integer from 0 to 2^63 - 1: never `"7"`, `7.0` or `true`.
- **The ingest's own facts.** `sequence_gap_observed` and `event_id_reused`, and
  `recorded_by: "tablewatch-ingest"`, are the ingest's alone: a producer's are refused.

A dead letter keeps the message's value whole up to 512 KiB; a larger one keeps its
first 512 KiB, with `x-source-size` and `x-source-sha256` naming the whole. Facts
read back from the store are not held to the wire rules again, so a fact stored
under earlier rules still reads.

## Versions and upcasting
"""


def _upcasting() -> str:
    lines = ["| type | from | to | how |", "|---|---|---|---|"]
    for (kind, version), step in sorted(UPCASTERS.items()):
        how = (step.__doc__ or "").strip() or "see audit/events/catalogue.py"
        lines.append(f"| `{kind}` | {version} | {version + 1} | {how} |")
    return "\n".join(lines)


def _type_of(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """Describe a JSON Schema node in a few words, e.g. ``list of tile``."""
    if "$ref" in schema:
        return _type_of(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "const" in schema:
        return f"`{schema['const']}`"
    if "enum" in schema:
        return " / ".join(f"`{value}`" for value in schema["enum"])
    if "anyOf" in schema:
        kinds = [_type_of(s, defs) for s in schema["anyOf"] if s.get("type") != "null"]
        nullable = any(s.get("type") == "null" for s in schema["anyOf"])
        return " or ".join(kinds) + (" or null" if nullable else "")
    kind = schema.get("type", "any")
    if kind == "array":
        items = schema.get("prefixItems") or [schema.get("items", {})]
        return "list of " + ", ".join(dict.fromkeys(_type_of(i, defs) for i in items))
    if kind == "string" and "6-6a" in str(schema.get("examples")):
        return "tile"
    if kind == "string" and "'AS'" in str(schema.get("examples")):
        return "card"
    return str(schema.get("format", kind))


def _fields(cls: type[Event]) -> str:
    schema = TypeAdapter(cls).json_schema()
    defs = schema.get("$defs", {})
    envelope = set(event_fields(Event))
    rows = []
    for name, info in event_fields(cls).items():
        if name in envelope or name == "type":
            continue
        described = _type_of(schema["properties"][name], defs)
        required = "required" if info.is_required() else "optional"
        note = (info.description or "").replace("|", "/")
        rows.append(f"| `{name}` | {described} | {required} | {note} |")
    if not rows:
        return "No fields beyond the envelope.\n"
    return "| field | type | | note |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"


def render_markdown() -> str:
    """Return docs/events.md: the envelope, the upcasters, and every type with an example."""
    parts = [_INTRO, _upcasting(), "\n\n## Event types\n"]
    for cls in EVENT_CLASSES:
        kind = cls.type_name()
        level = "round" if cls.ROUND_LEVEL else "table"
        doc = " ".join((cls.__doc__ or "").split())
        example = json.dumps(EXAMPLES[kind], indent=2)
        parts.append(
            f"\n### `{kind}`\n\n{doc} *({level} level, schema version {cls.SCHEMA_VERSION})*\n\n"
            f"{_fields(cls)}\n```json\n{example}\n```\n"
        )
    return "".join(parts)
