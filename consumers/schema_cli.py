"""``tablewatch schema``: the event catalogue's JSON Schema, or its Markdown reference; the
finding catalogue's reference and which kinds apply under which rule set."""

from __future__ import annotations

import argparse
import json
from typing import Any

from audit.events.catalogue import json_schema
from audit.events.reference import render_markdown
from audit.floor import reference as findings_reference


def register(commands: Any) -> None:
    """Add the ``schema`` command."""
    schema = commands.add_parser("schema", help="print the event catalogue's JSON Schema")
    schema.add_argument("--markdown", action="store_true", help="print docs/events.md instead")
    schema.add_argument(
        "--findings", action="store_true", help="print docs/findings.md, the finding catalogue"
    )
    schema.add_argument(
        "--findings-by-rule-set",
        action="store_true",
        help=(
            "print which finding kinds apply under which rule set"
            " (tests/unit/floor/kinds_by_rule_set.json)"
        ),
    )
    schema.set_defaults(handler=_schema)


def _schema(args: argparse.Namespace) -> None:
    if args.findings:
        print(findings_reference.render_markdown(), end="")
    elif args.findings_by_rule_set:
        print(findings_reference.render_kinds_by_rule_set(), end="")
    elif args.markdown:
        print(render_markdown(), end="")
    else:
        print(json.dumps(json_schema(), indent=2))
