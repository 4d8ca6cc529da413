"""docs/severities.md and the code agree: every kind's default severity and money, and every
rule set's own severities (issue #22.3)."""

import re
from pathlib import Path

from audit.findings.severities import RULE_SET_SEVERITIES
from audit.floor.catalogue import KINDS_BY_CODE

DOC = Path(__file__).parents[3] / "docs" / "severities.md"
_ROW = re.compile(r"^\| `(?P<a>[^`]+)` \| (?P<b>[^|]+?) \| (?P<c>[^|]+?) \| (?P<why>.+) \|$")


def _rows(section: str) -> list[re.Match[str]]:
    text = DOC.read_text()
    start = text.index(section)
    end = text.find("\n## ", start + 1)
    return [m for m in map(_ROW.match, text[start:end].splitlines()) if m]


def test_the_default_table_lists_every_kind_as_the_code_holds_it():
    documented = {m["a"]: (m["b"], m["c"]) for m in _rows("## Default severities")}
    held = {code: (k.severity.value, k.money.value) for code, k in KINDS_BY_CODE.items()}
    assert documented == held


def test_every_kind_says_why():
    assert all(len(m["why"].strip()) > 10 for m in _rows("## Default severities"))


def test_the_rule_sets_own_severities_are_documented():
    documented: dict[str, dict[str, str]] = {}
    for line in _rows_of_overrides():
        rule_set, code, severity = line
        documented.setdefault(rule_set, {})[code] = severity
    held = {
        name: {c: s.value for c, s in table.items()} for name, table in RULE_SET_SEVERITIES.items()
    }
    assert documented == held


def _rows_of_overrides() -> list[tuple[str, str, str]]:
    text = DOC.read_text()
    start = text.index("## Rule sets' own severities")
    end = text.find("\n## ", start + 1)
    pattern = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \| (\w+) \|")
    return [(m[1], m[2], m[3]) for m in map(pattern.match, text[start:end].splitlines()) if m]
