//! Seed inputs: valid examples of what each target decodes, made with kith's own
//! encoders (and the official LDBC files and Cypher texts beside the repository).

use std::path::Path;

use kith_core::Value;
use kith_protocol::bolt::packstream::Packer;
use kith_protocol::compress::compress;
use kith_protocol::ops;
use kith_protocol::{Compression, Encoding, Request, Subprotocol, Wire};
use kith_storage::{NodeRef, Snapshot, Store, WriteBatch, WriteOp};

/// Every target's seeds.
pub fn all() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    vec![
        ("frame_header", frames()),
        ("ws_frames", ws_frames()),
        ("json", documents(Encoding::Json)),
        ("bson", documents(Encoding::Bson)),
        ("msgpack", documents(Encoding::MsgPack)),
        ("decompress", compressed()),
        ("write_ops", documents(Encoding::MsgPack)),
        ("packstream", bolt_messages()),
        ("bolt_messages", bolt()),
        ("cypher_parse", cypher()),
        ("cypher_plan", cypher()),
        ("cypher_diff", random(16, 400)),
        ("temporal", temporal()),
        ("ldbc_csv", ldbc()),
        ("wal_record", wal()),
        ("graph_file", graph_file()),
        ("storage_model", random(16, 600)),
    ]
}

fn requests() -> Vec<Request> {
    let node = ops::by_id("Person", 933);
    let write = vec![
        ops::create_node(
            &["Person"],
            vec![
                ("id".into(), Value::Int(7)),
                ("name".into(), Value::string("Ana")),
            ],
        ),
        ops::create_rel(
            "KNOWS",
            node.clone(),
            ops::created(0),
            vec![("since".into(), Value::DateTime(1_300_000_000_000))],
        ),
        ops::set_node(ops::node(3), vec![("age".into(), Value::Null)]),
        ops::add_label(ops::node(3), "Tag"),
        ops::remove_label(ops::node(3), "Tag"),
        ops::set_rel(5, vec![("w".into(), Value::Float(0.5))]),
        ops::delete_rel(5),
        ops::delete_node(ops::node(4), true),
        ops::require_absent("Person", "id", Value::Int(8)),
        ops::create_index("Person", "firstName"),
    ];
    let params = vec![
        ("personId".to_string(), Value::Int(933)),
        (
            "names".to_string(),
            Value::List(vec![Value::string("a"), Value::Bool(true), Value::Null]),
        ),
        (
            "m".to_string(),
            Value::Map(vec![("k".into(), Value::Float(1.5))]),
        ),
        (
            "d".to_string(),
            Value::temporal(
                kith_core::temporal::parse::parse(kith_core::temporal::Kind::Date, "2012-11-03")
                    .expect("a date"),
            ),
        ),
    ];
    vec![
        Request::Call {
            procedure: "ldbc.ic1".into(),
            params: params.clone(),
            timing: true,
        },
        Request::Write {
            ops: write,
            timing: false,
        },
        Request::Cypher {
            query: "MATCH (p:Person {id: $personId}) RETURN p.firstName".into(),
            params,
            timing: false,
            tx: None,
        },
        Request::Cypher {
            query: "CREATE (n:X) RETURN n".into(),
            params: Vec::new(),
            timing: false,
            tx: Some("tx-1".into()),
        },
        Request::Begin {
            timeout_ms: Some(1000),
        },
        Request::Commit { tx: "tx-1".into() },
        Request::Rollback { tx: "tx-1".into() },
    ]
}

fn documents(encoding: Encoding) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = requests().iter().map(|r| r.encode(encoding)).collect();
    out.push(requests()[0].encode_at(encoding, Some(42)));
    out
}

fn subprotocols() -> Vec<Subprotocol> {
    Subprotocol::all().collect()
}

fn frames() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, p) in subprotocols().into_iter().enumerate() {
        let wire = Wire::new(p, 1 << 16);
        for r in requests().iter().take(3) {
            let mut framed = vec![i as u8];
            framed.extend(wire.request(9, r));
            out.push(framed);
        }
        let big = Request::Cypher {
            query: "RETURN 1 ".repeat(100),
            params: Vec::new(),
            timing: false,
            tx: None,
        };
        let mut framed = vec![i as u8];
        framed.extend(wire.request(10, &big));
        out.push(framed);
    }
    out
}

/// A client's masked WebSocket frame (RFC 6455 5.2).
fn ws_frame(opcode: u8, fin: bool, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![opcode | if fin { 0x80 } else { 0 }];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n < 65536 => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    let mask = [0x12, 0x34, 0x56, 0x78];
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

fn ws_frames() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for seed in frames() {
        let (i, frame) = (seed[0], &seed[1..]);
        let mut bytes = vec![i];
        bytes.extend(ws_frame(0x2, true, frame));
        bytes.extend(ws_frame(0x9, true, b"ping"));
        out.push(bytes);
        // The same message in two fragments, then a close.
        let (a, b) = frame.split_at(frame.len() / 2);
        let mut bytes = vec![i];
        bytes.extend(ws_frame(0x2, false, a));
        bytes.extend(ws_frame(0x0, true, b));
        bytes.extend(ws_frame(0x8, true, &[0x03, 0xE8]));
        out.push(bytes);
    }
    out
}

