//! Bolt's request messages, read from their PackStream structure, and the tags of the
//! server's answers. Which fields a message has depends on the version (HELLO carries
//! credentials before 5.1, LOGON after); the reader takes what each version sends.

use super::packstream::Pack;
use crate::ProtocolError;

/// The tags of the server's messages.
pub mod tag {
    /// SUCCESS: the request worked; its metadata follows.
    pub const SUCCESS: u8 = 0x70;
    /// RECORD: one row of a result.
    pub const RECORD: u8 = 0x71;
    /// IGNORED: not run, the connection is in its failed state.
    pub const IGNORED: u8 = 0x7E;
    /// FAILURE: the request failed; code and message follow.
    pub const FAILURE: u8 = 0x7F;
}

/// The structure tag of every message a client may send: HELLO, GOODBYE, RESET, RUN,
/// BEGIN, COMMIT, ROLLBACK, DISCARD, PULL, TELEMETRY, ROUTE, LOGON, LOGOFF.
pub const REQUEST_TAGS: [u8; 13] = [
    0x01, 0x02, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x2F, 0x3F, 0x54, 0x66, 0x6A, 0x6B,
];

/// Whether a message's first two bytes can begin a request: a PackStream structure
/// marker (`0xB0`-`0xBF`, up to 15 fields) and a request's tag. A server reads them
/// as soon as they arrive, so bytes that are no Bolt message are refused at once
/// instead of being buffered up to a length they happen to announce.
pub fn check_start(marker: u8, tag: u8) -> Result<(), String> {
    if marker & 0xF0 != 0xB0 {
        return Err(format!(
            "a message is a structure (marker 0xB0-0xBF), not one starting 0x{marker:02X}"
        ));
    }
    if !REQUEST_TAGS.contains(&tag) {
        return Err(format!("unknown message 0x{tag:02X}"));
    }
    Ok(())
}

/// A client's message.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Opens the connection: the user agent, and before 5.1 the credentials.
    Hello {
        /// Every entry of the HELLO map.
        extra: Pack,
    },
    /// Authenticates (5.1+): scheme, principal, credentials.
    Logon {
        /// The auth map.
        auth: Pack,
    },
    /// Forgets the authentication (5.1+).
    Logoff,
    /// Runs a query.
    Run {
        /// The Cypher text.
        query: String,
        /// Its parameters.
        params: Vec<(String, Pack)>,
        /// Bookmarks, database, mode, timeout, metadata (unused in a transaction).
        extra: Pack,
    },
    /// Streams `n` more records (-1: all) of query `qid` (-1: the last one).
    Pull {
        /// How many.
        n: i64,
        /// Which query.
        qid: i64,
    },
    /// Drops `n` more records of query `qid`.
    Discard {
        /// How many (-1: all).
        n: i64,
        /// Which query.
        qid: i64,
    },
    /// Opens an explicit transaction.
    Begin {
        /// Bookmarks, database, mode, timeout, metadata.
        extra: Pack,
    },
    /// Commits the explicit transaction.
    Commit,
    /// Rolls the explicit transaction back.
    Rollback,
    /// Returns the connection to its ready state, whatever it was doing.
    Reset,
    /// The client is closing the connection.
    Goodbye,
    /// Asks for the routing table.
    Route {
        /// The routing context the client was given in its URL.
        routing: Pack,
        /// Bookmarks the table must reflect.
        bookmarks: Vec<String>,
        /// The database (4.4+: in a map, before: a string or null).
        db: Option<String>,
    },
    /// Which driver API ran a transaction (5.4+; usage statistics).
    Telemetry {
        /// The API number.
        api: i64,
    },
}

