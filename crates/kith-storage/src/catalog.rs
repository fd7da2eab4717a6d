//! Interned names of labels, relationship types and property keys.

use std::sync::Arc;

use kith_core::{Direction, EdgeOrder, LabelId, PropKeyId, RelTypeId, ORDER_RULES};
use rustc_hash::FxHashMap;

use crate::StorageError;

/// The property key that feeds the external-id index; always interned as key 0.
pub const ID_KEY: PropKeyId = PropKeyId(0);

/// One namespace of interned names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    by_name: FxHashMap<Arc<str>, u16>,
    names: Vec<Arc<str>>,
}

impl Names {
    fn get(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied()
    }

    fn intern(
        &mut self,
        name: &str,
        what: &'static str,
        full: &'static str,
    ) -> Result<u16, StorageError> {
        if let Some(id) = self.get(name) {
            return Ok(id);
        }
        // Wire formats carry names as map keys, and BSON keys end at a NUL byte.
        if name.is_empty() || name.contains('\0') {
            return Err(StorageError::InvalidName {
                what,
                name: name.escape_debug().to_string(),
            });
        }
        let id =
            u16::try_from(self.names.len()).map_err(|_| StorageError::CapacityExceeded(full))?;
        let name: Arc<str> = name.into();
        self.names.push(name.clone());
        self.by_name.insert(name, id);
        Ok(id)
    }

    fn name(&self, id: u16) -> &str {
        self.names.get(usize::from(id)).map_or("<unknown>", |n| n)
    }

    pub(crate) fn all(&self) -> &[Arc<str>] {
        &self.names
    }
}

/// Name tables of one graph. Ids only grow; a name is never removed, so ids held by
/// older snapshots stay valid.
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
        let before = self.labels.names.len();
        let id = self
            .labels
            .intern(name, "label", "more than 65,536 labels")?;
        if self.labels.names.len() != before {
            self.arm_orders(Fresh::Label(LabelId(id)), false);
        }
        Ok(LabelId(id))
    }
    /// Interns a relationship type name.
    pub fn rel_type(&mut self, name: &str) -> Result<RelTypeId, StorageError> {
        let before = self.rel_types.names.len();
        let id = self.rel_types.intern(
            name,
            "relationship type",
            "more than 65,536 relationship types",
        )?;
        if self.rel_types.names.len() != before {
            self.arm_orders(Fresh::Type(RelTypeId(id)), false);
        }
        Ok(RelTypeId(id))
    }
    /// Interns a property key name.
    pub fn prop_key(&mut self, name: &str) -> Result<PropKeyId, StorageError> {
        let before = self.prop_keys.names.len();
        let id = self
            .prop_keys
            .intern(name, "property key", "more than 65,536 property keys")?;
        if self.prop_keys.names.len() != before {
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
    /// Number of labels.
    pub fn label_count(&self) -> usize {
        self.labels.names.len()
    }
    /// Number of relationship types.
    pub fn rel_type_count(&self) -> usize {
        self.rel_types.names.len()
    }
    /// Number of property keys.
    pub fn prop_key_count(&self) -> usize {
        self.prop_keys.names.len()
    }
}

impl Names {
    /// Appends a name read from a file, where ids are the positions.
    pub(crate) fn push_unchecked(&mut self, name: Arc<str>) {
        self.names.push(name);
    }

    /// Rebuilds the name -> id map after `push_unchecked`; false if a name repeats.
    pub(crate) fn rebuild_lookup(&mut self) -> bool {
        self.by_name = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        self.by_name.len() == self.names.len()
    }
}
