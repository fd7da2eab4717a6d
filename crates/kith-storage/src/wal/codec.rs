//! Write batches as bytes: the payload of a log record.
//!
//! Operations carry names, not ids, exactly as clients sent them, so replaying a
//! record interns names in the same order as the original commit did and assigns the
//! same node and relationship ids (ids are slot numbers, handed out in commit order).

use kith_core::{NodeId, RelId, SchemaOp, Value};

use crate::graph_file::{put_len, put_string as put_str, put_u32, put_value, Reader};
use crate::{Condition, Name, NodeRef, StorageError, WriteBatch, WriteOp};

const OP_CREATE_NODE: u8 = 1;
const OP_CREATE_REL: u8 = 2;
const OP_SET_NODE_PROPERTY: u8 = 3;
const OP_SET_REL_PROPERTY: u8 = 4;
const OP_ADD_LABEL: u8 = 5;
const OP_REMOVE_LABEL: u8 = 6;
const OP_DELETE_NODE: u8 = 7;
const OP_DELETE_REL: u8 = 8;
const OP_REQUIRE_ABSENT: u8 = 9;
const OP_REQUIRE_PRESENT: u8 = 10;
const OP_CREATE_INDEX: u8 = 11;
const OP_DROP_INDEX: u8 = 12;
const OP_NAME_INDEX: u8 = 13;
const OP_CREATE_UNIQUE: u8 = 14;
const OP_DROP_CONSTRAINT: u8 = 15;
const OP_REGISTER_PROCEDURE: u8 = 16;
const OP_DROP_PROCEDURE: u8 = 17;
const OP_SET_CURSOR: u8 = 18;
const OP_ENSURE_NODE: u8 = 19;
const OP_KIND_INDEX: u8 = 20;
const OP_CREATE_COMPOSITE: u8 = 21;
const OP_DROP_COMPOSITE: u8 = 22;

const REF_NODE: u8 = 0;
const REF_BY_ID: u8 = 1;
const REF_CREATED: u8 = 2;

/// Appends one batch: op count u32, then each op as a tag byte and its fields.
pub(crate) fn put_batch(out: &mut Vec<u8>, batch: &WriteBatch) {
    put_len(out, batch.ops.len());
    for op in &batch.ops {
        put_op(out, op);
    }
}

fn put_props(out: &mut Vec<u8>, props: &[(Name, Value)]) {
    put_len(out, props.len());
    for (k, v) in props {
        put_str(out, k);
        put_value(out, v);
    }
}

fn put_ref(out: &mut Vec<u8>, node: &NodeRef) {
    match node {
        NodeRef::Node(id) => {
            out.push(REF_NODE);
            put_u32(out, id.0);
        }
        NodeRef::ById { label, id } => {
            out.push(REF_BY_ID);
            put_str(out, label);
            out.extend_from_slice(&id.to_le_bytes());
        }
        NodeRef::Created(n) => {
            out.push(REF_CREATED);
            put_len(out, *n);
        }
    }
}

fn put_op(out: &mut Vec<u8>, op: &WriteOp) {
    match op {
        WriteOp::CreateNode { labels, properties } => {
            out.push(OP_CREATE_NODE);
            put_len(out, labels.len());
            for l in labels {
                put_str(out, l);
            }
            put_props(out, properties);
        }
        WriteOp::CreateRel {
            rel_type,
            src,
            dst,
            properties,
        } => {
            out.push(OP_CREATE_REL);
            put_str(out, rel_type);
            put_ref(out, src);
            put_ref(out, dst);
            put_props(out, properties);
        }
        WriteOp::SetNodeProperty { node, key, value } => {
            out.push(OP_SET_NODE_PROPERTY);
            put_ref(out, node);
            put_str(out, key);
            put_value(out, value);
        }
        WriteOp::SetRelProperty { rel, key, value } => {
            out.push(OP_SET_REL_PROPERTY);
            put_u32(out, rel.0);
            put_str(out, key);
            put_value(out, value);
        }
        WriteOp::AddLabel { node, label } | WriteOp::RemoveLabel { node, label } => {
            out.push(if matches!(op, WriteOp::AddLabel { .. }) {
                OP_ADD_LABEL
            } else {
                OP_REMOVE_LABEL
            });
            put_ref(out, node);
            put_str(out, label);
        }
        WriteOp::DeleteNode { node, detach } => {
            out.push(OP_DELETE_NODE);
            put_ref(out, node);
            out.push(u8::from(*detach));
        }
        WriteOp::DeleteRel { rel } => {
            out.push(OP_DELETE_REL);
            put_u32(out, rel.0);
        }
        WriteOp::EnsureNode { label, id } => {
            out.push(OP_ENSURE_NODE);
            put_str(out, label);
            out.extend_from_slice(&id.to_le_bytes());
        }
        WriteOp::Require(condition) => {
            let (tag, label, key, value) = match condition {
                Condition::Absent { label, key, value } => (OP_REQUIRE_ABSENT, label, key, value),
                Condition::Present { label, key, value } => (OP_REQUIRE_PRESENT, label, key, value),
            };
            out.push(tag);
            put_str(out, label);
            put_str(out, key);
            put_value(out, value);
        }
        WriteOp::CreateIndex { label, key } | WriteOp::DropIndex { label, key } => {
            out.push(if matches!(op, WriteOp::CreateIndex { .. }) {
                OP_CREATE_INDEX
            } else {
                OP_DROP_INDEX
            });
            put_str(out, label);
            put_str(out, key);
        }
        WriteOp::Schema(op) => put_schema_op(out, op),
    }
}

