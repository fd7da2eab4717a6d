"""Documents in the three encodings kith speaks: JSON, BSON and MessagePack.

Each codec turns a top-level ``dict`` into bytes and back, following the value
mapping of docs/protocol.md 1.6 exactly, because the server's decoders are strict:

* JSON: compact, UTF-8; a datetime is ``{"$datetime": <epoch ms>}``, a byte array
  ``{"$bytes": <standard base64>}``; NaN and infinities are refused (JSON has no
  spelling for them).
* BSON (pymongo's ``bson`` module): every int is an int64 (0x12), datetimes are UTC
  datetimes (0x09), byte arrays binary of subtype 0; int32 and int64 both decode to
  plain ``int``.
* MessagePack: ints in their smallest form, floats as float 64, strings as str, byte
  arrays as bin, and a
  datetime as the timestamp extension (type -1) in its 96-bit form. msgpack-python
  cannot write ext type -1 itself (and picks the smallest timestamp form), so
  requests are packed by the small writer below; answers are read by msgpack's C
  unpacker, which accepts all three timestamp forms.
"""

from __future__ import annotations

import abc

import base64
import datetime as _dt
import json
import math
import struct
from typing import Any

import bson
import msgpack
from bson.codec_options import CodecOptions, TypeDecoder, TypeRegistry
from bson.int64 import Int64

from ._values import UTC, datetime_to_ms, ms_to_datetime, prepare, temporal_of
from .errors import ProtocolError

__all__ = ["ENCODINGS", "Codec", "get_codec"]

ENCODINGS = ("json", "bson", "msgpack")


