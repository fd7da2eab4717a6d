//! The targets, one file per decoder (or oracle).

pub mod bolt;
pub mod codec;
pub mod compress;
pub mod cypher;
pub mod cypher_diff;
pub mod frame;
pub mod graph_file;
pub mod ldbc;
pub mod ops;
pub mod storage_model;
pub mod temporal;
pub mod wal;
pub mod ws;
