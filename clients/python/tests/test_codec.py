"""Every kith value through every encoding and compression (docs/protocol.md 1.6)."""

import datetime as dt
import struct
import zlib

import bson
import lz4.block
import msgpack
import pytest
import zstandard

import kith
from kith import COMPRESSIONS, ENCODINGS, ProtocolError
from kith._codec import get_codec
from kith._compress import COMPRESS_MIN_BYTES, DecompressError, compress, decompress, maybe_compress
from kith._frames import FLAG_COMPRESSED, FLAG_MORE, KIND_RESULT, encode_header
from kith._values import datetime_to_ms, ms_to_datetime
from kith._wire import Dispatcher, Wire

UTC = dt.timezone.utc

VALUES = {
    "null": None,
    "true": True,
    "false": False,
    "int_zero": 0,
    "int_small": 7,
    "int_negative": -33,
    "int_u8": 200,
    "int_i16": -30000,
    "int_u32": 4_000_000_000,
    "int_max": 2**63 - 1,
    "int_min": -(2**63),
    "float": 1.5,
    "float_integral": 2.0,
    "float_tiny": 5e-324,
    "float_huge": 1e300,
    "float_negative": -0.1,
    "string": "Ann Lee",
    "string_empty": "",
    "string_unicode": "Zoë 🦉 \u00e9\u0000\"\\",
    "string_long": "x" * 70_000,
    "datetime": dt.datetime(2012, 1, 1, tzinfo=UTC),
    "datetime_ms": dt.datetime(2013, 9, 12, 4, 8, 44, 172_000, tzinfo=UTC),
    "datetime_pre_epoch": dt.datetime(1967, 11, 1, 0, 0, 0, 5_000, tzinfo=UTC),
    "datetime_far": dt.datetime(2400, 2, 29, 23, 59, 59, 999_000, tzinfo=UTC),
    "list": [1, "two", 3.0, None, [True]],
    "list_empty": [],
    "list_long": list(range(70_000)),
    "map": {"a": 1, "b": [dt.datetime(2010, 1, 1, tzinfo=UTC)], "c": {"d": None}},
    "map_empty": {},
}

SUBPROTOCOLS = [(e, c) for e in ENCODINGS for c in COMPRESSIONS]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", list(VALUES))
def test_every_value_round_trips_through_every_encoding(encoding, name):
    codec = get_codec(encoding)
    value = VALUES[name]
    back = codec.decode(codec.encode({"v": value}))
    assert back == {"v": value}
    assert type(back["v"]) is type(value)
    if isinstance(value, dt.datetime):
        assert back["v"].utcoffset() == dt.timedelta(0)


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_a_request_frame_round_trips_in_every_subprotocol(encoding, compression):
    wire = Wire(encoding, compression)
    frame = wire.request(42, "shindig.profile", VALUES, timing=True)
    header, doc = wire.open(frame)
    assert header.request_id == 42
    assert bool(header.flags & FLAG_COMPRESSED) == (compression != "none")
    assert doc == {"call": "shindig.profile", "params": VALUES, "timing": True}


@pytest.mark.parametrize("encoding,compression", SUBPROTOCOLS)
def test_a_chunked_result_is_reassembled_in_every_subprotocol(encoding, compression):
    """Frames as the server writes them: columns first, more flag on all but the last,
    timing in the last, compressed whenever it pays."""
    wire = Wire(encoding, compression)
    codec = get_codec(encoding)
    rows = [[i, f"person {i}", dt.datetime(2012, 1, 1, tzinfo=UTC) + dt.timedelta(days=i)] for i in range(2500)]
    frames = []
    for n, start in enumerate(range(0, 2500, 1000)):
        doc = {"rows": rows[start : start + 1000]}
        if n == 0:
            doc["columns"] = ["id", "displayName", "updated"]
        last = start + 1000 >= 2500
        if last:
            doc["timing"] = {"queue_us": 1, "exec_us": 2, "encode_us": 3}
        payload, compressed = maybe_compress(compression, codec.encode(doc))
        flags = (FLAG_COMPRESSED if compressed else 0) | (0 if last else FLAG_MORE)
        frames.append(encode_header(KIND_RESULT, flags, 1) + payload)
    dispatcher = Dispatcher(wire)
    future = object()
    assert dispatcher.register(future) == 1
    assert dispatcher.feed(frames[0]) == [] and dispatcher.feed(frames[1]) == []
    [(done, result)] = dispatcher.feed(frames[2])
    assert done is future
    assert result.columns == ["id", "displayName", "updated"]
    assert result.rows() == rows
    assert result.chunks == 3
    assert result.timing == {"queue_us": 1, "exec_us": 2, "encode_us": 3}
    assert dispatcher.in_flight() == 0


