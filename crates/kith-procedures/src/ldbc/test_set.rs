//! The official LDBC test data set, loaded once for the unit tests that compare a
//! query's strategies with each other.

use std::path::Path;
use std::sync::OnceLock;

use kith_core::{GraphView, LabelId, NodeId};
use kith_storage::Snapshot;

pub(crate) fn graph() -> &'static Snapshot {
    static GRAPH: OnceLock<Snapshot> = OnceLock::new();
    GRAPH.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/ldbc-snb-interactive-test/vanilla");
        let (raw, _) = kith_ldbc::load(&src).expect("the test data set loads");
        Snapshot::from_raw(raw).expect("builds")
    })
}

/// Every node with `label`.
pub(crate) fn nodes(g: &Snapshot, label: LabelId) -> Vec<NodeId> {
    (0..g.node_id_bound() as u32)
        .map(NodeId)
        .filter(|n| g.has_label(*n, label))
        .collect()
}
