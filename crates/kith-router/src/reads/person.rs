//! IS1, IS3, IC1, IC11, IC13: persons, KNOWS, places and organisations only, all on
//! the person shard: the call goes there as it came.

use kith_core::Value;

use crate::{RouteError, Router};

pub(crate) async fn run(
    r: &Router,
    procedure: &'static str,
    given: &[(String, Value)],
    width: usize,
) -> Result<Vec<Vec<Value>>, RouteError> {
    Ok(r.on_person(procedure, given.to_vec(), width).await?.rows)
}
