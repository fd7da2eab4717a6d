//! The LDBC SNB Interactive `csv_composite` data set (`LongDateFormatter`) as a
//! [`RawGraph`] in the schema of [`kith_core::ldbc_schema`].
//!
//! Every table is listed below with its exact header, so a file from another layout
//! (`csv_basic`, `csv_merge_foreign`, string dates) is refused at its header line
//! instead of being half understood.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kith_core::ldbc_schema::{key, label, rel};
use kith_core::{LabelId, NodeId, PropKeyId, Value};
use kith_storage::RawGraph;
use rustc_hash::FxHashMap;

use crate::csv_file::{LoadError, Record, Table};

/// How a column becomes a property.
#[derive(Clone, Copy)]
enum Kind {
    /// The external id (Int).
    Id,
    /// A string, kept even when empty.
    Text,
    /// A string with few distinct values (browsers, genders, languages), shared.
    Category,
    /// A string; an empty field is an absent property.
    OptionalText,
    /// An integer.
    Int,
    /// Epoch milliseconds, stored as an Int (the official Cypher schema's `LONG`).
    Date,
    /// `;`-separated strings; an empty field is an absent property.
    List,
    /// Not a property: the value picks the node's second label.
    SubLabel(&'static [(&'static str, &'static str)]),
}

/// A node table: `{stem}_{i}_{j}.csv` in `static/` or `dynamic/`.
struct NodeTable {
    stem: &'static str,
    dir: &'static str,
    labels: &'static [&'static str],
    /// (header, kind, property key).
    columns: &'static [(&'static str, Kind, &'static str)],
}

/// A relationship table `{src}_{type}_{dst}_{i}_{j}.csv`.
struct RelTable {
    stem: &'static str,
    dir: &'static str,
    rel_type: &'static str,
    src: &'static str,
    dst: &'static str,
    /// The optional third column: (header, kind, property key).
    property: Option<(&'static str, Kind, &'static str)>,
}

const PLACE_TYPES: &[(&str, &str)] = &[
    ("city", label::CITY),
    ("country", label::COUNTRY),
    ("continent", label::CONTINENT),
];
const ORGANISATION_TYPES: &[(&str, &str)] = &[
    ("university", label::UNIVERSITY),
    ("company", label::COMPANY),
];

const NODE_TABLES: &[NodeTable] = &[
    NodeTable {
        stem: "place",
        dir: "static",
        labels: &[label::PLACE],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("name", Kind::Text, key::NAME),
            ("url", Kind::Text, key::URL),
            ("type", Kind::SubLabel(PLACE_TYPES), ""),
        ],
    },
    NodeTable {
        stem: "organisation",
        dir: "static",
        labels: &[label::ORGANISATION],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("type", Kind::SubLabel(ORGANISATION_TYPES), ""),
            ("name", Kind::Text, key::NAME),
            ("url", Kind::Text, key::URL),
        ],
    },
    NodeTable {
        stem: "tagclass",
        dir: "static",
        labels: &[label::TAG_CLASS],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("name", Kind::Text, key::NAME),
            ("url", Kind::Text, key::URL),
        ],
    },
    NodeTable {
        stem: "tag",
        dir: "static",
        labels: &[label::TAG],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("name", Kind::Text, key::NAME),
            ("url", Kind::Text, key::URL),
        ],
    },
    NodeTable {
        stem: "person",
        dir: "dynamic",
        labels: &[label::PERSON],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("firstName", Kind::Category, key::FIRST_NAME),
            ("lastName", Kind::Category, key::LAST_NAME),
            ("gender", Kind::Category, key::GENDER),
            ("birthday", Kind::Date, key::BIRTHDAY),
            ("creationDate", Kind::Date, key::CREATION_DATE),
            ("locationIP", Kind::Text, key::LOCATION_IP),
            ("browserUsed", Kind::Category, key::BROWSER_USED),
            ("language", Kind::List, key::SPEAKS),
            ("email", Kind::List, key::EMAIL),
        ],
    },
    NodeTable {
        stem: "forum",
        dir: "dynamic",
        labels: &[label::FORUM],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("title", Kind::Text, key::TITLE),
            ("creationDate", Kind::Date, key::CREATION_DATE),
        ],
    },
    NodeTable {
        stem: "post",
        dir: "dynamic",
        labels: &[label::MESSAGE, label::POST],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("imageFile", Kind::OptionalText, key::IMAGE_FILE),
            ("creationDate", Kind::Date, key::CREATION_DATE),
            ("locationIP", Kind::Text, key::LOCATION_IP),
            ("browserUsed", Kind::Category, key::BROWSER_USED),
            ("language", Kind::OptionalText, key::LANGUAGE),
            ("content", Kind::OptionalText, key::CONTENT),
            ("length", Kind::Int, key::LENGTH),
        ],
    },
    NodeTable {
        stem: "comment",
        dir: "dynamic",
        labels: &[label::MESSAGE, label::COMMENT],
        columns: &[
            ("id", Kind::Id, key::ID),
            ("creationDate", Kind::Date, key::CREATION_DATE),
            ("locationIP", Kind::Text, key::LOCATION_IP),
            ("browserUsed", Kind::Category, key::BROWSER_USED),
            ("content", Kind::OptionalText, key::CONTENT),
            ("length", Kind::Int, key::LENGTH),
        ],
    },
];

