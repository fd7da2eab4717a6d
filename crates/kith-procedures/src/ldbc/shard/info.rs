//! `shard.info` (any shard): which shard of which split this server holds, from the
//! identity `kith shard split` recorded in its graph (schema cursors); no row when
//! it has none. The router
//! asks it on connecting and refuses a server that is not the shard it is listed as.

use kith_core::ldbc_schema::shard_cursor;
use kith_core::{GraphView, Value};

use crate::{Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &["shardIndex", "forumShards", "split"];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "shard.info",
    description: "S5: this shard's identity: its index (-1 the person shard, i forum shard i), the layout's forum shards, the split's id",
    params: &[],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, _: &Params) -> Result<ResultSet, ProcedureError> {
    let cursors = &g.schema().cursors;
    let get = |name: &str| cursors.get(name).copied();
    let mut out = ResultSet::new(COLUMNS);
    let found = (
        get(shard_cursor::INDEX),
        get(shard_cursor::FORUM_SHARDS),
        get(shard_cursor::SPLIT),
    );
    // No row: a graph `kith shard split` did not make (or made before identities).
    if let (Some(index), Some(n), Some(split)) = found {
        out.push([Value::Int(index), Value::Int(n), Value::Int(split)]);
    }
    Ok(out)
}
