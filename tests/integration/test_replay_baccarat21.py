"""``tablewatch replay`` of a 21 Baccarat round from a SQLite store: card by card, with findings."""

import json
from decimal import Decimal

from consumers.cli import main


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_21_baccarat_round_replays_card_by_card(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    path = tmp_path / "b21.jsonl"
    args = ["--game", "baccarat21", "--tables", "1", "--rounds", "4", "--seed", "3"]
    assert main(["simulate", *args, "--out", str(path)]) == 0
    events = _read(path)
    # The last winning wager of the shift is paid $5 too much.
    win = next(e for e in reversed(events) if e["type"] == "b21_wager_settled"
               and e["outcome"] == "win")  # fmt: skip
    win["paid"] = str(Decimal(win["paid"]) + 5)
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["ingest", "--from-file", str(path)]) == 0
    capsys.readouterr()

    assert main(["replay", win["round_id"]]) == 0
    out = capsys.readouterr().out
    cards = [
        e for e in events if e["type"] == "b21_card_dealt" and e["round_id"] == win["round_id"]
    ]
    assert "The cards, one by one" in out
    for number, card in enumerate(cards, start=1):
        assert f"{number:>2}. {card['card']:<3} to {card['hand']}" in out
    assert "Totals and Bonus hands" in out
    assert "MISMATCH" in out  # the settlement line of the overpaid wager
    assert "B21-SETTLE-PAYOUT" in out
    assert "at stake: $5.00" in out
    clean = next(e["round_id"] for e in events if e["type"] == "round_completed")
    assert main(["replay", clean]) == 0
    assert ": no findings" in capsys.readouterr().out.splitlines()[0]
