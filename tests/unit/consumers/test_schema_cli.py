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
