//! S5's sharding of an LDBC graph (docs/sharding.md): one person shard and N forum
//! shards.
//!
//! - The **person shard** holds the persons with everything that hangs off a person
//!   alone: KNOWS, where they live, their interests, where they study and work, and
//!   the organisations.
//! - **Forum shard** `forum_shard(forum id, N)` holds a forum, its posts, every comment
//!   of those posts' threads (a comment lives with its thread's root post, so REPLY_OF
//!   never crosses shards), their tags and places, and the forum's members, moderator,
//!   the messages' creators and likers as **proxy persons**: a `Person` node with only
//!   its `id`.
//! - **Static data** (tags, tag classes, places and the relationships among them) is
//!   copied to every shard.
//!
//! The rule for a relationship: it goes where its forum-side end lives (a forum or a
//! message); a person end there becomes that shard's proxy. A relationship with no
//! forum-side end goes to the person shard, or to every shard when both ends are
//! static. A relationship between two forum-side nodes of different shards, or between
//! a forum-side node and an organisation, cannot be placed and is refused.

mod identity;
mod placement;
mod proxies;

pub use identity::{identity_ops, shard_of_index};
pub use placement::{Placement, PlacementError, Shard, Side, PLACEMENT_FILE};
pub use proxies::with_proxies;

use std::fmt;

use kith_core::ldbc_schema::{key, label, rel};
use kith_core::{LabelId, NodeId, Value};
use kith_storage::{RawGraph, RawNode};

/// The forum shard (0-based, of `shards`) that holds the forum with this id. Ids are
/// mixed first (SplitMix64's finaliser): LDBC's ids carry structure in their low
/// bits, which a plain remainder would turn into skew.
pub fn forum_shard(forum_id: i64, shards: usize) -> usize {
    assert!(shards > 0, "at least one forum shard");
    let mut z = forum_id as u64;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % shards as u64) as usize
}

/// Where a node of the whole graph goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Home {
    /// Copied to every shard.
    Static,
    /// The person shard (persons and organisations).
    Person,
    /// Forum shard `i`.
    Forum(usize),
}