fn compressed() -> Vec<Vec<u8>> {
    let text = "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.firstName, count(*) ".repeat(20);
    let mut out = Vec::new();
    for (i, c) in Compression::ALL.into_iter().enumerate() {
        for data in [text.as_bytes(), b"short".as_slice(), &[0u8; 4096]] {
            let mut input = vec![i as u8];
            input.extend(compress(c, data));
            out.push(input);
        }
    }
    out
}

/// HELLO, LOGON, RUN with parameters of every kind, PULL, BEGIN, COMMIT, GOODBYE.
fn bolt_messages() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut message = |f: &dyn Fn(&mut Packer<'_>)| {
        let mut bytes = Vec::new();
        f(&mut Packer::new(&mut bytes));
        out.push(bytes);
    };
    message(&|p| {
        p.struct_header(0x01, 1);
        p.map_header(2);
        p.string("user_agent");
        p.string("neo4j-python/5.28");
        p.string("bolt_agent");
        p.map_header(1);
        p.string("product");
        p.string("neo4j-python/5.28");
    });
    message(&|p| {
        p.struct_header(0x6A, 1);
        p.map_header(3);
        p.string("scheme");
        p.string("basic");
        p.string("principal");
        p.string("neo4j");
        p.string("credentials");
        p.string("secret");
    });
    message(&|p| {
        p.struct_header(0x10, 3);
        p.string("MATCH (p:Person {id: $id}) WHERE p.birthday > $d RETURN p");
        p.map_header(5);
        p.string("id");
        p.int(933);
        p.string("d");
        p.struct_header(b'D', 1);
        p.int(15000);
        p.string("t");
        p.struct_header(b'I', 3);
        p.int(1_300_000_000);
        p.int(0);
        p.int(3600);
        p.string("xs");
        p.list_header(3);
        p.float(1.5);
        p.bool(true);
        p.null();
        p.string("b");
        p.bytes(&[1, 2, 3]);
        p.map_header(1);
        p.string("db");
        p.string("neo4j");
    });
    message(&|p| {
        p.struct_header(0x3F, 1);
        p.map_header(2);
        p.string("n");
        p.int(-1);
        p.string("qid");
        p.int(-1);
    });
    message(&|p| {
        p.struct_header(0x11, 1);
        p.map_header(1);
        p.string("tx_timeout");
        p.int(5000);
    });
    message(&|p| p.struct_header(0x12, 0));
    message(&|p| p.struct_header(0x0F, 0));
    message(&|p| p.struct_header(0x02, 0));
    out
}

/// Chunks a message as a client does: the size, the bytes, a zero-size end marker.
fn chunked(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in message.chunks(40) {
        out.extend_from_slice(&(chunk.len() as u16).to_be_bytes());
        out.extend_from_slice(chunk);
    }
    out.extend_from_slice(&[0, 0]);
    out
}

fn bolt() -> Vec<Vec<u8>> {
    let messages: Vec<u8> = bolt_messages().iter().flat_map(|m| chunked(m)).collect();
    let mut out = Vec::new();
    // Bolt 5.4 offered directly.
    let mut direct = vec![0, 4, 4, 5, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0];
    direct.extend(&messages);
    out.push(direct);
    // The manifest offered; the client chooses 5.8 with no capabilities (a varint 0).
    let mut manifest = vec![0, 0, 1, 0xFF, 0, 8, 8, 5, 0, 0, 0, 0, 0, 0, 0, 0];
    manifest.extend([0, 0, 8, 5, 0]);
    manifest.extend(&messages);
    out.push(manifest);
    out
}