macro_rules! rel_table {
    ($dir:literal, $stem:literal, $rel:expr, $src:literal, $dst:literal) => {
        RelTable {
            stem: $stem,
            dir: $dir,
            rel_type: $rel,
            src: $src,
            dst: $dst,
            property: None,
        }
    };
    ($dir:literal, $stem:literal, $rel:expr, $src:literal, $dst:literal, $col:literal, $kind:expr, $key:expr) => {
        RelTable {
            stem: $stem,
            dir: $dir,
            rel_type: $rel,
            src: $src,
            dst: $dst,
            property: Some(($col, $kind, $key)),
        }
    };
}

const REL_TABLES: &[RelTable] = &[
    rel_table!(
        "static",
        "organisation_isLocatedIn_place",
        rel::IS_LOCATED_IN,
        "organisation",
        "place"
    ),
    rel_table!(
        "static",
        "place_isPartOf_place",
        rel::IS_PART_OF,
        "place",
        "place"
    ),
    rel_table!(
        "static",
        "tag_hasType_tagclass",
        rel::HAS_TYPE,
        "tag",
        "tagclass"
    ),
    rel_table!(
        "static",
        "tagclass_isSubclassOf_tagclass",
        rel::IS_SUBCLASS_OF,
        "tagclass",
        "tagclass"
    ),
    rel_table!(
        "dynamic",
        "person_isLocatedIn_place",
        rel::IS_LOCATED_IN,
        "person",
        "place"
    ),
    rel_table!(
        "dynamic",
        "person_knows_person",
        rel::KNOWS,
        "person",
        "person",
        "creationDate",
        Kind::Date,
        key::CREATION_DATE
    ),
    rel_table!(
        "dynamic",
        "person_hasInterest_tag",
        rel::HAS_INTEREST,
        "person",
        "tag"
    ),
    rel_table!(
        "dynamic",
        "person_studyAt_organisation",
        rel::STUDY_AT,
        "person",
        "organisation",
        "classYear",
        Kind::Int,
        key::CLASS_YEAR
    ),
    rel_table!(
        "dynamic",
        "person_workAt_organisation",
        rel::WORK_AT,
        "person",
        "organisation",
        "workFrom",
        Kind::Int,
        key::WORK_FROM
    ),
    rel_table!(
        "dynamic",
        "forum_hasModerator_person",
        rel::HAS_MODERATOR,
        "forum",
        "person"
    ),
    rel_table!(
        "dynamic",
        "forum_hasMember_person",
        rel::HAS_MEMBER,
        "forum",
        "person",
        "joinDate",
        Kind::Date,
        key::JOIN_DATE
    ),
    rel_table!("dynamic", "forum_hasTag_tag", rel::HAS_TAG, "forum", "tag"),
    rel_table!(
        "dynamic",
        "forum_containerOf_post",
        rel::CONTAINER_OF,
        "forum",
        "post"
    ),
    rel_table!(
        "dynamic",
        "post_hasCreator_person",
        rel::HAS_CREATOR,
        "post",
        "person"
    ),
    rel_table!("dynamic", "post_hasTag_tag", rel::HAS_TAG, "post", "tag"),
    rel_table!(
        "dynamic",
        "post_isLocatedIn_place",
        rel::IS_LOCATED_IN,
        "post",
        "place"
    ),
    rel_table!(
        "dynamic",
        "comment_hasCreator_person",
        rel::HAS_CREATOR,
        "comment",
        "person"
    ),
    rel_table!(
        "dynamic",
        "comment_hasTag_tag",
        rel::HAS_TAG,
        "comment",
        "tag"
    ),
    rel_table!(
        "dynamic",
        "comment_isLocatedIn_place",
        rel::IS_LOCATED_IN,
        "comment",
        "place"
    ),
    rel_table!(
        "dynamic",
        "comment_replyOf_post",
        rel::REPLY_OF,
        "comment",
        "post"
    ),
    rel_table!(
        "dynamic",
        "comment_replyOf_comment",
        rel::REPLY_OF,
        "comment",
        "comment"
    ),
    rel_table!(
        "dynamic",
        "person_likes_post",
        rel::LIKES,
        "person",
        "post",
        "creationDate",
        Kind::Date,
        key::CREATION_DATE
    ),
    rel_table!(
        "dynamic",
        "person_likes_comment",
        rel::LIKES,
        "person",
        "comment",
        "creationDate",
        Kind::Date,
        key::CREATION_DATE
    ),
];

