"""Builders for write operations (docs/protocol.md 1.3.1).

A write request carries its operations as plain maps so that any client can write
them by hand; these functions build the same maps, with the key names in one place
(they mirror ``kith_protocol::ops`` of the Rust client). Pass a list of them to
:meth:`kith.Client.write`::

    from kith import ops

    client.write([
        ops.require_absent("Person", "email", "ann@example.org"),
        ops.create_node(["Person"], {"id": 7, "email": "ann@example.org"}),
        ops.create_rel("KNOWS", ops.created(0), ops.by_id("Person", 3), {"since": 2024}),
    ])

Node arguments take a node reference: :func:`node`, :func:`by_id` or
:func:`created` (a bare int is read by the server as :func:`node`). Property values
are kith values (docs/protocol.md 1.6); ``None`` in :func:`set_node` /
:func:`set_rel` removes the property.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "Op",
    "NodeRef",
    "node",
    "by_id",
    "created",
    "create_node",
    "create_rel",
    "set_node",
    "set_rel",
    "add_label",
    "remove_label",
    "delete_node",
    "delete_rel",
    "require_absent",
    "require_present",
    "create_index",
    "drop_index",
]

Op = dict[str, Any]
"""One operation: a map with an ``op`` key and that operation's fields."""

NodeRef = dict[str, Any] | int
"""``{"node": id}``, ``{"label": L, "id": n}``, ``{"created": n}`` or a bare internal id."""


def _props(props: Mapping[str, Any] | None) -> dict[str, Any]:
    return {} if props is None else dict(props)


def _labels(labels: Iterable[str] | str) -> list[str]:
    # One label given as a str means that label, not one label per character.
    return [labels] if isinstance(labels, str) else list(labels)


# --- node references -------------------------------------------------------------


def node(id: int) -> dict[str, Any]:
    """A node by internal id (as returned in :attr:`kith.WriteResult.nodes`)."""
    return {"node": id}


def by_id(label: str, id: int) -> dict[str, Any]:
    """A node by label and external ``id`` property (the ``(label, id)`` index)."""
    return {"label": label, "id": id}


def created(n: int) -> dict[str, Any]:
    """The ``n``-th node created earlier in the same transaction (from 0)."""
    return {"created": n}


# --- operations --------------------------------------------------------------------


def create_node(labels: Iterable[str] | str = (), props: Mapping[str, Any] | None = None) -> Op:
    """Creates a node; an int ``id`` property enters the ``(label, id)`` index,
    unique per label (``duplicate_id`` otherwise)."""
    return {"op": "create_node", "labels": _labels(labels), "props": _props(props)}


def create_rel(
    rel_type: str, from_: NodeRef, to: NodeRef, props: Mapping[str, Any] | None = None
) -> Op:
    """Creates a relationship ``from_ -[rel_type]-> to``."""
    return {"op": "create_rel", "type": rel_type, "from": from_, "to": to, "props": _props(props)}


def set_node(node: NodeRef, props: Mapping[str, Any]) -> Op:
    """Sets node properties; a ``None`` value removes the property."""
    return {"op": "set_node", "node": node, "props": _props(props)}


def set_rel(rel: int, props: Mapping[str, Any]) -> Op:
    """Sets properties of relationship ``rel`` (an internal id from
    :attr:`kith.WriteResult.rels`); a ``None`` value removes the property."""
    return {"op": "set_rel", "rel": rel, "props": _props(props)}


def add_label(node: NodeRef, label: str) -> Op:
    """Adds a label to a node."""
    return {"op": "add_label", "node": node, "label": label}


def remove_label(node: NodeRef, label: str) -> Op:
    """Removes a label from a node."""
    return {"op": "remove_label", "node": node, "label": label}


def delete_node(node: NodeRef, detach: bool = False) -> Op:
    """Deletes a node; with ``detach`` its relationships too (without it, a node
    that has relationships is ``invalid_write``)."""
    return {"op": "delete_node", "node": node, "detach": detach}


def delete_rel(rel: int) -> Op:
    """Deletes relationship ``rel`` (an internal id)."""
    return {"op": "delete_rel", "rel": rel}


def require_absent(label: str, key: str, value: Any) -> Op:
    """Aborts the transaction (``condition_failed``) if a node of ``label`` has
    ``key == value``. Followed by :func:`create_node` it is "create if absent",
    exactly once even under concurrent writers."""
    return _condition("require_absent", label, key, value)


def require_present(label: str, key: str, value: Any) -> Op:
    """Aborts the transaction (``condition_failed``) unless a node of ``label`` has
    ``key == value``."""
    return _condition("require_present", label, key, value)


def _condition(op: str, label: str, key: str, value: Any) -> Op:
    return {"op": op, "label": label, "key": key, "value": value}


def create_index(label: str, key: str) -> Op:
    """Declares a property index on ``(label, key)`` (idempotent), used by
    ``graph.find_nodes`` and by conditions."""
    return _index_op("create_index", label, key)


def drop_index(label: str, key: str) -> Op:
    """Drops the property index on ``(label, key)``; ``not_found`` if there is none."""
    return _index_op("drop_index", label, key)


def _index_op(op: str, label: str, key: str) -> Op:
    return {"op": op, "label": label, "key": key}
