//! Interned names of labels, relationship types and property keys.

use std::sync::Arc;

use kith_core::{Direction, EdgeOrder, LabelId, PropKeyId, RelTypeId, ORDER_RULES};
use rustc_hash::FxHashMap;

use crate::StorageError;

/// The property key that feeds the external-id index; always interned as key 0.
pub const ID_KEY: PropKeyId = PropKeyId(0);

/// One namespace of interned names. An id whose name was forgotten (no element
/// used it: [`Catalog::forget`]) holds the empty name, which no name can be, until a
/// new name takes it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    by_name: FxHashMap<Arc<str>, u16>,
    names: Vec<Arc<str>>,
    /// Ids of forgotten names, given to new ones first.
    free: Vec<u16>,
}

/// Names a namespace holds at most: ids are 16 bits.
pub const NAMES_MAX: usize = 1 << 16;

impl Names {
    fn get(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied()
    }

    /// The id of `name`, and whether it is new.
    fn intern(
        &mut self,
        name: &str,
        what: &'static str,
        full: &'static str,
    ) -> Result<(u16, bool), StorageError> {
        if let Some(id) = self.get(name) {
            return Ok((id, false));
        }
        // Wire formats carry names as map keys, and BSON keys end at a NUL byte.
        if name.is_empty() || name.contains('\0') {
            return Err(StorageError::InvalidName {
                what,
                name: name.escape_debug().to_string(),
            });
        }
        let name: Arc<str> = name.into();
        let id = match self.free.pop() {
            Some(id) => {
                debug_assert!(
                    self.names[usize::from(id)].is_empty(),
                    "a free id is nameless"
                );
                self.names[usize::from(id)] = name.clone();
                id
            }
            None => {
                let id = u16::try_from(self.names.len())
                    .map_err(|_| StorageError::CapacityExceeded(full))?;
                self.names.push(name.clone());
                id
            }
        };
        self.by_name.insert(name, id);
        Ok((id, true))
    }

    /// Forgets the name of `id`, whose id a new name may take.
    fn forget(&mut self, id: u16) {
        let slot = &mut self.names[usize::from(id)];
        assert!(!slot.is_empty(), "a name is forgotten once");
        self.by_name.remove(&**slot);
        *slot = Arc::from("");
        self.free.push(id);
    }

    fn name(&self, id: u16) -> &str {
        match self.names.get(usize::from(id)) {
            Some(n) if !n.is_empty() => n,
            _ => "<unknown>",
        }
    }

    /// Every id's name, the empty name where an id is free (what a graph file keeps).
    pub(crate) fn all(&self) -> &[Arc<str>] {
        &self.names
    }

    /// The ids that have a name.
    pub(crate) fn ids(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.names.len())
            .filter(|&i| !self.names[i].is_empty())
            .map(|i| i as u16)
    }

    /// Names held now.
    pub(crate) fn len(&self) -> usize {
        self.by_name.len()
    }
}

/// Name tables of one graph. A name no element, index or order rule uses can be
/// forgotten and its id given to a new name ([`Snapshot::reclaim_names`]); each
/// version holds its own catalog, so ids an older snapshot reads keep their names
/// there.
///
/// [`Snapshot::reclaim_names`]: crate::Snapshot::reclaim_names
#[derive(Clone, Debug)]
pub struct Catalog {
    pub(crate) labels: Names,
    pub(crate) rel_types: Names,
    pub(crate) prop_keys: Names,
    /// The [`ORDER_RULES`] whose type and key both exist, as ids. A rule is armed
    /// the moment its second name is interned: until then no node had the key (or no
    /// list had the type), so every list it governs was already in its order. When
    /// its first-part label may join is [`Catalog::arm_orders`]'s to say.
    orders: Vec<ArmedRule>,
}

impl Default for Catalog {
    fn default() -> Self {
        let mut prop_keys = Names::default();
        prop_keys.names.push("id".into());
        prop_keys.by_name.insert("id".into(), 0);
        Catalog::from_names(Names::default(), Names::default(), prop_keys)
    }
}

/// An armed order rule: the lists of `rel_type` seen in `direction`, ordered by the
/// neighbour's `key`, those labelled `first` first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArmedRule {
    pub(crate) rel_type: RelTypeId,
    pub(crate) direction: Direction,
    pub(crate) key: PropKeyId,
    pub(crate) first: Option<LabelId>,
}

/// The name an interning call just added, for [`Catalog::arm_orders`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fresh {
    Nothing,
    Label(LabelId),
    Type(RelTypeId),
}

impl Catalog {
    /// A catalog of these names, with the order rules they arm.
    pub(crate) fn from_names(labels: Names, rel_types: Names, prop_keys: Names) -> Catalog {
        let mut catalog = Catalog {
            labels,
            rel_types,
            prop_keys,
            orders: Vec::new(),
        };
        catalog.arm_orders(Fresh::Nothing, true);
        catalog
    }

    /// The armed order rules (in the order they armed): the orders the lists of a
    /// graph with this catalog are kept in.
    pub(crate) fn armed_orders(&self) -> &[ArmedRule] {
        &self.orders
    }

    /// Arms every rule whose type and key now exist. A rule's first-part label
    /// joins it only where no list it governs can have been built without it: when
    /// every list is about to be built (`rebuild`: a load), when the label is the one
    /// just interned (no node carries it yet), or when the rule's type is (no list of
    /// it exists yet). A label that existed before its rule armed otherwise joins at
    /// the next load.
    fn arm_orders(&mut self, fresh: Fresh, rebuild: bool) {
        for rule in ORDER_RULES {
            let (Some(rel_type), Some(key)) = (
                self.find_rel_type(rule.rel_type),
                self.find_prop_key(rule.key),
            ) else {
                continue;
            };
            let label = rule.first.and_then(|l| self.find_label(l));
            let joins = label
                .filter(|&l| rebuild || fresh == Fresh::Label(l) || fresh == Fresh::Type(rel_type));
            let same = |o: &ArmedRule| o.rel_type == rel_type && o.direction == rule.direction;
            match self.orders.iter_mut().find(|o| same(o)) {
                Some(armed) => armed.first = armed.first.or(joins),
                None => self.orders.push(ArmedRule {
                    rel_type,
                    direction: rule.direction,
                    key,
                    first: joins,
                }),
            }
        }
    }

