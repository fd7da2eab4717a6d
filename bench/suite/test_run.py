"""The suite runner's verdicts and timeout rule (run by scripts/test with pytest)."""
import time

import pytest

import queries
import run


def test_a_warm_up_over_the_timeout_ends_the_measurement():
    calls = []

    def slow():
        calls.append(1)
        time.sleep(0.05)
    with pytest.raises(run.TimedOut):
        run.timed(slow, runs=5, timeout_s=0.01)
    assert len(calls) == 1  # no timed runs after the warm-up
    assert "timed_out" in run.measure("x", slow, 5, 0.01)


def _row(kith, neo4j):
    return {"name": "q", "category": "c", "kith": kith, "neo4j": neo4j,
            "ladybug": {"ms": None, "skipped": "test"}}


def test_a_timeout_is_not_a_wrong_answer():
    q = queries.Q("q", "c", "RETURN 1")
    answer = run.compare.answer_of(["n"], [[1]], set())
    row = _row({"ms": 1.0, "answer": answer}, {"ms": None, "timed_out": "over 60 s"})
    run.judge(row, q)
    assert row["verdict"] == "timed out on Neo4j"
    report = run.summarise("t", {}, 5, [row])
    assert report["kith_differs_from_neo4j"] == []
    assert report["timed_out"]["neo4j"] == ["q"]
    assert "neo4j on q" in run.markdown(report)


def test_different_answers_and_one_failure_are_differences():
    q = queries.Q("q", "c", "RETURN 1")
    one = run.compare.answer_of(["n"], [[1]], set())
    two = run.compare.answer_of(["n"], [[2]], set())
    row = _row({"ms": 1.0, "answer": one}, {"ms": 2.0, "answer": two})
    run.judge(row, q)
    assert row["verdict"] == "DIFFERS (rows)"
    row = _row({"ms": None, "error": "boom"}, {"ms": 2.0, "answer": one})
    run.judge(row, q)
    assert row["verdict"] == "DIFFERS (one failed)"


def test_a_failure_beside_a_timeout_is_named():
    q = queries.Q("q", "c", "RETURN 1")
    row = _row({"ms": None, "error": "row bound"}, {"ms": None, "timed_out": "over 20 s"})
    run.judge(row, q)
    assert row["verdict"] == "timed out on Neo4j; kith failed"
