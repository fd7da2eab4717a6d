//! kith-procedures: native stored procedures.
//!
//! A procedure is a name, a typed parameter schema and a function over a
//! [`GraphView`](kith_core::GraphView). Clients send the name and parameters; the
//! [`Registry`] checks the parameters against the schema (so a procedure body never
//! sees a missing or mistyped value) and runs it on a snapshot. Results are named
//! columns and rows of [`Value`](kith_core::Value)s.

pub mod apoc_meta;
pub mod apoc_schema;
pub mod db;
pub mod db_schema;
pub mod dbms;
mod error;
pub mod graph;
pub mod ldbc;
mod newest;
mod params;
mod registry;
mod result;
pub mod shindig;
pub mod traverse;
mod visited;

pub use error::ProcedureError;
pub use params::{parse_cli_value, DefaultValue, ParamSpec, ParamType, Params, LIST_PARAM_LEN_MAX};
pub use registry::{Procedure, Registry, UpdateFn, UpdateProcedure};
pub use result::ResultSet;