    /// Arms every rule whole, first-part labels included: for a graph whose lists
    /// are all about to be built from its relationships.
    pub(crate) fn arm_for_build(&mut self) {
        self.arm_orders(Fresh::Nothing, true);
    }

    /// How the lists of `rel_type` in `direction` are ordered.
    #[inline]
    pub fn edge_order(&self, rel_type: RelTypeId, direction: Direction) -> EdgeOrder {
        self.orders
            .iter()
            .find(|o| o.rel_type == rel_type && o.direction == direction)
            .map_or(EdgeOrder::ByNode, |o| EdgeOrder::NewestFirst {
                key: o.key,
                first: o.first,
            })
    }

    /// The armed rules a change of `key` (a property) or of `label` moves edges in.
    pub(crate) fn orders_moved_by(
        &self,
        key: Option<PropKeyId>,
        label: Option<LabelId>,
    ) -> Vec<ArmedRule> {
        self.orders
            .iter()
            .filter(|o| key == Some(o.key) || (label.is_some() && o.first == label))
            .copied()
            .collect()
    }

    /// Interns a label name.
    pub fn label(&mut self, name: &str) -> Result<LabelId, StorageError> {
        let (id, fresh) =
            self.labels
                .intern(name, "label", "more than 65,536 labels in use at once")?;
        if fresh {
            self.arm_orders(Fresh::Label(LabelId(id)), false);
        }
        Ok(LabelId(id))
    }
    /// Interns a relationship type name.
    pub fn rel_type(&mut self, name: &str) -> Result<RelTypeId, StorageError> {
        let (id, fresh) = self.rel_types.intern(
            name,
            "relationship type",
            "more than 65,536 relationship types in use at once",
        )?;
        if fresh {
            self.arm_orders(Fresh::Type(RelTypeId(id)), false);
        }
        Ok(RelTypeId(id))
    }
    /// Interns a property key name.
    pub fn prop_key(&mut self, name: &str) -> Result<PropKeyId, StorageError> {
        let (id, fresh) = self.prop_keys.intern(
            name,
            "property key",
            "more than 65,536 property keys in use at once",
        )?;
        if fresh {
            self.arm_orders(Fresh::Nothing, false);
        }
        Ok(PropKeyId(id))
    }
    /// Looks up a label without interning it.
    pub fn find_label(&self, name: &str) -> Option<LabelId> {
        self.labels.get(name).map(LabelId)
    }
    /// Looks up a relationship type without interning it.
    pub fn find_rel_type(&self, name: &str) -> Option<RelTypeId> {
        self.rel_types.get(name).map(RelTypeId)
    }
    /// Looks up a property key without interning it.
    pub fn find_prop_key(&self, name: &str) -> Option<PropKeyId> {
        self.prop_keys.get(name).map(PropKeyId)
    }
    /// Name of a label.
    pub fn label_name(&self, id: LabelId) -> &str {
        self.labels.name(id.0)
    }
    /// Name of a relationship type.
    pub fn rel_type_name(&self, id: RelTypeId) -> &str {
        self.rel_types.name(id.0)
    }
    /// Name of a property key.
    pub fn prop_key_name(&self, id: PropKeyId) -> &str {
        self.prop_keys.name(id.0)
    }
    /// Label ids handed out (named, or free to take).
    pub fn label_count(&self) -> usize {
        self.labels.names.len()
    }
    /// Relationship type ids handed out (named, or free to take).
    pub fn rel_type_count(&self) -> usize {
        self.rel_types.names.len()
    }
    /// Property key ids handed out (named, or free to take).
    pub fn prop_key_count(&self) -> usize {
        self.prop_keys.names.len()
    }
    /// Names held now, of all three kinds.
    pub fn names_held(&self) -> usize {
        self.labels.len() + self.rel_types.len() + self.prop_keys.len()
    }

    /// Forgets these names (none may be in use: see [`Snapshot::reclaim_names`]).
    ///
    /// [`Snapshot::reclaim_names`]: crate::Snapshot::reclaim_names
    pub(crate) fn forget(
        &mut self,
        labels: &[LabelId],
        rel_types: &[RelTypeId],
        keys: &[PropKeyId],
    ) {
        labels.iter().for_each(|l| self.labels.forget(l.0));
        rel_types.iter().for_each(|t| self.rel_types.forget(t.0));
        keys.iter().for_each(|k| {
            assert_ne!(*k, ID_KEY, "the id key stays");
            self.prop_keys.forget(k.0)
        });
    }
}

impl Names {
    /// Appends a name read from a file, where ids are the positions.
    pub(crate) fn push_unchecked(&mut self, name: Arc<str>) {
        self.names.push(name);
    }

    /// Rebuilds the name -> id map after `push_unchecked` (an empty name is a free
    /// id); false if a name repeats.
    pub(crate) fn rebuild_lookup(&mut self) -> bool {
        self.free = (0..self.names.len())
            .rev()
            .filter(|&i| self.names[i].is_empty())
            .map(|i| i as u16)
            .collect();
        self.by_name = self
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.is_empty())
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        self.by_name.len() + self.free.len() == self.names.len()
    }
}
