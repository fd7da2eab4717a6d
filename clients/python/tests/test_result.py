"""Records read like tuples and like mappings."""

import pickle

import pytest

from kith import Record, Result


def make():
    return Result(["id", "displayName"], [[1, "Ann Lee"], [5, "Bo Chen"]], chunks=1)


def test_record_by_name_index_unpacking_and_len():
    rec = make()[0]
    assert rec["displayName"] == "Ann Lee"
    assert rec[1] == "Ann Lee" and rec[-1] == "Ann Lee" and rec[0:1] == (1,)
    id_, name = rec
    assert (id_, name) == (1, "Ann Lee")
    assert len(rec) == 2
    assert rec.get("nope", 9) == 9 and rec.get("id") == 1
    with pytest.raises(KeyError, match="displayName"):
        rec["nope"]


def test_record_mapping_view():
    rec = make()[1]
    assert rec.keys() == ["id", "displayName"]
    assert rec.values() == [5, "Bo Chen"]
    assert rec.items() == [("id", 5), ("displayName", "Bo Chen")]
    assert dict(rec) == {"id": 5, "displayName": "Bo Chen"}
    assert rec.data() == dict(rec)


def test_record_equality_hash_and_pickle():
    rec = make()[0]
    assert rec == (1, "Ann Lee") and (1, "Ann Lee") == rec
    assert rec != (1, "Ann")
    assert hash(rec) == hash((1, "Ann Lee"))
    assert isinstance(rec, Record) and isinstance(rec, tuple)
    back = pickle.loads(pickle.dumps(rec))
    assert back == rec and back["displayName"] == "Ann Lee"
    assert Record(["a"], [1])["a"] == 1
    assert "displayName='Ann Lee'" in repr(rec)


def test_result_is_a_sequence_of_records():
    result = make()
    assert result.columns == ["id", "displayName"]
    assert len(result) == 2 and [r["id"] for r in result] == [1, 5]
    assert result == [(1, "Ann Lee"), (5, "Bo Chen")]
    assert result == [[1, "Ann Lee"], [5, "Bo Chen"]]
    assert result == make()
    assert result.rows() == [[1, "Ann Lee"], [5, "Bo Chen"]]
    assert result.to_dicts()[1] == {"id": 5, "displayName": "Bo Chen"}
    assert result[-1]["displayName"] == "Bo Chen"
    assert result.timing is None
    with pytest.raises(ValueError):
        result.single()
    assert Result(["x"], []).single() is None
    assert Result(["x"], [[3]]).single() == (3,)
