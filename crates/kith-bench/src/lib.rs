//! kith-bench: load drivers that measure kith the way the source papers did.
//!
//! [`transport`] is S1's core question: what does the connection between application
//! server and database cost? It compares, in one run on one machine, the persistent
//! WebSocket path with the HTTP baseline, against a raw WebSocket echo that moves the
//! same bytes with no database behind it (the floor).
//!
//! [`writes`] is S3's: how fast do acknowledged writes go, per write pattern, when
//! every acknowledgement means the write is on disk?

pub mod cluster;
mod http_client;
pub mod ingest;
pub mod ldbc;
mod local_server;
pub mod overload;
pub mod process;
pub mod recovery;
pub mod replication;
pub mod report;
mod report_page;
pub mod report_s4;
pub mod report_suite;
pub mod shard;
pub mod shindig;
pub mod shindig_cypher;
pub mod soak;
mod svg;
pub mod throughput;
pub mod transport;
pub mod traverse;
pub mod writes;
