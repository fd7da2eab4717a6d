"""The 12-byte header and the exact bytes of a request (docs/protocol.md 1.2, 1.3)."""

import pytest

from kith import ProtocolError
from kith._frames import (
    FLAG_COMPRESSED,
    FLAG_MORE,
    KIND_ERROR,
    KIND_REQUEST,
    KIND_RESULT,
    Header,
    decode_header,
    encode_header,
)
from kith._wire import Wire


def test_recorded_request_bytes_json_none():
    frame = Wire("json", "none").request(1, "shindig.friends", {"person_id": 7})
    assert frame == (
        b"\x01\x01\x00\x00"
        + (1).to_bytes(8, "little")
        + b'{"call":"shindig.friends","params":{"person_id":7}}'
    )


def test_timing_is_asked_for_only_when_wanted():
    frame = Wire("json", "none").request(2, "shindig.friends", {"person_id": 7}, timing=True)
    assert frame[12:] == b'{"call":"shindig.friends","params":{"person_id":7},"timing":true}'


def test_params_are_always_sent_as_a_map():
    assert Wire("json", "none").request(3, "x", {})[12:] == b'{"call":"x","params":{}}'


@pytest.mark.parametrize(
    "kind,flags,request_id",
    [
        (KIND_REQUEST, 0, 1),
        (KIND_RESULT, FLAG_MORE, 0x0102030405060708),
        (KIND_RESULT, FLAG_MORE | FLAG_COMPRESSED, 2**64 - 1),
        (KIND_ERROR, 0, 0),
    ],
)
def test_header_round_trips(kind, flags, request_id):
    raw = encode_header(kind, flags, request_id)
    assert len(raw) == 12
    assert raw[0] == 1 and raw[1] == kind and raw[2] == flags and raw[3] == 0
    assert raw[4:] == request_id.to_bytes(8, "little")
    assert decode_header(raw + b"payload") == Header(kind, flags, request_id)


@pytest.mark.parametrize(
    "raw,why",
    [
        (b"\x01\x10\x00\x00\x00", "shorter"),
        (bytes([2, 16, 0, 0]) + bytes(8), "version 2"),
        (bytes([1, 9, 0, 0]) + bytes(8), "kind 9"),
        (bytes([1, 16, 4, 0]) + bytes(8), "reserved"),
        (bytes([1, 16, 0, 1]) + bytes(8), "reserved"),
    ],
)
def test_bad_headers_are_refused(raw, why):
    with pytest.raises(ProtocolError) as info:
        decode_header(raw)
    assert info.value.code == "bad_frame"
    assert why.split()[0] in info.value.message


def test_header_encoder_refuses_what_the_protocol_does_not_have():
    with pytest.raises(ValueError):
        encode_header(5, 0, 1)
    with pytest.raises(ValueError):
        encode_header(KIND_REQUEST, 0x04, 1)
    with pytest.raises(ValueError):
        encode_header(KIND_REQUEST, 0, 2**64)
