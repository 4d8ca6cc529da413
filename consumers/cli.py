"""The ``tablewatch`` command: one entry point, a subcommand per job.

Errors a person can fix (bad tiles, bad dice, an unknown rule set) end in one
line on stderr and exit status 2, never a bare traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from importlib import metadata

import psycopg
from eventsourcing.persistence import ProgrammingError

from audit.facts.heads import HeadsFileError, HeadsKeyError
from audit.games.errors import RulesError
from audit.store.application import StoreConfigError, StoreUnavailableError
from consumers import (
    alerts_cli,
    equipment_cli,
    fact_cli,
    findings_cli,
    replay_cli,
    report_cli,
    rules_cli,
    run_cli,
    schema_cli,
    score_cli,
    serve_cli,
    stats_cli,
    store_cli,
    users_cli,
    verify_cli,
)
from consumers.errors import TablewatchError
from consumers.logs import configure_logging


def _version() -> str:
    try:
        return metadata.version("tablewatch")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="tablewatch",
        description="Audit and surveillance for casino table games.",
    )
    parser.add_argument("--version", action="version", version=f"tablewatch {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run_cli.register(commands)
    rules_cli.register(commands)
    schema_cli.register(commands)
    score_cli.register(commands)
    store_cli.register(commands)
    verify_cli.register(commands)
    replay_cli.register(commands)
    alerts_cli.register(commands)
    findings_cli.register(commands)
    fact_cli.register(commands)
    stats_cli.register(commands)
    equipment_cli.register(commands)
    report_cli.register(commands)
    serve_cli.register(commands)
    users_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        configure_logging()
        status = args.handler(args)
    except (
        RulesError,
        TablewatchError,
        StoreConfigError,
        StoreUnavailableError,
        HeadsFileError,
        HeadsKeyError,
    ) as error:
        print(f"tablewatch: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as SIGPIPE would
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail too
        return 128 + signal.SIGPIPE
    except (ProgrammingError, psycopg.errors.InsufficientPrivilege) as error:
        denied = error if not isinstance(error, ProgrammingError) else error.__cause__
        if not isinstance(denied, psycopg.errors.InsufficientPrivilege):
            raise
        # A role without the grants this command needs (the reader running the ingest, say).
        reason = str(denied).strip().splitlines()[0]
        print(f"tablewatch: the database refused: {reason} (see 'tablewatch db migrate' "
              "and deploy/README.md, \"Database roles\")", file=sys.stderr)  # fmt: skip
        return 2
    except psycopg.OperationalError as error:
        print(f"tablewatch: database unreachable: {str(error).strip()}", file=sys.stderr)
        return 2
    except OSError as error:  # a missing input file, an unwritable data directory
        print(f"tablewatch: {error.strerror or error}: {error.filename or ''}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