/// The official LDBC Cypher texts and a few of kith's own.
fn cypher() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ldbc-cypher");
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("the LDBC Cypher texts beside the repository (../shared/data)")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cypher"))
        .collect();
    names.sort();
    for path in names {
        out.push(std::fs::read(path).expect("a Cypher text"));
    }
    for q in [
        "MATCH (a:Person)-[:KNOWS*1..2]-(b) WHERE a.id = $id AND NOT (a)-[:KNOWS]-(b) RETURN DISTINCT b.id ORDER BY b.id LIMIT 20",
        "UNWIND [1, 2, 3] AS x WITH x WHERE x > 1 RETURN collect(x), [y IN range(0, x) | y * 2]",
        "MATCH p = shortestPath((a:Person {id: 1})-[:KNOWS*]-(b:Person {id: 2})) RETURN length(p), nodes(p)",
        "MERGE (n:Tag {name: 'x'}) ON CREATE SET n.c = 1 ON MATCH SET n.c = n.c + 1 RETURN n",
        "CALL { MATCH (n) RETURN count(n) AS c } RETURN c, CASE WHEN c > 1 THEN 'many' ELSE 'few' END",
        "EXPLAIN MATCH (n:Post) WHERE n.creationDate > datetime('2012-01-01T00:00:00Z') RETURN n.content, size(n.content)",
        "SHOW TRANSACTIONS YIELD transactionId, currentQuery WHERE elapsedTime > duration('PT1S') RETURN transactionId",
        "CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)",
        "MATCH (a)-[r]->(b) DELETE r WITH a DETACH DELETE a RETURN count(*)",
        "RETURN {a: [1, 2.5, 'x', null, true], b: date('2020-02-29') + duration('P1M')} AS m",
    ] {
        out.push(q.as_bytes().to_vec());
    }
    out
}

fn temporal() -> Vec<Vec<u8>> {
    let texts = [
        (0, "2012-11-03"),
        (0, "2015-W30-2"),
        (0, "2015-202"),
        (1, "12:31:14.645876123"),
        (2, "12:31:14+01:00"),
        (3, "2015-07-21T21:40:32.142"),
        (4, "2015-06-24T12:50:35.556+01:00[Europe/Stockholm]"),
        (4, "2011-12-31T23:59:59Z"),
        (5, "P1Y2M10DT12H45M30.25S"),
        (5, "PT-0.5S"),
    ];
    texts
        .iter()
        .map(|(k, t)| std::iter::once(*k as u8).chain(t.bytes()).collect())
        .collect()
}

fn ldbc() -> Vec<Vec<u8>> {
    let data = crate::targets::ldbc::test_data();
    crate::targets::ldbc::files()
        .iter()
        .enumerate()
        .map(|(i, rel)| {
            let text = std::fs::read_to_string(data.join(rel)).expect("the test data reads");
            let head: String = text.lines().take(12).map(|l| format!("{l}\n")).collect();
            std::iter::once(i as u8).chain(head.into_bytes()).collect()
        })
        .collect()
}

/// A small graph's writes: nodes with ids and properties, relationships.
fn batches() -> Vec<WriteBatch> {
    let mut out = Vec::new();
    for b in 0..4i64 {
        let mut batch = WriteBatch::new();
        for i in 0..3 {
            batch.push(WriteOp::CreateNode {
                labels: vec!["Person".into()],
                properties: vec![
                    ("id".into(), Value::Int(b * 10 + i)),
                    ("name".into(), Value::string("n")),
                    ("born".into(), Value::DateTime(1000 * b)),
                    (
                        "tags".into(),
                        Value::List(vec![Value::Int(1), Value::string("t")]),
                    ),
                ],
            });
        }
        batch.push(WriteOp::CreateRel {
            rel_type: "KNOWS".into(),
            src: NodeRef::Created(0),
            dst: NodeRef::Created(1),
            properties: vec![("w".into(), Value::Float(0.25))],
        });
        out.push(batch);
    }
    out
}

fn wal() -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().expect("a scratch directory");
    {
        let (db, _) =
            kith_storage::Database::open(dir.path(), Default::default()).expect("a database");
        for batch in batches() {
            db.commit_one(&batch).expect("a commit");
        }
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir.path().join("wal")).expect("the log") {
        let bytes = std::fs::read(entry.expect("an entry").path()).expect("a segment");
        let records = &bytes[24..];
        out.push(
            std::iter::once(1u8)
                .chain(records.iter().copied())
                .collect(),
        );
        // The first record's payload alone.
        let len = u32::from_le_bytes(records[..4].try_into().expect("4 bytes")) as usize;
        out.push(
            std::iter::once(0u8)
                .chain(records[8..8 + len].iter().copied())
                .collect(),
        );
    }
    out
}

fn graph_file() -> Vec<Vec<u8>> {
    let store = Store::new(Snapshot::empty());
    for batch in batches() {
        store.apply(&batch).expect("a commit");
    }
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut out = Vec::new();
    for version in 1..=kith_storage::GRAPH_FILE_VERSION {
        let path = dir.path().join(format!("v{version}.graph"));
        if kith_storage::write_graph_file_version(&store.snapshot(), &path, version).is_ok() {
            out.push(std::fs::read(&path).expect("a graph file"));
        }
    }
    out
}

/// Pseudo-random inputs for the structured targets (a fixed generator: the same
/// seeds every time).
fn random(count: usize, len: usize) -> Vec<Vec<u8>> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..count)
        .map(|_| {
            (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect()
        })
        .collect()
}