# --- exact wire forms of 1.6 ----------------------------------------------------


def test_json_datetime_is_a_dollar_datetime_map():
    codec = get_codec("json")
    raw = codec.encode({"t": dt.datetime(2012, 1, 1, tzinfo=UTC)})
    assert raw == b'{"t":{"$datetime":1325376000000}}'
    assert codec.decode(b'{"t":{"$datetime":-5}}')["t"] == dt.datetime(1969, 12, 31, 23, 59, 59, 995_000, tzinfo=UTC)
    # Only exactly that one key with an integral value is a datetime.
    assert codec.decode(b'{"t":{"$datetime":5,"x":1}}')["t"] == {"$datetime": 5, "x": 1}
    assert codec.decode(b'{"t":{"$datetime":5.5}}')["t"] == {"$datetime": 5.5}


def test_json_integral_numbers_are_ints_and_others_floats():
    doc = get_codec("json").decode(b'{"a":1,"b":1.0,"c":1e2,"d":-0}')
    assert [type(v) for v in doc.values()] == [int, float, float, int]


def test_json_refuses_nan_and_infinity():
    with pytest.raises(ValueError):
        get_codec("json").encode({"x": float("nan")})
    with pytest.raises(ValueError):
        get_codec("json").encode({"x": [float("inf")]})


def test_bson_ints_are_int64_and_int32_decodes_as_int():
    raw = get_codec("bson").encode({"a": 1, "t": dt.datetime(2012, 1, 1, tzinfo=UTC)})
    # int64 element (0x12) for "a", UTC datetime (0x09) for "t"
    assert raw[4] == 0x12 and raw[4:7] == b"\x12a\x00"
    assert b"\x09t\x00" in raw
    int32 = bson.encode({"a": 5})  # pymongo writes small ints as int32 (0x10)
    assert int32[4] == 0x10
    back = get_codec("bson").decode(int32)
    assert back == {"a": 5} and type(back["a"]) is int


def test_msgpack_datetime_is_the_96_bit_timestamp_extension():
    raw = get_codec("msgpack").encode({"t": dt.datetime(2012, 1, 1, 0, 0, 0, 5_000, tzinfo=UTC)})
    ext = raw[raw.index(b"\xc7") :]
    assert ext == b"\xc7\x0c\xff" + struct.pack(">Iq", 5_000_000, 1325376000)


@pytest.mark.parametrize(
    "ext,expected",
    [
        (b"\xd6\xff" + struct.pack(">I", 1325376000), dt.datetime(2012, 1, 1, tzinfo=UTC)),
        (
            b"\xd7\xff" + struct.pack(">Q", (5_000_000 << 34) | 1325376000),
            dt.datetime(2012, 1, 1, 0, 0, 0, 5_000, tzinfo=UTC),
        ),
        (b"\xc7\x0c\xff" + struct.pack(">Iq", 0, -1), dt.datetime(1969, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ],
)
def test_msgpack_decodes_every_timestamp_form(ext, expected):
    assert get_codec("msgpack").decode(b"\x81\xa1t" + ext) == {"t": expected}


def _has_datetime(value):
    if isinstance(value, dt.datetime):
        return True
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, list) and any(_has_datetime(v) for v in value)


@pytest.mark.parametrize("name", [n for n, v in VALUES.items() if not _has_datetime(v)])
def test_msgpack_writer_matches_msgpack_python(name):
    """Without datetimes the hand-written writer must produce msgpack's own bytes
    (smallest int forms, float 64, str type, array and map headers)."""
    value = VALUES[name]
    assert get_codec("msgpack").encode({"v": value}) == msgpack.packb({"v": value}, use_bin_type=True)


def test_msgpack_refuses_unknown_extensions_and_binary_is_not_a_map():
    with pytest.raises(ProtocolError):
        get_codec("msgpack").decode(b"\x81\xa1t\xd4\x05\x00")
    with pytest.raises(ProtocolError):
        get_codec("msgpack").decode(b"\x93\x01\x02\x03")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_garbage_and_truncated_payloads_raise_protocol_error(encoding):
    codec = get_codec(encoding)
    raw = codec.encode({"v": [1, "two", dt.datetime(2012, 1, 1, tzinfo=UTC)]})
    for n in range(len(raw)):
        with pytest.raises(ProtocolError):
            codec.decode(raw[:n])


@pytest.mark.parametrize("bad,exc", [(object(), TypeError), (2**63, ValueError), (-(2**63) - 1, ValueError), ({1: 2}, TypeError), (complex(1, 2), TypeError)])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_values_kith_cannot_carry_are_refused_before_sending(encoding, bad, exc):
    with pytest.raises(exc):
        get_codec(encoding).encode({"params": {"p": bad}})


def test_datetimes_naive_are_utc_and_other_zones_are_converted():
    plus2 = dt.timezone(dt.timedelta(hours=2))
    assert datetime_to_ms(dt.datetime(2012, 1, 1, 2, tzinfo=plus2)) == 1325376000000
    assert datetime_to_ms(dt.datetime(2012, 1, 1)) == 1325376000000
    assert datetime_to_ms(dt.datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)) == -1
    assert ms_to_datetime(1325376000000) == dt.datetime(2012, 1, 1, tzinfo=UTC)


