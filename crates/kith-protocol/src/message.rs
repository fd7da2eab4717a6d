//! Requests, result chunks and errors as documents (`docs/protocol.md` 1.3-1.5).

use kith_core::Value;

use crate::codec::{self, Node};
use crate::{Encoding, ProtocolError};

/// A client request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Run a stored procedure.
    Call {
        /// Procedure name.
        procedure: String,
        /// Parameters.
        params: Vec<(String, Value)>,
        /// Ask for server timings in the last chunk.
        timing: bool,
    },
    /// Commit a transaction: a list of write operations, all-or-nothing
    /// (`docs/protocol.md` 1.3.1). Each operation is a map; the server validates
    /// them, so this crate needs no storage types ([`crate::ops`] builds them).
    Write {
        /// The operations, in order.
        ops: Vec<Value>,
        /// Ask for server timings in the answer.
        timing: bool,
    },
    /// Run a Cypher query (`docs/protocol.md` 1.3.2). A query that writes is one
    /// transaction, answered once it is durable, unless it names an explicit one.
    Cypher {
        /// The query text.
        query: String,
        /// Its parameters (`$name` in the text).
        params: Vec<(String, Value)>,
        /// Ask for server timings in the last chunk.
        timing: bool,
        /// The explicit transaction it is a statement of (`begin`'s id).
        tx: Option<String>,
    },
    /// Open an explicit transaction (`docs/protocol.md` 1.3.3): answered with one
    /// row, its id, in the column `tx`.
    Begin {
        /// Roll it back if still open after this long (at most the server's
        /// `transaction_timeout_ms`).
        timeout_ms: Option<u64>,
    },
    /// Commit an explicit transaction: answered, once durable, with the commit.
    Commit {
        /// Its id.
        tx: String,
    },
    /// Roll an explicit transaction back.
    Rollback {
        /// Its id.
        tx: String,
    },
}

/// Server-side time split of one request, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// From decoding the request to a worker starting it.
    pub queue_us: u64,
    /// Running the procedure.
    pub exec_us: u64,
    /// Encoding and compressing the result.
    pub encode_us: u64,
}

/// What a Cypher query that wrote committed (`docs/protocol.md` 1.3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Commit {
    /// The transaction's commit version.
    pub version: u64,
    /// Nodes it created.
    pub nodes_created: u64,
    /// Relationships it created.
    pub relationships_created: u64,
}

/// What only the last chunk of a result carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trailer {
    /// Server timings, when the request asked for them.
    pub timing: Option<Timing>,
    /// The commit of a Cypher query that wrote.
    pub commit: Option<Commit>,
    /// The plan of an `EXPLAIN` or `PROFILE` query (docs/protocol.md 1.3.2).
    pub plan: Option<Value>,
    /// The query's notifications, maps (docs/protocol.md 1.3.2).
    pub notifications: Vec<Value>,
}

impl Trailer {
    /// A trailer with timings only (a procedure's, a write's).
    pub fn with_timing(timing: Option<Timing>) -> Trailer {
        Trailer {
            timing,
            commit: None,
            plan: None,
            notifications: Vec::new(),
        }
    }
}

/// One chunk of a result, decoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultChunk {
    /// Column names (first chunk only).
    pub columns: Option<Vec<String>>,
    /// Rows.
    pub rows: Vec<Vec<Value>>,
    /// Server timings (last chunk, when asked for).
    pub timing: Option<Timing>,
    /// The commit of a Cypher query that wrote (last chunk).
    pub commit: Option<Commit>,
    /// The plan of an `EXPLAIN` or `PROFILE` query (last chunk).
    pub plan: Option<Value>,
    /// The query's notifications (last chunk; docs/protocol.md 1.3.2).
    pub notifications: Vec<Value>,
}

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorBody {
    /// Stable code.
    pub code: String,
    /// For people.
    pub message: String,
    /// What the Cypher engine said, for errors of a `cypher` request.
    pub cypher: Option<CypherErrorDetail>,
}

/// The Cypher engine's part of an error (`docs/protocol.md` 1.5): its Neo4j-style
/// status code and where in the query text the error is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CypherErrorDetail {
    /// E.g. `Neo.ClientError.Statement.SyntaxError`.
    pub code: String,
    /// 1-based line in the query text, when the error belongs to a place in it.
    pub line: Option<u64>,
    /// 1-based column, in characters.
    pub column: Option<u64>,
    /// Its GQL status (`42001`, `50N42`, ...), where the server gives one.
    pub gql_status: Option<String>,
}

