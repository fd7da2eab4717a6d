//! A forum shard's form of an update: the persons it names may have no proxy there
//! yet (a first like, a first post), so each is made sure of before the event's own
//! operations run (`EnsureNode`: a `Person` with the id alone, as the split makes).

use std::sync::Arc;

use kith_core::ldbc_schema::label;
use kith_core::write_op::{NodeRef, WriteOp};

/// `ops` with an `EnsureNode` for every person they name by id, first, each once.
/// The event's own `Created(n)` references keep their meaning (an ensured node is
/// not one of the batch's created nodes).
pub fn with_proxies(ops: Vec<WriteOp>) -> Vec<WriteOp> {
    let mut persons: Vec<i64> = Vec::new();
    for op in &ops {
        if let WriteOp::CreateRel { src, dst, .. } = op {
            for end in [src, dst] {
                if let NodeRef::ById { label: l, id } = end {
                    if &**l == label::PERSON && !persons.contains(id) {
                        persons.push(*id);
                    }
                }
            }
        }
    }
    let person: Arc<str> = Arc::from(label::PERSON);
    let ensure = persons.into_iter().map(|id| WriteOp::EnsureNode {
        label: person.clone(),
        id,
    });
    ensure.chain(ops).collect()
}
