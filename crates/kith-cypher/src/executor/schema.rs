//! Schema commands as writes, worked out against the schema the query reads (so IF
//! [NOT] EXISTS and name checks see the transaction's own earlier changes), and the
//! rows of `SHOW INDEXES` / `SHOW CONSTRAINTS`.

use std::sync::Arc;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, IndexKind, Schema, SchemaOp};

use crate::ast::{IndexFilter, SchemaCommand, Show};
use crate::error::{CypherError, ErrorCode, Result};
use crate::notices::Notification;
use crate::value::Val;

/// What a schema command does: its writes, or (IF [NOT] EXISTS finding nothing to
/// do) none and the notification saying so, as Neo4j's.
pub(crate) struct SchemaWrites {
    pub(crate) ops: Vec<WriteOp>,
    pub(crate) no_effect: Option<Notification>,
}

/// What `command` does against the schema `g` holds.
pub(crate) fn writes_of(command: &SchemaCommand, g: &dyn GraphView) -> Result<SchemaWrites> {
    let ops = ops_of(command, g)?;
    let no_effect = ops.is_empty().then(|| no_effect(command, g.schema()));
    Ok(SchemaWrites { ops, no_effect })
}

/// The notification of `command` doing nothing.
fn no_effect(command: &SchemaCommand, schema: &Schema) -> Notification {
    let named = |name: &Option<String>| name.as_ref().map_or(String::new(), |n| format!("{n} "));
    match command {
        SchemaCommand::CreateIndex {
            kind,
            name,
            label,
            key,
            ..
        } => {
            let text = format!(
                "CREATE {} INDEX {}IF NOT EXISTS FOR (e:{label}) ON (e.{key})",
                kind.name(),
                named(name)
            );
            let there = rule_there(schema, name.as_deref(), label, key);
            Notification::no_effect(&text, Some(&there), "")
        }
        SchemaCommand::CreateUnique {
            name, label, key, ..
        } => {
            let text = format!(
                "CREATE CONSTRAINT {}IF NOT EXISTS FOR (e:{label}) REQUIRE (e.{key}) IS UNIQUE",
                named(name)
            );
            let there = rule_there(schema, name.as_deref(), label, key);
            Notification::no_effect(&text, Some(&there), "")
        }
        SchemaCommand::DropIndex { name, .. } => {
            Notification::no_effect(&format!("DROP INDEX {name} IF EXISTS"), None, name)
        }
        SchemaCommand::DropConstraint { name, .. } => {
            Notification::no_effect(&format!("DROP CONSTRAINT {name} IF EXISTS"), None, name)
        }
    }
}

/// The rule that made a CREATE ... IF NOT EXISTS do nothing, as Neo4j writes it: the
/// one of that name, or the one on the pair.
fn rule_there(schema: &Schema, name: Option<&str>, label: &str, key: &str) -> String {
    let constraint = |n: &str, on: &kith_core::LabelKey| {
        format!(
            "CONSTRAINT {n} FOR (e:{}) REQUIRE (e.{}) IS UNIQUE",
            on.label, on.key
        )
    };
    let index = |n: &str, def: &kith_core::IndexDef| {
        let (kind, on) = (def.kind.name(), &def.on);
        format!("{kind} INDEX {n} FOR (e:{}) ON (e.{})", on.label, on.key)
    };
    if let Some(n) = name {
        if let Some(on) = schema.unique.get(n) {
            return constraint(n, on);
        }
        if let Some(def) = schema.indexes.get(n) {
            return index(n, def);
        }
    }
    let on = kith_core::LabelKey {
        label: label.to_owned(),
        key: key.to_owned(),
    };
    let indexed = schema
        .index_on(label, key)
        .and_then(|i| Some((i, schema.indexes.get(i)?)));
    match (schema.unique_on(label, key), indexed) {
        (Some(c), _) => constraint(c, &on),
        (None, Some((i, def))) => index(i, def),
        (None, None) => format!("(e:{label}) (e.{key})"),
    }
}

