"""Build three PostgreSQL roles (owner, writer, reader) on a fresh database, and migrate it
as the owner granting the others."""

from consumers.cli import main


def role_name(url):
    return url.split("//", 1)[1].split("@", 1)[0]


def as_role(monkeypatch, url, tmp_path):
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "unused"))


def migrate_with_roles(monkeypatch, roles, tmp_path, capsys):
    as_role(monkeypatch, roles["owner"], tmp_path)
    writer, reader = role_name(roles["writer"]), role_name(roles["reader"])
    assert main(["db", "migrate", "--writer", writer, "--reader", reader]) == 0
    assert "migrated" in capsys.readouterr().out
