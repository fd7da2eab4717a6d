//! Schema commands as writes, worked out against the schema the query reads (so IF
//! [NOT] EXISTS and name checks see the transaction's own earlier changes), and the
//! rows of `SHOW INDEXES` / `SHOW CONSTRAINTS`.

use std::sync::Arc;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, IndexKind, LabelKey, Schema, SchemaOp};

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
            keys,
            ..
        } => {
            let text = format!(
                "CREATE {} INDEX {}IF NOT EXISTS FOR (e:{label}) ON ({})",
                kind.name(),
                named(name),
                props(keys, false)
            );
            let there = rule_there(schema, name.as_deref(), label, keys);
            Notification::no_effect(&text, Some(&there), "")
        }
        SchemaCommand::CreateUnique {
            name, label, keys, ..
        } => {
            let text = format!(
                "CREATE CONSTRAINT {}IF NOT EXISTS FOR (e:{label}) REQUIRE ({}) IS UNIQUE",
                named(name),
                props(keys, false)
            );
            let there = rule_there(schema, name.as_deref(), label, keys);
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

/// `e.a, e.b` (`n.\`a\`` ... when `quoted`, as SHOW's statements write them).
fn props<S: AsRef<str>>(keys: &[S], quoted: bool) -> String {
    let (var, q) = if quoted { ("n", "`") } else { ("e", "") };
    let each: Vec<String> = keys
        .iter()
        .map(|k| format!("{var}.{q}{}{q}", k.as_ref()))
        .collect();
    each.join(", ")
}

/// The rule that made a CREATE ... IF NOT EXISTS do nothing, as Neo4j writes it: the
/// one of that name, or the one on the keys.
fn rule_there(schema: &Schema, name: Option<&str>, label: &str, keys: &[String]) -> String {
    let constraint = |n: &str, on: &LabelKey| {
        let keys: Vec<&str> = on.keys().collect();
        format!(
            "CONSTRAINT {n} FOR (e:{}) REQUIRE ({}) IS UNIQUE",
            on.label,
            props(&keys, false)
        )
    };
    let index = |n: &str, def: &kith_core::IndexDef| {
        let keys: Vec<&str> = def.on.keys().collect();
        let (kind, label) = (def.kind.name(), &def.on.label);
        format!(
            "{kind} INDEX {n} FOR (e:{label}) ON ({})",
            props(&keys, false)
        )
    };
    if let Some(n) = name {
        if let Some(on) = schema.unique.get(n) {
            return constraint(n, on);
        }
        if let Some(def) = schema.indexes.get(n) {
            return index(n, def);
        }
    }
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let indexed = schema
        .index_covering(label, &keys)
        .and_then(|i| Some((i, schema.indexes.get(i)?)));
    match (schema.unique_covering(label, &keys), indexed) {
        (Some(c), _) => constraint(c, &schema.unique[c]),
        (None, Some((i, def))) => index(i, def),
        (None, None) => format!("(e:{label}) ({})", props(&keys, false)),
    }
}

/// What `label` and `keys` cover as a rule.
fn label_keys(label: &str, keys: &[String]) -> LabelKey {
    LabelKey {
        label: label.to_owned(),
        key: keys[0].clone(),
        more: keys[1..].to_vec(),
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
            keys,
            if_not_exists,
        } => {
            let rule = Rule::Index(*kind);
            if let Some(found) = existing(schema, name.as_deref(), label, keys, rule) {
                return skip_or(*if_not_exists, found);
            }
            if keys.len() > 1 {
                let base = Schema::default_index_name(label, &keys.join("_"));
                let name = name.clone().unwrap_or_else(|| schema.free_name(base));
                let on = label_keys(label, keys);
                let unique = false;
                return Ok(vec![WriteOp::Schema(SchemaOp::CreateComposite {
                    name,
                    on,
                    unique,
                })]);
            }
            Ok(one_key_index(*kind, name, label, &keys[0]))
        }
        SchemaCommand::CreateUnique {
            name,
            label,
            keys,
            if_not_exists,
        } => {
            if let Some(found) = existing(schema, name.as_deref(), label, keys, Rule::Unique) {
                return skip_or(*if_not_exists, found);
            }
            let base = format!("constraint_{label}_{}", keys.join("_"));
            let name = name.clone().unwrap_or_else(|| schema.free_name(base));
            if keys.len() > 1 {
                let on = label_keys(label, keys);
                return Ok(vec![WriteOp::Schema(SchemaOp::CreateComposite {
                    name,
                    on,
                    unique: true,
                })]);
            }
            Ok(vec![WriteOp::Schema(SchemaOp::CreateUnique {
                name,
                label: label.clone(),
                key: keys[0].clone(),
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
                let message =
                    format!("Unable to drop index called `{name}`. There is no such index.");
                return missing(*if_exists, ErrorCode::IndexDropFailed, message);
            };
            if let Some(owner) = &def.owner {
                return Err(CypherError::new(
                    ErrorCode::IndexDropFailed,
                    format!("Unable to drop index: Index belongs to constraint: `{owner}`"),
                ));
            }
            if def.on.is_composite() {
                let name = name.clone();
                return Ok(vec![WriteOp::Schema(SchemaOp::DropComposite { name })]);
            }
            Ok(vec![WriteOp::DropIndex {
                label: def.on.label.as_str().into(),
                key: def.on.key.as_str().into(),
            }])
        }
        SchemaCommand::DropConstraint { name, if_exists } => {
            if !schema.unique.contains_key(name) {
                let message =
                    format!("Unable to drop constraint `{name}`: No such constraint {name}.");
                return missing(*if_exists, ErrorCode::ConstraintDropFailed, message);
            }
            Ok(vec![WriteOp::Schema(SchemaOp::DropConstraint {
                name: name.clone(),
            })])
        }
    }
}

/// The writes declaring an index of `kind` on one key (named `name` if given).
fn one_key_index(kind: IndexKind, name: &Option<String>, label: &str, key: &str) -> Vec<WriteOp> {
    let mut ops = vec![WriteOp::CreateIndex {
        label: label.into(),
        key: key.into(),
    }];
    if kind != IndexKind::Range {
        ops.push(WriteOp::Schema(SchemaOp::KindIndex {
            label: label.to_owned(),
            key: key.to_owned(),
            kind,
        }));
    }
    // Unnamed, the store gives it its default (free) name.
    if let Some(name) = name {
        ops.push(WriteOp::Schema(SchemaOp::NameIndex {
            name: name.clone(),
            label: label.to_owned(),
            key: key.to_owned(),
        }));
    }
    ops
}

/// What a schema command declares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    Index(IndexKind),
    Unique,
}

/// What stands in the way of declaring a `rule` on `keys` of `label` (named `name`
/// if a name is given): a rule of the name, or one on the same keys. `equivalent`
/// when IF NOT EXISTS then does nothing (a rule of the name, or the same kind of
/// rule on the keys); else an error even then, as in Neo4j (an index on the keys
/// does not make a uniqueness constraint). An unnamed rule takes a free name, so
/// names never stand in its way. The codes and words are Neo4j 5.26's.
fn existing(
    schema: &Schema,
    name: Option<&str>,
    label: &str,
    keys: &[String],
    rule: Rule,
) -> Option<Found> {
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let shown = keys.join(", ");
    if let Some(name) = name {
        let found = |code, what: &str, same: bool| Found {
            message: match same {
                true => {
                    format!("An equivalent {what} already exists: `{name}` on :{label}({shown})")
                }
                false => format!(
                    "There already exists {} {what} called '{name}'.",
                    article(what)
                ),
            },
            equivalent: true,
            code: if same {
                ErrorCode::SchemaRuleExists
            } else {
                code
            },
        };
        if let Some(on) = schema.unique.get(name) {
            let same = rule == Rule::Unique && on.covers(label, &keys);
            return Some(found(ErrorCode::ConstraintNameTaken, "constraint", same));
        }
        if let Some(def) = schema.indexes.get(name) {
            let same = rule == Rule::Index(def.kind) && def.on.covers(label, &keys);
            return Some(found(ErrorCode::IndexNameTaken, "index", same));
        }
    }
    if let Some(c) = schema.unique_covering(label, &keys) {
        let message = format!("constraint `{c}` already covers :{label}({shown})");
        return Some(Found {
            message,
            equivalent: rule == Rule::Unique,
            code: ErrorCode::ConstraintExists,
        });
    }
    if let Some(i) = schema.index_covering(label, &keys) {
        let kind = schema.indexes.get(i).map_or(IndexKind::Range, |d| d.kind);
        let mut message = format!("index `{i}` already covers :{label}({shown})");
        match rule {
            Rule::Index(k) if k != kind => {
                // Neo4j keeps an index of each kind on a pair; kith keeps one.
                message.push_str(&format!(
                    " (a {} index: kith keeps one index per label and property; drop it first)",
                    kind.name()
                ));
            }
            Rule::Unique => {
                message.push_str(": a constraint cannot be created until the index is dropped")
            }
            Rule::Index(_) => {}
        }
        return Some(Found {
            message,
            equivalent: rule == Rule::Index(kind),
            code: ErrorCode::IndexExists,
        });
    }
    None
}

/// "an index", "a constraint".
fn article(what: &str) -> &'static str {
    match what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        true => "an",
        false => "a",
    }
}

