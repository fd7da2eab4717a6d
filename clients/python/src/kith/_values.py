"""The kith value model in Python terms (docs/protocol.md 1.6).

kith values are null, bool, int (i64), float (f64), string, datetime (epoch
milliseconds, UTC), Cypher temporal values (date, localtime, time, localdatetime,
datetime with an offset or zone, duration), points, byte arrays, list and map with
string keys. In Python they are ``None``, ``bool``, ``int``, ``float``, ``str``,
timezone-aware ``datetime.datetime`` in UTC, :class:`Temporal`, :class:`Point`,
``bytes`` (``bytearray`` and ``memoryview`` are sent as bytes too), ``list`` and
``dict``. Every encoder walks parameters through :func:`prepare` so a
value kith cannot carry fails here, in the caller's stack, with the path to it,
instead of as a ``bad_request`` from the server.
"""

from __future__ import annotations

import base64
import datetime as _dt
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "UTC",
    "EPOCH",
    "I64_MIN",
    "I64_MAX",
    "Point",
    "Temporal",
    "datetime_to_ms",
    "ms_to_datetime",
    "prepare",
    "temporal_of",
]

UTC = _dt.timezone.utc
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=UTC)
I64_MIN = -(2**63)
I64_MAX = 2**63 - 1
_ONE_MS = _dt.timedelta(milliseconds=1)

# Deeper documents are refused by the server (DEPTH_MAX 32 in kith-protocol); the
# client refuses them too so a cyclic structure cannot recurse forever.
DEPTH_MAX = 32


TEMPORAL_KINDS = ("date", "localtime", "time", "localdatetime", "datetime", "duration")


class Temporal:
    """A Cypher temporal value, as its kind and Neo4j's text form.

    ``Temporal("date", "1984-10-11")``, ``Temporal("datetime",
    "1984-10-11T12:31:14.645876123+01:00[Europe/Stockholm]")``, ``Temporal("duration",
    "P1Y2M3DT4H")``. The text keeps what Python's types cannot (nanoseconds, named
    zones, months in a duration); :meth:`to_python` converts when they can. Travels as
    ``{"$<kind>": "<text>"}`` (docs/protocol.md 1.6).
    """

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str) -> None:
        if kind not in TEMPORAL_KINDS:
            raise ValueError(f"temporal kind must be one of {', '.join(TEMPORAL_KINDS)}, got {kind!r}")
        if not isinstance(text, str):
            raise TypeError(f"temporal text must be str, got {type(text).__name__}")
        self.kind = kind
        self.text = text

    @classmethod
    def of(cls, value: _dt.date | _dt.time | _dt.timedelta) -> "Temporal":
        """The temporal value of a ``datetime.date``, ``datetime.time`` or
        ``datetime.timedelta`` (a ``datetime.datetime`` stays kith's UTC datetime)."""
        if isinstance(value, _dt.datetime):
            kind = "localdatetime" if value.utcoffset() is None else "datetime"
            return cls(kind, value.isoformat())
        if isinstance(value, _dt.date):
            return cls("date", value.isoformat())
        if isinstance(value, _dt.time):
            return cls("localtime" if value.utcoffset() is None else "time", value.isoformat())
        if isinstance(value, _dt.timedelta):
            whole, micros = divmod(value // _dt.timedelta(microseconds=1), 1_000_000)
            days, seconds = divmod(whole, 86_400)
            return cls("duration", f"P{days}DT{seconds}.{micros:06d}S")
        raise TypeError(f"no temporal value for a {type(value).__name__}")

    def to_python(self) -> Any:
        """``datetime.date``/``time``/``datetime`` for the instant kinds (nanoseconds cut
        to microseconds, a named zone kept as its offset); the text for a duration,
        which Python has no type for."""
        text = self.text.split("[", 1)[0]
        if "." in text:
            head, _, frac = text.partition(".")
            digits = frac[: len(frac) - len(frac.lstrip("0123456789"))]
            rest = frac[len(digits):]
            text = f"{head}.{digits[:6].ljust(6, '0')}{rest}"
        text = text.replace("Z", "+00:00")
        if self.kind == "date":
            return _dt.date.fromisoformat(text)
        if self.kind in ("localtime", "time"):
            return _dt.time.fromisoformat(text)
        if self.kind in ("localdatetime", "datetime"):
            return _dt.datetime.fromisoformat(text)
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Temporal) and (self.kind, self.text) == (other.kind, other.text)

    def __hash__(self) -> int:
        return hash((self.kind, self.text))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Temporal({self.kind!r}, {self.text!r})"


