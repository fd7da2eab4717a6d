//! Header lines: `name:type(group)` entries, as `neo4j-admin database import` reads
//! them (docs/import.md lists every type).

use kith_core::PropKeyId;
use kith_storage::{Catalog, ID_KEY};
use rustc_hash::FxHashSet;

use crate::error::{ErrorKind, ImportError, Result};
use crate::options::IdType;

/// A property column's type (case-insensitive in headers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropType {
    /// `byte`, `short`, `int`, `long`: an Int in the range of that many bits.
    Int(u32),
    /// `float`, `double`.
    Float,
    /// `boolean`: `true` or `false`, any case.
    Boolean,
    /// `char`: one character, kept as a String.
    Char,
    /// `string` (and a column with no type).
    String,
    /// `date`, `localtime`, `time`, `localdatetime`, `datetime`: ISO 8601 text.
    Temporal(kith_core::temporal::Kind),
    /// `duration`: ISO 8601 (`P1DT2H`).
    Duration,
    /// `point`: a map of coordinates, `{x: 1.0, y: 2.0, crs: 'cartesian'}` or
    /// `{latitude: 55.6, longitude: 12.9}`, as Neo4j's importer reads it.
    Point,
}

impl PropType {
    fn parse(name: &str) -> Option<PropType> {
        use kith_core::temporal::Kind;
        Some(match name.to_ascii_lowercase().as_str() {
            "byte" => PropType::Int(8),
            "short" => PropType::Int(16),
            "int" => PropType::Int(32),
            "long" => PropType::Int(64),
            "float" | "double" => PropType::Float,
            "boolean" => PropType::Boolean,
            "char" => PropType::Char,
            "string" => PropType::String,
            "date" => PropType::Temporal(Kind::Date),
            "localtime" => PropType::Temporal(Kind::LocalTime),
            "time" => PropType::Temporal(Kind::Time),
            "localdatetime" => PropType::Temporal(Kind::LocalDateTime),
            "datetime" => PropType::Temporal(Kind::DateTime),
            "duration" => PropType::Duration,
            "point" => PropType::Point,
            _ => return None,
        })
    }
}

/// What one column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The node's id in ID space `space`; with a name, also stored as that property.
    Id {
        /// The property, when the column has a name.
        key: Option<PropKeyId>,
        /// The ID space.
        space: usize,
    },
    /// Labels, separated by the array delimiter.
    Label,
    /// The relationship's start node's id in ID space `.0`.
    StartId(usize),
    /// The end node's id.
    EndId(usize),
    /// The relationship's type.
    Type,
    /// Skipped.
    Ignore,
    /// A property.
    Prop {
        /// Its key.
        key: PropKeyId,
        /// The type of the value or of each element.
        ty: PropType,
        /// An array, split on the array delimiter.
        array: bool,
    },
}

/// The ID spaces (`:ID(Person)`; the unnamed one is the global space).
#[derive(Debug, Default)]
pub struct Spaces {
    names: Vec<Option<String>>,
}

impl Spaces {
    /// The space's index, made on first sight (node headers define spaces).
    pub fn define(&mut self, name: Option<&str>) -> usize {
        if let Some(i) = self.names.iter().position(|n| n.as_deref() == name) {
            return i;
        }
        self.names.push(name.map(str::to_owned));
        self.names.len() - 1
    }

    /// The space's index, if a node header defined it.
    pub fn find(&self, name: Option<&str>) -> Option<usize> {
        self.names.iter().position(|n| n.as_deref() == name)
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// A space's name for messages.
    pub fn describe(&self, space: usize) -> String {
        match &self.names[space] {
            Some(name) => format!("ID space `{name}`"),
            None => "the global ID space".into(),
        }
    }
}

/// Whether a header heads node files or relationship files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `--nodes`.
    Nodes,
    /// `--relationships`.
    Relationships,
}

/// A parsed header: a column per field, and the entries' text for messages.
#[derive(Debug)]
pub struct Header {
    /// The columns in field order.
    pub columns: Vec<Column>,
    /// Each column's header entry.
    pub names: Vec<String>,
    /// How many columns give a property (an element's property list is sized to
    /// this: most relationships have none, and allocate nothing).
    pub properties: usize,
}

/// One entry split into (name, type, group).
fn split_entry(entry: &str) -> Result<(&str, &str, Option<&str>)> {
    if entry.contains('{') && entry.ends_with('}') {
        return Err(ImportError::new(
            ErrorKind::Header,
            format!("`{entry}`: type options ({{...}}) are not supported"),
        ));
    }
    let Some((name, spec)) = entry.rsplit_once(':') else {
        return Ok((entry, "string", None));
    };
    match spec.split_once('(') {
        Some((base, group)) => match group.strip_suffix(')') {
            Some(group) if !group.is_empty() => Ok((name, base, Some(group))),
            _ => Err(ImportError::new(
                ErrorKind::Header,
                format!("`{entry}`: an ID space is written `(Name)`"),
            )),
        },
        None => Ok((name, spec, None)),
    }
}

