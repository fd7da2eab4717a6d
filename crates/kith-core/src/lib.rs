//! kith-core: the vocabulary every other kith crate speaks.
//!
//! Identifiers, property values, the typed errors shared by readers, and the
//! [`GraphView`] trait through which procedures (and later the Cypher engine) read a
//! graph. Nothing here does I/O or knows how a graph is stored, so an in-memory
//! snapshot, a replica or a test oracle can all stand behind the same trait.

pub mod edge_order;
mod graph_tx;
mod graph_view;
mod ids;
pub mod ldbc_schema;
pub mod schema;
pub mod shindig_schema;
pub mod spatial;
mod str;
pub mod temporal;
mod value;
mod value_range;
pub mod write_op;

pub use edge_order::{EdgeOrder, OrderRule, ORDER_RULES};
pub use graph_tx::{Applied, GraphTx, TxError, TxErrorKind};
pub use graph_view::{lookup, Direction, Edge, GraphView, RelView};
pub use ids::{LabelId, NodeId, PropKeyId, RelId, RelTypeId};
pub use schema::{IndexDef, IndexKind, LabelKey, Schema, SchemaOp};
pub use spatial::{Crs, Point, PointError};
pub use str::{PackedStrs, Str, StrBuf};
pub use temporal::{Duration, Temporal, Tz, ZonedDateTime};
pub use value::{
    compares_exactly, format_epoch_millis, java_double, numeric_twin, signed, Value, ValueType,
    EXACT_INTEGERS,
};
pub use value_range::ValueRange;
