//! Write requests' operation maps (`docs/protocol.md` 1.3.1) read back as the
//! operations they describe: the decoder beside the encoder (`super`).
//!
//! Every error names the operation by position and kind and the field that is wrong,
//! so a client learns exactly what to fix; nothing is queued unless the whole request
//! converts.

use kith_core::write_op::{Condition, Name, NodeRef, WriteOp};
use kith_core::{NodeId, RelId, Value};

/// Reads the operations of one write request.
pub fn decode(ops: Vec<Value>, ops_max: usize) -> Result<Vec<WriteOp>, String> {
    if ops.is_empty() {
        return Err("a write request needs at least one operation".into());
    }
    if ops.len() > ops_max {
        return Err(format!(
            "{} operations in one request; the limit (write_ops_max) is {ops_max}",
            ops.len()
        ));
    }
    let mut out = Vec::with_capacity(ops.len());
    for (i, op) in ops.into_iter().enumerate() {
        convert(op, &mut out).map_err(|e| format!("operation {i}: {e}"))?;
    }
    Ok(out)
}

/// The fields of one operation map, taken out by name.
struct Fields {
    kind: String,
    entries: Vec<(std::sync::Arc<str>, Value)>,
}

impl Fields {
    fn take(&mut self, key: &str) -> Option<Value> {
        let pos = self.entries.iter().position(|(k, _)| &**k == key)?;
        Some(self.entries.swap_remove(pos).1)
    }

    fn required(&mut self, key: &str) -> Result<Value, String> {
        self.take(key)
            .ok_or_else(|| format!("`{}` needs a `{key}` field", self.kind))
    }

    fn string(&mut self, key: &str) -> Result<Name, String> {
        match self.required(key)? {
            Value::String(s) => Ok(Name::from(s.as_str())),
            other => Err(self.wrong(key, "a string", &other)),
        }
    }

    fn int(&mut self, key: &str) -> Result<i64, String> {
        match self.required(key)? {
            Value::Int(i) => Ok(i),
            other => Err(self.wrong(key, "an integer", &other)),
        }
    }

    fn rel(&mut self, key: &str) -> Result<RelId, String> {
        let id = self.int(key)?;
        u32::try_from(id)
            .map(RelId)
            .map_err(|_| format!("`{key}` = {id} is not a relationship id"))
    }

    fn props(&mut self, key: &str) -> Result<Vec<(Name, Value)>, String> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Map(entries)) => Ok(entries),
            Some(other) => Err(self.wrong(key, "a map of properties", &other)),
        }
    }

    fn node_ref(&mut self, key: &str) -> Result<NodeRef, String> {
        let value = self.required(key)?;
        let shape =
            "a node reference ({\"node\": id}, {\"label\": L, \"id\": n} or {\"created\": n})";
        let bad = |kind: &str, found: &Value| {
            format!(
                "`{kind}`: `{key}` must be {shape}, got {}",
                found.value_type()
            )
        };
        match value {
            Value::Int(id) => node_id(id).map(NodeRef::Node),
            Value::Map(entries) => {
                let mut inner = Fields {
                    kind: self.kind.clone(),
                    entries,
                };
                let reference = if let Some(v) = inner.take("node") {
                    match v {
                        Value::Int(id) => NodeRef::Node(node_id(id)?),
                        other => return Err(bad(&self.kind, &other)),
                    }
                } else if let Some(v) = inner.take("created") {
                    match v {
                        Value::Int(n) if n >= 0 => NodeRef::Created(n as usize),
                        other => return Err(bad(&self.kind, &other)),
                    }
                } else {
                    NodeRef::ById {
                        label: inner
                            .string("label")
                            .map_err(|e| format!("in `{key}`: {e}"))?,
                        id: inner.int("id").map_err(|e| format!("in `{key}`: {e}"))?,
                    }
                };
                inner.finish().map_err(|e| format!("in `{key}`: {e}"))?;
                Ok(reference)
            }
            other => Err(bad(&self.kind, &other)),
        }
    }

    fn wrong(&self, key: &str, expected: &str, found: &Value) -> String {
        format!(
            "`{}`: `{key}` must be {expected}, got {}",
            self.kind,
            found.value_type()
        )
    }

    /// Refuses fields left over: a misspelt key must not be silently ignored.
    fn finish(self) -> Result<(), String> {
        match self.entries.first() {
            None => Ok(()),
            Some((key, _)) => Err(format!("`{}` has no field `{key}`", self.kind)),
        }
    }
}

fn node_id(id: i64) -> Result<NodeId, String> {
    u32::try_from(id)
        .map(NodeId)
        .map_err(|_| format!("{id} is not a node id"))
}

const KINDS: &str = "create_node, create_rel, set_node, set_rel, add_label, remove_label, \
                     delete_node, delete_rel, require_absent, require_present, create_index, drop_index";

