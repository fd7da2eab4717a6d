//! ID spaces: each node's id in its space, to the node it became.

use kith_core::{NodeId, Str, Value};
use rustc_hash::FxHashMap;

use crate::options::IdType;

/// A parsed node id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdKey {
    /// With `--id-type=integer`.
    Int(i64),
    /// With `--id-type=string`.
    Str(Box<str>),
}

impl IdKey {
    /// Reads an id of `id_type`; the error says why the text is not one.
    pub fn parse(text: &str, id_type: IdType) -> Result<IdKey, String> {
        match id_type {
            IdType::Integer => text
                .trim()
                .parse()
                .map(IdKey::Int)
                .map_err(|_| format!("`{text}` is not an integer id (--id-type=integer)")),
            IdType::String => Ok(IdKey::Str(text.into())),
        }
    }

    /// The id as the property a named ID column stores.
    pub fn to_value(&self) -> Value {
        match self {
            IdKey::Int(n) => Value::Int(*n),
            IdKey::Str(s) => Value::String(Str::new(s)),
        }
    }
}

impl std::fmt::Display for IdKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdKey::Int(n) => write!(f, "{n}"),
            IdKey::Str(s) => write!(f, "`{s}`"),
        }
    }
}

/// One space's ids.
#[derive(Debug)]
enum Space {
    Int(FxHashMap<i64, NodeId>),
    Str(FxHashMap<Box<str>, NodeId>),
}

/// Every space's ids.
#[derive(Debug)]
pub struct Ids {
    spaces: Vec<Space>,
    /// Each node's (space, integer id), by node slot (`NO_SPACE`: none): lets a
    /// lookup try the node after the last one found before hashing (see
    /// [`Ids::get_near`]).
    by_node: Vec<(u32, i64)>,
}

const NO_SPACE: u32 = u32::MAX;

impl Ids {
    /// `count` empty spaces of ids of `id_type`.
    pub fn new(count: usize, id_type: IdType) -> Ids {
        let space = || match id_type {
            IdType::Integer => Space::Int(FxHashMap::default()),
            IdType::String => Space::Str(FxHashMap::default()),
        };
        Ids {
            spaces: (0..count).map(|_| space()).collect(),
            by_node: Vec::new(),
        }
    }

    /// Records `key` as `node`; gives the key back when the space holds it already.
    pub fn insert(&mut self, space: usize, key: IdKey, node: NodeId) -> Result<(), IdKey> {
        use std::collections::hash_map::Entry;
        match (&mut self.spaces[space], key) {
            (Space::Int(map), IdKey::Int(n)) => match map.entry(n) {
                Entry::Occupied(_) => Err(IdKey::Int(n)),
                Entry::Vacant(v) => {
                    v.insert(node);
                    if self.by_node.len() <= node.index() {
                        self.by_node.resize(node.index() + 1, (NO_SPACE, 0));
                    }
                    self.by_node[node.index()] = (space as u32, n);
                    Ok(())
                }
            },
            (Space::Str(map), IdKey::Str(s)) => match map.entry(s) {
                Entry::Occupied(o) => Err(IdKey::Str(o.key().clone())),
                Entry::Vacant(v) => {
                    v.insert(node);
                    Ok(())
                }
            },
            _ => unreachable!("a space holds the ids of the import's one id type"),
        }
    }

    /// The node whose id in `space` is `text`, if any, trying first the node `near` names and the one after it, then
    /// leaving the node found in `near`. Relationship files mostly list their start
    /// (or end) nodes in the order of the node file, once or a few times each, so
    /// this finds them without a hash lookup into a table far larger than the cache.
    pub fn get_near(&self, space: usize, text: &str, near: &mut Option<NodeId>) -> Option<NodeId> {
        let found = match &self.spaces[space] {
            Space::Int(map) => {
                let key: i64 = text.trim().parse().ok()?;
                let wanted = (space as u32, key);
                let guess = near.and_then(|last| {
                    (last.0..last.0.saturating_add(2))
                        .find(|n| self.by_node.get(*n as usize) == Some(&wanted))
                        .map(NodeId)
                });
                guess.or_else(|| map.get(&key).copied())
            }
            Space::Str(map) => map.get(text).copied(),
        };
        *near = found;
        found
    }
}
