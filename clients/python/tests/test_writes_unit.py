"""Write requests without a server: the operation builders, the request document in
all three encodings and five compressions, and reading the write answer
(docs/protocol.md 1.3.1)."""

import datetime as dt
import json

import bson
import msgpack
import pytest
from bson.int64 import Int64

import kith
from kith import COMPRESSIONS, ENCODINGS, ops
from kith._codec import get_codec
from kith._frames import FLAG_COMPRESSED
from kith._wire import Wire, write_document

UTC = dt.timezone.utc
SUBPROTOCOLS = [(e, c) for e in ENCODINGS for c in COMPRESSIONS]

# The example of docs/protocol.md 1.3.1, plus a datetime and enough text to compress.
DOC_EXAMPLE = [
    ops.require_absent("Person", "email", "ann@example.org"),
    ops.create_node(["Person"], {"id": 7, "email": "ann@example.org"}),
    ops.create_rel("KNOWS", ops.created(0), ops.by_id("Person", 3), {"since": 2024}),
]
EVERY_OP = [
    ops.create_index("Person", "email"),
    ops.require_absent("Person", "email", "zoë@example.org"),
    ops.require_present("Person", "id", 3),
    ops.create_node(
        ["Person", "Admin"],
        {"id": 2**62, "bio": "Zoë " * 100, "joined": dt.datetime(2012, 7, 28, 3, 0, 0, 854_000, tzinfo=UTC)},
    ),
    ops.create_rel("KNOWS", ops.created(0), ops.by_id("Person", 3), {"since": 2024, "weight": 0.5}),
    ops.set_node(ops.node(12), {"nickname": None, "tags": ["a", "b"]}),
    ops.set_rel(5003, {"since": None}),
    ops.add_label(ops.by_id("Person", 3), "Verified"),
    ops.remove_label(ops.created(0), "Admin"),
    ops.delete_rel(5004),
    ops.delete_node(ops.node(13), detach=True),
    ops.drop_index("Person", "nickname"),
]


# --- builders ---------------------------------------------------------------------


def test_builders_make_the_documented_maps():
    assert DOC_EXAMPLE == [
        {"op": "require_absent", "label": "Person", "key": "email", "value": "ann@example.org"},
        {"op": "create_node", "labels": ["Person"], "props": {"id": 7, "email": "ann@example.org"}},
        {
            "op": "create_rel",
            "type": "KNOWS",
            "from": {"created": 0},
            "to": {"label": "Person", "id": 3},
            "props": {"since": 2024},
        },
    ]


def test_every_builder_with_its_fields():
    assert ops.node(12) == {"node": 12}
    assert ops.by_id("Person", 3) == {"label": "Person", "id": 3}
    assert ops.created(1) == {"created": 1}
    assert ops.set_node(12, {"a": None}) == {"op": "set_node", "node": 12, "props": {"a": None}}
    assert ops.set_rel(5, {"w": 1}) == {"op": "set_rel", "rel": 5, "props": {"w": 1}}
    assert ops.add_label(ops.node(1), "L") == {"op": "add_label", "node": {"node": 1}, "label": "L"}
    assert ops.remove_label(ops.node(1), "L") == {"op": "remove_label", "node": {"node": 1}, "label": "L"}
    assert ops.delete_node(ops.node(1)) == {"op": "delete_node", "node": {"node": 1}, "detach": False}
    assert ops.delete_node(ops.node(1), detach=True)["detach"] is True
    assert ops.delete_rel(9) == {"op": "delete_rel", "rel": 9}
    assert ops.require_present("P", "k", 1) == {"op": "require_present", "label": "P", "key": "k", "value": 1}
    assert ops.create_index("P", "k") == {"op": "create_index", "label": "P", "key": "k"}
    assert ops.drop_index("P", "k") == {"op": "drop_index", "label": "P", "key": "k"}


def test_create_node_defaults_and_a_single_label():
    # Like ops.rs, labels and props are always sent, empty when not given.
    assert ops.create_node() == {"op": "create_node", "labels": [], "props": {}}
    assert ops.create_node("Person")["labels"] == ["Person"], "one str is one label, not its letters"
    assert ops.create_node(("A", "B"))["labels"] == ["A", "B"]
    assert ops.create_rel("R", 1, 2) == {"op": "create_rel", "type": "R", "from": 1, "to": 2, "props": {}}


def test_builders_copy_the_callers_props():
    props = {"a": 1}
    op = ops.create_node(["P"], props)
    props["a"] = 2
    assert op["props"] == {"a": 1}


# --- the request document -----------------------------------------------------------


def test_write_document_and_timing_only_when_asked():
    assert write_document(DOC_EXAMPLE) == {"write": DOC_EXAMPLE}
    assert write_document(iter(DOC_EXAMPLE), timing=True) == {"write": DOC_EXAMPLE, "timing": True}


