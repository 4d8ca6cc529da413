"""The ``tablewatch`` command: one entry point, a subcommand per job.

Errors a person can fix (bad tiles, bad dice, an unknown rule set) end in one
line on stderr and exit status 2, never a bare traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from audit.games.errors import RulesError
from consumers import rules_cli, schema_cli


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="tablewatch",
        description="Audit and surveillance for casino table games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_cli.register(commands)
    schema_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        args.handler(args)
    except RulesError as error:
        print(f"tablewatch: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