fn params_node(params: &[(String, Value)]) -> Node<'_> {
    Node::Map(
        params
            .iter()
            .map(|(k, v)| (k.as_str(), Node::Value(v)))
            .collect(),
    )
}

/// The keys of a request document, as read.
#[derive(Default)]
struct RequestKeys {
    procedure: Option<String>,
    write: Option<Vec<Value>>,
    cypher: Option<String>,
    begin: Option<Option<u64>>,
    commit: Option<String>,
    rollback: Option<String>,
    tx: Option<String>,
    params: Vec<(String, Value)>,
    timing: bool,
    min_version: Option<u64>,
}

impl Request {
    /// Encodes the request document.
    pub fn encode(&self, encoding: Encoding) -> Vec<u8> {
        self.encode_at(encoding, None)
    }

    /// Encodes the request document with the version the server must have applied
    /// before it runs the request (`min_version`, docs/protocol.md 1.3.2: a replica
    /// waits for it, so a session reads its own writes).
    pub fn encode_at(&self, encoding: Encoding, min_version: Option<u64>) -> Vec<u8> {
        let (mut doc, timing) = match self {
            Request::Call {
                procedure,
                params,
                timing,
            } => (
                vec![
                    ("call", Node::Str(procedure)),
                    ("params", params_node(params)),
                ],
                *timing,
            ),
            Request::Write { ops, timing } => (vec![("write", Node::List(ops))], *timing),
            Request::Cypher {
                query,
                params,
                timing,
                tx,
            } => {
                let mut doc = vec![
                    ("cypher", Node::Str(query)),
                    ("params", params_node(params)),
                ];
                if let Some(tx) = tx {
                    doc.push(("tx", Node::Str(tx)));
                }
                (doc, *timing)
            }
            Request::Begin { timeout_ms } => {
                let options = match timeout_ms {
                    Some(ms) => vec![("timeout_ms", Node::UInt(*ms))],
                    None => Vec::new(),
                };
                (vec![("begin", Node::Map(options))], false)
            }
            Request::Commit { tx } => (vec![("commit", Node::Str(tx))], false),
            Request::Rollback { tx } => (vec![("rollback", Node::Str(tx))], false),
        };
        if timing {
            doc.push(("timing", Node::Bool(true)));
        }
        if let Some(version) = min_version {
            doc.push(("min_version", Node::UInt(version)));
        }
        codec::encode(encoding, &Node::Map(doc))
    }

    /// Decodes a request document (its `min_version`, if any, is checked and
    /// dropped: [`Request::decode_at`] keeps it).
    pub fn decode(encoding: Encoding, payload: &[u8]) -> Result<Request, ProtocolError> {
        Request::decode_at(encoding, payload).map(|(request, _)| request)
    }

    /// Decodes a request document and the version it must see, if it names one.
    pub fn decode_at(
        encoding: Encoding,
        payload: &[u8],
    ) -> Result<(Request, Option<u64>), ProtocolError> {
        let bad = |reason: String| ProtocolError::payload(encoding.name(), reason);
        let Value::Map(entries) = codec::decode(encoding, payload)? else {
            return Err(bad("the request is not a map".into()));
        };
        let mut keys = RequestKeys::default();
        for (key, value) in entries {
            keys.read(&key, value).map_err(bad)?;
        }
        let min_version = keys.min_version;
        keys.request().map(|r| (r, min_version)).map_err(bad)
    }
}

/// `begin`'s options: `timeout_ms`, a positive integer.
fn begin_timeout(options: Vec<(std::sync::Arc<str>, Value)>) -> Result<Option<u64>, String> {
    let mut timeout = None;
    for (key, value) in options {
        match (&*key, value) {
            ("timeout_ms", Value::Int(ms)) if ms > 0 => timeout = Some(ms as u64),
            ("timeout_ms", other) => {
                return Err(format!(
                    "`begin.timeout_ms` must be a positive integer, got {other:?}"
                ))
            }
            (other, _) => return Err(format!("unknown `begin` option `{other}`")),
        }
    }
    Ok(timeout)
}

