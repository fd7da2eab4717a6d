"""The 12-byte kith frame header (docs/protocol.md 1.2).

``version u8 | kind u8 | flags u8 | reserved u8 | request_id u64 little-endian``,
then the payload. Parsing is strict in the same ways the server is (version,
known kind, reserved bits and byte zero) so a corrupt frame is noticed, not guessed.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from .errors import ProtocolError

__all__ = [
    "VERSION",
    "HEADER_BYTES",
    "KIND_REQUEST",
    "KIND_RESULT",
    "KIND_ERROR",
    "FLAG_COMPRESSED",
    "FLAG_MORE",
    "Header",
    "encode_header",
    "decode_header",
]

VERSION = 1
HEADER_BYTES = 12
KIND_REQUEST = 1
KIND_RESULT = 16
KIND_ERROR = 17
FLAG_COMPRESSED = 0x01
FLAG_MORE = 0x02
_FLAGS_KNOWN = FLAG_COMPRESSED | FLAG_MORE
_KINDS = {KIND_REQUEST, KIND_RESULT, KIND_ERROR}
_HEADER = struct.Struct("<BBBBQ")


class Header(NamedTuple):
    kind: int
    flags: int
    request_id: int


def encode_header(kind: int, flags: int, request_id: int) -> bytes:
    """The 12 header bytes."""
    if kind not in _KINDS:
        raise ValueError(f"unknown frame kind {kind}")
    if flags & ~_FLAGS_KNOWN:
        raise ValueError(f"unknown flag bits {flags:#x}")
    if not 0 <= request_id < 2**64:
        raise ValueError(f"request id {request_id} is not a u64")
    return _HEADER.pack(VERSION, kind, flags, 0, request_id)


def decode_header(message: bytes) -> Header:
    """The header of a received message; ``ProtocolError("bad_frame")`` if malformed."""
    if len(message) < HEADER_BYTES:
        raise ProtocolError(
            "bad_frame", f"{len(message)} bytes is shorter than the {HEADER_BYTES}-byte header"
        )
    version, kind, flags, reserved, request_id = _HEADER.unpack_from(message)
    if version != VERSION:
        raise ProtocolError("bad_frame", f"protocol version {version} (this client speaks {VERSION})")
    if kind not in _KINDS:
        raise ProtocolError("bad_frame", f"unknown frame kind {kind}")
    if flags & ~_FLAGS_KNOWN or reserved != 0:
        raise ProtocolError("bad_frame", "reserved bits are set")
    return Header(kind, flags, request_id)
