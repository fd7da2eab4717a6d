"""The kith value model in Python terms (docs/protocol.md 1.6).

kith values are null, bool, int (i64), float (f64), string, datetime (epoch
milliseconds, UTC), list and map with string keys. In Python they are ``None``,
``bool``, ``int``, ``float``, ``str``, timezone-aware ``datetime.datetime`` in UTC,
``list`` and ``dict``. Every encoder walks parameters through :func:`prepare` so a
value kith cannot carry fails here, in the caller's stack, with the path to it,
instead of as a ``bad_request`` from the server.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["UTC", "EPOCH", "I64_MIN", "I64_MAX", "datetime_to_ms", "ms_to_datetime", "prepare"]

UTC = _dt.timezone.utc
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=UTC)
I64_MIN = -(2**63)
I64_MAX = 2**63 - 1
_ONE_MS = _dt.timedelta(milliseconds=1)

# Deeper documents are refused by the server (DEPTH_MAX 32 in kith-protocol); the
# client refuses them too so a cyclic structure cannot recurse forever.
DEPTH_MAX = 32


def datetime_to_ms(value: _dt.datetime) -> int:
    """Epoch milliseconds of a datetime, flooring sub-millisecond parts.

    A naive datetime is taken as UTC, as pymongo does, because kith has no other
    time zone and that is what ``datetime.utcnow()``-style code means.
    """
    if value.tzinfo is None or value.utcoffset() is None:
        value = value.replace(tzinfo=UTC)
    return (value - EPOCH) // _ONE_MS


def ms_to_datetime(ms: int) -> _dt.datetime:
    """The timezone-aware UTC datetime of epoch milliseconds."""
    try:
        return EPOCH + _dt.timedelta(milliseconds=ms)
    except OverflowError as exc:
        raise ValueError(f"datetime {ms} ms since the epoch is outside Python's range") from exc


def prepare(
    value: Any,
    *,
    on_int: Callable[[int], Any] | None = None,
    on_datetime: Callable[[_dt.datetime], Any] | None = None,
    path: str = "value",
    depth: int = 0,
) -> Any:
    """Checks that ``value`` is a kith value and rebuilds it for an encoder.

    Tuples become lists and mappings become dicts. ``on_int`` and ``on_datetime``
    let an encoder replace ints (BSON wants ``Int64`` so every int is an int64) and
    datetimes (JSON wants ``{"$datetime": ms}``). Raises ``TypeError`` for a type
    kith has no value for and ``ValueError`` for an int outside i64.
    """
    if depth > DEPTH_MAX:
        raise ValueError(f"{path}: nested deeper than {DEPTH_MAX} levels")
    if value is None or isinstance(value, (bool, str, float)):
        return value
    if isinstance(value, int):
        if not I64_MIN <= value <= I64_MAX:
            raise ValueError(f"{path}: {value} does not fit in a signed 64-bit int")
        return on_int(value) if on_int is not None else int(value)
    if isinstance(value, _dt.datetime):
        return on_datetime(value) if on_datetime is not None else value
    if isinstance(value, (list, tuple)):
        return [
            prepare(v, on_int=on_int, on_datetime=on_datetime, path=f"{path}[{i}]", depth=depth + 1)
            for i, v in enumerate(value)
        ]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{path}: map keys must be str, got {type(k).__name__} {k!r}")
            out[k] = prepare(
                v, on_int=on_int, on_datetime=on_datetime, path=f"{path}.{k}", depth=depth + 1
            )
        return out
    if isinstance(value, _dt.date):
        raise TypeError(
            f"{path}: kith has datetimes, not dates; pass datetime.datetime(y, m, d, tzinfo=UTC)"
        )
    raise TypeError(f"{path}: kith cannot carry a {type(value).__name__} ({value!r})")
