//! What a graph declares besides its data: named property indexes, uniqueness
//! constraints and stored Cypher procedures. Plain data, by name, so every reader
//! (the Cypher engine's `SHOW INDEXES`, the server's procedure registry) sees it
//! through [`crate::GraphView::schema`] whatever stores it.

use std::collections::BTreeMap;

/// The label and property keys an index or constraint covers: one key, or a
/// composite's several in their declared order (`key` the first of them).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LabelKey {
    /// Label.
    pub label: String,
    /// Property key (a composite's first).
    pub key: String,
    /// A composite's further keys, in order; empty for one key.
    pub more: Vec<String>,
}

impl LabelKey {
    /// One label and one key.
    pub fn single(label: &str, key: &str) -> LabelKey {
        LabelKey {
            label: label.to_owned(),
            key: key.to_owned(),
            more: Vec::new(),
        }
    }

    /// Every key, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.key.as_str()).chain(self.more.iter().map(String::as_str))
    }

    /// Whether it covers more than one key.
    pub fn is_composite(&self) -> bool {
        !self.more.is_empty()
    }

    /// Whether it covers exactly `keys`, in that order.
    pub fn covers(&self, label: &str, keys: &[&str]) -> bool {
        self.label == label && self.keys().eq(keys.iter().copied())
    }
}

/// What values an index holds and which predicates it answers (Neo4j 5's kinds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// Every scalar value: equality, `IN`, ranges, prefixes.
    #[default]
    Range,
    /// Strings only: equality, prefixes, `CONTAINS`, `ENDS WITH`.
    Text,
    /// Points only: equality, `point.withinBBox`, `point.distance`.
    Point,
}

impl IndexKind {
    /// Its name in Cypher (`CREATE TEXT INDEX`, `SHOW INDEXES`' `type`).
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Range => "RANGE",
            IndexKind::Text => "TEXT",
            IndexKind::Point => "POINT",
        }
    }

    /// Neo4j's provider of the kind (`SHOW INDEXES`' `indexProvider`).
    pub fn provider(self) -> &'static str {
        match self {
            IndexKind::Range => "range-1.0",
            IndexKind::Text => "text-2.0",
            IndexKind::Point => "point-1.0",
        }
    }

    /// The kind a name (any case) says.
    pub fn parse(name: &str) -> Option<IndexKind> {
        [IndexKind::Range, IndexKind::Text, IndexKind::Point]
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// A declared property index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDef {
    /// What it covers.
    pub on: LabelKey,
    /// What it holds.
    pub kind: IndexKind,
    /// The uniqueness constraint it backs (it goes when that goes), if any.
    pub owner: Option<String>,
}

/// The declarations of one graph version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// Property indexes by name; every declared index has one.
    pub indexes: BTreeMap<String, IndexDef>,
    /// Uniqueness constraints by name: no two nodes of the label share a value of
    /// the key.
    pub unique: BTreeMap<String, LabelKey>,
    /// Stored Cypher procedures by name: their texts.
    pub procedures: BTreeMap<String, String>,
    /// Positions in logs outside kith that writes came from (`ingest:<topic>`: the
    /// next Kafka offset to read), committed with the writes they cover, so a
    /// consumer resumes after exactly what was applied.
    pub cursors: BTreeMap<String, i64>,
    /// Counts changes to `procedures` since the graph was loaded (not stored): a
    /// reader that prepared them under another count prepares them again.
    pub generation: u64,
}

/// No declarations (what a view without a schema answers).
pub static EMPTY_SCHEMA: Schema = Schema {
    indexes: BTreeMap::new(),
    unique: BTreeMap::new(),
    procedures: BTreeMap::new(),
    cursors: BTreeMap::new(),
    generation: 0,
};

impl Schema {
    /// The name of the (one-key) index on `(label, key)`, if one is declared.
    pub fn index_on(&self, label: &str, key: &str) -> Option<&str> {
        self.index_covering(label, &[key])
    }