class Codec(abc.ABC):
    """Encodes and decodes top-level maps in one encoding (JSON, BSON, MessagePack
    below)."""

    name: str = ""

    @abc.abstractmethod
    def encode(self, doc: dict[str, Any]) -> bytes:
        """One map as bytes."""

    @abc.abstractmethod
    def decode(self, data: bytes) -> dict[str, Any]:
        """Bytes as one map."""

    def _bad(self, why: str) -> ProtocolError:
        return ProtocolError("bad_response", f"the server's payload is not valid {self.name}: {why}")

    def _top(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self._bad(f"the top level must be a map, got {type(value).__name__}")
        return value


# --- JSON -------------------------------------------------------------------------


def _json_datetime(value: _dt.datetime) -> dict[str, int]:
    return {"$datetime": datetime_to_ms(value)}


def _json_bytes(value: bytes) -> dict[str, str]:
    return {"$bytes": base64.b64encode(value).decode("ascii")}


def _json_hook(obj: dict[str, Any]) -> Any:
    # Exactly one key `$datetime` with an integral value is a datetime (1.6).
    if len(obj) == 1:
        ms = obj.get("$datetime")
        if type(ms) is int:
            return ms_to_datetime(ms)
    return temporal_of(obj)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class JsonCodec(Codec):
    name = "json"

    def encode(self, doc: dict[str, Any]) -> bytes:
        prepared = prepare(doc, on_datetime=_json_datetime, on_bytes=_json_bytes)
        for value in _floats(prepared):
            if not math.isfinite(value):
                raise ValueError(f"JSON cannot carry the float {value}; use bson or msgpack")
        return json.dumps(prepared, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def decode(self, data: bytes) -> dict[str, Any]:
        try:
            value = json.loads(data, object_hook=_json_hook, parse_constant=_no_constants)
        except (ValueError, RecursionError) as exc:
            raise self._bad(str(exc)) from None
        return self._top(value)


def _floats(value: Any):
    """Every float in a prepared document (to refuse NaN/inf before dumping)."""
    if isinstance(value, float):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _floats(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _floats(v)


# --- BSON -------------------------------------------------------------------------


class _Int64AsInt(TypeDecoder):
    """pymongo decodes int64 as ``bson.int64.Int64``; kith ints are plain ints."""

    bson_type = Int64

    def transform_bson(self, value: Int64) -> int:
        return int(value)


_BSON_OPTIONS = CodecOptions(
    tz_aware=True, tzinfo=UTC, type_registry=TypeRegistry([_Int64AsInt()])
)


class BsonCodec(Codec):
    name = "bson"

    def encode(self, doc: dict[str, Any]) -> bytes:
        return bson.encode(prepare(doc, on_int=Int64))

    def decode(self, data: bytes) -> dict[str, Any]:
        try:
            value = bson.decode(data, codec_options=_BSON_OPTIONS)
        except Exception as exc:  # bson raises InvalidBSON, OverflowError, ...
            raise self._bad(f"{type(exc).__name__}: {exc}") from None
        # A temporal map's key is a string element named "$<kind>": the bytes 0x02 '$';
        # a point's an embedded document named "$point". Without them there is nothing
        # to replace, and the walk over every value (the bulk of a many-row answer's
        # decoding) is skipped.
        if isinstance(data, (bytes, bytearray)) and b"\x02$" not in data and b"\x03$point" not in data:
            return self._top(value)
        return self._top(_temporals(value))


def _temporals(value: Any) -> Any:
    """Replaces the ``{"$<kind>": text}`` and ``{"$point": {...}}`` maps in a decoded
    BSON document (pymongo has no object hook)."""
    if isinstance(value, dict):
        value = {k: _temporals(v) for k, v in value.items()}
        return temporal_of(value)
    if isinstance(value, list):
        return [_temporals(v) for v in value]
    return value


# --- MessagePack ----------------------------------------------------------------

_TIMESTAMP_EXT = -1
_F64 = struct.Struct(">Bd")
_TS96 = struct.Struct(">BBbIq")  # ext8 marker, length 12, type -1, nanos u32, seconds i64


def _pack(value: Any, out: bytearray) -> None:
    """Writes one prepared value; MessagePack's smallest form for ints, lengths."""
    if value is None:
        out.append(0xC0)
    elif value is True:
        out.append(0xC3)
    elif value is False:
        out.append(0xC2)
    elif isinstance(value, int):
        if 0 <= value <= 0x7F or -32 <= value < 0:
            out += struct.pack(">b" if value < 0 else ">B", value)
        elif value > 0:
            if value <= 0xFF:
                out += struct.pack(">BB", 0xCC, value)
            elif value <= 0xFFFF:
                out += struct.pack(">BH", 0xCD, value)
            elif value <= 0xFFFFFFFF:
                out += struct.pack(">BI", 0xCE, value)
            else:
                out += struct.pack(">BQ", 0xCF, value)
        elif value >= -0x80:
            out += struct.pack(">Bb", 0xD0, value)
        elif value >= -0x8000:
            out += struct.pack(">Bh", 0xD1, value)
        elif value >= -0x80000000:
            out += struct.pack(">Bi", 0xD2, value)
        else:
            out += struct.pack(">Bq", 0xD3, value)
    elif isinstance(value, float):
        out += _F64.pack(0xCB, value)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        n = len(raw)
        if n <= 31:
            out.append(0xA0 | n)
        elif n <= 0xFF:
            out += struct.pack(">BB", 0xD9, n)
        elif n <= 0xFFFF:
            out += struct.pack(">BH", 0xDA, n)
        else:
            out += struct.pack(">BI", 0xDB, n)
        out += raw
    elif isinstance(value, bytes):
        n = len(value)
        if n <= 0xFF:
            out += struct.pack(">BB", 0xC4, n)
        elif n <= 0xFFFF:
            out += struct.pack(">BH", 0xC5, n)
        else:
            out += struct.pack(">BI", 0xC6, n)
        out += value
    elif isinstance(value, _dt.datetime):
        ms = datetime_to_ms(value)
        seconds, millis = divmod(ms, 1000)
        out += _TS96.pack(0xC7, 12, _TIMESTAMP_EXT, millis * 1_000_000, seconds)
    elif isinstance(value, list):
        n = len(value)
        if n <= 15:
            out.append(0x90 | n)
        elif n <= 0xFFFF:
            out += struct.pack(">BH", 0xDC, n)
        else:
            out += struct.pack(">BI", 0xDD, n)
        for item in value:
            _pack(item, out)
    elif isinstance(value, dict):
        n = len(value)
        if n <= 15:
            out.append(0x80 | n)
        elif n <= 0xFFFF:
            out += struct.pack(">BH", 0xDE, n)
        else:
            out += struct.pack(">BI", 0xDF, n)
        for k, item in value.items():
            _pack(k, out)
            _pack(item, out)
    else:  # pragma: no cover - prepare() refused it already
        raise TypeError(f"cannot pack {type(value).__name__}")


def _ext_hook(code: int, data: bytes) -> Any:
    raise ValueError(f"MessagePack extension type {code} is not a kith value")


class MsgpackCodec(Codec):
    name = "msgpack"

    def encode(self, doc: dict[str, Any]) -> bytes:
        out = bytearray()
        _pack(prepare(doc), out)
        return bytes(out)

    def decode(self, data: bytes) -> dict[str, Any]:
        try:
            # timestamp=3: ext -1 (any of its three forms) becomes an aware UTC datetime.
            value = msgpack.unpackb(
                data,
                raw=False,
                timestamp=3,
                ext_hook=_ext_hook,
                strict_map_key=True,
                object_hook=temporal_of,
            )
        except Exception as exc:  # ExtraData, FormatError, ValueError, ...
            raise self._bad(f"{type(exc).__name__}: {exc}") from None
        return self._top(value)


_CODECS: dict[str, Codec] = {c.name: c for c in (JsonCodec(), BsonCodec(), MsgpackCodec())}


def get_codec(name: str) -> Codec:
    """The codec for an encoding name; ``ValueError`` lists the valid ones."""
    try:
        return _CODECS[name]
    except KeyError:
        raise ValueError(
            f"unknown encoding {name!r}; kith speaks {', '.join(ENCODINGS)}"
        ) from None
