"""``tablewatch schema`` prints the catalogue's JSON Schema and its Markdown reference."""

import json

from audit.events.catalogue import EVENT_TYPES
from consumers.cli import main


def test_schema_is_json_with_every_type(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert set(schema["discriminator"]["mapping"]) == set(EVENT_TYPES)


def test_markdown_lists_every_type(capsys):
    assert main(["schema", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# The event catalogue")
    for name in EVENT_TYPES:
        assert f"### `{name}`" in out


def test_findings_prints_the_finding_catalogue_and_its_golden(capsys):
    assert main(["schema", "--findings"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# The finding catalogue")
    assert "| `PG-PF-PAYOUT` | paigow | critical | at stake |" in out
    assert main(["schema", "--findings-by-rule-set"]) == 0
    golden = json.loads(capsys.readouterr().out)
    assert "PG-PF-PAYOUT" in golden["pa-2019"]
    assert "PG-PF-PAYOUT" not in golden["pa-2012"]
