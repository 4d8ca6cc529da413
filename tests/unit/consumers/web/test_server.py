"""``tablewatch serve``'s process: Pai Gow's house-way tables are built before it serves."""

from fastapi import FastAPI

from audit.games.paigow import house_way
from audit.games.paigow.rulesets import RULE_SETS, build_house_way_tables
from consumers.web import server


def test_build_house_way_tables_builds_every_rule_set_s_table(monkeypatch):
    monkeypatch.setattr(house_way, "_TABLES", {})
    build_house_way_tables()
    for ruleset in RULE_SETS.values():
        assert (ruleset.house_way.name, ruleset.ranking.zero_hands_tie) in house_way._TABLES


class _Service:
    def __init__(self, calls):
        self.calls = calls

    def run(self, stopped, poll_s):
        self.calls.append("read models")


def test_served_builds_the_tables_before_the_read_models_and_the_port(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(server, "build_house_way_tables", lambda: calls.append("tables"))
    monkeypatch.setattr(server._Server, "run", lambda self: calls.append("port"))
    served = server.Served(FastAPI(), _Service(calls), "127.0.0.1", 0, 1.0)
    served.run()
    assert calls[0] == "tables"
    assert sorted(calls) == ["port", "read models", "tables"]