/// Why a graph cannot be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// `--forum-shards 0`, or a graph without the LDBC schema's names.
    Invalid(String),
    /// A node whose labels are not LDBC's.
    UnknownNode {
        /// Its `id`, if it has one.
        id: Option<i64>,
        /// Its labels.
        labels: Vec<String>,
    },
    /// A message that is in no forum (a post without CONTAINER_OF, a comment whose
    /// REPLY_OF chain does not reach a post).
    Orphan {
        /// The message's `id`.
        message: Option<i64>,
        /// What is missing.
        reason: String,
    },
    /// A relationship whose ends live on different shards.
    Crossing {
        /// Its type.
        rel_type: String,
        /// Its source's `id`.
        src: Option<i64>,
        /// Its target's `id`.
        dst: Option<i64>,
    },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = |i: &Option<i64>| i.map_or("(no id)".to_owned(), |i| i.to_string());
        match self {
            SplitError::Invalid(why) => write!(f, "cannot split: {why}"),
            SplitError::UnknownNode { id: i, labels } => write!(
                f,
                "cannot split: node {} has labels {labels:?}, none of the LDBC schema's (Person, Forum, Post, Comment, Tag, TagClass, Place, Organisation)",
                id(i)
            ),
            SplitError::Orphan { message, reason } => {
                write!(f, "cannot split: message {} {reason}", id(message))
            }
            SplitError::Crossing { rel_type, src, dst } => write!(
                f,
                "cannot split: a {rel_type} relationship from {} to {} would join two shards",
                id(src),
                id(dst)
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// The shards of one graph, in the catalog of the whole (every name exists on every
/// shard, so every procedure resolves its schema there).
pub struct Split {
    /// The person shard.
    pub person: RawGraph,
    /// The forum shards, by index.
    pub forums: Vec<RawGraph>,
    /// Every message's forum shard (what routes the likes and replies of an update
    /// stream).
    pub placement: Placement,
}

/// Splits `whole` into a person shard and `forum_shards` forum shards.
pub fn split(whole: &RawGraph, forum_shards: usize) -> Result<Split, SplitError> {
    if forum_shards == 0 {
        return Err(SplitError::Invalid(
            "--forum-shards must be at least 1".into(),
        ));
    }
    let homes = homes(whole, forum_shards)?;
    let placement = placement(whole, &homes, forum_shards);
    let mut shards: Vec<Builder> = (0..=forum_shards).map(|_| Builder::new(whole)).collect();
    let person_label = whole.catalog.find_label(label::PERSON);
    let id_key = whole.catalog.find_prop_key(key::ID);
    for (node, raw) in whole.live_nodes() {
        match homes[node.index()] {
            Home::Static => shards.iter_mut().for_each(|s| s.copy(node, raw)),
            Home::Person => shards[0].copy(node, raw),
            Home::Forum(i) => shards[i + 1].copy(node, raw),
        }
    }
    for (_, r) in whole.live_rels() {
        let (a, b) = (homes[r.src.index()], homes[r.dst.index()]);
        let target = match (a, b) {
            (Home::Static, Home::Static) => None,
            (Home::Forum(i), Home::Forum(j)) if i != j => return Err(crossing(whole, r)),
            (Home::Forum(i), _) | (_, Home::Forum(i)) => Some(i + 1),
            _ => Some(0),
        };
        let ends_ok = |end: NodeId, home: Home| {
            home != Home::Person || target == Some(0) || is_person(whole, end, person_label)
        };
        if !ends_ok(r.src, a) || !ends_ok(r.dst, b) {
            return Err(crossing(whole, r));
        }
        match target {
            None => shards
                .iter_mut()
                .for_each(|s| s.link(whole, r, id_key, person_label)),
            Some(s) => shards[s].link(whole, r, id_key, person_label),
        }
    }
    let mut graphs = shards.into_iter().map(|b| b.graph);
    let person = graphs.next().expect("the person shard");
    let mut forums: Vec<RawGraph> = graphs.collect();
    for g in &mut forums {
        crate::cluster::messages_by_creator(g);
    }
    Ok(Split {
        person,
        forums,
        placement,
    })
}

/// The forum shard of every post and comment, by id.
fn placement(g: &RawGraph, homes: &[Home], forum_shards: usize) -> Placement {
    let mut placement = Placement::new(forum_shards);
    let (post, comment) = (
        g.catalog.find_label(label::POST),
        g.catalog.find_label(label::COMMENT),
    );
    for (node, raw) in g.live_nodes() {
        let (Home::Forum(shard), Some(id)) = (homes[node.index()], ext_id(g, node)) else {
            continue;
        };
        let has = |l: Option<LabelId>| l.is_some_and(|l| raw.labels.contains(&l));
        if has(post) {
            placement.add_post(id, shard);
        } else if has(comment) {
            placement.add_comment(id, shard);
        }
    }
    placement
}

fn is_person(g: &RawGraph, node: NodeId, person: Option<LabelId>) -> bool {
    let labels = &g.nodes[node.index()].as_ref().expect("live").labels;
    person.is_some_and(|p| labels.contains(&p))
}

fn ext_id(g: &RawGraph, node: NodeId) -> Option<i64> {
    let k = g.catalog.find_prop_key(key::ID)?;
    match g.nodes.get(node.index())?.as_ref()?.property(k) {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    }
}

fn crossing(g: &RawGraph, r: &kith_storage::RawRel) -> SplitError {
    SplitError::Crossing {
        rel_type: g.catalog.rel_type_name(r.rel_type).to_owned(),
        src: ext_id(g, r.src),
        dst: ext_id(g, r.dst),
    }
}

/// Each node's home: static and person-side nodes by label; a forum by its id; a
/// message by the forum of its thread's root post.
fn homes(g: &RawGraph, shards: usize) -> Result<Vec<Home>, SplitError> {
    let c = &g.catalog;
    let find = |n| c.find_label(n);
    let (forum, post, comment) = (find(label::FORUM), find(label::POST), find(label::COMMENT));
    let static_labels: Vec<LabelId> = [label::TAG, label::TAG_CLASS, label::PLACE]
        .iter()
        .filter_map(|n| find(n))
        .collect();
    let person_labels: Vec<LabelId> = [label::PERSON, label::ORGANISATION]
        .iter()
        .filter_map(|n| find(n))
        .collect();
    let container = parent_map(g, rel::CONTAINER_OF, false);
    let reply_of = parent_map(g, rel::REPLY_OF, true);
    let mut homes = vec![Home::Static; g.nodes.len()];
    for (node, raw) in g.live_nodes() {
        let has = |l: Option<LabelId>| l.is_some_and(|l| raw.labels.contains(&l));
        homes[node.index()] = if has(forum) {
            Home::Forum(forum_shard(ext_id(g, node).unwrap_or(0), shards))
        } else if has(post) || has(comment) {
            let root = root_post(g, node, post, &reply_of)?;
            let Some(f) = container[root.index()] else {
                return Err(SplitError::Orphan {
                    message: ext_id(g, root),
                    reason: "is a post in no forum (no CONTAINER_OF)".into(),
                });
            };
            Home::Forum(forum_shard(ext_id(g, f).unwrap_or(0), shards))
        } else if raw.labels.iter().any(|l| person_labels.contains(l)) {
            Home::Person
        } else if raw.labels.iter().any(|l| static_labels.contains(l)) {
            Home::Static
        } else {
            return Err(unknown(g, node, raw));
        };
    }
    Ok(homes)
}

fn unknown(g: &RawGraph, node: NodeId, raw: &RawNode) -> SplitError {
    SplitError::UnknownNode {
        id: ext_id(g, node),
        labels: (raw.labels.iter())
            .map(|l| g.catalog.label_name(*l).to_owned())
            .collect(),
    }
}

/// For each node, the other end of its one relationship of `name`: the source when
/// `outward` is false (a post's forum), the target when true (a comment's parent).
fn parent_map(g: &RawGraph, name: &str, outward: bool) -> Vec<Option<NodeId>> {
    let mut map = vec![None; g.nodes.len()];
    if let Some(t) = g.catalog.find_rel_type(name) {
        for (_, r) in g.live_rels().filter(|(_, r)| r.rel_type == t) {
            let (child, parent) = if outward {
                (r.src, r.dst)
            } else {
                (r.dst, r.src)
            };
            map[child.index()] = Some(parent);
        }
    }
    map
}

/// The post that starts `message`'s thread (a post is its own).
fn root_post(
    g: &RawGraph,
    message: NodeId,
    post: Option<LabelId>,
    reply_of: &[Option<NodeId>],
) -> Result<NodeId, SplitError> {
    let mut at = message;
    // A REPLY_OF chain longer than the graph is a cycle.
    for _ in 0..=g.nodes.len() {
        let labels = &g.nodes[at.index()].as_ref().expect("live").labels;
        if post.is_some_and(|p| labels.contains(&p)) {
            return Ok(at);
        }
        at = reply_of[at.index()].ok_or_else(|| SplitError::Orphan {
            message: ext_id(g, message),
            reason: "replies to no post (its REPLY_OF chain ends)".into(),
        })?;
    }
    Err(SplitError::Orphan {
        message: ext_id(g, message),
        reason: "is in a REPLY_OF cycle".into(),
    })
}

/// One shard under construction: the whole graph's node ids mapped to its own.
struct Builder {
    graph: RawGraph,
    slot: Vec<u32>,
}

impl Builder {
    fn new(whole: &RawGraph) -> Builder {
        Builder {
            graph: RawGraph {
                catalog: whole.catalog.clone(),
                nodes: Vec::new(),
                rels: Vec::new(),
            },
            slot: vec![u32::MAX; whole.nodes.len()],
        }
    }

    fn copy(&mut self, node: NodeId, raw: &RawNode) {
        debug_assert_eq!(self.slot[node.index()], u32::MAX, "a node copied twice");
        let id = (self.graph)
            .add_node(raw.labels.clone(), raw.properties.clone())
            .expect("a shard has no more nodes than the whole graph");
        self.slot[node.index()] = id.0;
    }

    /// `node` here: its copy, or a proxy (label Person, only its id) made now.
    fn end(
        &mut self,
        whole: &RawGraph,
        node: NodeId,
        id_key: Option<kith_core::PropKeyId>,
        person: Option<LabelId>,
    ) -> NodeId {
        if self.slot[node.index()] == u32::MAX {
            let id = id_key.and_then(|k| {
                let raw = whole.nodes[node.index()].as_ref()?;
                raw.property(k).cloned().map(|v| (k, v))
            });
            let labels = person.into_iter().collect();
            let proxy = (self.graph)
                .add_node(labels, id.into_iter().collect())
                .expect("a shard has no more nodes than the whole graph");
            self.slot[node.index()] = proxy.0;
        }
        NodeId(self.slot[node.index()])
    }

    fn link(
        &mut self,
        whole: &RawGraph,
        r: &kith_storage::RawRel,
        id_key: Option<kith_core::PropKeyId>,
        person: Option<LabelId>,
    ) {
        let src = self.end(whole, r.src, id_key, person);
        let dst = self.end(whole, r.dst, id_key, person);
        (self.graph)
            .add_rel(r.rel_type, src, dst, r.properties.clone())
            .expect("both ends are in this shard");
    }
}
