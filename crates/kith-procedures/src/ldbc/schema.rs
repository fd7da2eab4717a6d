//! The LDBC schema's ids in one graph, resolved once per call, and the lookups every
//! query shares.

use kith_core::ldbc_schema::{key, label, rel};
use kith_core::{
    Direction, Edge, EdgeOrder, GraphView, LabelId, NodeId, PropKeyId, RelTypeId, Value,
};

use crate::error::need;
use crate::visited::Visited;
use crate::ProcedureError;

/// The persons within two KNOWS steps of a start person, listed and marked.
pub(crate) struct Reach {
    /// Each with its distance (1 or 2), friends first.
    pub(crate) persons: Vec<(NodeId, u8)>,
    /// Marks the persons and the start.
    seen: Visited,
    start: NodeId,
}

impl Reach {
    /// Whether `node` is one of the persons (the start is not).
    #[inline]
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        node != self.start && self.seen.contains(node)
    }
}

/// Label, type and key ids of the LDBC schema in a particular graph.
pub(crate) struct Ldbc<'g> {
    pub(crate) g: &'g dyn GraphView,
    pub(crate) person: LabelId,
    pub(crate) message: LabelId,
    pub(crate) post: LabelId,
    pub(crate) comment: LabelId,
    pub(crate) tag: LabelId,
    pub(crate) tag_class: LabelId,
    pub(crate) country: LabelId,
    pub(crate) knows: RelTypeId,
    pub(crate) has_creator: RelTypeId,
    pub(crate) reply_of: RelTypeId,
    pub(crate) container_of: RelTypeId,
    pub(crate) has_member: RelTypeId,
    pub(crate) has_moderator: RelTypeId,
    pub(crate) has_tag: RelTypeId,
    pub(crate) has_interest: RelTypeId,
    pub(crate) likes: RelTypeId,
    pub(crate) is_located_in: RelTypeId,
    pub(crate) is_part_of: RelTypeId,
    pub(crate) study_at: RelTypeId,
    pub(crate) work_at: RelTypeId,
    pub(crate) has_type: RelTypeId,
    pub(crate) is_subclass_of: RelTypeId,
    pub(crate) id: PropKeyId,
    pub(crate) first_name: PropKeyId,
    pub(crate) last_name: PropKeyId,
    pub(crate) gender: PropKeyId,
    pub(crate) birthday: PropKeyId,
    pub(crate) creation_date: PropKeyId,
    pub(crate) location_ip: PropKeyId,
    pub(crate) browser_used: PropKeyId,
    pub(crate) email: PropKeyId,
    pub(crate) speaks: PropKeyId,
    pub(crate) title: PropKeyId,
    pub(crate) image_file: PropKeyId,
    pub(crate) content: PropKeyId,
    pub(crate) name: PropKeyId,
    pub(crate) join_date: PropKeyId,
    pub(crate) class_year: PropKeyId,
    pub(crate) work_from: PropKeyId,
    /// How the view orders a person's message list (HAS_CREATOR inward).
    messages: MessageOrder,
}

/// How a person's message list is ordered, read once per call from the view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MessageOrder {
    /// In an order the "newest k" reads cannot stop early in.
    Unordered,
    /// Newest first by creation date.
    Dated,
    /// Posts newest first, then comments newest first.
    PostsFirst,
}