def test_tuples_travel_as_lists():
    for encoding in ENCODINGS:
        codec = get_codec(encoding)
        assert codec.decode(codec.encode({"ids": (1, 2, 3)})) == {"ids": [1, 2, 3]}


# --- compression ----------------------------------------------------------------

DATA = b"".join(f"person number {i}, ".encode() for i in range(5000))


@pytest.mark.parametrize("compression", COMPRESSIONS)
def test_every_compression_round_trips_and_is_bounded(compression):
    packed = compress(compression, DATA)
    assert decompress(compression, packed, len(DATA)) == DATA
    if compression != "none":
        assert len(packed) < len(DATA) // 2
        with pytest.raises(DecompressError, match="limit"):
            decompress(compression, packed, 1000)
        with pytest.raises(DecompressError):
            decompress(compression, b"\xff\xfe garbage \x00\x01" * 3, 1 << 20)


def test_compression_formats_are_the_standard_ones():
    assert zlib.decompress(compress("deflate-fast", DATA), wbits=-15) == DATA  # raw deflate
    assert zlib.decompress(compress("deflate-best", DATA), wbits=-15) == DATA
    assert len(compress("deflate-best", DATA)) <= len(compress("deflate-fast", DATA))
    assert zstandard.ZstdDecompressor().decompress(compress("zstd", DATA)) == DATA
    assert compress("zstd", DATA)[:4] == b"\x28\xb5\x2f\xfd"  # a zstd frame's magic
    lz = compress("lz4", DATA)
    assert lz[:4] == len(DATA).to_bytes(4, "little")  # u32 LE size prefix
    assert lz4.block.decompress(lz[4:], uncompressed_size=len(DATA)) == DATA  # then a raw block


def test_zstd_frames_without_a_content_size_are_streamed_within_the_limit():
    cctx = zstandard.ZstdCompressor(level=3, write_content_size=False)
    packed = cctx.compress(DATA)
    assert zstandard.frame_content_size(packed) == -1
    assert decompress("zstd", packed, len(DATA)) == DATA
    with pytest.raises(DecompressError, match="limit"):
        decompress("zstd", packed, len(DATA) - 1)


def test_small_or_incompressible_payloads_travel_uncompressed():
    for compression in COMPRESSIONS:
        assert maybe_compress(compression, b"a" * (COMPRESS_MIN_BYTES - 1)) == (b"a" * 255, False)
    noise = bytes((i * 7919) % 251 for i in range(1000))
    noise = zlib.compress(noise)  # compressed data does not compress again
    assert maybe_compress("lz4", noise)[1] is False
    assert maybe_compress("none", DATA) == (DATA, False)


def test_a_compressed_flag_on_an_uncompressed_connection_is_an_error():
    wire = Wire("json", "none")
    frame = encode_header(KIND_RESULT, FLAG_COMPRESSED, 1) + b'{"rows":[]}'
    with pytest.raises(ProtocolError, match="without compression"):
        wire.open(frame)


