"""``tablewatch serve``'s process: the read models' loop beside the port."""

from fastapi import FastAPI

from consumers.web import server


class _Service:
    def __init__(self, calls):
        self.calls = calls

    def run(self, stopped, poll_s):
        self.calls.append("read models")


def test_served_runs_the_read_models_and_the_port(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(server._Server, "run", lambda self: calls.append("port"))
    served = server.Served(FastAPI(), _Service(calls), "127.0.0.1", 0, 1.0)
    served.run()
    assert sorted(calls) == ["port", "read models"]