@pytest.mark.parametrize("bad", [ops.create_node(["P"]), "create_node", b"x", 5, None])
def test_ops_must_be_a_list_of_operations(bad):
    with pytest.raises(TypeError, match="list of operations"):
        write_document(bad)


def test_every_operation_must_be_a_mapping():
    with pytest.raises(TypeError, match=r"ops\[1\]"):
        write_document([ops.delete_rel(1), 7])


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_a_write_frame_round_trips_in_every_subprotocol(encoding, compression):
    wire = Wire(encoding, compression)
    frame = wire.write_request(42, EVERY_OP, timing=True)
    header, doc = wire.open(frame)
    assert header.request_id == 42 and header.kind == 1
    assert bool(header.flags & FLAG_COMPRESSED) == (compression != "none")
    assert doc == {"write": EVERY_OP, "timing": True}


def test_recorded_write_request_bytes_json_none():
    frame = Wire("json", "none").write_request(1, DOC_EXAMPLE)
    assert frame[:12] == b"\x01\x01\x00\x00" + (1).to_bytes(8, "little")
    assert frame[12:] == (
        b'{"write":[{"op":"require_absent","label":"Person","key":"email","value":"ann@example.org"},'
        b'{"op":"create_node","labels":["Person"],"props":{"id":7,"email":"ann@example.org"}},'
        b'{"op":"create_rel","type":"KNOWS","from":{"created":0},"to":{"label":"Person","id":3},'
        b'"props":{"since":2024}}]}'
    )
    assert json.loads(frame[12:]) == {"write": DOC_EXAMPLE}


def test_json_write_carries_datetimes_as_dollar_datetime():
    raw = get_codec("json").encode(write_document([ops.set_node(1, {"t": dt.datetime(2012, 1, 1, tzinfo=UTC)})]))
    assert raw == b'{"write":[{"op":"set_node","node":1,"props":{"t":{"$datetime":1325376000000}}}]}'


def test_bson_write_is_an_array_of_documents_with_int64s():
    raw = get_codec("bson").encode(write_document([ops.delete_rel(5), ops.create_node(["P"], {"id": 7})], timing=True))
    assert raw[4:11] == b"\x04write\x00", "write is a BSON array"
    assert raw == bson.encode(
        {
            "write": [
                {"op": "delete_rel", "rel": Int64(5)},
                {"op": "create_node", "labels": ["P"], "props": {"id": Int64(7)}},
            ],
            "timing": True,
        }
    )


def test_msgpack_write_matches_msgpack_python():
    doc = write_document([op for op in EVERY_OP if "joined" not in op.get("props", {})], timing=True)
    assert get_codec("msgpack").encode(doc) == msgpack.packb(doc, use_bin_type=True)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_values_kith_cannot_carry_in_an_operation_are_refused_before_sending(encoding):
    with pytest.raises(TypeError, match=r"write\[0\]\.props\.p"):
        Wire(encoding, "none").encode_write([ops.create_node(["P"], {"p": object()})])
    with pytest.raises(ValueError):
        Wire(encoding, "none").encode_write([ops.delete_rel(2**64)])


# --- the answer -------------------------------------------------------------------


def test_write_result_from_the_answer():
    answer = kith.Result(["version", "nodes", "rels"], [[42, [1001], [5003]]], {"queue_us": 1, "exec_us": 2})
    done = kith.WriteResult.from_result(answer)
    assert done == kith.WriteResult(42, [1001], [5003], {"queue_us": 1, "exec_us": 2})
    assert (done.version, done.nodes, done.rels) == (42, [1001], [5003])
    empty = kith.WriteResult.from_result(kith.Result(["version", "nodes", "rels"], [[7, [], []]]))
    assert empty == kith.WriteResult(7, [], [], None)


@pytest.mark.parametrize(
    "columns,rows",
    [
        (["version", "nodes", "rels"], []),
        (["version", "nodes", "rels"], [[1, [], []], [2, [], []]]),
        (["id", "displayName"], [[1, "Ann"]]),
        (["version", "nodes", "rels"], [["1", [], []]]),
        (["version", "nodes", "rels"], [[1, [True], []]]),
        (["version", "nodes", "rels"], [[1, [], [1.5]]]),
        (["version", "nodes", "rels"], [[1, 2, []]]),
    ],
)
def test_anything_else_is_a_bad_response(columns, rows):
    with pytest.raises(kith.ProtocolError) as info:
        kith.WriteResult.from_result(kith.Result(columns, rows))
    assert info.value.code == "bad_response"


@pytest.mark.parametrize(
    "code,cls",
    [
        ("condition_failed", kith.ConditionFailed),
        ("duplicate_id", kith.DuplicateId),
        ("invalid_write", kith.WriteError),
        ("read_only", kith.WriteError),
        ("storage_failure", kith.WriteError),
        ("replication_failed", kith.WriteError),
    ],
)
def test_write_error_codes_map_to_classes(code, cls):
    err = kith.errors.error_from_code(code, "why")
    assert type(err) is cls and isinstance(err, kith.WriteError) and err.code == code