/// The header name of an entity in relationship files (`Person.id`).
fn entity_header(stem: &str) -> &'static str {
    match stem {
        "person" => "Person.id",
        "forum" => "Forum.id",
        "post" => "Post.id",
        "comment" => "Comment.id",
        "tag" => "Tag.id",
        "tagclass" => "TagClass.id",
        "place" => "Place.id",
        _ => "Organisation.id",
    }
}

/// What a load read, per table.
#[derive(Debug, Clone, Default)]
pub struct LoadStats {
    /// (table stem, files, records), in load order.
    pub tables: Vec<(&'static str, usize, usize)>,
    /// Nodes created.
    pub nodes: usize,
    /// Relationships created.
    pub rels: usize,
    /// Reading and parsing the files into records, in seconds.
    pub parse_seconds: f64,
}

/// Reads an LDBC SNB `csv_composite` directory (`SRC/static`, `SRC/dynamic`) into a
/// raw graph. Errors name the file, the line and the column.
pub fn load(src: &Path) -> Result<(RawGraph, LoadStats), LoadError> {
    let started = Instant::now();
    check_layout(src)?;
    let mut loader = Loader::default();
    let mut stats = LoadStats::default();
    for table in NODE_TABLES {
        let (files, records) = loader.node_table(src, table)?;
        stats.tables.push((table.stem, files, records));
    }
    for table in REL_TABLES {
        let (files, records) = loader.rel_table(src, table)?;
        stats.tables.push((table.stem, files, records));
    }
    crate::cluster::messages_by_creator(&mut loader.graph);
    stats.nodes = loader.graph.nodes.len();
    stats.rels = loader.graph.rels.len();
    stats.parse_seconds = started.elapsed().as_secs_f64();
    Ok((loader.graph, stats))
}

fn check_layout(src: &Path) -> Result<(), LoadError> {
    let error = |reason: String| LoadError {
        file: src.to_owned(),
        line: 0,
        column: None,
        reason,
    };
    if !src.is_dir() {
        return Err(error("not a directory".into()));
    }
    if !src.join("static").is_dir() || !src.join("dynamic").is_dir() {
        let hint = find_layout(src, 2)
            .map(|d| format!("; did you mean {}?", d.display()))
            .unwrap_or_default();
        return Err(error(format!(
            "expected the LDBC csv_composite layout: static/ and dynamic/ directories{hint}"
        )));
    }
    Ok(())
}

/// A directory at most `depth` levels below `dir` that holds `static/` and
/// `dynamic/` (the data set inside an unpacked archive), first by name.
fn find_layout(dir: &Path, depth: usize) -> Option<PathBuf> {
    if depth == 0 {
        return None;
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    subdirs.iter().find_map(|d| {
        if d.join("static").is_dir() && d.join("dynamic").is_dir() {
            Some(d.clone())
        } else {
            find_layout(d, depth - 1)
        }
    })
}

/// The partition files `{stem}_{i}_{j}.csv` of one table, sorted by name.
fn partitions(src: &Path, dir: &str, stem: &str) -> Result<Vec<PathBuf>, LoadError> {
    let folder = src.join(dir);
    let entries = std::fs::read_dir(&folder).map_err(|e| LoadError {
        file: folder.clone(),
        line: 0,
        column: None,
        reason: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".csv"))
                .and_then(|n| n.rsplitn(3, '_').nth(2).map(|s| (s, n)))
                .is_some_and(|(s, n)| {
                    s == stem
                        && n[s.len() + 1..]
                            .split('_')
                            .all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                })
        })
        .collect();
    if files.is_empty() {
        return Err(LoadError {
            file: folder.join(format!("{stem}_0_0.csv")),
            line: 0,
            column: None,
            reason: format!("missing: no {stem}_*_*.csv in {}", folder.display()),
        });
    }
    files.sort();
    Ok(files)
}

