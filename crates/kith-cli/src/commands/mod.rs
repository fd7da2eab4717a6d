//! One module per `kith` subcommand.

pub mod backup;
pub mod bench;
pub mod call;
pub mod export;
pub mod generate;
pub mod import;
pub mod load;
pub mod procedures;
pub mod produce;
pub mod query;
pub mod replay;
pub mod serve;
pub mod shard;
pub mod shell;
pub mod stats;
pub mod user;
pub mod write;
