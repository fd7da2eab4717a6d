//! The update streams `updateStream_{i}_{j}_{person,forum}.csv`: one event per line,
//! `timestamp|dependencyTimestamp|operationType|fields...`, no header. Each event
//! becomes a call of the update procedure `ldbc.iu{operationType}` with named
//! parameters (docs/ldbc.md), so replaying a stream uses exactly the path a client's
//! update takes.

use std::path::{Path, PathBuf};

use kith_core::Value;

use crate::csv_file::LoadError;

/// One update event.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateEvent {
    /// When the event is scheduled (epoch milliseconds).
    pub timestamp: i64,
    /// The timestamp of the event it depends on.
    pub dependency: i64,
    /// The operation, 1..=8 (IU1..IU8).
    pub operation: u8,
    /// The procedure that applies it, `ldbc.iuN`.
    pub procedure: &'static str,
    /// Its parameters, named as the procedure's.
    pub params: Vec<(String, Value)>,
}

/// How a field becomes a parameter value.
#[derive(Clone, Copy)]
enum Field {
    Int,
    Date,
    Text,
    /// `;`-separated strings (empty: an empty list).
    Texts,
    /// `;`-separated integers (empty: an empty list).
    Ints,
    /// `;`-separated `id,year` pairs (empty: an empty list).
    Pairs,
}

