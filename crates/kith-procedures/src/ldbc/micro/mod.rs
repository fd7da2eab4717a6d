//! S4's four micro-queries over the LDBC graph (Pacaci et al., Tables 2 and 3): a point
//! lookup, one hop, two hops and a single-pair shortest path over KNOWS. The same four are
//! written once in each peer's language (`bench/peers/s4/queries.py`), so their answers can
//! be checked equal and their latencies compared. A person who does not exist answers no
//! rows (or -1 for a path), as a query in SQL or Cypher would.

mod one_hop;
mod point_lookup;
mod shortest_path;
mod two_hop;

use kith_core::Value;

use crate::{Procedure, ResultSet};

/// `s4.point_lookup`, `s4.one_hop`, `s4.two_hop`, `s4.shortest_path`.
pub fn procedures() -> Vec<Procedure> {
    vec![
        point_lookup::PROCEDURE,
        one_hop::PROCEDURE,
        two_hop::PROCEDURE,
        shortest_path::PROCEDURE,
    ]
}

/// One `Int` column of ids, ascending.
fn ascending_ids(columns: &'static [&'static str], mut ids: Vec<i64>) -> ResultSet {
    ids.sort_unstable();
    let mut out = ResultSet::new(columns);
    for id in ids {
        out.push([Value::Int(id)]);
    }
    out
}
