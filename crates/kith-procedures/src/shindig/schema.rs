//! The Shindig schema's ids in one graph, resolved once per call.

use kith_core::edge_order::rank;
use kith_core::shindig_schema::{key, label, rel};
use kith_core::{
    Direction, Edge, EdgeOrder, GraphView, LabelId, NodeId, PropKeyId, RelTypeId, Value,
};

use crate::error::need;
use crate::ProcedureError;

/// Label, type and key ids of the Shindig schema in a particular graph.
pub(crate) struct Shindig<'g> {
    pub(crate) g: &'g dyn GraphView,
    pub(crate) person: LabelId,
    pub(crate) group: LabelId,
    pub(crate) activity: LabelId,
    pub(crate) message: LabelId,
    pub(crate) friend_of: RelTypeId,
    pub(crate) member_of: RelTypeId,
    pub(crate) works_at: RelTypeId,
    pub(crate) has_address: RelTypeId,
    pub(crate) owns: RelTypeId,
    pub(crate) contains: RelTypeId,
    pub(crate) sent_by: RelTypeId,
    pub(crate) sent_to: RelTypeId,
    pub(crate) performed: RelTypeId,
    pub(crate) has_media: RelTypeId,
    pub(crate) id: PropKeyId,
    pub(crate) display_name: PropKeyId,
    pub(crate) title: PropKeyId,
    pub(crate) posted_time: PropKeyId,
    pub(crate) timestamp: PropKeyId,
    /// Keys only some graphs have; absent keys read as `Null`.
    pub(crate) body: Option<PropKeyId>,
    pub(crate) url: Option<PropKeyId>,
    pub(crate) status: Option<PropKeyId>,
}

impl<'g> Shindig<'g> {
    pub(crate) fn resolve(g: &'g dyn GraphView) -> Result<Self, ProcedureError> {
        let l = |n| need("shindig", g.label_id(n), "label", n);
        let t = |n| need("shindig", g.rel_type_id(n), "relationship type", n);
        let k = |n| need("shindig", g.prop_key_id(n), "property key", n);
        Ok(Shindig {
            g,
            person: l(label::PERSON)?,
            group: l(label::GROUP)?,
            activity: l(label::ACTIVITY)?,
            message: l(label::MESSAGE)?,
            friend_of: t(rel::FRIEND_OF)?,
            member_of: t(rel::MEMBER_OF)?,
            works_at: t(rel::WORKS_AT)?,
            has_address: t(rel::HAS_ADDRESS)?,
            owns: t(rel::OWNS)?,
            contains: t(rel::CONTAINS)?,
            sent_by: t(rel::SENT_BY)?,
            sent_to: t(rel::SENT_TO)?,
            performed: t(rel::PERFORMED)?,
            has_media: t(rel::HAS_MEDIA)?,
            id: match k(key::ID)? {
                id @ PropKeyId(0) => id,
                other => {
                    return Err(ProcedureError::SchemaMismatch {
                        family: "shindig",
                        missing: format!("`id` as property key 0 (it is {other})"),
                    })
                }
            },
            display_name: k(key::DISPLAY_NAME)?,
            title: k(key::TITLE)?,
            posted_time: k(key::POSTED_TIME)?,
            timestamp: k(key::TIMESTAMP)?,
            body: g.prop_key_id(key::BODY),
            url: g.prop_key_id(key::URL),
            status: g.prop_key_id(key::STATUS),
        })
    }

    fn lookup(
        &self,
        label: LabelId,
        name: &'static str,
        id: i64,
    ) -> Result<NodeId, ProcedureError> {
        self.g
            .node_by_id(label, id)
            .ok_or(ProcedureError::NotFound { label: name, id })
    }

