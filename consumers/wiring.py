"""Wire configuration to parts: which store, which broker. The one place that decides.

Nothing here runs at import time; each function is called by a command.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from audit.store.application import FactStore, StoreConfig
from consumers.settings import Settings

SQLITE_FILE = "tablewatch.sqlite"


def store_config(settings: Settings) -> StoreConfig:
    """Return PostgreSQL when ``DATABASE_URL`` is set, else the embedded SQLite file."""
    if settings.database_url is not None:
        return StoreConfig.postgres(settings.database_url.get_secret_value())
    return StoreConfig.sqlite(settings.data_dir / SQLITE_FILE)


def open_store(settings: Settings) -> FactStore:
    """Open (creating if need be) the fact store the settings name."""
    return FactStore(store_config(settings))


@contextmanager
def kafka(settings: Settings) -> Iterator[str]:
    """Yield bootstrap servers: the configured cluster, or a dev broker started for the job."""
    if settings.kafka_bootstrap_servers is not None:
        yield settings.kafka_bootstrap_servers
        return
    from consumers.devbroker import DevBroker  # the broker binary is only needed here

    with DevBroker() as broker:
        yield broker.bootstrap_servers
