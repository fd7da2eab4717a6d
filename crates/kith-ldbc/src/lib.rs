//! kith-ldbc: the LDBC SNB Interactive v1 workload's data side.
//!
//! [`load`] reads the official `csv_composite` data set into a raw graph in the
//! schema of `kith_core::ldbc_schema`; [`update_stream`] reads the update streams as
//! calls of the `ldbc.iu*` procedures. The queries themselves are procedures in
//! `kith-procedures/src/ldbc/`. Contract: docs/ldbc.md.

mod cluster;
pub mod csv_file;
pub mod load;
pub mod shard;
pub mod update_stream;

pub use csv_file::LoadError;
pub use load::{load, LoadStats};
pub use update_stream::{parse_event, read_stream_lines, read_streams, UpdateEvent};