/// The parameters of each operation, in field order.
fn layout(operation: u8) -> Option<(&'static str, &'static [(&'static str, Field)])> {
    use Field::*;
    Some(match operation {
        1 => (
            "ldbc.iu1",
            &[
                ("personId", Int),
                ("personFirstName", Text),
                ("personLastName", Text),
                ("gender", Text),
                ("birthday", Date),
                ("creationDate", Date),
                ("locationIP", Text),
                ("browserUsed", Text),
                ("cityId", Int),
                ("languages", Texts),
                ("emails", Texts),
                ("tagIds", Ints),
                ("studyAt", Pairs),
                ("workAt", Pairs),
            ],
        ),
        2 => (
            "ldbc.iu2",
            &[("personId", Int), ("postId", Int), ("creationDate", Date)],
        ),
        3 => (
            "ldbc.iu3",
            &[
                ("personId", Int),
                ("commentId", Int),
                ("creationDate", Date),
            ],
        ),
        4 => (
            "ldbc.iu4",
            &[
                ("forumId", Int),
                ("forumTitle", Text),
                ("creationDate", Date),
                ("moderatorPersonId", Int),
                ("tagIds", Ints),
            ],
        ),
        5 => (
            "ldbc.iu5",
            &[("forumId", Int), ("personId", Int), ("joinDate", Date)],
        ),
        6 => (
            "ldbc.iu6",
            &[
                ("postId", Int),
                ("imageFile", Text),
                ("creationDate", Date),
                ("locationIP", Text),
                ("browserUsed", Text),
                ("language", Text),
                ("content", Text),
                ("length", Int),
                ("authorPersonId", Int),
                ("forumId", Int),
                ("countryId", Int),
                ("tagIds", Ints),
            ],
        ),
        7 => (
            "ldbc.iu7",
            &[
                ("commentId", Int),
                ("creationDate", Date),
                ("locationIP", Text),
                ("browserUsed", Text),
                ("content", Text),
                ("length", Int),
                ("authorPersonId", Int),
                ("countryId", Int),
                ("replyToPostId", Int),
                ("replyToCommentId", Int),
                ("tagIds", Ints),
            ],
        ),
        8 => (
            "ldbc.iu8",
            &[
                ("person1Id", Int),
                ("person2Id", Int),
                ("creationDate", Date),
            ],
        ),
        _ => return None,
    })
}

/// Parses one event line (`line` counts from 1, for errors).
pub fn parse_event(file: &Path, line: usize, text: &str) -> Result<UpdateEvent, LoadError> {
    let error = |column: Option<String>, reason: String| LoadError {
        file: file.to_owned(),
        line,
        column,
        reason,
    };
    let fields: Vec<&str> = text.split('|').collect();
    let int = |i: usize, name: &str| -> Result<i64, LoadError> {
        let f = fields.get(i).copied().unwrap_or("");
        f.parse().map_err(|_| {
            error(
                Some(format!("{} ({name})", i + 1)),
                format!("{f:?} is not an integer"),
            )
        })
    };
    if fields.len() < 3 {
        return Err(error(
            None,
            format!("{} fields; an event has at least 3", fields.len()),
        ));
    }
    let timestamp = int(0, "timestamp")?;
    let dependency = int(1, "dependencyTimestamp")?;
    let operation = int(2, "operationType")?;
    let Some((procedure, layout)) = u8::try_from(operation).ok().and_then(layout) else {
        return Err(error(
            Some("3 (operationType)".into()),
            format!("{operation} is not an update operation (1..8)"),
        ));
    };
    if fields.len() != 3 + layout.len() {
        return Err(error(
            None,
            format!(
                "{} fields; IU{operation} has {} (3 + {})",
                fields.len(),
                3 + layout.len(),
                layout.len()
            ),
        ));
    }
    let mut params = Vec::with_capacity(layout.len());
    for (j, (name, kind)) in layout.iter().enumerate() {
        let i = 3 + j;
        let f = fields[i];
        let bad = |what: &str| {
            error(
                Some(format!("{} ({name})", i + 1)),
                format!("{f:?} is not {what}"),
            )
        };
        let split = || f.split(';').filter(|s| !s.is_empty());
        let value = match kind {
            Field::Int => Value::Int(int(i, name)?),
            Field::Date => Value::Int(int(i, name)?),
            Field::Text => Value::string(f),
            Field::Texts => Value::List(split().map(Value::string).collect()),
            Field::Ints => Value::List(
                split()
                    .map(|s| {
                        s.parse()
                            .map(Value::Int)
                            .map_err(|_| bad("a list of integers"))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Field::Pairs => Value::List(
                split()
                    .map(|s| {
                        let (a, b) = s.split_once(',').ok_or_else(|| bad("id,year pairs"))?;
                        let a = a.parse().map_err(|_| bad("id,year pairs"))?;
                        let b = b.parse().map_err(|_| bad("id,year pairs"))?;
                        Ok(Value::List(vec![Value::Int(a), Value::Int(b)]))
                    })
                    .collect::<Result<_, LoadError>>()?,
            ),
        };
        params.push(((*name).to_owned(), value));
    }
    Ok(UpdateEvent {
        timestamp,
        dependency,
        operation: operation as u8,
        procedure,
        params,
    })
}

/// The stream files in `dir` (`updateStream_*_{person,forum}.csv`), sorted by name.
pub fn stream_files(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|e| LoadError {
        file: dir.to_owned(),
        line: 0,
        column: None,
        reason: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("updateStream_")
                    && (n.ends_with("_person.csv") || n.ends_with("_forum.csv"))
            })
        })
        .collect();
    if files.is_empty() {
        return Err(LoadError {
            file: dir.to_owned(),
            line: 0,
            column: None,
            reason: "no updateStream_*_person.csv or updateStream_*_forum.csv here".into(),
        });
    }
    files.sort();
    Ok(files)
}

/// Every event of every stream file in `dir`, in timestamp order (events with the
/// same timestamp keep their file and line order).
pub fn read_streams(dir: &Path) -> Result<Vec<UpdateEvent>, LoadError> {
    Ok(read_stream_lines(dir)?
        .into_iter()
        .map(|(event, _)| event)
        .collect())
}

/// Every event of every stream file in `dir` with its line as written, in the order
/// of [`read_streams`] (what `kith produce ldbc` publishes: each line is checked here,
/// so a damaged stream is refused before anything is sent).
pub fn read_stream_lines(dir: &Path) -> Result<Vec<(UpdateEvent, String)>, LoadError> {
    let mut events = Vec::new();
    for file in stream_files(dir)? {
        let text = std::fs::read_to_string(&file).map_err(|e| LoadError {
            file: file.clone(),
            line: 0,
            column: None,
            reason: e.to_string(),
        })?;
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() {
                continue;
            }
            events.push((parse_event(&file, i + 1, line)?, line.to_owned()));
        }
    }
    events.sort_by_key(|(e, _)| e.timestamp);
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_add_person_event_has_lists_and_pairs() {
        let line = "1290985470184|0|1|10995116277904|Yang|Zhu|male|572918400000|1290985470184|14.0.6.255|Firefox|353|zh;en|a@x;b@y|295;1406||907,2011;5,2000";
        let e = parse_event(Path::new("s.csv"), 1, line).expect("parses");
        assert_eq!(e.procedure, "ldbc.iu1");
        assert_eq!(e.timestamp, 1290985470184);
        let get = |n: &str| {
            e.params
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(get("cityId"), Some(Value::Int(353)));
        assert_eq!(
            get("tagIds"),
            Some(Value::List(vec![Value::Int(295), Value::Int(1406)]))
        );
        assert_eq!(get("studyAt"), Some(Value::List(vec![])));
        assert_eq!(
            get("workAt"),
            Some(Value::List(vec![
                Value::List(vec![Value::Int(907), Value::Int(2011)]),
                Value::List(vec![Value::Int(5), Value::Int(2000)]),
            ]))
        );
    }

    #[test]
    fn bad_events_are_located() {
        let e = parse_event(Path::new("s.csv"), 7, "1|0|9|x").expect_err("op 9");
        assert_eq!(
            e.to_string(),
            "s.csv, line 7, column 3 (operationType): 9 is not an update operation (1..8)"
        );
        let e = parse_event(Path::new("s.csv"), 2, "1|0|8|1|2").expect_err("short");
        assert!(e.to_string().contains("5 fields; IU8 has 6"), "{e}");
        let e = parse_event(Path::new("s.csv"), 2, "1|0|8|1|x|3").expect_err("not int");
        assert!(e.to_string().contains("column 5 (person2Id)"), "{e}");
    }
}