impl Request {
    /// The message's name, for logs and errors.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "HELLO",
            Request::Logon { .. } => "LOGON",
            Request::Logoff => "LOGOFF",
            Request::Run { .. } => "RUN",
            Request::Pull { .. } => "PULL",
            Request::Discard { .. } => "DISCARD",
            Request::Begin { .. } => "BEGIN",
            Request::Commit => "COMMIT",
            Request::Rollback => "ROLLBACK",
            Request::Reset => "RESET",
            Request::Goodbye => "GOODBYE",
            Request::Route { .. } => "ROUTE",
            Request::Telemetry { .. } => "TELEMETRY",
        }
    }

    /// Reads a request from its decoded structure.
    pub fn from_pack(pack: Pack) -> Result<Request, ProtocolError> {
        let Pack::Struct(tag, fields) = pack else {
            return Err(bad(format!(
                "a message is a structure, not {}",
                pack.kind()
            )));
        };
        let mut fields = fields.into_iter();
        let mut next = |name: &str| {
            fields
                .next()
                .ok_or_else(|| bad(format!("message 0x{tag:02X} lacks its {name} field")))
        };
        Ok(match tag {
            0x01 => Request::Hello {
                extra: map(next("extra")?, "HELLO extra")?,
            },
            0x6A => Request::Logon {
                auth: map(next("auth")?, "LOGON auth")?,
            },
            0x6B => Request::Logoff,
            0x10 => Request::Run {
                query: string(next("query")?, "RUN query")?,
                params: entries(next("parameters")?, "RUN parameters")?,
                extra: optional_map(next("extra").ok(), "RUN extra")?,
            },
            0x3F | 0x2F => {
                let extra = optional_map(next("extra").ok(), "PULL/DISCARD extra")?;
                let n = int_or(&extra, "n", -1)?;
                let qid = int_or(&extra, "qid", -1)?;
                if tag == 0x3F {
                    Request::Pull { n, qid }
                } else {
                    Request::Discard { n, qid }
                }
            }
            0x11 => Request::Begin {
                extra: optional_map(next("extra").ok(), "BEGIN extra")?,
            },
            0x12 => Request::Commit,
            0x13 => Request::Rollback,
            0x0F => Request::Reset,
            0x02 => Request::Goodbye,
            0x66 => route(next("routing")?, next("bookmarks")?, next("extra").ok())?,
            0x54 => Request::Telemetry {
                api: next("api")?
                    .as_int()
                    .ok_or_else(|| bad("TELEMETRY api is not an integer"))?,
            },
            other => return Err(bad(format!("unknown message 0x{other:02X}"))),
        })
    }
}

fn bad(reason: impl Into<String>) -> ProtocolError {
    ProtocolError::payload("Bolt", reason)
}

fn map(pack: Pack, what: &str) -> Result<Pack, ProtocolError> {
    match pack {
        Pack::Map(_) => Ok(pack),
        other => Err(bad(format!("{what} is {}, not a map", other.kind()))),
    }
}

/// A map that older versions leave out (RUN and BEGIN before 3.0, PULL before 4.0):
/// absent or null is empty.
fn optional_map(pack: Option<Pack>, what: &str) -> Result<Pack, ProtocolError> {
    match pack {
        None | Some(Pack::Null) => Ok(Pack::Map(Vec::new())),
        Some(p) => map(p, what),
    }
}

fn entries(pack: Pack, what: &str) -> Result<Vec<(String, Pack)>, ProtocolError> {
    match pack {
        Pack::Map(entries) => Ok(entries),
        Pack::Null => Ok(Vec::new()),
        other => Err(bad(format!("{what} is {}, not a map", other.kind()))),
    }
}

fn string(pack: Pack, what: &str) -> Result<String, ProtocolError> {
    match pack {
        Pack::String(s) => Ok(s),
        other => Err(bad(format!("{what} is {}, not a string", other.kind()))),
    }
}

fn int_or(extra: &Pack, key: &str, default: i64) -> Result<i64, ProtocolError> {
    match extra.get(key) {
        None => Ok(default),
        Some(Pack::Int(i)) => Ok(*i),
        Some(other) => Err(bad(format!("`{key}` is {}, not an integer", other.kind()))),
    }
}

