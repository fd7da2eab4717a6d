//! A primary whose broker never answers (nothing listens on its port): writes that
//! wait for Kafka are answered when their wait ends, the backlog bound refuses new
//! commits, and closing does not hang. No broker needed.

use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kith_core::Value;
use kith_replication::{AckError, PublishOptions, Publisher, Refusal};
use kith_storage::{Database, DatabaseOptions, WriteBatch, WriteOp};

#[test]
fn waits_end_at_their_deadline_and_the_backlog_refuses_commits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let consumed = Arc::new(AtomicU64::new(0));
    let db_options = DatabaseOptions {
        log_consumed: Some(consumed.clone()),
        ..DatabaseOptions::default()
    };
    let (db, _) = Database::open(dir.path(), db_options).expect("opens");
    let db = Arc::new(db);
    // Port 1 on loopback: connections are refused, the publisher waits at start.
    let options = PublishOptions {
        url: "kafka://127.0.0.1:1/t".parse().expect("url"),
        buffer_bytes_max: 200,
        ack_timeout: Duration::from_millis(300),
    };
    let publisher = Publisher::start(options, db.clone(), consumed).expect("starts");
    let mut answers = Vec::new();
    let mut refused = None;
    for i in 0..50 {
        if let Err(refusal) = publisher.admit() {
            refused = Some((i, refusal));
            break;
        }
        let batch = WriteBatch {
            ops: vec![WriteOp::CreateNode {
                labels: vec!["Person".into()],
                properties: vec![("id".into(), Value::Int(i))],
            }],
        };
        let (_, record) = db.commit_logged(&[&batch]).expect("commits");
        let (tx, rx) = mpsc::channel();
        let ack: kith_replication::Ack = Box::new(move |r| {
            let _ = tx.send(r);
        });
        publisher.publish(record.expect("record"), vec![ack]);
        answers.push(rx);
    }
    let (at, refusal) = refused.expect("the backlog bound refused a commit");
    assert!(at > 0, "the first commit was refused");
    assert!(matches!(refusal, Refusal::Behind { .. }), "{refusal:?}");
    assert!(refusal.to_string().contains("replication_buffer_bytes_max"));
    for (i, answer) in answers.iter().enumerate() {
        let got = answer
            .recv_timeout(Duration::from_secs(5))
            .expect("answered in time");
        assert_eq!(
            got,
            Err(AckError::Timeout {
                version: i as u64 + 1,
                after: Duration::from_millis(300)
            })
        );
    }
    assert!(AckError::Timeout {
        version: 1,
        after: Duration::from_millis(300)
    }
    .to_string()
    .contains("committed on the primary"));
    let closing = Instant::now();
    publisher.close();
    assert!(
        closing.elapsed() < Duration::from_secs(40),
        "close took {:?}",
        closing.elapsed()
    );
    assert_eq!(publisher.acknowledged(), 0);
}
