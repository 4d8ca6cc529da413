"""``tablewatch users add NAME --role R``: bootstrap the web's users (``users list`` to see them).

The password comes from stdin with ``--password-stdin`` (never from the command line,
where ``ps`` and the shell's history would keep it), or is generated and printed once.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from consumers.settings import Settings
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``users`` command."""
    users = commands.add_parser("users", help="the web console's users and their roles")
    actions = users.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add a user: analyst, auditor or admin")
    add.add_argument("name", help="lowercase letters, digits, . _ -")
    add.add_argument("--role", required=True, help="analyst, auditor or admin")
    add.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from stdin (else one is generated and printed)",
    )
    add.set_defaults(handler=_add)
    listed = actions.add_parser("list", help="list users and roles")
    listed.set_defaults(handler=_list)


def _db() -> Any:
    from consumers.web.db import WebDB  # the web's imports, only for this command

    db = WebDB(open_store(Settings.from_env()))
    db.ensure_tables()
    return db


def _add(args: argparse.Namespace) -> int:
    from consumers.web.api.users import generated_password
    from consumers.web.auth import add_user, check_name, check_role

    check_name(args.name)
    check_role(args.role)  # both refused before a password is read or made
    stdin = args.password_stdin
    password = sys.stdin.readline().rstrip("\r\n") if stdin else generated_password()
    user = add_user(_db(), args.name, args.role, password)
    print(f"added {user.role} {user.name!r}")
    if not args.password_stdin:
        print(f"password: {password}  (shown this once)")
    return 0


def _list(args: argparse.Namespace) -> int:
    from consumers.web.auth import list_users

    for user in list_users(_db()):
        print(f"{user['name']:20} {user['role']:8} since {user['created_at']}")
    return 0
