//! What to import and how: the groups of files and the importer's options, with the
//! names and defaults of `neo4j-admin database import`.

use crate::error::{ErrorKind, ImportError, Result};

/// How node ids are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IdType {
    /// Any text; a named ID column is stored as a String property.
    #[default]
    String,
    /// 64-bit integers; a named ID column is stored as an Int property.
    Integer,
}

impl IdType {
    /// `string` or `integer`, case-insensitive, as Neo4j spells them.
    pub fn parse(text: &str) -> Result<IdType> {
        match text.to_ascii_lowercase().as_str() {
            "string" => Ok(IdType::String),
            "integer" => Ok(IdType::Integer),
            "actual" => Err(ImportError::new(
                ErrorKind::Argument,
                "--id-type=actual (ids that are the store's own) is not supported: kith assigns node ids itself; use string or integer",
            )),
            _ => Err(ImportError::new(
                ErrorKind::Argument,
                format!("--id-type must be string or integer, not `{text}`"),
            )),
        }
    }
}

/// The importer's options.
#[derive(Clone, Debug)]
pub struct Options {
    /// The field separator (default `,`).
    pub delimiter: u8,
    /// The separator inside array fields and `:LABEL` fields (default `;`).
    pub array_delimiter: u8,
    /// The quote (default `"`; doubled inside a quoted field).
    pub quote: u8,
    /// How node ids are read.
    pub id_type: IdType,
    /// Quoted fields may span lines. Such files are parsed by one thread each: a line
    /// break no longer ends a record, so they cannot be cut into chunks at lines.
    pub multiline_fields: bool,
    /// `""` is no property rather than an empty string.
    pub ignore_empty_strings: bool,
    /// Unquoted string values lose their leading and trailing spaces.
    pub trim_strings: bool,
    /// A relationship whose start or end no file defines is skipped and reported,
    /// instead of failing the import.
    pub skip_bad_relationships: bool,
    /// A node whose id its ID space already holds is skipped and reported.
    pub skip_duplicate_nodes: bool,
    /// How many skipped entries the import takes before it fails.
    pub bad_tolerance: u64,
    /// Every file of a group after the first starts with a copy of the header, skipped.
    pub auto_skip_subsequent_headers: bool,
    /// Threads that parse (0: one per core).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            delimiter: b',',
            array_delimiter: b';',
            quote: b'"',
            id_type: IdType::String,
            multiline_fields: false,
            ignore_empty_strings: false,
            trim_strings: false,
            skip_bad_relationships: false,
            skip_duplicate_nodes: false,
            bad_tolerance: 1000,
            auto_skip_subsequent_headers: false,
            threads: 0,
        }
    }
}

/// A delimiter or quote given as one ASCII character, `\t` or `TAB`.
pub fn parse_char(option: &str, text: &str) -> Result<u8> {
    match text {
        "\\t" | "TAB" | "\t" => Ok(b'\t'),
        _ if text.len() == 1 && text.is_ascii() && text != "\n" && text != "\r" => {
            Ok(text.as_bytes()[0])
        }
        _ => Err(ImportError::new(
            ErrorKind::Argument,
            format!("{option} must be one ASCII character (or TAB), not `{text}`"),
        )),
    }
}

/// One `--nodes` or `--relationships` argument: `[Name[:Name]...=]FILE[,FILE...]`.
///
/// For nodes the names are labels every node of the files gets; for relationships, at
/// most one name: the type of rows whose `:TYPE` column is absent or empty. The first
/// file's first line is the header of all the group's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Labels, or the relationship type.
    pub names: Vec<String>,
    /// The files, each a path or a regular expression over one directory's names.
    pub files: Vec<String>,
}

impl Group {
    /// Parses the argument (`what` is `--nodes` or `--relationships`, for errors).
    pub fn parse(what: &str, spec: &str) -> Result<Group> {
        let (names, files) = match spec.split_once('=') {
            Some((names, files)) => (names, files),
            None => ("", spec),
        };
        let names: Vec<String> = names
            .split(':')
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect();
        let files: Vec<String> = files
            .split(',')
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect();
        if files.is_empty() {
            return Err(ImportError::new(
                ErrorKind::Argument,
                format!("{what}={spec} names no file"),
            ));
        }
        if what == "--relationships" && names.len() > 1 {
            return Err(ImportError::new(
                ErrorKind::Argument,
                format!(
                    "{what}={spec}: a relationship has one type, not {}",
                    names.join(":")
                ),
            ));
        }
        Ok(Group { names, files })
    }
}

/// Everything one import reads.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Node groups, in the order given.
    pub nodes: Vec<Group>,
    /// Relationship groups, in the order given.
    pub relationships: Vec<Group>,
    /// Options.
    pub options: Options,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_labels_and_files() {
        let g = Group::parse("--nodes", "Person:Actor=h.csv,a.csv").expect("parses");
        assert_eq!(g.names, ["Person", "Actor"]);
        assert_eq!(g.files, ["h.csv", "a.csv"]);
        let g = Group::parse("--nodes", "only.csv").expect("parses");
        assert!(g.names.is_empty());
        assert!(Group::parse("--relationships", "A:B=x.csv").is_err());
        assert!(Group::parse("--nodes", "Person=").is_err());
    }

    #[test]
    fn characters_parse() {
        assert_eq!(parse_char("--delimiter", "|").expect("ok"), b'|');
        assert_eq!(parse_char("--delimiter", "TAB").expect("ok"), b'\t');
        assert!(parse_char("--delimiter", "||").is_err());
        assert!(IdType::parse("actual").is_err());
        assert_eq!(IdType::parse("INTEGER").expect("ok"), IdType::Integer);
    }
}
