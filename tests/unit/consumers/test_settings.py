"""Settings.from_env: defaults, parsing, and errors that name the variable and quote the value."""

import os
from pathlib import Path

import pytest

from consumers.errors import ConfigError, TablewatchError
from consumers.kafka_io import client_config
from consumers.settings import SecretUrl, Settings, kafka_connection, mask_password
from consumers.wiring import kafka


def test_an_empty_environment_gives_the_defaults():
    settings = Settings.from_env({})
    assert settings == Settings()
    assert settings.kafka_bootstrap_servers is None
    assert settings.database_url is None
    assert settings.data_dir == Path("data")
    assert (settings.events_topic, settings.dlq_topic, settings.alerts_topic) == (
        "table-events",
        "table-events.dlq",
        "table-alerts",
    )
    assert (settings.partitions, settings.batch_size, settings.poll_timeout_ms) == (4, 500, 1000)
    assert settings.fault_deadline_s == 300


def test_every_variable_is_read():
    settings = Settings.from_env(
        {
            "KAFKA_BOOTSTRAP_SERVERS": " kafka-1:9092, kafka-2:9092 ",
            "DATABASE_URL": "postgresql://audit:pw@db:5432/tablewatch",
            "TABLEWATCH_DATA_DIR": "/var/lib/tablewatch",
            "TABLEWATCH_PARTITIONS": "12",
            "TABLEWATCH_BATCH_SIZE": "100",
            "TABLEWATCH_POLL_TIMEOUT_MS": "0",
            "TABLEWATCH_FAULT_DEADLINE_S": "45",
        }
    )
    assert settings.fault_deadline_s == 45
    assert (settings.serve_processes, settings.split_backlog, settings.pass_batch) == (
        2 if os.cpu_count() > 1 else 1,
        50_000,
        10_000,
    )
    assert settings.kafka_bootstrap_servers == "kafka-1:9092,kafka-2:9092"
    assert settings.database_url.get_secret_value() == "postgresql://audit:pw@db:5432/tablewatch"
    assert settings.data_dir == Path("/var/lib/tablewatch")
    assert (settings.partitions, settings.batch_size, settings.poll_timeout_ms) == (12, 100, 0)


def test_blank_variables_count_as_unset():
    blank = {
        name: "  "
        for name in (
            "KAFKA_BOOTSTRAP_SERVERS",
            "DATABASE_URL",
            "TABLEWATCH_DATA_DIR",
            "TABLEWATCH_PARTITIONS",
        )
    }
    assert Settings.from_env(blank) == Settings()


def test_settings_are_frozen():
    with pytest.raises(AttributeError):
        Settings().partitions = 8


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            {"TABLEWATCH_PARTITIONS": "four"},
            "TABLEWATCH_PARTITIONS must be a whole number, not 'four'",
        ),
        (
            {"TABLEWATCH_PARTITIONS": "2.5"},
            "TABLEWATCH_PARTITIONS must be a whole number, not '2.5'",
        ),
        ({"TABLEWATCH_PARTITIONS": "0"}, "TABLEWATCH_PARTITIONS must be at least 1, not '0'"),
        ({"TABLEWATCH_BATCH_SIZE": "-5"}, "TABLEWATCH_BATCH_SIZE must be at least 1, not '-5'"),
        (
            {"TABLEWATCH_SERVE_PROCESSES": "3"},
            "TABLEWATCH_SERVE_PROCESSES must be at most 2, not '3'",
        ),
        (
            {"TABLEWATCH_SPLIT_BACKLOG": "0"},
            "TABLEWATCH_SPLIT_BACKLOG must be at least 1, not '0'",
        ),
        (
            {"TABLEWATCH_CHAIN_FULL_WALK_HOURS": "0"},
            "TABLEWATCH_CHAIN_FULL_WALK_HOURS must be at least 1, not '0'",
        ),
        (
            {"TABLEWATCH_PASS_BATCH": "0"},
            "TABLEWATCH_PASS_BATCH must be at least 1, not '0'",
        ),
        (
            {"TABLEWATCH_PASS_BATCH": "1000000000"},
            "TABLEWATCH_PASS_BATCH must be at most 100,000, not '1000000000'",
        ),
        (
            {"TABLEWATCH_BATCH_SIZE": "1000000"},
            "TABLEWATCH_BATCH_SIZE must be at most 10,000, not '1000000'",
        ),
        (
            {"TABLEWATCH_POLL_TIMEOUT_MS": "soon"},
            "TABLEWATCH_POLL_TIMEOUT_MS must be a whole number, not 'soon'",
        ),
        (
            {"TABLEWATCH_FAULT_DEADLINE_S": "0"},
            "TABLEWATCH_FAULT_DEADLINE_S must be at least 1, not '0'",
        ),
        (
            {"TABLEWATCH_FAULT_DEADLINE_S": "5m"},
            "TABLEWATCH_FAULT_DEADLINE_S must be a whole number, not '5m'",
        ),
        (
            {"DATABASE_URL": "sqlite:///data/audit.db"},
            "DATABASE_URL must be a postgresql:// URL, not 'sqlite:///data/audit.db'",
        ),
        (
            {"KAFKA_BOOTSTRAP_SERVERS": "kafka:port"},
            "KAFKA_BOOTSTRAP_SERVERS has a port that is not 1 to 65535 in 'kafka:port'",
        ),
        (
            {"KAFKA_BOOTSTRAP_SERVERS": "kafka:70000"},
            "KAFKA_BOOTSTRAP_SERVERS has a port that is not 1 to 65535 in 'kafka:70000'",
        ),
        (
            {"KAFKA_BOOTSTRAP_SERVERS": "kafka:"},
            "KAFKA_BOOTSTRAP_SERVERS has a port that is not 1 to 65535 in 'kafka:'",
        ),
        (
            {"KAFKA_BOOTSTRAP_SERVERS": "kafka-1:9092,,kafka-2:9092"},
            "KAFKA_BOOTSTRAP_SERVERS has an empty host in 'kafka-1:9092,,kafka-2:9092'",
        ),
    ],
)
def test_a_bad_value_names_the_variable_and_quotes_the_value(environ, message):
    with pytest.raises(ConfigError) as caught:
        Settings.from_env(environ)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, TablewatchError)