def test_unknown_names_are_refused_with_the_supported_ones():
    with pytest.raises(ValueError, match="json, bson, msgpack"):
        Wire("xml", "none")
    with pytest.raises(ValueError, match="deflate-fast"):
        Wire("json", "gzip")


@pytest.mark.parametrize("name", ["json", "bson", "msgpack"])
def test_temporal_values_round_trip_in_every_encoding(name):
    codec = get_codec(name)
    values = [
        kith.Temporal("date", "1984-10-11"),
        kith.Temporal("datetime", "1984-10-11T12:31:14.645876123+01:00[Europe/Stockholm]"),
        kith.Temporal("duration", "P1Y2M3DT4H5M6.000000007S"),
    ]
    assert codec.decode(codec.encode({"v": values}))["v"] == values
    # Python's own types go as the temporal value they are.
    sent = codec.decode(codec.encode({"d": dt.date(2012, 1, 2), "t": dt.time(12, 30), "p": dt.timedelta(days=1, microseconds=5)}))
    assert sent == {
        "d": kith.Temporal("date", "2012-01-02"),
        "t": kith.Temporal("localtime", "12:30:00"),
        "p": kith.Temporal("duration", "P1DT0.000005S"),
    }


@pytest.mark.parametrize("name", ["json", "bson", "msgpack"])
def test_points_round_trip_in_every_encoding(name):
    codec = get_codec(name)
    values = [kith.Point(7203, 1.5, -2.0), kith.Point(4979, 12.5, 55.6, 100.0)]
    back = codec.decode(codec.encode({"v": values, "m": {"p": values[0]}}))
    assert back == {"v": values, "m": {"p": values[0]}}
    assert back["v"][1].z == 100.0 and back["v"][0].z is None


@pytest.mark.parametrize("name", ["json", "bson", "msgpack"])
def test_byte_arrays_round_trip_in_every_encoding(name):
    codec = get_codec(name)
    big = bytes(range(256)) * 300  # past bin 16's and past 255 bytes' headers
    doc = {"v": [b"", b"\x01\x02\xff", big], "m": {"b": bytearray(b"ab")}, "w": memoryview(b"z")}
    assert codec.decode(codec.encode(doc)) == {"v": [b"", b"\x01\x02\xff", big], "m": {"b": b"ab"}, "w": b"z"}


def test_byte_arrays_travel_as_each_encoding_spells_them():
    assert get_codec("json").encode({"b": b"\x01\xff"}) == b'{"b":{"$bytes":"Af8="}}'
    assert get_codec("msgpack").encode({"b": b"\x01\xff"}) == msgpack.packb({"b": b"\x01\xff"}, use_bin_type=True)
    assert bson.decode(get_codec("bson").encode({"b": b"\x01\xff"})) == {"b": b"\x01\xff"}


@pytest.mark.parametrize("name", ["json", "bson", "msgpack"])
def test_a_map_that_only_looks_like_bytes_stays_a_map(name):
    codec = get_codec(name)
    doc = {"m": {"$bytes": "not base64!"}, "n": {"$bytes": 1}}
    assert codec.decode(codec.encode(doc)) == doc


@pytest.mark.parametrize("name", ["json", "bson", "msgpack"])
def test_a_map_that_only_looks_like_a_point_stays_a_map(name):
    codec = get_codec(name)
    doc = {"m": {"$point": {"srid": 7203}}, "n": {"$point": {"srid": "x", "x": 1, "y": 2}}}
    assert codec.decode(codec.encode(doc)) == doc


def test_points_check_their_srid_and_coordinates():
    with pytest.raises(ValueError, match="SRID must be one of"):
        kith.Point(1234, 1.0, 2.0)
    with pytest.raises(ValueError, match="takes 3 coordinates"):
        kith.Point(9157, 1.0, 2.0)


def test_temporal_to_python_keeps_what_python_can():
    t = kith.Temporal("datetime", "1984-10-11T12:31:14.645876123+01:00[Europe/Stockholm]")
    assert t.to_python() == dt.datetime(1984, 10, 11, 12, 31, 14, 645876, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert kith.Temporal("time", "12:00Z").to_python() == dt.time(12, 0, tzinfo=dt.timezone.utc)
    assert kith.Temporal("duration", "P1M").to_python() == "P1M"
    with pytest.raises(ValueError, match="temporal kind"):
        kith.Temporal("week", "2012-W01")
