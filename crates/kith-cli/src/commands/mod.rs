//! One module per `kith` subcommand.

pub mod call;
pub mod generate;
pub mod procedures;
pub mod serve;
pub mod stats;