class Point:
    """A spatial point: its SRID and two or three coordinates.

    ``Point(7203, 1.0, 2.0)`` is cartesian, ``Point(9157, 1.0, 2.0, 3.0)`` cartesian 3D,
    ``Point(4326, longitude, latitude)`` WGS-84 and ``Point(4979, longitude, latitude,
    height)`` WGS-84 3D, as Cypher's ``point()`` makes them. Travels as ``{"$point":
    {"srid": ..., "x": ..., "y": ...[, "z": ...]}}`` (docs/protocol.md 1.6); the
    server checks the SRID and the coordinates.
    """

    SRIDS = {7203: 2, 9157: 3, 4326: 2, 4979: 3}
    __slots__ = ("srid", "coords")

    def __init__(self, srid: int, x: float, y: float, z: float | None = None) -> None:
        dims = self.SRIDS.get(srid)
        if dims is None:
            raise ValueError(f"point SRID must be one of {sorted(self.SRIDS)}, got {srid!r}")
        coords = (x, y) if z is None else (x, y, z)
        if len(coords) != dims:
            raise ValueError(f"SRID {srid} takes {dims} coordinates, got {len(coords)}")
        self.srid = srid
        self.coords = tuple(float(c) for c in coords)

    @property
    def x(self) -> float:
        return self.coords[0]

    @property
    def y(self) -> float:
        return self.coords[1]

    @property
    def z(self) -> float | None:
        return self.coords[2] if len(self.coords) == 3 else None

    def to_map(self) -> dict[str, Any]:
        """The ``{"$point": {...}}`` map it travels as."""
        fields: dict[str, Any] = {"srid": self.srid}
        fields.update(zip("xyz", self.coords))
        return {"$point": fields}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and (self.srid, self.coords) == (other.srid, other.coords)

    def __hash__(self) -> int:
        return hash((self.srid, self.coords))

    def __repr__(self) -> str:
        return f"Point({self.srid}, {', '.join(repr(c) for c in self.coords)})"


def temporal_of(obj: dict[str, Any]) -> Any:
    """The :class:`Temporal` a decoded one-key ``{"$<kind>": text}`` map stands for,
    the :class:`Point` of a ``{"$point": {...}}`` map, the ``bytes`` of a
    ``{"$bytes": base64}`` map (JSON's byte arrays), else the map itself."""
    if len(obj) == 1:
        ((key, text),) = obj.items()
        if key == "$bytes" and isinstance(text, str):
            try:
                return base64.b64decode(text, validate=True)
            except ValueError:
                return obj
        if key.startswith("$") and key[1:] in TEMPORAL_KINDS and isinstance(text, str):
            return Temporal(key[1:], text)
        if key == "$point" and isinstance(text, Mapping) and "srid" in text:
            # kith sends points whole; a map of data that only looks like one stays a map.
            try:
                return Point(int(text["srid"]), *(float(text[c]) for c in "xyz" if c in text))
            except (TypeError, ValueError):
                return obj
    return obj


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
    on_bytes: Callable[[bytes], Any] | None = None,
    path: str = "value",
    depth: int = 0,
) -> Any:
    """Checks that ``value`` is a kith value and rebuilds it for an encoder.

    Tuples become lists and mappings become dicts. ``on_int`` and ``on_datetime``
    let an encoder replace ints (BSON wants ``Int64`` so every int is an int64) and
    datetimes (JSON wants ``{"$datetime": ms}``), ``on_bytes`` byte arrays (JSON wants
    ``{"$bytes": base64}``; ``bytes``, ``bytearray`` and ``memoryview`` all become
    ``bytes``). Raises ``TypeError`` for a type
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
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value)
        return on_bytes(value) if on_bytes is not None else value
    if isinstance(value, (_dt.date, _dt.time, _dt.timedelta)):
        value = Temporal.of(value)
    if isinstance(value, Temporal):
        return {"$" + value.kind: value.text}
    if isinstance(value, Point):
        return value.to_map()
    if isinstance(value, (list, tuple)):
        return [
            prepare(v, on_int=on_int, on_datetime=on_datetime, on_bytes=on_bytes,
                    path=f"{path}[{i}]", depth=depth + 1)
            for i, v in enumerate(value)
        ]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{path}: map keys must be str, got {type(k).__name__} {k!r}")
            out[k] = prepare(
                v, on_int=on_int, on_datetime=on_datetime, on_bytes=on_bytes,
                path=f"{path}.{k}", depth=depth + 1,
            )
        return out
    raise TypeError(f"{path}: kith cannot carry a {type(value).__name__} ({value!r})")