fn put_schema_op(out: &mut Vec<u8>, op: &SchemaOp) {
    if let SchemaOp::CreateComposite { name, on, unique } = op {
        out.push(OP_CREATE_COMPOSITE);
        put_str(out, name);
        put_str(out, &on.label);
        out.push(u8::from(*unique));
        let keys: Vec<&str> = on.keys().collect();
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for key in keys {
            put_str(out, key);
        }
        return;
    }
    if let SchemaOp::SetCursor {
        name,
        value,
        expect,
    } = op
    {
        out.push(OP_SET_CURSOR);
        put_str(out, name);
        out.extend_from_slice(&value.to_le_bytes());
        match expect {
            None => out.push(0),
            Some(e) => {
                out.push(1);
                out.extend_from_slice(&e.to_le_bytes());
            }
        }
        return;
    }
    let (tag, strings): (u8, Vec<&str>) = match op {
        SchemaOp::NameIndex { name, label, key } => (OP_NAME_INDEX, vec![name, label, key]),
        SchemaOp::CreateUnique { name, label, key } => (OP_CREATE_UNIQUE, vec![name, label, key]),
        SchemaOp::DropConstraint { name } => (OP_DROP_CONSTRAINT, vec![name]),
        SchemaOp::RegisterProcedure { name, text } => (OP_REGISTER_PROCEDURE, vec![name, text]),
        SchemaOp::DropProcedure { name } => (OP_DROP_PROCEDURE, vec![name]),
        SchemaOp::KindIndex { label, key, kind } => (OP_KIND_INDEX, vec![label, key, kind.name()]),
        SchemaOp::DropComposite { name } => (OP_DROP_COMPOSITE, vec![name]),
        SchemaOp::SetCursor { .. } | SchemaOp::CreateComposite { .. } => {
            unreachable!("written above")
        }
    };
    out.push(tag);
    for s in strings {
        put_str(out, s);
    }
}

fn read_owned(r: &mut Reader<'_>) -> Result<String, StorageError> {
    r.string().map(str::to_owned)
}

/// Reads one batch written by [`put_batch`].
pub(crate) fn read_batch(r: &mut Reader<'_>) -> Result<WriteBatch, StorageError> {
    let count = r.u32()? as usize;
    // Every op takes at least two bytes: never trust a count beyond what is there.
    let mut ops = Vec::with_capacity(count.min(r.remaining() / 2));
    for _ in 0..count {
        ops.push(read_op(r)?);
    }
    Ok(WriteBatch { ops })
}

fn read_str(r: &mut Reader<'_>) -> Result<Name, StorageError> {
    r.string().map(Name::from)
}

fn read_props(r: &mut Reader<'_>) -> Result<Vec<(Name, Value)>, StorageError> {
    let count = r.u32()? as usize;
    let mut props = Vec::with_capacity(count.min(r.remaining() / 5));
    for _ in 0..count {
        let key = read_str(r)?;
        props.push((key, r.value(0)?));
    }
    Ok(props)
}

fn read_ref(r: &mut Reader<'_>) -> Result<NodeRef, StorageError> {
    let at = r.pos;
    Ok(match r.u8()? {
        REF_NODE => NodeRef::Node(NodeId(r.u32()?)),
        REF_BY_ID => {
            let label = read_str(r)?;
            NodeRef::ById {
                label,
                id: r.i64()?,
            }
        }
        REF_CREATED => NodeRef::Created(r.u32()? as usize),
        tag => {
            r.pos = at;
            return Err(r.corrupt(format!("unknown node reference tag {tag}")));
        }
    })
}

