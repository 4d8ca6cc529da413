"""The casebook aggregate: a fork records without touching the casebook it came from."""

import json

from audit.store.casebook import CASEBOOK, Casebook


def _opened(case_id: str) -> str:
    return json.dumps({"type": "case_opened", "case_id": case_id, "at": "t0", "by": "ann",
                       "finding_id": "F1", "table_id": "PG-1", "round_id": None})  # fmt: skip


def _note(case_id: str, text: str) -> str:
    return json.dumps({"type": "case_note_added", "case_id": case_id, "at": "t1", "by": "ann",
                       "text": text})  # fmt: skip


def _book() -> Casebook:
    book = Casebook(CASEBOOK)
    for case_id in ("C-00001", "C-00002"):
        book.record("case_opened", _opened(case_id))
    book.record("case_note_added", _note("C-00001", "first"))
    book.collect_events()
    return book


def test_a_fork_shares_the_cases_a_fact_does_not_change_and_leaves_its_source_as_it_was():
    book = _book()
    before = json.dumps(book.cases, sort_keys=True)
    fork = book.fork()
    fork.record("case_note_added", _note("C-00001", "second"))
    fork.record("case_round_linked", json.dumps({
        "type": "case_round_linked", "case_id": "C-00001", "at": "t2", "by": "ann",
        "table_id": "PG-2", "round_id": "R9"}))  # fmt: skip
    fork.record("case_closed", json.dumps({
        "type": "case_closed", "case_id": "C-00001", "at": "t3", "by": "ann",
        "disposition": "cleared", "note": ""}))  # fmt: skip

    assert json.dumps(book.cases, sort_keys=True) == before
    assert (book.version, book.count) == (4, 3)
    assert book.collect_events() == []  # the fork's facts are pending on the fork only
    assert [e.fact_type for e in fork.collect_events()] == [
        "case_note_added",
        "case_round_linked",
        "case_closed",
    ]
    assert [n["text"] for n in fork.cases["C-00001"]["notes"]] == ["first", "second"]
    assert fork.cases["C-00001"]["rounds"][0]["round_id"] == "R9"
    assert fork.cases["C-00001"]["status"] == "closed"
    assert fork.cases["C-00002"] is book.cases["C-00002"]  # untouched: shared, not copied
    assert fork.chain_head != book.chain_head


def test_a_fork_records_what_the_casebook_itself_would_record():
    """The same facts on a fork and on the casebook: the same cases and chain head."""
    book, other = _book(), _book()
    fork = book.fork()
    for target in (fork, other):
        target.record("case_note_added", _note("C-00002", "same"))
    assert fork.cases == other.cases
    assert (fork.version, fork.count) == (other.version, other.count)