#[derive(Default)]
struct Loader {
    graph: RawGraph,
    /// External id -> node, per entity (table stem).
    ids: FxHashMap<&'static str, FxHashMap<i64, NodeId>>,
    /// Shared strings for low-cardinality columns.
    interned: FxHashMap<Box<str>, kith_core::Str>,
    labels: FxHashMap<&'static str, LabelId>,
    keys: FxHashMap<&'static str, PropKeyId>,
}

impl Loader {
    fn label(&mut self, name: &'static str) -> LabelId {
        if let Some(id) = self.labels.get(name) {
            return *id;
        }
        let id = self
            .graph
            .catalog
            .label(name)
            .expect("schema names are valid");
        self.labels.insert(name, id);
        id
    }

    fn key(&mut self, name: &'static str) -> PropKeyId {
        if let Some(id) = self.keys.get(name) {
            return *id;
        }
        let id = self
            .graph
            .catalog
            .prop_key(name)
            .expect("schema names are valid");
        self.keys.insert(name, id);
        id
    }

    fn intern(&mut self, text: &str) -> kith_core::Str {
        if let Some(s) = self.interned.get(text) {
            return s.clone();
        }
        let s = kith_core::Str::new(text);
        self.interned.insert(text.into(), s.clone());
        s
    }

    /// The property value of one field, `None` for an absent one.
    fn value(
        &mut self,
        record: &Record<'_>,
        i: usize,
        kind: Kind,
    ) -> Result<Option<Value>, LoadError> {
        let text = record.text(i);
        Ok(match kind {
            Kind::Id | Kind::Int | Kind::Date => Some(Value::Int(record.int(i)?)),
            Kind::Text => Some(Value::string(text)),
            Kind::Category => Some(Value::String(self.intern(text))),
            Kind::OptionalText if text.is_empty() => None,
            Kind::OptionalText => Some(Value::string(text)),
            Kind::List if text.is_empty() => None,
            Kind::List => Some(Value::List(
                text.split(';')
                    .map(|s| Value::String(self.intern(s)))
                    .collect(),
            )),
            Kind::SubLabel(_) => None,
        })
    }

