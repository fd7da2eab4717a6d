//! Side effects as the TCK defines them (tck/README.adoc, "Side effects"): the
//! difference between the graph before and after a query in nodes, relationships,
//! properties (triples of entity, key and value) and distinct labels.
//!
//! They are computed from the two snapshots directly, not with Cypher queries, so the
//! measurement does not depend on the engine under test.

use std::collections::{BTreeMap, HashSet};

use kith_core::{GraphView, NodeId, RelId};
use kith_storage::Snapshot;

/// What a graph holds, in the terms side effects count.
pub struct State {
    nodes: HashSet<NodeId>,
    rels: HashSet<RelId>,
    /// (is a relationship, id, key, value written with `{:?}`).
    props: HashSet<(bool, u32, String, String)>,
    labels: HashSet<String>,
}

impl State {
    /// The state of a snapshot.
    pub fn of(g: &Snapshot) -> State {
        let mut s = State {
            nodes: HashSet::new(),
            rels: HashSet::new(),
            props: HashSet::new(),
            labels: HashSet::new(),
        };
        for n in g.node_ids() {
            s.nodes.insert(n);
            for l in g.node_labels(n) {
                s.labels.insert(g.label_name(*l).to_owned());
            }
            for (k, v) in g.node_properties(n) {
                s.props
                    .insert((false, n.0, g.prop_key_name(k).to_owned(), format!("{v:?}")));
            }
        }
        for r in 0..g.rel_id_bound() {
            let Ok(r) = u32::try_from(r) else { break };
            let Some(rel) = g.relationship(RelId(r)) else {
                continue;
            };
            s.rels.insert(rel.id);
            for (k, v) in g.rel_properties(rel.id) {
                s.props
                    .insert((true, r, g.prop_key_name(k).to_owned(), format!("{v:?}")));
            }
        }
        s
    }
}

/// The side effects from `before` to `after`: `+nodes`, `-labels`..., zeros left out.
pub fn diff(before: &State, after: &State) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut put = |name: &str, n: usize| {
        if n > 0 {
            out.insert(name.to_owned(), n);
        }
    };
    put("+nodes", after.nodes.difference(&before.nodes).count());
    put("-nodes", before.nodes.difference(&after.nodes).count());
    put(
        "+relationships",
        after.rels.difference(&before.rels).count(),
    );
    put(
        "-relationships",
        before.rels.difference(&after.rels).count(),
    );
    put("+properties", after.props.difference(&before.props).count());
    put("-properties", before.props.difference(&after.props).count());
    put("+labels", after.labels.difference(&before.labels).count());
    put("-labels", before.labels.difference(&after.labels).count());
    out
}