    /// The person with external id `id`, or `not_found`.
    pub(crate) fn person(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.lookup(self.person, label::PERSON, id)
    }
    /// The people with these external ids, in order; `not_found` names the first
    /// unknown one.
    pub(crate) fn people(&self, ids: &[i64]) -> Result<Vec<NodeId>, ProcedureError> {
        ids.iter().map(|id| self.person(*id)).collect()
    }
    /// The group with external id `id`, or `not_found`.
    pub(crate) fn group(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.lookup(self.group, label::GROUP, id)
    }
    /// The activity with external id `id`, or `not_found`.
    pub(crate) fn activity(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.lookup(self.activity, label::ACTIVITY, id)
    }
    /// The message with external id `id`, or `not_found`.
    pub(crate) fn message(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.lookup(self.message, label::MESSAGE, id)
    }

    /// A person's friends, sorted by internal id.
    #[inline]
    pub(crate) fn friends(&self, person: NodeId) -> &'g [Edge] {
        self.g.neighbors(person, self.friend_of, Direction::Out)
    }

    /// A node's properties, fetched once so several can be read without walking the
    /// page table and the trait object again for each (the hot cost of row building).
    #[inline]
    pub(crate) fn props(&self, node: NodeId) -> Props<'g> {
        Props {
            g: self.g,
            node,
            id_key: self.id,
        }
    }

    /// A property, `Null` if absent.
    #[inline]
    pub(crate) fn prop(&self, node: NodeId, key: PropKeyId) -> Value {
        self.g.node_property(node, key).unwrap_or(Value::Null)
    }

    /// An optional-key property, `Null` if the key or the property is absent.
    #[inline]
    pub(crate) fn prop_opt(&self, node: NodeId, key: Option<PropKeyId>) -> Value {
        key.map_or(Value::Null, |k| self.prop(node, k))
    }

    /// The external id (0 if absent, which the generator never produces).
    ///
    /// `id` is property key 0 (`kith_storage::ID_KEY`) and properties are sorted by
    /// key, so it is the first property whenever present: no search needed on this
    /// hottest of lookups.
    #[inline]
    pub(crate) fn ext_id(&self, node: NodeId) -> i64 {
        match self.g.node_property(node, self.id) {
            Some(Value::Int(id)) => id,
            _ => 0,
        }
    }

    /// A DateTime (or Int) property as millis (`i64::MIN` if absent, so it sorts
    /// last): the rank a newest-first list orders by.
    #[inline]
    pub(crate) fn time(&self, node: NodeId, key: PropKeyId) -> i64 {
        rank(self.g.node_property(node, key).as_ref())
    }

    /// Whether persons' activity lists (PERFORMED outward) are kept newest first by
    /// postedTime, so "the newest k" reads can stop early.
    pub(crate) fn activities_newest_first(&self) -> bool {
        self.g.edge_order(self.performed, Direction::Out)
            == EdgeOrder::NewestFirst {
                key: self.posted_time,
                first: None,
            }
    }
}

/// One node's key-sorted properties.
#[derive(Clone, Copy)]
pub(crate) struct Props<'g> {
    g: &'g dyn GraphView,
    node: NodeId,
    id_key: PropKeyId,
}

impl Props<'_> {
    /// A property, `Null` if absent.
    #[inline]
    pub(crate) fn get(&self, key: PropKeyId) -> Value {
        self.g.node_property(self.node, key).unwrap_or(Value::Null)
    }

    /// A property whose key may not exist in this graph.
    #[inline]
    pub(crate) fn get_opt(&self, key: Option<PropKeyId>) -> Value {
        key.map_or(Value::Null, |k| self.get(k))
    }

    /// The external id: `id` is key 0, so the first property (0 if absent).
    #[inline]
    pub(crate) fn id(&self) -> i64 {
        match self.g.node_property(self.node, self.id_key) {
            Some(Value::Int(id)) => id,
            _ => 0,
        }
    }

    /// A DateTime (or Int) as millis, `i64::MIN` if absent (sorts last when newest
    /// first).
    #[inline]
    pub(crate) fn time(&self, key: PropKeyId) -> i64 {
        rank(self.g.node_property(self.node, key).as_ref())
    }
}