impl RequestKeys {
    /// The request the keys make: exactly one of `call`, `write`, `cypher`, `begin`,
    /// `commit`, `rollback` (and `tx` only with `cypher`).
    fn request(self) -> Result<Request, String> {
        let RequestKeys {
            procedure,
            write,
            cypher,
            begin,
            commit,
            rollback,
            tx,
            params,
            timing,
            min_version,
        } = self;
        let given = [
            procedure.is_some(),
            write.is_some(),
            cypher.is_some(),
            begin.is_some(),
            commit.is_some(),
            rollback.is_some(),
        ];
        match given.iter().filter(|g| **g).count() {
            0 => {
                return Err(
                    "the request has none of `call`, `write`, `cypher`, `begin`, `commit` and `rollback`"
                        .into(),
                )
            }
            1 => {}
            _ => {
                return Err(
                    "a request has exactly one of `call`, `write`, `cypher`, `begin`, `commit` and `rollback`"
                        .into(),
                )
            }
        }
        if tx.is_some() && cypher.is_none() {
            return Err("`tx` goes with `cypher` only".into());
        }
        if tx.is_some() && min_version.is_some() {
            return Err(
                "`min_version` goes with `begin`, not with a statement of an open transaction \
                 (it reads the version its `begin` took)"
                    .into(),
            );
        }
        Ok(if let Some(procedure) = procedure {
            Request::Call {
                procedure,
                params,
                timing,
            }
        } else if let Some(ops) = write {
            Request::Write { ops, timing }
        } else if let Some(query) = cypher {
            Request::Cypher {
                query,
                params,
                timing,
                tx,
            }
        } else if let Some(timeout_ms) = begin {
            Request::Begin { timeout_ms }
        } else if let Some(tx) = commit {
            Request::Commit { tx }
        } else {
            Request::Rollback {
                tx: rollback.expect("one key is given"),
            }
        })
    }

    /// Takes one key of the request map; the reason it is wrong otherwise.
    fn read(&mut self, key: &str, value: Value) -> Result<(), String> {
        let wrong = |what: &str, other: &Value| {
            Err(format!(
                "`{key}` must be {what}, got {}",
                other.value_type()
            ))
        };
        match (key, value) {
            ("call", Value::String(name)) => self.procedure = Some(name.to_string()),
            ("call", other) => return wrong("a string", &other),
            ("cypher", Value::String(text)) => self.cypher = Some(text.to_string()),
            ("cypher", other) => return wrong("a string (the query text)", &other),
            ("params", Value::Map(p)) => {
                self.params = p.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            }
            ("params", Value::Null) => {}
            ("params", other) => return wrong("a map", &other),
            ("timing", Value::Bool(b)) => self.timing = b,
            ("timing", other) => return wrong("a bool", &other),
            ("write", Value::List(ops)) => self.write = Some(ops),
            ("write", other) => return wrong("a list of operations", &other),
            ("begin", Value::Map(options)) => self.begin = Some(begin_timeout(options)?),
            ("begin", Value::Null | Value::Bool(true)) => self.begin = Some(None),
            ("begin", other) => return wrong("a map of options", &other),
            ("commit", Value::String(id)) => self.commit = Some(id.to_string()),
            ("commit", other) => return wrong("a string (the transaction id)", &other),
            ("rollback", Value::String(id)) => self.rollback = Some(id.to_string()),
            ("rollback", other) => return wrong("a string (the transaction id)", &other),
            ("min_version", Value::Int(v)) if v >= 0 => self.min_version = Some(v as u64),
            ("min_version", other) => return wrong("a version (an integer from 0)", &other),
            ("tx", Value::String(id)) => self.tx = Some(id.to_string()),
            ("tx", other) => return wrong("a string (the transaction id)", &other),
            (other, _) => return Err(format!("unknown request key `{other}`")),
        }
        Ok(())
    }
}