impl<'g> Ldbc<'g> {
    pub(crate) fn resolve(g: &'g dyn GraphView) -> Result<Self, ProcedureError> {
        let l = |n| need("ldbc", g.label_id(n), "label", n);
        let t = |n| need("ldbc", g.rel_type_id(n), "relationship type", n);
        let k = |n| need("ldbc", g.prop_key_id(n), "property key", n);
        let (has_creator, creation_date, post) = (
            t(rel::HAS_CREATOR)?,
            k(key::CREATION_DATE)?,
            l(label::POST)?,
        );
        let messages = match g.edge_order(has_creator, Direction::In) {
            EdgeOrder::NewestFirst { key, first: None } if key == creation_date => {
                MessageOrder::Dated
            }
            EdgeOrder::NewestFirst {
                key,
                first: Some(l),
            } if key == creation_date && l == post => MessageOrder::PostsFirst,
            _ => MessageOrder::Unordered,
        };
        Ok(Ldbc {
            g,
            person: l(label::PERSON)?,
            message: l(label::MESSAGE)?,
            post,
            comment: l(label::COMMENT)?,
            tag: l(label::TAG)?,
            tag_class: l(label::TAG_CLASS)?,
            country: l(label::COUNTRY)?,
            knows: t(rel::KNOWS)?,
            has_creator,
            reply_of: t(rel::REPLY_OF)?,
            container_of: t(rel::CONTAINER_OF)?,
            has_member: t(rel::HAS_MEMBER)?,
            has_moderator: t(rel::HAS_MODERATOR)?,
            has_tag: t(rel::HAS_TAG)?,
            has_interest: t(rel::HAS_INTEREST)?,
            likes: t(rel::LIKES)?,
            is_located_in: t(rel::IS_LOCATED_IN)?,
            is_part_of: t(rel::IS_PART_OF)?,
            study_at: t(rel::STUDY_AT)?,
            work_at: t(rel::WORK_AT)?,
            has_type: t(rel::HAS_TYPE)?,
            is_subclass_of: t(rel::IS_SUBCLASS_OF)?,
            id: k(key::ID)?,
            first_name: k(key::FIRST_NAME)?,
            last_name: k(key::LAST_NAME)?,
            gender: k(key::GENDER)?,
            birthday: k(key::BIRTHDAY)?,
            creation_date,
            location_ip: k(key::LOCATION_IP)?,
            browser_used: k(key::BROWSER_USED)?,
            email: k(key::EMAIL)?,
            speaks: k(key::SPEAKS)?,
            title: k(key::TITLE)?,
            image_file: k(key::IMAGE_FILE)?,
            content: k(key::CONTENT)?,
            name: k(key::NAME)?,
            join_date: k(key::JOIN_DATE)?,
            class_year: k(key::CLASS_YEAR)?,
            work_from: k(key::WORK_FROM)?,
            messages,
        })
    }

    /// The person with external id `id`, or `not_found`.
    pub(crate) fn person(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.g
            .node_by_id(self.person, id)
            .ok_or(ProcedureError::NotFound {
                label: label::PERSON,
                id,
            })
    }

    /// The message (post or comment) with external id `id`, or `not_found`.
    pub(crate) fn message(&self, id: i64) -> Result<NodeId, ProcedureError> {
        self.g
            .node_by_id(self.message, id)
            .ok_or(ProcedureError::NotFound {
                label: label::MESSAGE,
                id,
            })
    }

    /// A property's value, `Null` when absent.
    #[inline]
    pub(crate) fn prop(&self, node: NodeId, key: PropKeyId) -> Value {
        self.g.node_property(node, key).unwrap_or(Value::Null)
    }

    /// An Int property as an integer (ids, dates, years); `i64::MIN` when absent,
    /// which sorts first and matches no date window. Dates are Int epoch milliseconds
    /// (the official Cypher schema's `LONG`); a `DateTime` (a graph loaded before
    /// dates were Ints) reads the same.
    #[inline]
    pub(crate) fn int(&self, node: NodeId, key: PropKeyId) -> i64 {
        match self.g.node_property(node, key) {
            Some(Value::Int(v) | Value::DateTime(v)) => v,
            _ => i64::MIN,
        }
    }

    /// An Int (or `DateTime`) property of a relationship as an integer; `i64::MIN`
    /// when absent.
    #[inline]
    pub(crate) fn rel_int(&self, rel: kith_core::RelId, key: PropKeyId) -> i64 {
        match self.g.rel_property(rel, key) {
            Some(Value::Int(v) | Value::DateTime(v)) => v,
            _ => i64::MIN,
        }
    }

    /// A date property as a result column: Int epoch milliseconds (a `DateTime` is
    /// returned as its Int), `Null` when absent.
    #[inline]
    pub(crate) fn date(&self, node: NodeId, key: PropKeyId) -> Value {
        match self.g.node_property(node, key) {
            Some(Value::Int(v) | Value::DateTime(v)) => Value::Int(v),
            _ => Value::Null,
        }
    }

    /// A string property, `""` when absent.
    #[inline]
    pub(crate) fn text(&self, node: NodeId, key: PropKeyId) -> kith_core::Str {
        match self.g.node_property(node, key) {
            Some(Value::String(s)) => s,
            _ => kith_core::Str::default(),
        }
    }