    /// The name of the index on exactly `keys` of `label`, in that order.
    pub fn index_covering(&self, label: &str, keys: &[&str]) -> Option<&str> {
        self.indexes
            .iter()
            .find(|(_, d)| d.on.covers(label, keys))
            .map(|(n, _)| n.as_str())
    }

    /// The composite index an equality on `keys` of `label` is looked up in: the first
    /// (by name) whose keys are all among them. EXPLAIN and the run both ask this.
    pub fn composite_within(&self, label: &str, keys: &[&str]) -> Option<(&str, &IndexDef)> {
        self.indexes
            .iter()
            .find(|(_, d)| {
                d.on.label == label && d.on.is_composite() && d.on.keys().all(|k| keys.contains(&k))
            })
            .map(|(n, d)| (n.as_str(), d))
    }

    /// The name of the (one-key) uniqueness constraint on `(label, key)`, if any.
    pub fn unique_on(&self, label: &str, key: &str) -> Option<&str> {
        self.unique_covering(label, &[key])
    }

    /// The name of the uniqueness constraint on exactly `keys` of `label`.
    pub fn unique_covering(&self, label: &str, keys: &[&str]) -> Option<&str> {
        self.unique
            .iter()
            .find(|(_, on)| on.covers(label, keys))
            .map(|(n, _)| n.as_str())
    }

    /// The name an index on `(label, key)` gets when none is given.
    pub fn default_index_name(label: &str, key: &str) -> String {
        format!("index_{label}_{key}")
    }

    /// `base`, or when an index or constraint has it (`index_A_b_c` is both
    /// :A(b_c)'s and :A_b(c)'s default), the first free `base_2`, `base_3`...
    pub fn free_name(&self, base: String) -> String {
        let taken = |n: &str| self.indexes.contains_key(n) || self.unique.contains_key(n);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|i| format!("{base}_{i}"))
            .find(|n| !taken(n))
            .expect("some suffix is free")
    }
}

/// A change to the schema that is not a plain index (those are
/// `WriteOp::CreateIndex` / `DropIndex`, which clients send directly).
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOp {
    /// Gives the index on `(label, key)` the name `name` (it must be declared).
    NameIndex {
        /// The new name.
        name: String,
        /// Label.
        label: String,
        /// Property key.
        key: String,
    },
    /// Declares a uniqueness constraint and the index behind it (named alike); the
    /// existing nodes must already satisfy it, and no index may be declared on the
    /// pair.
    CreateUnique {
        /// Its name.
        name: String,
        /// Label.
        label: String,
        /// Property key.
        key: String,
    },
    /// Drops a uniqueness constraint and its index.
    DropConstraint {
        /// Its name.
        name: String,
    },
    /// Stores (or replaces) a Cypher procedure.
    RegisterProcedure {
        /// Its name.
        name: String,
        /// Its Cypher text.
        text: String,
    },
    /// Forgets a stored Cypher procedure.
    DropProcedure {
        /// Its name.
        name: String,
    },
    /// Declares an index on two or more keys of a label (`on`, a composite), and,
    /// when `unique`, the uniqueness constraint it backs (named alike): no two nodes
    /// holding all the keys hold the same values of them. Refused when a rule of the
    /// name, or one on the same keys, is declared.
    CreateComposite {
        /// Its name.
        name: String,
        /// What it covers.
        on: LabelKey,
        /// Whether it is a uniqueness constraint's.
        unique: bool,
    },
    /// Drops a composite index (not a constraint's: `DropConstraint` drops those).
    DropComposite {
        /// Its name.
        name: String,
    },
    /// Makes the index on `(label, key)` (declared, not a constraint's) one of
    /// `kind`: it then holds only that kind's values.
    KindIndex {
        /// Label.
        label: String,
        /// Property key.
        key: String,
        /// Its kind.
        kind: IndexKind,
    },
    /// Sets a cursor (`Schema::cursors`): where a log outside kith was consumed to.
    SetCursor {
        /// Its name.
        name: String,
        /// Its new position.
        value: i64,
        /// The position it must have now (absent: 0), else the transaction is
        /// refused: a consumer chaining its transactions this way can never commit
        /// past one that was not committed.
        expect: Option<i64>,
    },
}