/// Encodes one result chunk from a flat row buffer; `trailer` is for the last chunk
/// (pass `Trailer::default()` for the others).
pub fn encode_chunk(
    encoding: Encoding,
    columns: Option<&[String]>,
    values: &[Value],
    width: usize,
    trailer: &Trailer,
) -> Vec<u8> {
    let mut doc = Vec::with_capacity(4);
    if let Some(columns) = columns {
        doc.push(("columns", Node::Strings(columns)));
    }
    doc.push(("rows", Node::Rows { values, width }));
    if let Some(t) = &trailer.timing {
        doc.push((
            "timing",
            Node::Map(vec![
                ("queue_us", Node::UInt(t.queue_us)),
                ("exec_us", Node::UInt(t.exec_us)),
                ("encode_us", Node::UInt(t.encode_us)),
            ]),
        ));
    }
    if let Some(c) = &trailer.commit {
        doc.push((
            "commit",
            Node::Map(vec![
                ("version", Node::UInt(c.version)),
                ("nodes_created", Node::UInt(c.nodes_created)),
                ("relationships_created", Node::UInt(c.relationships_created)),
            ]),
        ));
    }
    if let Some(plan) = &trailer.plan {
        doc.push(("plan", Node::Value(plan)));
    }
    if !trailer.notifications.is_empty() {
        doc.push(("notifications", Node::List(&trailer.notifications)));
    }
    codec::encode(encoding, &Node::Map(doc))
}

/// The non-negative integer `name` of a decoded map, 0 if absent.
fn uint_field(map: &[(std::sync::Arc<str>, Value)], name: &str) -> u64 {
    map.iter()
        .find(|(k, _)| &**k == name)
        .and_then(|(_, v)| v.as_int())
        .map_or(0, |v| v.max(0) as u64)
}

impl ResultChunk {
    /// Decodes a result chunk document.
    pub fn decode(encoding: Encoding, payload: &[u8]) -> Result<ResultChunk, ProtocolError> {
        let bad = |reason: String| ProtocolError::payload(encoding.name(), reason);
        let Value::Map(entries) = codec::decode(encoding, payload)? else {
            return Err(bad("the result is not a map".into()));
        };
        let mut chunk = ResultChunk::default();
        for (key, value) in entries {
            match (&*key, value) {
                ("columns", Value::List(items)) => {
                    chunk.columns = Some(
                        items
                            .into_iter()
                            .map(|v| match v {
                                Value::String(s) => Ok(s.to_string()),
                                other => {
                                    Err(bad(format!("a column name is a {}", other.value_type())))
                                }
                            })
                            .collect::<Result<_, _>>()?,
                    );
                }
                ("rows", Value::List(rows)) => {
                    chunk.rows = rows
                        .into_iter()
                        .map(|r| match r {
                            Value::List(values) => Ok(values),
                            other => Err(bad(format!("a row is a {}", other.value_type()))),
                        })
                        .collect::<Result<_, _>>()?;
                }
                ("timing", Value::Map(t)) => {
                    chunk.timing = Some(Timing {
                        queue_us: uint_field(&t, "queue_us"),
                        exec_us: uint_field(&t, "exec_us"),
                        encode_us: uint_field(&t, "encode_us"),
                    });
                }
                ("commit", Value::Map(c)) => {
                    chunk.commit = Some(Commit {
                        version: uint_field(&c, "version"),
                        nodes_created: uint_field(&c, "nodes_created"),
                        relationships_created: uint_field(&c, "relationships_created"),
                    });
                }
                ("plan", plan @ Value::Map(_)) => chunk.plan = Some(plan),
                ("notifications", Value::List(items)) => chunk.notifications = items,
                (
                    known @ ("columns" | "rows" | "timing" | "commit" | "plan" | "notifications"),
                    other,
                ) => {
                    return Err(bad(format!(
                        "result key `{known}` holds a {}",
                        other.value_type()
                    )))
                }
                // A key a later server adds (as `plan` was) is skipped, not fatal: a
                // decoding error would fail every request on the connection.
                _ => {}
            }
        }
        Ok(chunk)
    }
}

