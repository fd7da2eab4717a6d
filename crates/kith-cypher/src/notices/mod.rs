//! Notifications: what a query's answer says beside its rows, as Neo4j 5 raises them
//! (cartesian products, unbounded shortest paths, names the graph does not know,
//! deprecated syntax, options kith ignores, parameters an EXPLAIN lacks).
//!
//! The parser notes what it reads ([`Notes`]); most notifications follow from the
//! text alone and are made once, when the query is prepared. Unknown labels, types
//! and keys depend on the graph, so the names a query reads are kept and checked
//! against the catalog of the version each run reads: a plan cached by text still
//! warns once the name is gone, and stops once it exists. As in Neo4j, a query that
//! writes is not checked for unknown names (it may be creating them).

mod cartesian;
mod kind;

use kith_core::{GraphView, Value};
use rustc_hash::FxHashSet;

pub use crate::error::Position;

pub use kind::{NoticeKind, Severity};

/// One notification.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// What kind.
    pub kind: NoticeKind,
    /// Where in the text, when it is about a place.
    pub position: Option<Position>,
    /// Its title.
    pub title: String,
    /// What it says of this query (the GQL status description after its prefix).
    pub message: String,
    /// The longer description drivers before GQL statuses show.
    pub description: String,
}

impl Notification {
    /// The information that a schema command (written as Neo4j writes it,
    /// `command`) did nothing: what it would declare exists (`exists`, Neo4j's form
    /// of what is there), or what it would drop does not (`exists: None`, `name`).
    pub(crate) fn no_effect(command: &str, exists: Option<&str>, name: &str) -> Notification {
        let (kind, message, description) = match exists {
            Some(rule) => (
                NoticeKind::SchemaRuleExists,
                format!(
                    "The command '{command}' has no effect. The index or constraint \
                     specified by '{rule}' already exists."
                ),
                format!("`{rule}` already exists."),
            ),
            None => (
                NoticeKind::SchemaRuleMissing,
                format!(
                    "The command '{command}' has no effect. The specified index or \
                     constraint `{name}` does not exist."
                ),
                format!("`{name}` does not exist."),
            ),
        };
        Notification {
            kind,
            title: format!("`{command}` has no effect."),
            position: None,
            message,
            description,
        }
    }

    /// The GQL status description: the kind's words, then this query's.
    pub fn status_description(&self) -> String {
        format!("{}. {}", self.kind.status_prefix(), self.message)
    }

    /// As kith's own protocol carries it (docs/protocol.md 1.3.2).
    pub fn to_value(&self) -> Value {
        let s = Value::string;
        let mut entries = vec![
            ("code", s(self.kind.neo4j_code())),
            ("gql_status", s(self.kind.gql_status())),
            ("title", s(&self.title)),
            ("description", s(&self.description)),
            ("status_description", s(&self.status_description())),
            ("severity", s(self.kind.severity().as_str())),
            ("classification", s(self.kind.classification())),
        ];
        if let Some(p) = self.position {
            let n = |v: usize| Value::Int(v as i64);
            entries.push((
                "position",
                Value::Map(vec![
                    ("offset".into(), n(p.offset)),
                    ("line".into(), n(p.line)),
                    ("column".into(), n(p.column)),
                ]),
            ));
        }
        Value::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// What a name in the text names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Label,
    RelType,
    PropertyKey,
}

/// A label, type or key the query reads, where it stands, and for a key read as
/// `v.key` the variable `v` (a key is only checked when `v` is a node or a
/// relationship, as Neo4j checks it; a map's keys are the query's own).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TokenUse {
    pub(crate) kind: TokenKind,
    pub(crate) name: String,
    pub(crate) pos: usize,
    pub(crate) of: Option<String>,
}

/// A notification known from the text alone, before its position is resolved.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Fixed {
    pub(crate) kind: NoticeKind,
    pub(crate) pos: Option<usize>,
    pub(crate) message: String,
    pub(crate) description: String,
}

/// What the parser noted of a text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Notes {
    pub(crate) fixed: Vec<Fixed>,
    pub(crate) tokens: Vec<TokenUse>,
    /// Variables node and relationship patterns bind.
    pub(crate) entity_vars: FxHashSet<String>,
    /// The parameters the text names, in order, once each.
    pub(crate) params: Vec<String>,
    /// The keys of map literals read so far, so a pattern's property map can take
    /// its own as property keys.
    pub(crate) map_keys: Vec<(String, usize)>,
    /// What is noted already, by kind and offset: the parser reads some texts twice
    /// (a parenthesis tried as a pattern first), and a text of many thousand names
    /// (a bulk CREATE) must not cost a scan of the notes per name.
    seen: FxHashSet<(u8, usize)>,
    fixed_seen: FxHashSet<(NoticeKind, Option<usize>, String, String)>,
    params_seen: FxHashSet<String>,
    /// The fixed notifications, made once when the query is prepared.
    made: Vec<Notification>,
}

