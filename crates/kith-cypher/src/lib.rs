//! kith's Cypher engine.
//!
//! Text goes through one stage per folder: `lexer/` (tokens) -> `parser/` (syntax tree
//! in `ast/`) -> `binder/` (names to row slots, scopes, aggregates, errors found before
//! running) -> `planner/` (the operator pipeline: index seeks, expands, variable-length
//! and shortest-path expands, aggregation, top-k) -> `executor/` (operators over
//! batches of rows, reading through `&dyn GraphView`). Like the native procedures it
//! depends on kith-core only, so a replica or a shard proxy can stand behind it.

pub mod ast;
pub mod binder;
pub mod catalog;
pub mod error;
pub mod executor;
pub mod functions;
pub mod lexer;
pub mod notices;
mod options;
pub mod output;
pub mod parser;
pub mod planner;
pub mod procedures;
pub mod stored;
pub mod temporal;
pub mod tx_meta;
pub mod value;

mod engine;

pub use engine::{
    check_syntax, run, run_graph, run_graph_tx, run_tx, statement_of, Engine, Limits, Mode,
    Prepared, QueryResult,
};
pub use error::{CypherError, ErrorCode, Position, Result};
pub use output::{GraphValue, NodeOut, RelOut};
pub use planner::PlanNode;
pub use procedures::{CallOutput, NoProcedures, ProcParam, Procedures, Signature};
pub use stored::WithStored;
pub use tx_meta::TxMetadata;
pub use value::Val;