/// The writes of `command`; none when IF [NOT] EXISTS finds nothing to do.
fn ops_of(command: &SchemaCommand, g: &dyn GraphView) -> Result<Vec<WriteOp>> {
    let schema = g.schema();
    match command {
        SchemaCommand::CreateIndex {
            kind,
            name,
            label,
            key,
            if_not_exists,
        } => {
            let rule = Rule::Index(*kind);
            if let Some(found) = existing(schema, name.as_deref(), label, key, rule) {
                return skip_or(*if_not_exists, found);
            }
            let mut ops = vec![WriteOp::CreateIndex {
                label: label.as_str().into(),
                key: key.as_str().into(),
            }];
            if *kind != IndexKind::Range {
                ops.push(WriteOp::Schema(SchemaOp::KindIndex {
                    label: label.clone(),
                    key: key.clone(),
                    kind: *kind,
                }));
            }
            // Unnamed, the store gives it its default (free) name.
            if let Some(name) = name {
                ops.push(WriteOp::Schema(SchemaOp::NameIndex {
                    name: name.clone(),
                    label: label.clone(),
                    key: key.clone(),
                }));
            }
            Ok(ops)
        }
        SchemaCommand::CreateUnique {
            name,
            label,
            key,
            if_not_exists,
        } => {
            if let Some(found) = existing(schema, name.as_deref(), label, key, Rule::Unique) {
                return skip_or(*if_not_exists, found);
            }
            let name = name
                .clone()
                .unwrap_or_else(|| schema.free_name(format!("constraint_{label}_{key}")));
            Ok(vec![WriteOp::Schema(SchemaOp::CreateUnique {
                name,
                label: label.clone(),
                key: key.clone(),
            })])
        }
        SchemaCommand::DropIndex { name, if_exists } => {
            if name == LOOKUP_INDEX && !schema.indexes.contains_key(name) {
                return Err(CypherError::new(
                    ErrorCode::NotSupported,
                    format!("`{name}` is kith's label lookup, built in: it cannot be dropped"),
                ));
            }
            let Some(def) = schema.indexes.get(name) else {
                return missing(*if_exists, "index", name);
            };
            if let Some(owner) = &def.owner {
                return Err(CypherError::new(
                    ErrorCode::SchemaRuleNotFound,
                    format!("index `{name}` belongs to constraint `{owner}`: drop the constraint"),
                ));
            }
            Ok(vec![WriteOp::DropIndex {
                label: def.on.label.as_str().into(),
                key: def.on.key.as_str().into(),
            }])
        }
        SchemaCommand::DropConstraint { name, if_exists } => {
            if !schema.unique.contains_key(name) {
                return missing(*if_exists, "constraint", name);
            }
            Ok(vec![WriteOp::Schema(SchemaOp::DropConstraint {
                name: name.clone(),
            })])
        }
    }
}

/// What a schema command declares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    Index(IndexKind),
    Unique,
}

/// What stands in the way of declaring a `rule` on `(label, key)` (named `name`
/// if a name is given), and whether it is equivalent (the same kind of rule on the
/// pair, or a rule of the name: IF NOT EXISTS then does nothing) or a conflict (an
/// error even then, as in Neo4j: an index on the pair does not make a uniqueness
/// constraint). An unnamed rule takes a free name, so names never stand in its way.
fn existing(
    schema: &Schema,
    name: Option<&str>,
    label: &str,
    key: &str,
    rule: Rule,
) -> Option<Found> {
    if let Some(name) =
        name.filter(|n| schema.indexes.contains_key(*n) || schema.unique.contains_key(*n))
    {
        let message = format!("an index or constraint is already named `{name}`");
        return Some(Found {
            message,
            equivalent: true,
        });
    }
    if let Some(c) = schema.unique_on(label, key) {
        let message = format!("constraint `{c}` already covers :{label}({key})");
        return Some(Found {
            message,
            equivalent: rule == Rule::Unique,
        });
    }
    if let Some(i) = schema.index_on(label, key) {
        let kind = schema.indexes.get(i).map_or(IndexKind::Range, |d| d.kind);
        let mut message = format!("index `{i}` already covers :{label}({key})");
        if matches!(rule, Rule::Index(k) if k != kind) {
            // Neo4j keeps an index of each kind on a pair; kith keeps one.
            message.push_str(&format!(
                " (a {} index: kith keeps one index per label and property; drop it first)",
                kind.name()
            ));
        }
        return Some(Found {
            message,
            equivalent: rule == Rule::Index(kind),
        });
    }
    None
}

/// A rule in the way of a declaration.
struct Found {
    message: String,
    equivalent: bool,
}

fn skip_or(if_not_exists: bool, found: Found) -> Result<Vec<WriteOp>> {
    if if_not_exists && found.equivalent {
        return Ok(Vec::new());
    }
    Err(CypherError::new(ErrorCode::SchemaRuleExists, found.message))
}

fn missing(if_exists: bool, what: &str, name: &str) -> Result<Vec<WriteOp>> {
    if if_exists {
        return Ok(Vec::new());
    }
    Err(CypherError::new(
        ErrorCode::SchemaRuleNotFound,
        format!("there is no {what} named `{name}`"),
    ))
}

/// The name of the label lookup index, as a new Neo4j 5 database names its own: the
/// label index every kith graph keeps (it answers label scans), listed by SHOW
/// INDEXES. There is no relationship-type lookup to list beside it: kith finds
/// relationships by type through their nodes' adjacency.
pub(crate) const LOOKUP_INDEX: &str = "index_343aff4e";

