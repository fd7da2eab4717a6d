//! Schema commands as writes, worked out against the schema the query reads (so IF
//! [NOT] EXISTS and name checks see the transaction's own earlier changes), and the
//! rows of `SHOW INDEXES` / `SHOW CONSTRAINTS`.

use std::sync::Arc;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, Schema, SchemaOp};

use crate::ast::{SchemaCommand, Show};
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
            name, label, key, ..
        } => {
            let text = format!(
                "CREATE RANGE INDEX {}IF NOT EXISTS FOR (e:{label}) ON (e.{key})",
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
    let index = |n: &str, on: &kith_core::LabelKey| {
        format!("RANGE INDEX {n} FOR (e:{}) ON (e.{})", on.label, on.key)
    };
    if let Some(n) = name {
        if let Some(on) = schema.unique.get(n) {
            return constraint(n, on);
        }
        if let Some(def) = schema.indexes.get(n) {
            return index(n, &def.on);
        }
    }
    let on = kith_core::LabelKey {
        label: label.to_owned(),
        key: key.to_owned(),
    };
    match (schema.unique_on(label, key), schema.index_on(label, key)) {
        (Some(c), _) => constraint(c, &on),
        (None, Some(i)) => index(i, &on),
        (None, None) => format!("(e:{label}) (e.{key})"),
    }
}

/// The writes of `command`; none when IF [NOT] EXISTS finds nothing to do.
fn ops_of(command: &SchemaCommand, g: &dyn GraphView) -> Result<Vec<WriteOp>> {
    let schema = g.schema();
    match command {
        SchemaCommand::CreateIndex {
            name,
            label,
            key,
            if_not_exists,
        } => {
            if let Some(found) = existing(schema, name.as_deref(), label, key, Rule::Index) {
                return skip_or(*if_not_exists, found);
            }
            let mut ops = vec![WriteOp::CreateIndex {
                label: label.as_str().into(),
                key: key.as_str().into(),
            }];
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
    Index,
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
        let message = format!("index `{i}` already covers :{label}({key})");
        return Some(Found {
            message,
            equivalent: rule == Rule::Index,
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

/// A row per index or per constraint of the graph, as a map of [`columns`].
pub(crate) fn listing(what: &Show, g: &dyn GraphView) -> Val {
    let schema = g.schema();
    let s = Val::str;
    let one = |v: &str| Val::List(Arc::new(vec![s(v)]));
    let row = |values: Vec<Val>| {
        let names = what.columns().into_iter().map(Arc::from);
        Val::Map(Arc::new(names.zip(values).collect()))
    };
    let rows: Vec<Val> = match what {
        Show::Indexes => schema
            .indexes
            .iter()
            .map(|(name, def)| {
                row(vec![
                    s(name),
                    s("ONLINE"),
                    s("RANGE"),
                    s("NODE"),
                    one(&def.on.label),
                    one(&def.on.key),
                    def.owner.as_deref().map_or(Val::Null, s),
                ])
            })
            .collect(),
        Show::Constraints => schema
            .unique
            .iter()
            .map(|(name, on)| {
                row(vec![
                    s(name),
                    s("UNIQUENESS"),
                    s("NODE"),
                    one(&on.label),
                    one(&on.key),
                    s(name),
                ])
            })
            .collect(),
        Show::Procedures | Show::Databases(_) => Vec::new(),
    };
    Val::List(Arc::new(rows))
}
