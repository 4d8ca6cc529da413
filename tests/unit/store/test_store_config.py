"""The PostgreSQL location: read by libpq's rules, every option kept, no password shown."""

import pytest

from audit.store.application import StoreConfig, StoreConfigError, mask_password


def test_a_percent_encoded_password_with_a_slash_is_read_and_never_shown():
    config = StoreConfig.postgres("postgresql://audit:pa%2Fss@db:5433/tw")
    env = config.env()
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("audit", "pa/ss")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db",
        "5433",
        "tw",
    )
    assert "pa" not in config.describe().split("@")[0].split(":")[-1]


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://audit:a/b@db/tw",
        "postgresql://audit@db/tw?password=hunter2&sslmode=require",
        "postgresql://audit:hunter2@db/tw",
    ],
)
def test_every_password_is_masked(url):
    assert "hunter2" not in mask_password(url)
    assert "a/b" not in mask_password(url)


def test_a_password_in_the_query_is_used():
    env = StoreConfig.postgres("postgresql://audit@db/tw?password=hunter2").env()
    assert env["POSTGRES_PASSWORD"] == "hunter2"


def test_tls_options_reach_libpq():
    config = StoreConfig.postgres(
        "postgresql://audit@db/tw?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=tw"
    )
    assert config.libpq_env() == {
        "PGSSLMODE": "verify-full",
        "PGSSLROOTCERT": "/etc/ca.pem",
        "PGAPPNAME": "tw",
    }


def test_an_option_the_store_cannot_pass_on_is_refused_by_name():
    with pytest.raises(StoreConfigError, match="'hostaddr'"):
        StoreConfig.postgres("postgresql://audit@db/tw?hostaddr=10.0.0.1")


@pytest.mark.parametrize("url", ["mysql://db/tw", "postgresql://audit:hunter2@db"])
def test_a_url_that_is_no_database_is_refused_without_its_password(url):
    with pytest.raises(StoreConfigError) as error:
        StoreConfig.postgres(url)
    assert "hunter2" not in str(error.value)
