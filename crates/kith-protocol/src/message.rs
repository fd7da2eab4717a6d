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

/// One chunk of a result, decoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultChunk {
    /// Column names (first chunk only).
    pub columns: Option<Vec<String>>,
    /// Rows.
    pub rows: Vec<Vec<Value>>,
    /// Server timings (last chunk, when asked for).
    pub timing: Option<Timing>,
}

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorBody {
    /// Stable code.
    pub code: String,
    /// For people.
    pub message: String,
}

impl Request {
    /// Encodes the request document.
    pub fn encode(&self, encoding: Encoding) -> Vec<u8> {
        match self {
            Request::Call {
                procedure,
                params,
                timing,
            } => {
                let params = Node::Map(
                    params
                        .iter()
                        .map(|(k, v)| (k.as_str(), Node::Value(v)))
                        .collect(),
                );
                let mut doc = vec![("call", Node::Str(procedure)), ("params", params)];
                if *timing {
                    doc.push(("timing", Node::Bool(true)));
                }
                codec::encode(encoding, &Node::Map(doc))
            }
            Request::Write { ops, timing } => {
                let mut doc = vec![("write", Node::List(ops))];
                if *timing {
                    doc.push(("timing", Node::Bool(true)));
                }
                codec::encode(encoding, &Node::Map(doc))
            }
        }
    }

    /// Decodes a request document.
    pub fn decode(encoding: Encoding, payload: &[u8]) -> Result<Request, ProtocolError> {
        let bad = |reason: String| ProtocolError::payload(encoding.name(), reason);
        let Value::Map(entries) = codec::decode(encoding, payload)? else {
            return Err(bad("the request is not a map".into()));
        };
        let mut procedure = None;
        let mut params = Vec::new();
        let mut timing = false;
        let mut write = None;
        for (key, value) in entries {
            match (&*key, value) {
                ("call", Value::String(name)) => procedure = Some(name.to_string()),
                ("call", other) => {
                    return Err(bad(format!(
                        "`call` must be a string, got {}",
                        other.value_type()
                    )))
                }
                ("params", Value::Map(p)) => {
                    params = p.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                }
                ("params", Value::Null) => {}
                ("params", other) => {
                    return Err(bad(format!(
                        "`params` must be a map, got {}",
                        other.value_type()
                    )))
                }
                ("timing", Value::Bool(b)) => timing = b,
                ("timing", other) => {
                    return Err(bad(format!(
                        "`timing` must be a bool, got {}",
                        other.value_type()
                    )))
                }
                ("write", Value::List(ops)) => write = Some(ops),
                ("write", other) => {
                    return Err(bad(format!(
                        "`write` must be a list of operations, got {}",
                        other.value_type()
                    )))
                }
                ("cypher", _) => {
                    return Err(bad(format!(
                        "`{key}` requests are not supported by this server yet"
                    )))
                }
                (other, _) => return Err(bad(format!("unknown request key `{other}`"))),
            }
        }
        if let Some(ops) = write {
            if procedure.is_some() {
                return Err(bad(
                    "a request has either `call` or `write`, not both".into()
                ));
            }
            return Ok(Request::Write { ops, timing });
        }
        let procedure =
            procedure.ok_or_else(|| bad("the request has neither `call` nor `write`".into()))?;
        Ok(Request::Call {
            procedure,
            params,
            timing,
        })
    }
}

/// Encodes one result chunk from a flat row buffer.
pub fn encode_chunk(
    encoding: Encoding,
    columns: Option<&[String]>,
    values: &[Value],
    width: usize,
    timing: Option<&Timing>,
) -> Vec<u8> {
    let mut doc = Vec::with_capacity(3);
    if let Some(columns) = columns {
        doc.push(("columns", Node::Strings(columns)));
    }
    doc.push(("rows", Node::Rows { values, width }));
    if let Some(t) = timing {
        doc.push((
            "timing",
            Node::Map(vec![
                ("queue_us", Node::UInt(t.queue_us)),
                ("exec_us", Node::UInt(t.exec_us)),
                ("encode_us", Node::UInt(t.encode_us)),
            ]),
        ));
    }
    codec::encode(encoding, &Node::Map(doc))
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
                    let get = |name: &str| {
                        t.iter()
                            .find(|(k, _)| &**k == name)
                            .and_then(|(_, v)| v.as_int())
                            .map_or(0, |v| v.max(0) as u64)
                    };
                    chunk.timing = Some(Timing {
                        queue_us: get("queue_us"),
                        exec_us: get("exec_us"),
                        encode_us: get("encode_us"),
                    });
                }
                (other, _) => return Err(bad(format!("unexpected result key `{other}`"))),
            }
        }
        Ok(chunk)
    }
}

impl ErrorBody {
    /// Encodes the error document.
    pub fn encode(&self, encoding: Encoding) -> Vec<u8> {
        codec::encode(
            encoding,
            &Node::Map(vec![
                ("code", Node::Str(&self.code)),
                ("message", Node::Str(&self.message)),
            ]),
        )
    }

    /// Decodes an error document.
    pub fn decode(encoding: Encoding, payload: &[u8]) -> Result<ErrorBody, ProtocolError> {
        let Value::Map(entries) = codec::decode(encoding, payload)? else {
            return Err(ProtocolError::payload(
                encoding.name(),
                "the error is not a map",
            ));
        };
        let field = |name: &str| {
            entries
                .iter()
                .find(|(k, _)| &**k == name)
                .and_then(|(_, v)| v.as_str())
                .map(str::to_owned)
        };
        match (field("code"), field("message")) {
            (Some(code), Some(message)) => Ok(ErrorBody { code, message }),
            _ => Err(ProtocolError::payload(
                encoding.name(),
                "an error needs `code` and `message`",
            )),
        }
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
            let bytes = encode_chunk(encoding, Some(&columns), &values, 2, Some(&timing));
            let chunk = ResultChunk::decode(encoding, &bytes).expect("decodes");
            assert_eq!(chunk.columns, Some(columns));
            assert_eq!(chunk.rows, vec![values[..2].to_vec(), values[2..].to_vec()]);
            assert_eq!(chunk.timing, Some(timing));
            let error = ErrorBody {
                code: "busy".into(),
                message: "try later".into(),
            };
            assert_eq!(
                ErrorBody::decode(encoding, &error.encode(encoding)),
                Ok(error)
            );
        }
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let cases: [(&str, &str); 8] = [
            ("[1]", "must be a map"),
            ("{}", "neither `call` nor `write`"),
            (r#"{"write": 3}"#, "must be a list of operations"),
            (r#"{"call": "x", "write": []}"#, "not both"),
            (r#"{"call": 5}"#, "`call` must be a string"),
            (r#"{"call": "x", "params": [1]}"#, "`params` must be a map"),
            (
                r#"{"call": "x", "bogus": 1}"#,
                "unknown request key `bogus`",
            ),
            (r#"{"cypher": "MATCH (n) RETURN n"}"#, "not supported"),
        ];
        for (json, why) in cases {
            let err = Request::decode(Encoding::Json, json.as_bytes()).expect_err(json);
            assert_eq!(err.code(), "bad_request");
            assert!(err.to_string().contains(why), "{json}: {err}");
        }
    }
}
