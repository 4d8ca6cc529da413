"""deploy/compose.yaml as Docker Compose itself reads it (``docker compose config``).

Compose needs no daemon to resolve and validate a file, only its command: the ``docker
compose`` plugin. Where it is missing (here the docker CLI has no plugins) the tests skip, and
tests/unit/test_deploy.py still checks what the file names. The old Python
``docker-compose`` (1.x, Debian's package) is no judge: it refuses the file's top-level
``name``, which the Compose specification allows.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

COMPOSE_FILE = Path(__file__).resolve().parents[2] / "deploy" / "compose.yaml"
PASSWORDS = ("TABLEWATCH_DB_PASSWORD", "TABLEWATCH_OWNER_PASSWORD",
             "TABLEWATCH_INGEST_PASSWORD", "TABLEWATCH_REPORT_PASSWORD")  # fmt: skip


def _compose() -> list[str] | None:
    """Return the command that runs Compose here, or None."""
    docker = shutil.which("docker")
    if docker is None:
        return None
    probe = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
    return [docker, "compose"] if probe.returncode == 0 else None


COMPOSE = _compose()
pytestmark = pytest.mark.skipif(COMPOSE is None, reason="no docker compose plugin")


def config(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    assert COMPOSE is not None
    clean = {k: v for k, v in os.environ.items() if k not in PASSWORDS}
    return subprocess.run(
        [*COMPOSE, "-f", str(COMPOSE_FILE), "--profile", "split", "config", *args],
        env={**clean, **env}, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


def test_compose_accepts_the_file_with_its_passwords_set():
    result = config(dict.fromkeys(PASSWORDS, "pw-123"))
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    assert {"kafka", "postgres", "ingest", "ingest-west"} <= set(resolved["services"])
    ingest = resolved["services"]["ingest"]["environment"]
    assert ingest["DATABASE_URL"].startswith("postgresql://tablewatch_ingest:pw-123@")


def test_compose_refuses_the_file_without_a_password_and_names_it():
    result = config({name: "pw-123" for name in PASSWORDS[1:]}, "--quiet")
    assert result.returncode != 0
    assert PASSWORDS[0] in result.stderr
