"""The ``tablewatch`` command: one entry point, a subcommand per job.

Errors a person can fix (bad tiles, bad dice, an unknown rule set) end in one
line on stderr and exit status 2, never a bare traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from importlib import metadata
from types import ModuleType

from audit.facts.heads import HeadsFileError, HeadsKeyError
from audit.games.errors import RulesError
from audit.store.urls import StoreConfigError, StoreUnavailableError
from consumers.errors import TablewatchError
from consumers.logs import configure_logging

COMMANDS: dict[str, str] = {
    "run": "run_cli",
    "simulate": "run_cli",
    "rules": "rules_cli",
    "schema": "schema_cli",
    "score": "score_cli",
    "ingest": "store_cli",
    "verify-chain": "store_cli",
    "heads": "store_cli",
    "db": "store_cli",
    "verify": "verify_cli",
    "replay": "replay_cli",
    "alerts": "alerts_cli",
    "findings": "findings_cli",
    "fact": "fact_cli",
    "stats": "stats_cli",
    "equipment": "equipment_cli",
    "report": "report_cli",
    "serve": "serve_cli",
    "users": "users_cli",
}
"""Each command -> the module of ``consumers`` that registers it, in the order ``--help``
lists them. A run imports only its command's module: importing all of them (Kafka's
client, the web app, the store) cost about 0.9 s before any command began, a sixth of a
``verify FILE``, and the split's second process of ``serve`` paid it too (bench/cli_start.py;
tests/unit/consumers/test_cli.py holds this table to what the modules register)."""

USER_ERRORS = (
    RulesError,
    TablewatchError,
    StoreConfigError,
    StoreUnavailableError,
    HeadsFileError,
    HeadsKeyError,
)
"""Errors a person can fix: one line on stderr and exit status 2."""


def command_modules(argv: Sequence[str]) -> list[ModuleType]:
    """Return the modules to register for ``argv``: its command's alone, or every one when it
    does not start with a command that exists (``--help``, ``-h verify``, a typo), so argparse
    lists them all."""
    named = argv[0] if argv else None
    names = [COMMANDS[named]] if named in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    return [importlib.import_module(f"consumers.{name}") for name in names]


def _version() -> str:
    try:
        return metadata.version("tablewatch")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Build the argument parser: for ``argv``'s command only (see :data:`COMMANDS`), or for
    every command when ``argv`` is None or names none."""
    parser = argparse.ArgumentParser(
        prog="tablewatch",
        description="Audit and surveillance for casino table games.",
    )
    parser.add_argument("--version", action="version", version=f"tablewatch {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in command_modules([] if argv is None else argv):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        configure_logging()
        status = args.handler(args)
    except USER_ERRORS as error:
        print(f"tablewatch: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as SIGPIPE would
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail too
        return 128 + signal.SIGPIPE
    except OSError as error:  # a missing input file, an unwritable data directory
        where = f": {error.filename}" if error.filename else ""
        print(f"tablewatch: {error.strerror or error}{where}", file=sys.stderr)
        return 2
    except Exception as error:
        line = database_error_line(error)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status or 0


def database_error_line(error: Exception) -> str | None:
    """Return the one line for a database that refused or went away, or None for anything
    else (a defect, shown whole). Imported here, not at the start: only a command that opened
    a store can raise these, and it has imported both libraries already."""
    import sqlite3

    import psycopg
    from eventsourcing.persistence import ProgrammingError

    denied = error.__cause__ if isinstance(error, ProgrammingError) else error
    if isinstance(denied, psycopg.errors.InsufficientPrivilege):
        # A role without the grants this command needs (the reader running the ingest, say).
        reason = str(denied).strip().splitlines()[0]
        return (f"tablewatch: the database refused: {reason} (see 'tablewatch db migrate' "
                "and deploy/README.md, \"Database roles\")")  # fmt: skip
    if isinstance(error, psycopg.OperationalError):
        return f"tablewatch: database unreachable: {str(error).strip()}"
    sqlite = error if isinstance(error, sqlite3.OperationalError) else error.__cause__
    if isinstance(sqlite, sqlite3.OperationalError):
        reason = str(sqlite).strip()
        if any(said in reason for said in SQLITE_FILE_FAULTS):  # not SQL a defect got wrong
            return f"tablewatch: the SQLite store failed: {reason} (TABLEWATCH_DATA_DIR)"
    return None


SQLITE_FILE_FAULTS = ("readonly", "locked", "unable to open", "disk I/O", "disk is full")
"""What SQLite says of its file or its directory (a read-only copy, a full disk), rather than of
a statement: each a fault a person can mend, said in one line."""


if __name__ == "__main__":
    sys.exit(main())