fn route(routing: Pack, bookmarks: Pack, extra: Option<Pack>) -> Result<Request, ProtocolError> {
    let routing = optional_map(Some(routing), "ROUTE routing")?;
    let bookmarks = match bookmarks {
        Pack::List(items) => items
            .into_iter()
            .map(|b| string(b, "a bookmark"))
            .collect::<Result<_, _>>()?,
        Pack::Null => Vec::new(),
        other => return Err(bad(format!("ROUTE bookmarks is {}", other.kind()))),
    };
    // 4.3 sent the database as a string; 4.4 and 5.x in a map with `db`.
    let db = match extra {
        Some(Pack::String(db)) => Some(db),
        Some(Pack::Map(entries)) => {
            entries
                .into_iter()
                .find(|(k, _)| k == "db")
                .and_then(|(_, v)| match v {
                    Pack::String(s) => Some(s),
                    _ => None,
                })
        }
        _ => None,
    };
    Ok(Request::Route {
        routing,
        bookmarks,
        db,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Pack {
        Pack::String(text.into())
    }

    #[test]
    fn requests_read_from_their_structures() {
        let run = Pack::Struct(
            0x10,
            vec![
                s("RETURN $x"),
                Pack::Map(vec![("x".into(), Pack::Int(1))]),
                Pack::Map(vec![]),
            ],
        );
        assert_eq!(
            Request::from_pack(run).expect("RUN"),
            Request::Run {
                query: "RETURN $x".into(),
                params: vec![("x".into(), Pack::Int(1))],
                extra: Pack::Map(vec![]),
            }
        );
        let pull = Pack::Struct(0x3F, vec![Pack::Map(vec![("n".into(), Pack::Int(1000))])]);
        assert_eq!(
            Request::from_pack(pull).expect("PULL"),
            Request::Pull { n: 1000, qid: -1 }
        );
        let route = Pack::Struct(
            0x66,
            vec![
                Pack::Map(vec![("address".into(), s("localhost:7687"))]),
                Pack::List(vec![s("kith:v3")]),
                Pack::Map(vec![("db".into(), s("neo4j"))]),
            ],
        );
        let Request::Route { bookmarks, db, .. } = Request::from_pack(route).expect("ROUTE") else {
            panic!("a ROUTE");
        };
        assert_eq!(
            (bookmarks, db),
            (vec!["kith:v3".to_owned()], Some("neo4j".into()))
        );
    }

    #[test]
    fn malformed_requests_name_what_is_wrong() {
        let cases = [
            (Pack::Int(1), "a structure, not an integer"),
            (Pack::Struct(0x10, vec![]), "lacks its query field"),
            (
                Pack::Struct(0x10, vec![Pack::Int(1), Pack::Null]),
                "RUN query is an integer",
            ),
            (
                Pack::Struct(0x3F, vec![Pack::Map(vec![("n".into(), s("all"))])]),
                "`n` is a string",
            ),
            (Pack::Struct(0x99, vec![]), "unknown message 0x99"),
        ];
        for (pack, reason) in cases {
            let err = Request::from_pack(pack).expect_err("refused").to_string();
            assert!(err.contains(reason), "{err}");
        }
    }

    #[test]
    fn a_message_start_is_checked_against_every_request_tag() {
        for tag in 0..=u8::MAX {
            // from_pack knows a tag exactly when check_start lets it start a message:
            // a tag it knows fails for its fields, never as unknown.
            let known = !Request::from_pack(Pack::Struct(tag, vec![]))
                .err()
                .is_some_and(|e| e.to_string().contains("unknown message"));
            assert_eq!(check_start(0xB1, tag).is_ok(), known, "tag 0x{tag:02X}");
        }
        let err = check_start(0x3A, 0x01).expect_err("not a structure");
        assert!(err.contains("not one starting 0x3A"), "{err}");
        assert!(check_start(0xB0, 0x0F).is_ok(), "RESET has no fields");
    }
}