fn convert(op: Value, out: &mut Vec<WriteOp>) -> Result<(), String> {
    let Value::Map(mut entries) = op else {
        return Err(format!(
            "an operation must be a map, got {}",
            op.value_type()
        ));
    };
    let kind = match entries.iter().position(|(k, _)| &**k == "op") {
        Some(pos) => match entries.swap_remove(pos).1 {
            Value::String(s) => s.to_string(),
            other => return Err(format!("`op` must be a string, got {}", other.value_type())),
        },
        None => return Err(format!("the map has no `op` field (one of: {KINDS})")),
    };
    let mut f = Fields { kind, entries };
    match f.kind.as_str() {
        "create_node" => {
            let labels = match f.take("labels") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::List(items)) => items
                    .into_iter()
                    .map(|v| match v {
                        Value::String(s) => Ok(Name::from(s.as_str())),
                        other => Err(f.wrong("labels", "a list of strings", &other)),
                    })
                    .collect::<Result<_, _>>()?,
                Some(other) => return Err(f.wrong("labels", "a list of strings", &other)),
            };
            let properties = f.props("props")?;
            out.push(WriteOp::CreateNode { labels, properties });
        }
        "create_rel" => {
            let rel_type = f.string("type")?;
            let src = f.node_ref("from")?;
            let dst = f.node_ref("to")?;
            let properties = f.props("props")?;
            out.push(WriteOp::CreateRel {
                rel_type,
                src,
                dst,
                properties,
            });
        }
        "set_node" => {
            let node = f.node_ref("node")?;
            for (key, value) in f.props("props")? {
                out.push(WriteOp::SetNodeProperty {
                    node: node.clone(),
                    key,
                    value,
                });
            }
        }
        "set_rel" => {
            let rel = f.rel("rel")?;
            for (key, value) in f.props("props")? {
                out.push(WriteOp::SetRelProperty { rel, key, value });
            }
        }
        "add_label" | "remove_label" => {
            let node = f.node_ref("node")?;
            let label = f.string("label")?;
            out.push(if f.kind == "add_label" {
                WriteOp::AddLabel { node, label }
            } else {
                WriteOp::RemoveLabel { node, label }
            });
        }
        "delete_node" => {
            let node = f.node_ref("node")?;
            let detach = match f.take("detach") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => b,
                Some(other) => return Err(f.wrong("detach", "a bool", &other)),
            };
            out.push(WriteOp::DeleteNode { node, detach });
        }
        "delete_rel" => {
            let rel = f.rel("rel")?;
            out.push(WriteOp::DeleteRel { rel });
        }
        "require_absent" | "require_present" => {
            let label = f.string("label")?;
            let key = f.string("key")?;
            let value = f.required("value")?;
            out.push(WriteOp::Require(if f.kind == "require_absent" {
                Condition::Absent { label, key, value }
            } else {
                Condition::Present { label, key, value }
            }));
        }
        "create_index" | "drop_index" => {
            let label = f.string("label")?;
            let key = f.string("key")?;
            out.push(if f.kind == "create_index" {
                WriteOp::CreateIndex { label, key }
            } else {
                WriteOp::DropIndex { label, key }
            });
        }
        other => return Err(format!("unknown operation `{other}` (one of: {KINDS})")),
    }
    f.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops;

    #[test]
    fn every_builder_converts() {
        let batch = decode(
            vec![
                ops::create_node(&["Person"], vec![("id".into(), Value::Int(1))]),
                ops::create_rel("KNOWS", ops::created(0), ops::by_id("Person", 2), vec![]),
                ops::set_node(
                    ops::node(3),
                    vec![("a".into(), Value::Int(1)), ("b".into(), Value::Null)],
                ),
                ops::set_rel(4, vec![("w".into(), Value::Float(0.5))]),
                ops::add_label(ops::node(1), "X"),
                ops::remove_label(ops::node(1), "X"),
                ops::delete_node(ops::node(5), true),
                ops::delete_rel(6),
                ops::require_absent("Person", "email", Value::String("e".into())),
                ops::require_present("Person", "id", Value::Int(1)),
                ops::create_index("Person", "email"),
                ops::drop_index("Person", "email"),
            ],
            100,
        )
        .expect("converts");
        assert_eq!(batch.len(), 13, "set_node with two props is two operations");
        assert_eq!(
            batch[1],
            WriteOp::CreateRel {
                rel_type: "KNOWS".into(),
                src: NodeRef::Created(0),
                dst: NodeRef::ById {
                    label: "Person".into(),
                    id: 2
                },
                properties: vec![],
            }
        );
    }

    #[test]
    fn errors_name_the_operation_and_the_field() {
        let err = |ops: Vec<Value>| decode(ops, 10).expect_err("refused");
        let e = err(vec![
            ops::create_node(&[], vec![]),
            ops::create_rel("T", Value::String("x".into()), ops::node(1), vec![]),
        ]);
        assert!(e.contains("operation 1") && e.contains("`from`"), "{e}");
        let e = err(vec![Value::Int(3)]);
        assert!(e.contains("must be a map"), "{e}");
        let mut typo = ops::delete_rel(1);
        if let Value::Map(entries) = &mut typo {
            entries.push(("detatch".into(), Value::Bool(true)));
        }
        let e = err(vec![typo]);
        assert!(e.contains("no field `detatch`"), "{e}");
        let e = err(vec![]);
        assert!(e.contains("at least one"), "{e}");
        let e = err(vec![ops::delete_rel(1); 11]);
        assert!(e.contains("write_ops_max"), "{e}");
        let e = err(vec![Value::Map(vec![(
            "op".into(),
            Value::String("drop".into()),
        )])]);
        assert!(e.contains("unknown operation `drop`"), "{e}");
        let e = err(vec![
            ops::delete_node(ops::node(1), false),
            ops::delete_node(Value::Int(-1), false),
        ]);
        assert!(
            e.contains("operation 1") && e.contains("-1 is not a node id"),
            "{e}"
        );
    }
}