/// One row of SHOW INDEXES.
struct IndexRow<'s> {
    id: i64,
    name: &'s str,
    kind: &'static str,
    on: Option<&'s kith_core::LabelKey>,
    provider: &'static str,
    owner: Option<&'s str>,
}

/// The indexes `filter` picks, by name as Neo4j lists them.
fn index_rows(filter: IndexFilter, schema: &Schema) -> Vec<IndexRow<'_>> {
    let mut rows: Vec<IndexRow<'_>> = schema
        .indexes
        .iter()
        .filter(|(_, def)| {
            matches!(filter, IndexFilter::All) || filter == IndexFilter::Kind(def.kind)
        })
        .map(|(name, def)| IndexRow {
            id: id_of(name),
            name,
            kind: def.kind.name(),
            on: Some(&def.on),
            provider: def.kind.provider(),
            owner: def.owner.as_deref(),
        })
        .collect();
    if matches!(filter, IndexFilter::All | IndexFilter::Lookup) {
        rows.push(IndexRow {
            id: id_of(LOOKUP_INDEX),
            name: LOOKUP_INDEX,
            kind: "LOOKUP",
            on: None,
            provider: "token-lookup-1.0",
            owner: None,
        });
    }
    rows.sort_by(|a, b| a.name.cmp(b.name));
    rows
}

impl IndexRow<'_> {
    /// The statement that declares it, as Neo4j writes it (a constraint's index is
    /// its constraint's statement).
    fn create_statement(&self, schema: &Schema) -> String {
        if let Some((owner, on)) = self.owner.and_then(|o| Some((o, schema.unique.get(o)?))) {
            return unique_statement(owner, on);
        }
        match self.on {
            Some(on) => format!(
                "CREATE {} INDEX `{}` FOR (n:`{}`) ON (n.`{}`)",
                self.kind, self.name, on.label, on.key
            ),
            None => format!(
                "CREATE LOOKUP INDEX `{}` FOR (n) ON EACH labels(n)",
                self.name
            ),
        }
    }
}

fn unique_statement(name: &str, on: &kith_core::LabelKey) -> String {
    format!(
        "CREATE CONSTRAINT `{name}` FOR (n:`{}`) REQUIRE (n.`{}`) IS UNIQUE",
        on.label, on.key
    )
}

/// SHOW's `options`: the provider, and no settings (kith's indexes have none).
fn options(provider: &str) -> Val {
    let config = Val::Map(Arc::new(Vec::new()));
    let entries = vec![
        (Arc::from("indexConfig"), config),
        (Arc::from("indexProvider"), Val::str(provider)),
    ];
    Val::Map(Arc::new(entries))
}

/// An index's id: a hash of its name (FNV-1a), the same for the index's whole life
/// and in every process (kith keeps no number per index).
fn id_of(name: &str) -> i64 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash >> 33) as i64
}

/// A row per index or per constraint of the graph, as a map of [`columns`].
pub(crate) fn listing(what: &Show, g: &dyn GraphView) -> Val {
    let schema = g.schema();
    let s = Val::str;
    let one = |v: &str| Val::List(Arc::new(vec![s(v)]));
    let row = |values: Vec<Val>| {
        let names = what.yieldable().into_iter().map(Arc::from);
        Val::Map(Arc::new(names.zip(values).collect()))
    };
    let rows: Vec<Val> = match what {
        Show::Indexes(filter) => index_rows(*filter, schema)
            .into_iter()
            .map(|ix| {
                row(vec![
                    Val::Int(ix.id),
                    s(ix.name),
                    s("ONLINE"),
                    Val::Float(100.0),
                    s(ix.kind),
                    s("NODE"),
                    ix.on.map_or(Val::Null, |on| one(&on.label)),
                    ix.on.map_or(Val::Null, |on| one(&on.key)),
                    s(ix.provider),
                    ix.owner.map_or(Val::Null, s),
                    // kith does not track reads of an index, nor when it began to.
                    Val::Null,
                    Val::Null,
                    Val::Null,
                    options(ix.provider),
                    s(""),
                    s(&ix.create_statement(schema)),
                ])
            })
            .collect(),
        Show::Constraints => schema
            .unique
            .iter()
            .map(|(name, on)| {
                row(vec![
                    // Not its index's: a constraint and its index are two rules.
                    Val::Int(id_of(&format!("constraint {name}"))),
                    s(name),
                    s("UNIQUENESS"),
                    s("NODE"),
                    one(&on.label),
                    one(&on.key),
                    s(name),
                    Val::Null,
                    options(IndexKind::Range.provider()),
                    s(&unique_statement(name, on)),
                ])
            })
            .collect(),
        Show::Procedures | Show::Databases(_) => Vec::new(),
    };
    Val::List(Arc::new(rows))
}