fn read_op(r: &mut Reader<'_>) -> Result<WriteOp, StorageError> {
    let at = r.pos;
    Ok(match r.u8()? {
        OP_CREATE_NODE => {
            let n = r.u32()? as usize;
            let mut labels = Vec::with_capacity(n.min(r.remaining() / 4));
            for _ in 0..n {
                labels.push(read_str(r)?);
            }
            WriteOp::CreateNode {
                labels,
                properties: read_props(r)?,
            }
        }
        OP_CREATE_REL => WriteOp::CreateRel {
            rel_type: read_str(r)?,
            src: read_ref(r)?,
            dst: read_ref(r)?,
            properties: read_props(r)?,
        },
        OP_SET_NODE_PROPERTY => WriteOp::SetNodeProperty {
            node: read_ref(r)?,
            key: read_str(r)?,
            value: r.value(0)?,
        },
        OP_SET_REL_PROPERTY => WriteOp::SetRelProperty {
            rel: RelId(r.u32()?),
            key: read_str(r)?,
            value: r.value(0)?,
        },
        OP_ADD_LABEL => WriteOp::AddLabel {
            node: read_ref(r)?,
            label: read_str(r)?,
        },
        OP_REMOVE_LABEL => WriteOp::RemoveLabel {
            node: read_ref(r)?,
            label: read_str(r)?,
        },
        OP_DELETE_NODE => WriteOp::DeleteNode {
            node: read_ref(r)?,
            detach: r.u8()? != 0,
        },
        OP_DELETE_REL => WriteOp::DeleteRel {
            rel: RelId(r.u32()?),
        },
        tag @ (OP_REQUIRE_ABSENT | OP_REQUIRE_PRESENT) => {
            let (label, key, value) = (read_str(r)?, read_str(r)?, r.value(0)?);
            WriteOp::Require(if tag == OP_REQUIRE_ABSENT {
                Condition::Absent { label, key, value }
            } else {
                Condition::Present { label, key, value }
            })
        }
        OP_ENSURE_NODE => WriteOp::EnsureNode {
            label: read_str(r)?,
            id: r.i64()?,
        },
        OP_CREATE_INDEX => WriteOp::CreateIndex {
            label: read_str(r)?,
            key: read_str(r)?,
        },
        OP_DROP_INDEX => WriteOp::DropIndex {
            label: read_str(r)?,
            key: read_str(r)?,
        },
        OP_NAME_INDEX => WriteOp::Schema(SchemaOp::NameIndex {
            name: read_owned(r)?,
            label: read_owned(r)?,
            key: read_owned(r)?,
        }),
        OP_CREATE_UNIQUE => WriteOp::Schema(SchemaOp::CreateUnique {
            name: read_owned(r)?,
            label: read_owned(r)?,
            key: read_owned(r)?,
        }),
        OP_DROP_CONSTRAINT => WriteOp::Schema(SchemaOp::DropConstraint {
            name: read_owned(r)?,
        }),
        OP_REGISTER_PROCEDURE => WriteOp::Schema(SchemaOp::RegisterProcedure {
            name: read_owned(r)?,
            text: read_owned(r)?,
        }),
        OP_DROP_PROCEDURE => WriteOp::Schema(SchemaOp::DropProcedure {
            name: read_owned(r)?,
        }),
        OP_KIND_INDEX => {
            let (label, key, kind) = (read_owned(r)?, read_owned(r)?, read_owned(r)?);
            let Some(kind) = kith_core::IndexKind::parse(&kind) else {
                r.pos = at;
                return Err(r.corrupt(format!("unknown index kind `{kind}`")));
            };
            WriteOp::Schema(SchemaOp::KindIndex { label, key, kind })
        }
        OP_CREATE_COMPOSITE => {
            let (name, label, unique) = (read_owned(r)?, read_owned(r)?, r.u8()? != 0);
            let count = r.u32()? as usize;
            if count < 2 || count > r.remaining() / 4 {
                r.pos = at;
                return Err(r.corrupt(format!("a composite index of {count} keys")));
            }
            let mut keys = Vec::with_capacity(count);
            for _ in 0..count {
                keys.push(read_owned(r)?);
            }
            let on = kith_core::LabelKey {
                label,
                key: keys.remove(0),
                more: keys,
            };
            WriteOp::Schema(SchemaOp::CreateComposite { name, on, unique })
        }
        OP_DROP_COMPOSITE => WriteOp::Schema(SchemaOp::DropComposite {
            name: read_owned(r)?,
        }),
        OP_SET_CURSOR => WriteOp::Schema(SchemaOp::SetCursor {
            name: read_owned(r)?,
            value: r.i64()?,
            expect: match r.u8()? {
                0 => None,
                _ => Some(r.i64()?),
            },
        }),
        tag => {
            r.pos = at;
            return Err(r.corrupt(format!("unknown operation tag {tag}")));
        }
    })
}