impl Header {
    /// Parses the header's fields for files of `kind`, interning property keys and
    /// defining (node files) or finding (relationship files) ID spaces.
    pub fn parse(
        entries: &[String],
        kind: FileKind,
        id_type: IdType,
        catalog: &mut Catalog,
        spaces: &mut Spaces,
    ) -> Result<Header> {
        let mut columns = Vec::with_capacity(entries.len());
        let mut seen = FxHashSet::default();
        for entry in entries {
            let column = Self::column(entry, kind, catalog, spaces)?;
            if let Column::Prop { key, .. } | Column::Id { key: Some(key), .. } = column {
                if !seen.insert(key) {
                    return Err(ImportError::new(
                        ErrorKind::Header,
                        format!("property `{}` has two columns", catalog.prop_key_name(key)),
                    ));
                }
            }
            columns.push(column);
        }
        let properties = columns
            .iter()
            .filter(|c| matches!(c, Column::Prop { .. } | Column::Id { key: Some(_), .. }))
            .count();
        let header = Header {
            columns,
            names: entries.to_vec(),
            properties,
        };
        header.check(kind)?;
        header.check_id_key(id_type)?;
        Ok(header)
    }

    fn column(
        entry: &str,
        kind: FileKind,
        catalog: &mut Catalog,
        spaces: &mut Spaces,
    ) -> Result<Column> {
        let (name, spec, group) = split_entry(entry)?;
        let special = spec.to_ascii_uppercase();
        let wrong = |what: &str| {
            ImportError::new(
                ErrorKind::Header,
                format!(
                    "`{entry}`: {what} columns belong in {} files",
                    what_files(kind)
                ),
            )
        };
        if group.is_some() && !matches!(special.as_str(), "ID" | "START_ID" | "END_ID") {
            return Err(ImportError::new(
                ErrorKind::Header,
                format!("`{entry}`: only ID, START_ID and END_ID columns take an ID space"),
            ));
        }
        let column = match special.as_str() {
            "ID" if kind == FileKind::Nodes => Column::Id {
                key: (!name.is_empty())
                    .then(|| catalog.prop_key(name))
                    .transpose()?,
                space: spaces.define(group),
            },
            "LABEL" if kind == FileKind::Nodes => Column::Label,
            "START_ID" | "END_ID" if kind == FileKind::Relationships => {
                let space = spaces.find(group).ok_or_else(|| {
                    ImportError::new(
                        ErrorKind::Header,
                        format!(
                            "`{entry}`: no node file defines {}",
                            match group {
                                Some(g) => format!("ID space `{g}`"),
                                None =>
                                    "the global ID space (an :ID column without a group)".into(),
                            }
                        ),
                    )
                })?;
                if special == "START_ID" {
                    Column::StartId(space)
                } else {
                    Column::EndId(space)
                }
            }
            "TYPE" if kind == FileKind::Relationships => Column::Type,
            "ID" | "LABEL" => return Err(wrong("ID and LABEL")),
            "START_ID" | "END_ID" | "TYPE" => return Err(wrong("START_ID, END_ID and TYPE")),
            "IGNORE" => Column::Ignore,
            _ => Self::property(entry, name, spec, catalog)?,
        };
        Ok(column)
    }

    fn property(entry: &str, name: &str, spec: &str, catalog: &mut Catalog) -> Result<Column> {
        let (base, array) = match spec.strip_suffix("[]") {
            Some(base) => (base, true),
            None => (spec, false),
        };
        let ty = PropType::parse(base).ok_or_else(|| {
            let why = format!("unknown type `{spec}` (see docs/import.md for the types)");
            ImportError::new(ErrorKind::Header, format!("`{entry}`: {why}"))
        })?;
        if name.is_empty() {
            return Err(ImportError::new(
                ErrorKind::Header,
                format!("`{entry}`: a property column needs a name"),
            ));
        }
        Ok(Column::Prop {
            key: catalog.prop_key(name)?,
            ty,
            array,
        })
    }