impl Notes {
    /// Notes a notification the text alone makes.
    pub(crate) fn fix(
        &mut self,
        kind: NoticeKind,
        pos: Option<usize>,
        message: String,
        description: String,
    ) {
        // One MATCH may make several of a kind at its place (a cartesian product per
        // part): what they say tells them apart.
        let key = (kind, pos, message.clone(), description.clone());
        if self.fixed_seen.insert(key) {
            self.fixed.push(Fixed {
                kind,
                pos,
                message,
                description,
            });
        }
    }

    /// Notes a name read.
    pub(crate) fn token(&mut self, kind: TokenKind, name: &str, pos: usize, of: Option<&str>) {
        if self.seen.insert((kind as u8, pos)) {
            self.tokens.push(TokenUse {
                kind,
                name: name.to_owned(),
                pos,
                of: of.map(str::to_owned),
            });
        }
    }

    /// Notes a variable a node or relationship pattern binds.
    pub(crate) fn entity(&mut self, var: &str) {
        if !self.entity_vars.contains(var) {
            self.entity_vars.insert(var.to_owned());
        }
    }

    /// Notes a parameter named.
    pub(crate) fn param(&mut self, name: &str) {
        if self.params_seen.insert(name.to_owned()) {
            self.params.push(name.to_owned());
        }
    }

    /// Ends the notes of a whole statement: keys read of variables no pattern binds
    /// are dropped, and every name when the statement `writes`.
    pub(crate) fn finish(mut self, writes: bool, text: &str) -> Notes {
        self.made = (self.fixed.drain(..))
            .map(|f| Notification {
                kind: f.kind,
                title: f.kind.title().to_owned(),
                position: f.pos.map(|p| Position::at(text, p)),
                message: f.message,
                description: f.description,
            })
            .collect();
        let entities = std::mem::take(&mut self.entity_vars);
        self.tokens
            .retain(|t| !writes && t.of.as_ref().is_none_or(|v| entities.contains(v)));
        // Only what runs read is kept with the plan.
        self.map_keys = Vec::new();
        self.seen = FxHashSet::default();
        self.fixed_seen = FxHashSet::default();
        self.params_seen = FxHashSet::default();
        self
    }

    /// The notifications of one run of `text` over `graph`: the fixed ones, the
    /// names `graph` does not know, and for an EXPLAIN the parameters not given.
    pub(crate) fn at_run(
        &self,
        text: &str,
        graph: &dyn GraphView,
        params: &[(String, Value)],
        explain: bool,
    ) -> Vec<Notification> {
        let mut out = self.made.clone();
        for t in &self.tokens {
            if let Some(n) = unknown(t, graph) {
                out.push(Notification {
                    position: Some(Position::at(text, t.pos)),
                    ..n
                });
            }
        }
        if explain {
            let missing: Vec<&str> = (self.params.iter())
                .filter(|p| !params.iter().any(|(k, _)| k == *p))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                out.push(parameters_missing(&missing));
            }
        }
        out.sort_by_key(|n| n.position.map_or(usize::MAX, |p| p.offset));
        out
    }
}

/// The warning for a name `graph` does not know, if it does not.
fn unknown(t: &TokenUse, graph: &dyn GraphView) -> Option<Notification> {
    let name = &t.name;
    let (kind, what, article) = match t.kind {
        TokenKind::Label if graph.label_id(name).is_none() => {
            (NoticeKind::UnknownLabel, "label", "label name")
        }
        TokenKind::RelType if graph.rel_type_id(name).is_none() => (
            NoticeKind::UnknownRelType,
            "relationship type",
            "relationship type",
        ),
        TokenKind::PropertyKey if graph.prop_key_id(name).is_none() => {
            (NoticeKind::UnknownPropertyKey, "property", "property name")
        }
        _ => return None,
    };
    let plural = match t.kind {
        TokenKind::Label => "labels",
        TokenKind::RelType => "relationship types",
        TokenKind::PropertyKey => "property names",
    };
    Some(Notification {
        kind,
        title: kind.title().to_owned(),
        position: None,
        message: format!(
            "The {what} `{name}` does not exist. Verify that the spelling is correct."
        ),
        description: format!(
            "One of the {plural} in your query is not available in the database, make sure \
             you didn't misspell it or that the label is available when you run this \
             statement in your application (the missing {article} is: {name})"
        ),
    })
}

/// The warning of an EXPLAIN run without some of its parameters.
fn parameters_missing(missing: &[&str]) -> Notification {
    let quoted: Vec<String> = missing.iter().map(|p| format!("$`{p}`")).collect();
    let listed = match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Notification {
        kind: NoticeKind::ParameterMissing,
        title: NoticeKind::ParameterMissing.title().to_owned(),
        position: None,
        message: format!(
            "The query plan cannot be cached and is not executable without 'EXPLAIN' due to \
             the undefined parameter(s) {listed}. Provide the parameter(s)."
        ),
        description: format!(
            "Did not supply query with enough parameters. The produced query plan will not \
             be cached and is not executable without EXPLAIN. (Missing parameters: {})",
            missing.join(", ")
        ),
    }
}

pub(crate) use cartesian::cartesian_products;