/// Decodes a whole payload holding batches back to back (used in tests).
#[cfg(test)]
pub(crate) fn decode_batches(bytes: &[u8], count: usize) -> Result<Vec<WriteBatch>, StorageError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        path: std::path::Path::new("<test>"),
    };
    (0..count).map(|_| read_batch(&mut r)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_round_trips() {
        let batch = WriteBatch {
            ops: vec![
                WriteOp::CreateNode {
                    labels: vec!["Person".into(), "Admin".into()],
                    properties: vec![
                        ("id".into(), Value::Int(7)),
                        ("name".into(), Value::String("Ada".into())),
                        ("tags".into(), Value::List(vec![Value::Float(1.5)])),
                        ("blob".into(), Value::Bytes(vec![0, 128, 255].into())),
                        ("none".into(), Value::Bytes(Vec::new().into())),
                    ],
                },
                WriteOp::CreateRel {
                    rel_type: "KNOWS".into(),
                    src: NodeRef::Created(0),
                    dst: NodeRef::ById {
                        label: "Person".into(),
                        id: -3,
                    },
                    properties: vec![("since".into(), Value::DateTime(1_000))],
                },
                WriteOp::SetNodeProperty {
                    node: NodeRef::Node(NodeId(9)),
                    key: "age".into(),
                    value: Value::Null,
                },
                WriteOp::SetRelProperty {
                    rel: RelId(4),
                    key: "w".into(),
                    value: Value::Bool(true),
                },
                WriteOp::AddLabel {
                    node: NodeRef::Node(NodeId(1)),
                    label: "X".into(),
                },
                WriteOp::RemoveLabel {
                    node: NodeRef::Node(NodeId(1)),
                    label: "Y".into(),
                },
                WriteOp::DeleteNode {
                    node: NodeRef::Node(NodeId(2)),
                    detach: true,
                },
                WriteOp::DeleteRel { rel: RelId(3) },
                WriteOp::Schema(SchemaOp::NameIndex {
                    name: "by_name".into(),
                    label: "Person".into(),
                    key: "name".into(),
                }),
                WriteOp::Schema(SchemaOp::KindIndex {
                    label: "Person".into(),
                    key: "name".into(),
                    kind: kith_core::IndexKind::Text,
                }),
                WriteOp::Schema(SchemaOp::CreateUnique {
                    name: "one_email".into(),
                    label: "Person".into(),
                    key: "email".into(),
                }),
                WriteOp::Schema(SchemaOp::DropConstraint {
                    name: "one_email".into(),
                }),
                WriteOp::Schema(SchemaOp::CreateComposite {
                    name: "full_name".into(),
                    on: kith_core::LabelKey {
                        label: "Person".into(),
                        key: "first".into(),
                        more: vec!["last".into(), "born".into()],
                    },
                    unique: true,
                }),
                WriteOp::Schema(SchemaOp::DropComposite {
                    name: "full_name".into(),
                }),
                WriteOp::Schema(SchemaOp::RegisterProcedure {
                    name: "app.friends".into(),
                    text: "MATCH (p {id: $id})--(f) RETURN f".into(),
                }),
                WriteOp::Schema(SchemaOp::DropProcedure {
                    name: "app.friends".into(),
                }),
                WriteOp::Schema(SchemaOp::SetCursor {
                    name: "ingest:updates".into(),
                    value: 1 << 40,
                    expect: Some(7),
                }),
                WriteOp::Schema(SchemaOp::SetCursor {
                    name: "ingest:other".into(),
                    value: 3,
                    expect: None,
                }),
                WriteOp::Require(Condition::Absent {
                    label: "Person".into(),
                    key: "email".into(),
                    value: Value::String("a@b".into()),
                }),
                WriteOp::Require(Condition::Present {
                    label: "Person".into(),
                    key: "id".into(),
                    value: Value::Int(1),
                }),
                WriteOp::EnsureNode {
                    label: "Person".into(),
                    id: -(1 << 50),
                },
                WriteOp::CreateIndex {
                    label: "Person".into(),
                    key: "email".into(),
                },
                WriteOp::DropIndex {
                    label: "Person".into(),
                    key: "email".into(),
                },
            ],
        };
        let mut bytes = Vec::new();
        put_batch(&mut bytes, &batch);
        put_batch(&mut bytes, &WriteBatch::new());
        let back = decode_batches(&bytes, 2).expect("decodes");
        assert_eq!(back, vec![batch, WriteBatch::new()]);
    }

    #[test]
    fn truncated_batches_are_refused() {
        let batch = WriteBatch {
            ops: vec![WriteOp::CreateNode {
                labels: vec!["L".into()],
                properties: vec![("k".into(), Value::String("value".into()))],
            }],
        };
        let mut bytes = Vec::new();
        put_batch(&mut bytes, &batch);
        for cut in 0..bytes.len() {
            assert!(decode_batches(&bytes[..cut], 1).is_err(), "cut at {cut}");
        }
    }
}