impl ErrorBody {
    /// An error without Cypher detail.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            code: code.into(),
            message: message.into(),
            cypher: None,
        }
    }

    /// Encodes the error document: `code` and `message`, and for a Cypher error
    /// `cypher_code`, its `gql_status` and, when known, `line` and `column`.
    pub fn encode(&self, encoding: Encoding) -> Vec<u8> {
        let mut doc = vec![
            ("code", Node::Str(&self.code)),
            ("message", Node::Str(&self.message)),
        ];
        if let Some(cypher) = &self.cypher {
            doc.push(("cypher_code", Node::Str(&cypher.code)));
            if let Some(status) = &cypher.gql_status {
                doc.push(("gql_status", Node::Str(status)));
            }
            if let (Some(line), Some(column)) = (cypher.line, cypher.column) {
                doc.push(("line", Node::UInt(line)));
                doc.push(("column", Node::UInt(column)));
            }
        }
        codec::encode(encoding, &Node::Map(doc))
    }

    /// Decodes an error document. Keys it does not know are ignored, so a client can
    /// read the errors of newer servers.
    pub fn decode(encoding: Encoding, payload: &[u8]) -> Result<ErrorBody, ProtocolError> {
        let Value::Map(entries) = codec::decode(encoding, payload)? else {
            return Err(ProtocolError::payload(
                encoding.name(),
                "the error is not a map",
            ));
        };
        let field = |name: &str| entries.iter().find(|(k, _)| &**k == name).map(|(_, v)| v);
        let text = |name: &str| field(name).and_then(Value::as_str).map(str::to_owned);
        let number = |name: &str| {
            field(name)
                .and_then(Value::as_int)
                .and_then(|n| u64::try_from(n).ok())
        };
        let (Some(code), Some(message)) = (text("code"), text("message")) else {
            return Err(ProtocolError::payload(
                encoding.name(),
                "an error needs `code` and `message`",
            ));
        };
        let cypher = text("cypher_code").map(|cypher_code| CypherErrorDetail {
            code: cypher_code,
            line: number("line"),
            column: number("column"),
            gql_status: text("gql_status"),
        });
        Ok(ErrorBody {
            code,
            message,
            cypher,
        })
    }
}

/// Parses an HTTP JSON body of parameters (`docs/protocol.md` 2).
pub fn params_from_json(body: &[u8]) -> Result<Vec<(String, Value)>, ProtocolError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    match codec::decode(Encoding::Json, body)? {
        Value::Map(entries) => Ok(entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()),
        _ => Err(ProtocolError::payload(
            "json",
            "parameters must be a JSON object",
        )),
    }
}

