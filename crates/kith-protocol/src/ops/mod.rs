//! Builders for write operations (`docs/protocol.md` 1.3.1).
//!
//! A write request carries operations as plain maps so that every client, in any
//! language, can write them by hand; these functions build the same maps for Rust
//! callers and keep the key names in one place.

use std::sync::Arc;

use kith_core::Value;

mod decode;
pub use decode::decode;

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Arc::<str>::from(k), v))
            .collect(),
    )
}

fn props(properties: Vec<(String, Value)>) -> Value {
    Value::Map(
        properties
            .into_iter()
            .map(|(k, v)| (Arc::<str>::from(k), v))
            .collect(),
    )
}

fn strings(items: &[&str]) -> Value {
    Value::List(items.iter().map(|s| Value::String((*s).into())).collect())
}

/// A node by internal id.
pub fn node(id: u32) -> Value {
    map(vec![("node", Value::Int(i64::from(id)))])
}

/// A node by label and external `id` property.
pub fn by_id(label: &str, id: i64) -> Value {
    map(vec![
        ("label", Value::String(label.into())),
        ("id", Value::Int(id)),
    ])
}

/// The `n`-th node created earlier in the same transaction (from 0).
pub fn created(n: usize) -> Value {
    map(vec![("created", Value::Int(n as i64))])
}

/// Creates a node.
pub fn create_node(labels: &[&str], properties: Vec<(String, Value)>) -> Value {
    map(vec![
        ("op", Value::String("create_node".into())),
        ("labels", strings(labels)),
        ("props", props(properties)),
    ])
}

/// Creates a relationship `from -[rel_type]-> to`.
pub fn create_rel(
    rel_type: &str,
    from: Value,
    to: Value,
    properties: Vec<(String, Value)>,
) -> Value {
    map(vec![
        ("op", Value::String("create_rel".into())),
        ("type", Value::String(rel_type.into())),
        ("from", from),
        ("to", to),
        ("props", props(properties)),
    ])
}

/// Sets node properties; a `Null` value removes the property.
pub fn set_node(node: Value, properties: Vec<(String, Value)>) -> Value {
    map(vec![
        ("op", Value::String("set_node".into())),
        ("node", node),
        ("props", props(properties)),
    ])
}

/// Sets relationship properties; a `Null` value removes the property.
pub fn set_rel(rel: u32, properties: Vec<(String, Value)>) -> Value {
    map(vec![
        ("op", Value::String("set_rel".into())),
        ("rel", Value::Int(i64::from(rel))),
        ("props", props(properties)),
    ])
}

/// Adds a label.
pub fn add_label(node: Value, label: &str) -> Value {
    map(vec![
        ("op", Value::String("add_label".into())),
        ("node", node),
        ("label", Value::String(label.into())),
    ])
}

/// Removes a label.
pub fn remove_label(node: Value, label: &str) -> Value {
    map(vec![
        ("op", Value::String("remove_label".into())),
        ("node", node),
        ("label", Value::String(label.into())),
    ])
}

/// Deletes a node (`detach`: with its relationships).
pub fn delete_node(node: Value, detach: bool) -> Value {
    map(vec![
        ("op", Value::String("delete_node".into())),
        ("node", node),
        ("detach", Value::Bool(detach)),
    ])
}

/// Deletes a relationship.
pub fn delete_rel(rel: u32) -> Value {
    map(vec![
        ("op", Value::String("delete_rel".into())),
        ("rel", Value::Int(i64::from(rel))),
    ])
}

/// Aborts the transaction if a node of `label` has `key == value`.
pub fn require_absent(label: &str, key: &str, value: Value) -> Value {
    condition("require_absent", label, key, value)
}

/// Aborts the transaction unless a node of `label` has `key == value`.
pub fn require_present(label: &str, key: &str, value: Value) -> Value {
    condition("require_present", label, key, value)
}

fn condition(op: &str, label: &str, key: &str, value: Value) -> Value {
    map(vec![
        ("op", Value::String(op.into())),
        ("label", Value::String(label.into())),
        ("key", Value::String(key.into())),
        ("value", value),
    ])
}

/// Declares a property index on `(label, key)`.
pub fn create_index(label: &str, key: &str) -> Value {
    index_op("create_index", label, key)
}

/// Drops a property index.
pub fn drop_index(label: &str, key: &str) -> Value {
    index_op("drop_index", label, key)
}

fn index_op(op: &str, label: &str, key: &str) -> Value {
    map(vec![
        ("op", Value::String(op.into())),
        ("label", Value::String(label.into())),
        ("key", Value::String(key.into())),
    ])
}