def test_both_postgres_schemes_are_accepted():
    for url in ("postgresql://db/tw", "postgres://db/tw", "postgresql:///tw?host=/run/pg"):
        assert Settings.from_env({"DATABASE_URL": url}).database_url.get_secret_value() == url


def test_the_password_stays_out_of_reprs_and_error_messages():
    url = "postgresql://audit:hunter2@db:5432/tablewatch?sslmode=require"
    settings = Settings.from_env({"DATABASE_URL": url})
    assert "hunter2" not in repr(settings)
    assert "hunter2" not in str(settings.database_url)
    assert repr(settings.database_url) == (
        "SecretUrl('postgresql://audit:***@db:5432/tablewatch?sslmode=require')"
    )
    assert settings.database_url.get_secret_value() == url

    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"DATABASE_URL": "mysql://audit:hunter2@db/tablewatch"})
    assert "hunter2" not in str(caught.value)
    assert "'mysql://audit:***@db/tablewatch'" in str(caught.value)


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgresql://audit:hunter2@db/tw", "postgresql://audit:***@db/tw"),
        ("postgresql://:hunter2@db/tw", "postgresql://:***@db/tw"),
        ("postgresql://audit:hun/ter2@db/tw", "postgresql://audit:***@db/tw"),
        ("postgresql://db/tw?user=a&password=hunter2", "postgresql://db/tw?user=a&password=***"),
        ("postgresql://audit@db:5432/tw", "postgresql://audit@db:5432/tw"),
        ("postgresql://db:5432/tw", "postgresql://db:5432/tw"),
    ],
)
def test_mask_password_hides_every_password_and_nothing_else(url, masked):
    assert mask_password(url) == masked


def test_secret_urls_compare_by_value():
    assert SecretUrl("postgresql://a:b@c/d") == SecretUrl("postgresql://a:b@c/d")
    assert SecretUrl("postgresql://a:b@c/d") != SecretUrl("postgresql://a:x@c/d")
    assert len({SecretUrl("postgresql://c/d"), SecretUrl("postgresql://c/d")}) == 1


@pytest.mark.parametrize(
    ("raw", "chosen"), [("3", (3,)), ("0-2,7", (0, 1, 2, 7)), (" 5 , 1-2 ", (1, 2, 5))]
)
def test_ingest_partitions_are_read_as_lists_and_ranges(raw, chosen):
    settings = Settings.from_env({"TABLEWATCH_INGEST_PARTITIONS": raw})
    assert settings.ingest_partitions == chosen


@pytest.mark.parametrize("raw", ["a", "1-", "-1", "5-2", "1;2"])
def test_bad_ingest_partitions_name_the_variable(raw):
    with pytest.raises(ConfigError, match="TABLEWATCH_INGEST_PARTITIONS"):
        Settings.from_env({"TABLEWATCH_INGEST_PARTITIONS": raw})