/// Parses the JSON body of `POST /v1/cypher` (`docs/protocol.md` 2):
/// `{"query": "...", "params": {...}}`, `params` optional.
pub fn cypher_from_json(body: &[u8]) -> Result<(String, Vec<(String, Value)>), ProtocolError> {
    let bad = |reason: String| ProtocolError::payload("json", reason);
    let Value::Map(entries) = codec::decode(Encoding::Json, body)? else {
        return Err(bad("the body must be a JSON object".into()));
    };
    let mut query = None;
    let mut params = Vec::new();
    for (key, value) in entries {
        match (&*key, value) {
            ("query", Value::String(text)) => query = Some(text.to_string()),
            ("params", Value::Map(p)) => {
                params = p.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            }
            ("params", Value::Null) => {}
            ("query", other) | ("params", other) => {
                let want = if &*key == "query" {
                    "a string"
                } else {
                    "an object"
                };
                return Err(bad(format!(
                    "`{key}` must be {want}, got {}",
                    other.value_type()
                )));
            }
            (other, _) => {
                return Err(bad(format!(
                    "unknown key `{other}`; the body is {{\"query\": \"...\", \"params\": {{...}}}}"
                )))
            }
        }
    }
    let query = query.ok_or_else(|| bad("the body has no `query`".into()))?;
    Ok((query, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_in_every_encoding() {
        for encoding in Encoding::ALL {
            let request = Request::Call {
                procedure: "shindig.friends".into(),
                params: vec![
                    ("person_id".into(), Value::Int(7)),
                    ("ids".into(), Value::List(vec![Value::Int(1)])),
                ],
                timing: true,
            };
            assert_eq!(
                Request::decode(encoding, &request.encode(encoding)),
                Ok(request)
            );
            let columns = vec!["id".to_owned(), "at".to_owned()];
            let values = [
                Value::Int(1),
                Value::DateTime(5),
                Value::Int(2),
                Value::Null,
            ];
            let timing = Timing {
                queue_us: 1,
                exec_us: 2,
                encode_us: 3,
            };
            let commit = Commit {
                version: 42,
                nodes_created: 2,
                relationships_created: 1,
            };
            let plan = Value::Map(vec![
                ("operator".into(), Value::string("ProduceResults")),
                ("children".into(), Value::List(Vec::new())),
            ]);
            let notice = Value::Map(vec![("code".into(), Value::string("03N90"))]);
            let trailer = Trailer {
                timing: Some(timing),
                commit: Some(commit),
                plan: Some(plan.clone()),
                notifications: vec![notice.clone()],
            };
            let bytes = encode_chunk(encoding, Some(&columns), &values, 2, &trailer);
            let chunk = ResultChunk::decode(encoding, &bytes).expect("decodes");
            assert_eq!(chunk.columns, Some(columns));
            assert_eq!(chunk.rows, vec![values[..2].to_vec(), values[2..].to_vec()]);
            assert_eq!(chunk.timing, Some(timing));
            assert_eq!(chunk.plan, Some(plan));
            assert_eq!(chunk.notifications, vec![notice]);
            assert_eq!(chunk.commit, Some(commit));
            let error = ErrorBody::new("busy", "try later");
            assert_eq!(
                ErrorBody::decode(encoding, &error.encode(encoding)),
                Ok(error)
            );
            let cypher_error = ErrorBody {
                cypher: Some(CypherErrorDetail {
                    code: "Neo.ClientError.Statement.SyntaxError".into(),
                    line: Some(2),
                    column: Some(7),
                    gql_status: Some("42001".into()),
                }),
                ..ErrorBody::new("cypher_error", "unexpected `RETRUN`")
            };
            assert_eq!(
                ErrorBody::decode(encoding, &cypher_error.encode(encoding)),
                Ok(cypher_error)
            );
        }
    }

    #[test]
    fn a_minimum_version_travels_with_any_request_or_is_refused_by_name() {
        for encoding in Encoding::ALL {
            let request = Request::Cypher {
                query: "MATCH (n) RETURN n".into(),
                params: Vec::new(),
                timing: false,
                tx: None,
            };
            let bytes = request.encode_at(encoding, Some(42));
            assert_eq!(
                Request::decode_at(encoding, &bytes),
                Ok((request.clone(), Some(42)))
            );
            assert_eq!(Request::decode(encoding, &bytes), Ok(request.clone()));
            assert_eq!(
                Request::decode_at(encoding, &request.encode(encoding)),
                Ok((request, None))
            );
        }
        let bad = br#"{"call": "x", "min_version": -1}"#;
        let err = Request::decode_at(Encoding::Json, bad).expect_err("negative");
        assert!(
            err.to_string().contains("`min_version` must be a version"),
            "{err}"
        );
    }

    #[test]
    fn http_cypher_bodies_are_read_or_refused_with_the_reason() {
        let (query, params) =
            cypher_from_json(br#"{"query": "RETURN $x", "params": {"x": [1, 2]}}"#).expect("valid");
        assert_eq!(query, "RETURN $x");
        assert_eq!(
            params,
            vec![(
                "x".to_owned(),
                Value::List(vec![Value::Int(1), Value::Int(2)])
            )]
        );
        for (body, why) in [
            (r#"{"params": {}}"#, "no `query`"),
            (r#"{"query": 1}"#, "`query` must be a string"),
            (
                r#"{"query": "RETURN 1", "params": [1]}"#,
                "`params` must be an object",
            ),
            (
                r#"{"query": "RETURN 1", "parms": {}}"#,
                "unknown key `parms`",
            ),
            ("[]", "must be a map"),
        ] {
            let err = cypher_from_json(body.as_bytes()).expect_err(body);
            assert!(err.to_string().contains(why), "{body}: {err}");
        }
    }

    #[test]
    fn cypher_and_transaction_requests_round_trip_in_every_encoding() {
        for encoding in Encoding::ALL {
            let requests = [
                Request::Cypher {
                    query: "MATCH (p:Person {id: $id}) RETURN p.id".into(),
                    params: vec![("id".into(), Value::Int(7))],
                    timing: false,
                    tx: None,
                },
                Request::Cypher {
                    query: "CREATE ()".into(),
                    params: Vec::new(),
                    timing: false,
                    tx: Some("ab12".into()),
                },
                Request::Begin { timeout_ms: None },
                Request::Begin {
                    timeout_ms: Some(5_000),
                },
                Request::Commit { tx: "ab12".into() },
                Request::Rollback { tx: "ab12".into() },
            ];
            for request in requests {
                assert_eq!(
                    Request::decode(encoding, &request.encode(encoding)),
                    Ok(request)
                );
            }
        }
    }

    #[test]
    fn malformed_transaction_requests_say_what_is_wrong() {
        for (body, why) in [
            (r#"{"begin": {"timeout_ms": 0}}"#, "positive integer"),
            (r#"{"begin": {"wait": 1}}"#, "unknown `begin` option"),
            (r#"{"commit": 1}"#, "transaction id"),
            (
                r#"{"call": "x", "tx": "ab"}"#,
                "`tx` goes with `cypher` only",
            ),
            (r#"{"commit": "a", "rollback": "a"}"#, "exactly one of"),
        ] {
            let err = Request::decode(Encoding::Json, body.as_bytes()).expect_err(body);
            assert!(err.to_string().contains(why), "{body}: {err}");
        }
    }

    #[test]
    fn the_json_forms_are_the_documented_bytes() {
        // The examples of docs/protocol.md 1.3.2.
        let request = Request::Cypher {
            query: "MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f) RETURN f.id ORDER BY f.id LIMIT 5"
                .into(),
            params: vec![("id".into(), Value::Int(7))],
            timing: true,
            tx: None,
        };
        assert_eq!(
            String::from_utf8(request.encode(Encoding::Json)).expect("utf-8"),
            r#"{"cypher":"MATCH (p:Person {id: $id})-[:FRIEND_OF]->(f) RETURN f.id ORDER BY f.id LIMIT 5","params":{"id":7},"timing":true}"#
        );
        let error = ErrorBody {
            cypher: Some(CypherErrorDetail {
                code: "Neo.ClientError.Statement.SyntaxError".into(),
                line: Some(2),
                column: Some(3),
                gql_status: Some("42001".into()),
            }),
            ..ErrorBody::new("cypher_error", "expected end of the query, found 'RETRUN'")
        };
        assert_eq!(
            String::from_utf8(error.encode(Encoding::Json)).expect("utf-8"),
            r#"{"code":"cypher_error","message":"expected end of the query, found 'RETRUN'","cypher_code":"Neo.ClientError.Statement.SyntaxError","gql_status":"42001","line":2,"column":3}"#
        );
        let trailer = Trailer {
            timing: None,
            commit: Some(Commit {
                version: 3,
                nodes_created: 1,
                relationships_created: 0,
            }),
            plan: None,
            notifications: Vec::new(),
        };
        let chunk = encode_chunk(Encoding::Json, Some(&["n".to_owned()]), &[], 1, &trailer);
        assert_eq!(
            String::from_utf8(chunk).expect("utf-8"),
            r#"{"columns":["n"],"rows":[],"commit":{"version":3,"nodes_created":1,"relationships_created":0}}"#
        );
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let cases: [(&str, &str); 9] = [
            ("[1]", "must be a map"),
            ("{}", "none of `call`, `write`, `cypher`"),
            (r#"{"write": 3}"#, "must be a list of operations"),
            (r#"{"call": "x", "write": []}"#, "exactly one of"),
            (r#"{"call": "x", "cypher": "RETURN 1"}"#, "exactly one of"),
            (r#"{"call": 5}"#, "`call` must be a string"),
            (r#"{"call": "x", "params": [1]}"#, "`params` must be a map"),
            (
                r#"{"call": "x", "bogus": 1}"#,
                "unknown request key `bogus`",
            ),
            (r#"{"cypher": 7}"#, "`cypher` must be a string"),
        ];
        for (json, why) in cases {
            let err = Request::decode(Encoding::Json, json.as_bytes()).expect_err(json);
            assert_eq!(err.code(), crate::ErrorCode::BadRequest);
            assert!(err.to_string().contains(why), "{json}: {err}");
        }
    }

    #[test]
    fn unknown_result_keys_are_skipped_and_known_ones_checked() {
        let later = br#"{"columns":["n"],"rows":[[1]],"hint":{"x":1}}"#;
        let chunk = ResultChunk::decode(Encoding::Json, later).expect("skips `hint`");
        assert_eq!(chunk.rows, vec![vec![Value::Int(1)]]);
        let bad = br#"{"rows":"nope"}"#;
        let e = ResultChunk::decode(Encoding::Json, bad).expect_err("rows must be a list");
        assert!(e.to_string().contains("`rows`"), "{e}");
    }
}