    /// The external id.
    #[inline]
    pub(crate) fn ext_id(&self, node: NodeId) -> i64 {
        self.int(node, self.id)
    }

    /// Out-neighbours over `rel`.
    #[inline]
    pub(crate) fn out(&self, node: NodeId, rel: RelTypeId) -> &'g [Edge] {
        self.g.neighbors(node, rel, Direction::Out)
    }

    /// In-neighbours over `rel`.
    #[inline]
    pub(crate) fn inc(&self, node: NodeId, rel: RelTypeId) -> &'g [Edge] {
        self.g.neighbors(node, rel, Direction::In)
    }

    /// The single out-neighbour over `rel` (a message's creator, a person's city).
    #[inline]
    pub(crate) fn one_out(&self, node: NodeId, rel: RelTypeId) -> Option<NodeId> {
        self.out(node, rel).first().map(|e| e.node)
    }

    /// A person's KNOWS lists, outgoing and incoming, as stored: a friend may be in
    /// both (a friendship stored both ways). For walks that mark what they reach
    /// anyway, so need no merged, deduplicated list.
    pub(crate) fn friend_lists(&self, person: NodeId) -> [&'g [Edge]; 2] {
        [self.out(person, self.knows), self.inc(person, self.knows)]
    }

    /// A person's friends: KNOWS is stored once per friendship, in either direction,
    /// so both lists are merged (each is sorted by neighbour; a friendship stored both
    /// ways counts once, with its outgoing relationship).
    pub(crate) fn friends(&self, person: NodeId) -> Vec<Edge> {
        let (a, b) = (self.out(person, self.knows), self.inc(person, self.knows));
        if b.is_empty() {
            return a.to_vec();
        }
        if a.is_empty() {
            return b.to_vec();
        }
        let mut merged = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let take_a = j == b.len() || (i < a.len() && a[i].node <= b[j].node);
            let next = if take_a {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            if merged
                .last()
                .is_none_or(|last: &Edge| last.node != next.node)
            {
                merged.push(next);
            }
        }
        merged
    }

    /// Friends and friends of friends of `person` (never `person`, even through a
    /// KNOWS to itself), each with its distance (1 or 2): friends first.
    pub(crate) fn within_two(&self, person: NodeId) -> Vec<(NodeId, u8)> {
        self.reach(person).persons
    }

    /// [`Ldbc::within_two`] with the set it marked on the way, for reads that then
    /// ask "is this creator one of them?" (IC3, IC6) without marking them again.
    pub(crate) fn reach(&self, person: NodeId) -> Reach {
        // A bit per node marks what was reached: cheaper than hashing the persons
        // two steps reach (IC1 went 150 -> 67 µs for the same change).
        let mut seen = Visited::new(self.g.node_id_bound());
        seen.insert(person);
        let mut out = Vec::new();
        for e in self.friend_lists(person).into_iter().flatten() {
            if seen.insert(e.node) {
                out.push((e.node, 1));
            }
        }
        for i in 0..out.len() {
            for e in self.friend_lists(out[i].0).into_iter().flatten() {
                if seen.insert(e.node) {
                    out.push((e.node, 2));
                }
            }
        }
        Reach {
            persons: out,
            seen,
            start: person,
        }
    }

    /// The persons with these external ids that this graph holds (on a forum shard:
    /// the proxies of those with content here), listed and marked like a
    /// [`Ldbc::reach`] with no start. The distances are all 1: a shard's part of a
    /// query is handed the persons its person shard reached, without distances.
    pub(crate) fn reach_of(&self, ids: &[i64]) -> Reach {
        let mut seen = Visited::new(self.g.node_id_bound());
        let mut persons = Vec::new();
        for &id in ids {
            if let Some(n) = self.g.node_by_id(self.person, id) {
                if seen.insert(n) {
                    persons.push((n, 1));
                }
            }
        }
        Reach {
            persons,
            seen,
            // No node has this id: `contains` is the marks alone.
            start: NodeId(u32::MAX),
        }
    }

    /// A person's messages (HAS_CREATOR inward) as two runs, and whether each run
    /// is newest first by creation date (so "the newest k" reads can stop early):
    /// the posts and the comments where the store keeps posts first, else the whole
    /// list and nothing.
    pub(crate) fn message_runs(&self, person: NodeId) -> (bool, [&'g [Edge]; 2]) {
        let list = self.inc(person, self.has_creator);
        match self.messages {
            MessageOrder::Unordered => (false, [list, &[]]),
            MessageOrder::Dated => (true, [list, &[]]),
            MessageOrder::PostsFirst => {
                let (posts, comments) = list.split_at(self.post_split(list));
                (true, [posts, comments])
            }
        }
    }

    /// A person's messages that may be created in `[start, end)`: where the store
    /// keeps each run newest first, just the window of each run, found by binary
    /// search (IC3 read every message of every person two steps away); else the whole
    /// list. Callers still test the date, so the answer holds in any order.
    pub(crate) fn messages_between(&self, person: NodeId, start: i64, end: i64) -> [&'g [Edge]; 2] {
        let (dated, runs) = self.message_runs(person);
        if !dated {
            return runs;
        }
        let date = |e: &Edge| self.int(e.node, self.creation_date);
        runs.map(|run| {
            let from = run.partition_point(|e| date(e) >= end);
            let to = run.partition_point(|e| date(e) >= start);
            &run[from..to.max(from)]
        })
    }

    /// The part of a person's message list that holds its posts: their run where
    /// the store keeps posts first, else all of it. Callers still test the label, so
    /// the answer holds in any order.
    pub(crate) fn posts_among(&self, person: NodeId) -> &'g [Edge] {
        let list = self.inc(person, self.has_creator);
        match self.messages {
            MessageOrder::PostsFirst => &list[..self.post_split(list)],
            MessageOrder::Unordered | MessageOrder::Dated => list,
        }
    }

    /// Where a posts-first message list's comments start.
    fn post_split(&self, list: &[Edge]) -> usize {
        list.partition_point(|e| self.g.has_label(e.node, self.post))
    }

    /// Whether two persons know each other.
    pub(crate) fn knows_each_other(&self, a: NodeId, b: NodeId) -> bool {
        let has = |x: NodeId, y: NodeId| {
            self.out(x, self.knows)
                .binary_search_by_key(&y, |e| e.node)
                .is_ok()
        };
        has(a, b) || has(b, a)
    }

    /// A message's creator.
    pub(crate) fn creator(&self, message: NodeId) -> Option<NodeId> {
        self.one_out(message, self.has_creator)
    }

    /// A message's text: its content, or its image file when it has no content.
    pub(crate) fn message_content(&self, message: NodeId) -> Value {
        match self.g.node_property(message, self.content) {
            Some(Value::String(s)) if !s.is_empty() => Value::String(s),
            _ => self.prop(message, self.image_file),
        }
    }

    /// The post at the root of a message's reply chain.
    pub(crate) fn root_post(&self, message: NodeId) -> NodeId {
        let mut m = message;
        while let Some(parent) = self.one_out(m, self.reply_of) {
            m = parent;
        }
        m
    }

    /// The country a place (city) is part of; a country is its own.
    pub(crate) fn country_of(&self, place: NodeId) -> Option<NodeId> {
        if self.g.has_label(place, self.country) {
            return Some(place);
        }
        self.one_out(place, self.is_part_of)
    }

    /// The Country node named `name`, if any (a scan of the few hundred places
    /// a country can be part of would need an index; countries are found by name
    /// through the declared index when one exists, else by a scan).
    pub(crate) fn country_named(&self, name: &str) -> Option<NodeId> {
        self.g
            .nodes_with_property(self.country, self.name, &Value::string(name), 1)
            .first()
            .copied()
    }

    /// The Tag named `name`.
    pub(crate) fn tag_named(&self, name: &str) -> Option<NodeId> {
        self.g
            .nodes_with_property(self.tag, self.name, &Value::string(name), 1)
            .first()
            .copied()
    }

    /// The TagClass named `name`.
    pub(crate) fn tag_class_named(&self, name: &str) -> Option<NodeId> {
        self.g
            .nodes_with_property(self.tag_class, self.name, &Value::string(name), 1)
            .first()
            .copied()
    }

    /// The standard person triple `[id, firstName, lastName]`.
    pub(crate) fn person_triple(&self, person: NodeId) -> [Value; 3] {
        [
            Value::Int(self.ext_id(person)),
            self.prop(person, self.first_name),
            self.prop(person, self.last_name),
        ]
    }
}