    fn check(&self, kind: FileKind) -> Result<()> {
        let count = |f: fn(&Column) -> bool| self.columns.iter().filter(|c| f(c)).count();
        let ids = count(|c| matches!(c, Column::Id { .. }));
        let starts = count(|c| matches!(c, Column::StartId(_)));
        let ends = count(|c| matches!(c, Column::EndId(_)));
        let types = count(|c| matches!(c, Column::Type));
        let problem = match kind {
            FileKind::Nodes if ids > 1 => Some("has more than one ID column"),
            FileKind::Relationships if starts != 1 => Some("needs exactly one START_ID column"),
            FileKind::Relationships if ends != 1 => Some("needs exactly one END_ID column"),
            FileKind::Relationships if types > 1 => Some("has more than one TYPE column"),
            _ => None,
        };
        match problem {
            Some(p) => Err(ImportError::new(
                ErrorKind::Header,
                format!("the header `{}` {p}", self.names.join("`, `")),
            )),
            None => Ok(()),
        }
    }
}

impl Header {
    /// kith indexes every node's `id` property as an integer (the external-id index),
    /// so a column that stores `id` must give integers.
    fn check_id_key(&self, id_type: IdType) -> Result<()> {
        for (column, name) in self.columns.iter().zip(&self.names) {
            let fits = match *column {
                Column::Id {
                    key: Some(ID_KEY), ..
                } => id_type == IdType::Integer,
                Column::Prop {
                    key: ID_KEY,
                    ty,
                    array,
                } => matches!(ty, PropType::Int(_)) && !array,
                _ => true,
            };
            if !fits {
                return Err(ImportError::new(
                    ErrorKind::Header,
                    format!(
                        "`{name}`: kith indexes the `id` property as an integer; use --id-type=integer, an integer type, or another name (`:ID` alone stores no property)"
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn what_files(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Nodes => "relationship",
        FileKind::Relationships => "node",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(entries: &[&str], kind: FileKind, spaces: &mut Spaces) -> Result<Header> {
        let entries: Vec<String> = entries.iter().map(|s| s.to_string()).collect();
        Header::parse(
            &entries,
            kind,
            IdType::Integer,
            &mut Catalog::default(),
            spaces,
        )
    }

    #[test]
    fn node_and_relationship_headers() {
        let mut spaces = Spaces::default();
        let nodes = parse(
            &[
                "id:ID(Person)",
                "name",
                "age:INT",
                "tags:string[]",
                ":LABEL",
                "x:IGNORE",
            ],
            FileKind::Nodes,
            &mut spaces,
        )
        .expect("parses");
        assert!(matches!(
            nodes.columns[0],
            Column::Id {
                key: Some(_),
                space: 0
            }
        ));
        assert!(matches!(
            nodes.columns[1],
            Column::Prop {
                ty: PropType::String,
                array: false,
                ..
            }
        ));
        assert!(matches!(
            nodes.columns[2],
            Column::Prop {
                ty: PropType::Int(32),
                ..
            }
        ));
        assert!(matches!(
            nodes.columns[3],
            Column::Prop {
                ty: PropType::String,
                array: true,
                ..
            }
        ));
        assert_eq!(nodes.columns[4], Column::Label);
        assert_eq!(nodes.columns[5], Column::Ignore);
        let rels = parse(
            &[
                ":START_ID(Person)",
                ":END_ID(Person)",
                ":TYPE",
                "since:date",
            ],
            FileKind::Relationships,
            &mut spaces,
        )
        .expect("parses");
        assert_eq!(rels.columns[0], Column::StartId(0));
    }

    #[test]
    fn bad_headers_say_what_is_wrong() {
        let mut spaces = Spaces::default();
        let err = |entries: &[&str], kind| {
            parse(entries, kind, &mut Spaces::default())
                .expect_err("refused")
                .message
        };
        assert!(err(&["a:ID", "b:ID"], FileKind::Nodes).contains("more than one ID"));
        assert!(
            err(&[":START_ID(Nobody)", ":END_ID"], FileKind::Relationships)
                .contains("no node file defines ID space `Nobody`")
        );
        assert!(err(&["p:point{crs:WGS-84}"], FileKind::Nodes).contains("type options"));
        assert!(err(&["p:integer"], FileKind::Nodes).contains("unknown type `integer`"));
        assert!(err(&[":TYPE"], FileKind::Nodes).contains("belong in relationship files"));
        assert!(err(&["a:int", "a:long"], FileKind::Nodes).contains("two columns"));
        assert!(err(&["d:datetime{timezone:UTC}"], FileKind::Nodes).contains("type options"));
        assert!(err(&["id:string"], FileKind::Nodes).contains("indexes the `id` property"));
        let strings = Header::parse(
            &["id:ID".into()],
            FileKind::Nodes,
            IdType::String,
            &mut Catalog::default(),
            &mut Spaces::default(),
        );
        assert!(strings
            .expect_err("string ids")
            .message
            .contains("--id-type=integer"));
        spaces.define(None);
        assert!(parse(&[":START_ID"], FileKind::Relationships, &mut spaces)
            .expect_err("no end")
            .message
            .contains("END_ID"));
    }
}
