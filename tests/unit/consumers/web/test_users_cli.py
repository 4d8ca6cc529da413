"""``tablewatch users add``: a first user from the command line; mistakes in one line."""

import io

import pytest

from consumers.cli import main


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_generated_password_is_printed_once_and_works(data_dir, capsys):
    assert main(["users", "add", "ann", "--role", "analyst"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("added analyst 'ann'\npassword: ")
    password = out.split("password: ")[1].split()[0]
    from audit.store.application import FactStore, StoreConfig
    from consumers.web.auth import authenticate
    from consumers.web.db import WebDB

    db = WebDB(FactStore(StoreConfig.sqlite(data_dir / "tablewatch.sqlite")))
    assert authenticate(db, "ann", password).role == "analyst"
    assert main(["users", "list"]) == 0
    assert "ann" in capsys.readouterr().out


def test_a_password_from_stdin_is_not_printed(data_dir, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a password from a file\n"))
    assert main(["users", "add", "aud", "--role", "auditor", "--password-stdin"]) == 0
    assert capsys.readouterr().out == "added auditor 'aud'\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["users", "add", "bob", "--role", "boss"], "role must be one of analyst, auditor, admin"),
        (["users", "add", "Bob", "--role", "admin"], "a user name is 1 to 64 lowercase"),
    ],
)
def test_a_mistake_is_one_line_and_a_non_zero_exit(data_dir, capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tablewatch: {message}")
    assert err.count("\n") == 1