/// A rule in the way of a declaration.
struct Found {
    message: String,
    equivalent: bool,
    code: ErrorCode,
}

fn skip_or(if_not_exists: bool, found: Found) -> Result<Vec<WriteOp>> {
    if if_not_exists && found.equivalent {
        return Ok(Vec::new());
    }
    Err(CypherError::new(found.code, found.message))
}

/// DROP of a rule that is not there: nothing under IF EXISTS, else Neo4j's error.
fn missing(if_exists: bool, code: ErrorCode, message: String) -> Result<Vec<WriteOp>> {
    if if_exists {
        return Ok(Vec::new());
    }
    Err(CypherError::new(code, message))
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
    on: Option<&'s LabelKey>,
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
                "CREATE {} INDEX `{}` FOR (n:`{}`) ON ({})",
                self.kind,
                self.name,
                on.label,
                props(&on.keys().collect::<Vec<_>>(), true)
            ),
            None => format!(
                "CREATE LOOKUP INDEX `{}` FOR (n) ON EACH labels(n)",
                self.name
            ),
        }
    }
}

fn unique_statement(name: &str, on: &LabelKey) -> String {
    format!(
        "CREATE CONSTRAINT `{name}` FOR (n:`{}`) REQUIRE ({}) IS UNIQUE",
        on.label,
        props(&on.keys().collect::<Vec<_>>(), true)
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

/// SHOW's `properties`: every key, in order.
fn keys_of(on: &LabelKey) -> Val {
    Val::List(Arc::new(on.keys().map(Val::str).collect()))
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
                    ix.on.map_or(Val::Null, keys_of),
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
                    keys_of(on),
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
