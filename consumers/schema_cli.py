"""``tablewatch schema``: the event catalogue's JSON Schema, or its Markdown reference."""

from __future__ import annotations

import argparse
import json
from typing import Any

from audit.events.catalogue import json_schema
from audit.events.reference import render_markdown


def register(commands: Any) -> None:
    """Add the ``schema`` command."""
    schema = commands.add_parser("schema", help="print the event catalogue's JSON Schema")
    schema.add_argument("--markdown", action="store_true", help="print docs/events.md instead")
    schema.set_defaults(handler=_schema)


def _schema(args: argparse.Namespace) -> None:
    if args.markdown:
        print(render_markdown(), end="")
    else:
        print(json.dumps(json_schema(), indent=2))
