"""``tablewatch serve`` as a real process: the API, the read models and the probes together."""

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]


def _run(env, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "consumers.cli", *args], env=env, cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)  # fmt: skip


def test_serve_answers_the_api_from_read_models_it_keeps_caught_up(tmp_path):
    data = tmp_path / "d"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(data)}
    env.pop("DATABASE_URL", None)
    events, _ = careless_shift(ShiftConfig(tables=3, rounds_per_table=12), random.Random(2033), 0.2)
    events = list(events)
    store = FactStore(StoreConfig.sqlite(data / "tablewatch.sqlite"))
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    added = _run(env, "users", "add", "ann", "--role", "analyst")
    assert added.returncode == 0, added.stderr
    password = re.search(r"password: (\S+)", added.stdout).group(1)
    port = free_port()
    service = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "serve", "--port", str(port), "--poll", "0.2"],
        env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert service.poll() is None, service.stderr.read()
            assert time.monotonic() < deadline, "never ready"
            try:
                if httpx.get(f"{base}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        assert "tablewatch_read_model_lag" in httpx.get(f"{base}/metrics").text
        with httpx.Client(base_url=base) as client:
            assert client.get("/api/floor").status_code == 401
            form = client.get("/login").text
            token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
            client.post("/login", data={"name": "ann", "password": password, "csrf_token": token})
            floor = client.get("/api/floor").json()
            assert len(floor["tables"]) == 3
            assert client.get("/api/findings").json()["total"] > 0
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=60) == 0
