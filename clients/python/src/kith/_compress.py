"""Payload compression as negotiated in the subprotocol (docs/protocol.md 1.1, 1.2).

The formats must match the server byte for byte in meaning:

* ``deflate-fast`` / ``deflate-best``: *raw* DEFLATE (RFC 1951, zlib wbits=-15, no
  zlib or gzip header), levels 1 and 9;
* ``zstd``: one standard Zstandard frame, level 3;
* ``lz4``: one LZ4 *block* prefixed with the uncompressed size as u32 little-endian
  (lz4_flex's size-prepended format), which is what
  ``lz4.block.compress(data, store_size=True)`` writes.

Decompression is bounded: a few hundred bytes from the network must not be able to
demand gigabytes of memory (a decompression bomb).
"""

from __future__ import annotations

import zlib

import lz4.block
import zstandard

__all__ = [
    "COMPRESSIONS",
    "COMPRESS_MIN_BYTES",
    "compress",
    "decompress",
    "maybe_compress",
    "check_compression",
]

COMPRESSIONS = ("none", "deflate-fast", "deflate-best", "zstd", "lz4")

# The protocol's rule for senders: smaller payloads travel uncompressed (the saving
# would not pay for the work, and deflate can grow tiny inputs).
COMPRESS_MIN_BYTES = 256

_ZSTD_LEVEL = 3


class DecompressError(ValueError):
    """A payload that does not decompress, or would expand beyond the limit."""


def check_compression(name: str) -> str:
    if name not in COMPRESSIONS:
        raise ValueError(f"unknown compression {name!r}; kith speaks {', '.join(COMPRESSIONS)}")
    return name


def compress(name: str, data: bytes) -> bytes:
    """``data`` compressed with the named compression."""
    if name == "none":
        return bytes(data)
    if name in ("deflate-fast", "deflate-best"):
        level = 1 if name == "deflate-fast" else 9
        packer = zlib.compressobj(level, zlib.DEFLATED, -15)
        return packer.compress(data) + packer.flush()
    if name == "zstd":
        # A compressor object is not safe to share between threads; making one per
        # payload is cheap next to a network round trip.
        return zstandard.ZstdCompressor(level=_ZSTD_LEVEL).compress(data)
    if name == "lz4":
        return lz4.block.compress(data, store_size=True)
    raise ValueError(f"unknown compression {name!r}")


def maybe_compress(name: str, payload: bytes) -> tuple[bytes, bool]:
    """The payload to send and whether it is compressed: only when the connection
    negotiated compression, the payload is at least 256 bytes and it shrinks."""
    if name == "none" or len(payload) < COMPRESS_MIN_BYTES:
        return payload, False
    packed = compress(name, payload)
    if len(packed) < len(payload):
        return packed, True
    return payload, False


def decompress(name: str, data: bytes, max_bytes: int) -> bytes:
    """``data`` decompressed; ``DecompressError`` if it is damaged or expands past
    ``max_bytes``."""
    too_large = DecompressError(f"{name} payload expands beyond the {max_bytes}-byte limit")
    try:
        if name == "none":
            return bytes(data)
        if name in ("deflate-fast", "deflate-best"):
            unpacker = zlib.decompressobj(-15)
            out = unpacker.decompress(data, max_bytes + 1)
            if len(out) > max_bytes or unpacker.unconsumed_tail:
                raise too_large
            out += unpacker.flush()
            if len(out) > max_bytes:
                raise too_large
            if not unpacker.eof:
                raise DecompressError("deflate stream is truncated")
            return out
        if name == "zstd":
            size = zstandard.frame_content_size(data)
            if size > max_bytes:
                raise too_large
            dctx = zstandard.ZstdDecompressor()
            if size >= 0:
                return dctx.decompress(data)
            # Content size not recorded in the frame: stream, stopping past the limit.
            parts, total = [], 0
            with dctx.stream_reader(data) as reader:
                while chunk := reader.read(1 << 16):
                    total += len(chunk)
                    if total > max_bytes:
                        raise too_large
                    parts.append(chunk)
            return b"".join(parts)
        if name == "lz4":
            if len(data) < 4:
                raise DecompressError("lz4 payload is shorter than its 4-byte size prefix")
            if int.from_bytes(data[:4], "little") > max_bytes:
                raise too_large
            return lz4.block.decompress(data)
    except DecompressError:
        raise
    except Exception as exc:  # zlib.error, zstandard.ZstdError, lz4.block.LZ4BlockError
        raise DecompressError(f"{name} payload does not decompress: {exc}") from None
    raise ValueError(f"unknown compression {name!r}")
