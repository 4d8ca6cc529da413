"""The casebook aggregate keeps its chain only; a fact recorded after a known head, without
loading the casebook, is the fact the casebook itself would record; the cases' fold."""

import json

from audit.facts.chain import GENESIS, case_link, digest
from audit.store.casebook import CASEBOOK, Casebook, case_fact_after
from projections.cases_view import apply_case_fact, case_number


def _opened(case_id: str) -> str:
    return json.dumps({"type": "case_opened", "case_id": case_id, "at": "t0", "by": "ann",
                       "finding_id": "F1", "table_id": "PG-1", "round_id": None})  # fmt: skip


def _note(case_id: str, text: str) -> str:
    return json.dumps({"type": "case_note_added", "case_id": case_id, "at": "t1", "by": "ann",
                       "text": text})  # fmt: skip


def test_a_fact_after_a_head_chains_as_the_casebook_would():
    book = Casebook(CASEBOOK)
    book.record("case_opened", _opened("C-00001"))
    assert (book.version, book.count) == (2, 1)
    after = case_fact_after(book.version, book.chain_head, "case_note_added", _note("C-00001", "x"))
    assert (after.originator_id, after.originator_version) == (book.id, 3)
    assert after.chain_prev == book.chain_head != GENESIS
    assert after.chain_hash == case_link(
        book.chain_head, str(book.id), 3, after.timestamp.isoformat(), "case_note_added",
        digest(after.fact_json),
    )  # fmt: skip
    after.mutate(book)  # the aggregate, loaded, applies it as one of its own
    assert (book.version, book.count, book.chain_head) == (3, 2, after.chain_hash)


def test_the_fold_takes_a_case_from_its_opening_to_its_closing_copying_what_it_changes():
    cases: dict = {}
    for fact in (_opened("C-00001"), _note("C-00001", "first"), _note("C-00404", "nobody's")):
        apply_case_fact(cases, json.loads(fact))
    opened = cases["C-00001"]
    apply_case_fact(cases, {"type": "case_round_linked", "case_id": "C-00001", "at": "t2",
                            "by": "ann", "table_id": "PG-2", "round_id": "R9"})  # fmt: skip
    apply_case_fact(cases, {"type": "case_closed", "case_id": "C-00001", "at": "t3", "by": "ann",
                            "disposition": "cleared", "note": ""})  # fmt: skip
    assert list(cases) == ["C-00001"]  # the note on a case never opened is passed over
    case = cases["C-00001"]
    assert [n["text"] for n in case["notes"]] == ["first"]
    assert case["rounds"][0]["round_id"] == "R9"
    assert (case["status"], case["closed"]["disposition"]) == ("closed", "cleared")
    assert (opened["status"], opened["rounds"]) == ("open", [])  # a new dict, not changed


def test_case_numbers_sort_past_c_99999_and_an_odd_id_sorts_last():
    assert [case_number(c) for c in ("C-00042", "C-100001", "odd", "C-")] == [42, 100001, -1, -1]