def test_kafka_tls_and_sasl_come_from_the_environment_and_stay_out_of_the_repr():
    settings = Settings.from_env(
        {
            "KAFKA_BOOTSTRAP_SERVERS": "k1:9093,k2:9093",
            "KAFKA_SECURITY_PROTOCOL": "sasl_ssl",
            "KAFKA_SASL_MECHANISM": "scram-sha-256",
            "KAFKA_SASL_USERNAME": "tablewatch",
            "KAFKA_SASL_PASSWORD": "hunter2",
            "KAFKA_SSL_CAFILE": "/etc/kafka/ca.pem",
            "KAFKA_SSL_CHECK_HOSTNAME": "true",
        }
    )
    config = client_config(kafka_connection(settings))
    assert config == {
        "bootstrap_servers": "k1:9093,k2:9093",
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "SCRAM-SHA-256",
        "sasl_plain_username": "tablewatch",
        "sasl_plain_password": "hunter2",
        "ssl_cafile": "/etc/kafka/ca.pem",
        "ssl_check_hostname": True,
    }
    assert "hunter2" not in repr(settings)
    assert "hunter2" not in repr(kafka_connection(settings))


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"KAFKA_SECURITY_PROTOCOL": "TLS"}, "KAFKA_SECURITY_PROTOCOL"),
        ({"KAFKA_SASL_MECHANISM": "GSSAPI"}, "KAFKA_SASL_MECHANISM"),
        ({"KAFKA_SECURITY_PROTOCOL": "SASL_SSL"}, "KAFKA_SASL_USERNAME"),
        ({"KAFKA_SSL_CHECK_HOSTNAME": "maybe"}, "KAFKA_SSL_CHECK_HOSTNAME"),
        ({"TABLEWATCH_ENV": "prod"}, "TABLEWATCH_ENV"),
        ({"TABLEWATCH_EVENTS_TOPIC": "table events"}, "TABLEWATCH_EVENTS_TOPIC"),
        ({"TABLEWATCH_REPLICATION_FACTOR": "0"}, "TABLEWATCH_REPLICATION_FACTOR"),
    ],
)
def test_bad_kafka_and_deployment_settings_name_the_variable(environ, named):
    with pytest.raises(ConfigError, match=named):
        Settings.from_env(environ)


def test_topic_names_and_replication_factor_are_settings():
    settings = Settings.from_env(
        {"TABLEWATCH_EVENTS_TOPIC": "pit3.events", "TABLEWATCH_REPLICATION_FACTOR": "3"}
    )
    assert (settings.events_topic, settings.dlq_topic) == ("pit3.events", "pit3.events.dlq")
    assert settings.replication_factor == 3
    assert Settings.from_env({}).replication_factor is None


def test_production_refuses_the_dev_broker():
    settings = Settings.from_env({"TABLEWATCH_ENV": "production"})
    with pytest.raises(ConfigError, match="needs KAFKA_BOOTSTRAP_SERVERS"), kafka(settings):
        pass


def test_the_casinos_time_zone_is_an_iana_name_and_defaults_to_utc():
    assert Settings.from_env({}).timezone == "UTC"
    assert Settings.from_env({"TABLEWATCH_TIMEZONE": "America/Los_Angeles"}).timezone == (
        "America/Los_Angeles"
    )
    with pytest.raises(ConfigError, match="TABLEWATCH_TIMEZONE must be an IANA time zone"):
        Settings.from_env({"TABLEWATCH_TIMEZONE": "Pacific Time"})


def test_secure_cookies_is_a_flag():
    assert Settings.from_env({}).secure_cookies is False
    assert Settings.from_env({"TABLEWATCH_SECURE_COOKIES": "true"}).secure_cookies is True
    with pytest.raises(ConfigError, match="TABLEWATCH_SECURE_COOKIES must be true or false"):
        Settings.from_env({"TABLEWATCH_SECURE_COOKIES": "sometimes"})


def test_serve_processes_split_backlog_and_pass_batch_are_read():
    settings = Settings.from_env(
        {
            "TABLEWATCH_SERVE_PROCESSES": "1",
            "TABLEWATCH_SPLIT_BACKLOG": "2000",
            "TABLEWATCH_PASS_BATCH": "750",
        }
    )
    assert (settings.serve_processes, settings.split_backlog, settings.pass_batch) == (
        1,
        2_000,
        750,
    )