    fn node_table(&mut self, src: &Path, table: &NodeTable) -> Result<(usize, usize), LoadError> {
        let headers: Vec<&'static str> = table.columns.iter().map(|(h, _, _)| *h).collect();
        let files = partitions(src, table.dir, table.stem)?;
        let base: Vec<LabelId> = table.labels.iter().map(|l| self.label(l)).collect();
        let keys: Vec<Option<PropKeyId>> = table
            .columns
            .iter()
            .map(|(_, kind, k)| (!matches!(kind, Kind::SubLabel(_))).then(|| self.key(k)))
            .collect();
        let mut ids = self.ids.remove(table.stem).unwrap_or_default();
        let mut records = 0;
        for file in &files {
            let t = Table::open(file, &headers)?;
            for record in t.records() {
                let record = record?;
                let mut labels = base.clone();
                let mut properties = Vec::with_capacity(table.columns.len());
                let mut id = 0;
                for (i, (_, kind, _)) in table.columns.iter().enumerate() {
                    if let Kind::SubLabel(choices) = kind {
                        let text = record.text(i);
                        let Some((_, l)) = choices.iter().find(|(t, _)| *t == text) else {
                            let allowed: Vec<&str> = choices.iter().map(|(t, _)| *t).collect();
                            return Err(record.error(
                                Some(i),
                                format!("{text:?} is not one of {}", allowed.join(", ")),
                            ));
                        };
                        labels.push(self.label(l));
                        continue;
                    }
                    if let Some(value) = self.value(&record, i, *kind)? {
                        if let (Kind::Id, Value::Int(v)) = (kind, &value) {
                            id = *v;
                        }
                        properties.push((keys[i].expect("a property column"), value));
                    }
                }
                let node = self
                    .graph
                    .add_node(labels, properties)
                    .map_err(|e| record.error(None, e.to_string()))?;
                if ids.insert(id, node).is_some() {
                    return Err(
                        record.error(Some(0), format!("{} id {id} appears twice", table.stem))
                    );
                }
                records += 1;
            }
        }
        self.ids.insert(table.stem, ids);
        Ok((files.len(), records))
    }

    fn rel_table(&mut self, src: &Path, table: &RelTable) -> Result<(usize, usize), LoadError> {
        let headers = rel_header_of(table);
        let files = partitions(src, table.dir, table.stem)?;
        let rel_type = self
            .graph
            .catalog
            .rel_type(table.rel_type)
            .expect("schema names are valid");
        let key = table.property.map(|(_, _, k)| self.key(k));
        let src_ids = self.ids.remove(table.src).unwrap_or_default();
        let dst_ids = if table.dst == table.src {
            None
        } else {
            Some(self.ids.remove(table.dst).unwrap_or_default())
        };
        let result = (|| {
            let mut records = 0;
            for file in &files {
                let t = Table::open(file, &headers)?;
                for record in t.records() {
                    let record = record?;
                    let find = |ids: &FxHashMap<i64, NodeId>, column: usize, entity: &str| {
                        let id = record.int(column)?;
                        ids.get(&id).copied().ok_or_else(|| {
                            record.error(Some(column), format!("no {entity} with id {id}"))
                        })
                    };
                    let from = find(&src_ids, 0, table.src)?;
                    let to = find(dst_ids.as_ref().unwrap_or(&src_ids), 1, table.dst)?;
                    let mut properties = Vec::new();
                    if let (Some((_, kind, _)), Some(key)) = (table.property, key) {
                        if let Some(v) = self.value(&record, 2, kind)? {
                            properties.push((key, v));
                        }
                    }
                    self.graph
                        .add_rel(rel_type, from, to, properties)
                        .map_err(|e| record.error(None, e.to_string()))?;
                    records += 1;
                }
            }
            Ok((files.len(), records))
        })();
        self.ids.insert(table.src, src_ids);
        if let Some(dst_ids) = dst_ids {
            self.ids.insert(table.dst, dst_ids);
        }
        result
    }
}

/// The header names of a relationship table.
fn rel_header_of(table: &RelTable) -> Vec<&'static str> {
    let mut names = vec![entity_header(table.src), entity_header(table.dst)];
    if let Some((h, _, _)) = table.property {
        names.push(h);
    }
    names
}
