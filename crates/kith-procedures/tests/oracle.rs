//! Brute-force oracle for the 19 Shindig procedures (`docs/procedures.md`).
//!
//! For several generated graphs (seeds 1, 2, 3 at scale 0.05 and seed 9 at scale
//! 0.25), with a few hand-made edge cases added (a person with no relationships at
//! all and a displayName assigned twice, a group with no members, two people forming
//! a friendship component of their own, a person whose activities and inbox messages
//! tie on time, whose media items were inserted out of id order and whose message
//! sits in two of their collections), every procedure is called through `Registry::with_builtins()` on a `Snapshot` and
//! its whole `ResultSet` (columns, values, value types and row order) is compared
//! with the result computed here. Error cases check the error's variant and that the
//! message names the offending procedure, parameter or id.
//!
//! The oracle is independent of the store: it never calls `Snapshot` or `GraphView`
//! methods. It only reads the generator's `RawGraph` record lists: one naive scan of
//! `live_nodes()` maps `(label, id property)` to nodes and one naive scan of
//! `live_rels()` lists each node's relationships per type and direction. Everything
//! else (distances, candidates, counts, orderings, limits) is recomputed from those
//! lists with plain loops, plain BFS and plain sorts.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Arc, OnceLock};

use kith_core::shindig_schema::{collection, key, label, rel};
use kith_core::{LabelId, NodeId, RelTypeId, Value};
use kith_datagen::shindig::{generate, ShindigConfig};
use kith_procedures::{ProcedureError, Registry, ResultSet};
use kith_storage::{RawGraph, RawNode, Snapshot, StorageError, ID_KEY};

/// A person added with no relationships at all.
const ISOLATED: i64 = 900_001;
/// A person added with one friend, tied activity times and tied message times.
const TIE_POSTER: i64 = 900_002;
/// Two people added as each other's only friend (a separate component).
const ISLAND: (i64, i64) = (900_003, 900_004);
/// A group added with no members.
const EMPTY_GROUP: i64 = 900_001;
/// An id no generated label reaches at these scales.
const UNKNOWN: i64 = 123_456;

const PERSON_COLUMNS: &[&str] = &["id", "displayName"];
const ACTIVITY_COLUMNS: &[&str] = &["id", "personId", "title", "body", "postedTime", "mediaUrls"];
const PROFILE_PROPERTIES: &[&str] = &[
    key::DISPLAY_NAME,
    key::GIVEN_NAME,
    key::FAMILY_NAME,
    key::EMAIL,
    key::PHONE_NUMBER,
    key::BIRTHDAY,
    key::GENDER,
    key::ABOUT_ME,
    key::INTERESTS,
    key::JOB_TITLE,
    key::UPDATED,
];
const ADDRESS_FIELDS: &[&str] = &[
    key::TYPE,
    key::STREET_ADDRESS,
    key::LOCALITY,
    key::REGION,
    key::POSTAL_CODE,
    key::COUNTRY,
];

/// What the oracle expects: a result, or the `not_found` message.
type Expect = Result<ResultSet, String>;
/// `(node, type)` -> `(node at the other end, relationship slot)`.
type Adjacency = HashMap<(NodeId, RelTypeId), Vec<(NodeId, usize)>>;

// ---------------------------------------------------------------------------------
// The raw graph, indexed by naive scans.
// ---------------------------------------------------------------------------------

struct Raw {
    g: RawGraph,
    person: LabelId,
    group: LabelId,
    activity: LabelId,
    message: LabelId,
    friend_of: RelTypeId,
    member_of: RelTypeId,
    works_at: RelTypeId,
    has_address: RelTypeId,
    owns: RelTypeId,
    contains: RelTypeId,
    sent_by: RelTypeId,
    sent_to: RelTypeId,
    performed: RelTypeId,
    has_media: RelTypeId,
    by_ext: HashMap<(LabelId, i64), NodeId>,
    out: Adjacency,
    inc: Adjacency,
}

impl Raw {
    fn new(g: RawGraph) -> Raw {
        let c = &g.catalog;
        let l = |n: &str| c.find_label(n).expect("label in the generated catalog");
        let t = |n: &str| c.find_rel_type(n).expect("type in the generated catalog");
        let (person, group, activity, message) = (
            l(label::PERSON),
            l(label::GROUP),
            l(label::ACTIVITY),
            l(label::MESSAGE),
        );
        let (friend_of, member_of, works_at, has_address, owns, contains) = (
            t(rel::FRIEND_OF),
            t(rel::MEMBER_OF),
            t(rel::WORKS_AT),
            t(rel::HAS_ADDRESS),
            t(rel::OWNS),
            t(rel::CONTAINS),
        );
        let (sent_by, sent_to, performed, has_media) = (
            t(rel::SENT_BY),
            t(rel::SENT_TO),
            t(rel::PERFORMED),
            t(rel::HAS_MEDIA),
        );
        let mut by_ext = HashMap::new();
        for (id, node) in g.live_nodes() {
            if let Some(ext) = node.property(ID_KEY).and_then(Value::as_int) {
                for &l in &node.labels {
                    by_ext.insert((l, ext), id);
                }
            }
        }
        let (mut out, mut inc) = (Adjacency::new(), Adjacency::new());
        for (id, r) in g.live_rels() {
            out.entry((r.src, r.rel_type))
                .or_default()
                .push((r.dst, id.index()));
            inc.entry((r.dst, r.rel_type))
                .or_default()
                .push((r.src, id.index()));
        }
        Raw {
            g,
            person,
            group,
            activity,
            message,
            friend_of,
            member_of,
            works_at,
            has_address,
            owns,
            contains,
            sent_by,
            sent_to,
            performed,
            has_media,
            by_ext,
            out,
            inc,
        }
    }

    fn node(&self, n: NodeId) -> &RawNode {
        self.g.nodes[n.index()].as_ref().expect("live node")
    }

    /// A node property by name, `Null` if absent (the last assignment wins).
    fn prop(&self, n: NodeId, name: &str) -> Value {
        self.g
            .catalog
            .find_prop_key(name)
            .and_then(|k| self.node(n).property(k).cloned())
            .unwrap_or(Value::Null)
    }

    /// A relationship property by name, `Null` if absent.
    fn rel_prop(&self, slot: usize, name: &str) -> Value {
        let r = self.g.rels[slot].as_ref().expect("live relationship");
        self.g
            .catalog
            .find_prop_key(name)
            .and_then(|k| r.property(k).cloned())
            .unwrap_or(Value::Null)
    }

    fn ext(&self, n: NodeId) -> i64 {
        self.node(n)
            .property(ID_KEY)
            .and_then(Value::as_int)
            .expect("every node has an id")
    }

    fn time(&self, n: NodeId, name: &str) -> i64 {
        self.prop(n, name).as_datetime().unwrap_or(i64::MIN)
    }

    fn find(&self, label: LabelId, ext: i64) -> Option<NodeId> {
        self.by_ext.get(&(label, ext)).copied()
    }

    /// The subject of a call, or the `not_found` message.
    fn subject(&self, label: LabelId, name: &str, ext: i64) -> Result<NodeId, String> {
        self.find(label, ext)
            .ok_or_else(|| format!("no {name} with id {ext}"))
    }

    fn out_rels(&self, n: NodeId, t: RelTypeId) -> Vec<(NodeId, usize)> {
        self.out.get(&(n, t)).cloned().unwrap_or_default()
    }

    /// Targets of `n`'s outgoing relationships of type `t`, each once.
    fn out(&self, n: NodeId, t: RelTypeId) -> Vec<NodeId> {
        let mut v: Vec<NodeId> = self.out_rels(n, t).into_iter().map(|(m, _)| m).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Sources of `n`'s incoming relationships of type `t`, each once.
    fn inc(&self, n: NodeId, t: RelTypeId) -> Vec<NodeId> {
        let mut v: Vec<NodeId> = self
            .inc
            .get(&(n, t))
            .into_iter()
            .flatten()
            .map(|(m, _)| *m)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Nodes ordered by external id.
    fn by_id(&self, mut nodes: Vec<NodeId>) -> Vec<NodeId> {
        nodes.sort_by_key(|n| self.ext(*n));
        nodes.dedup();
        nodes
    }

    /// External ids of every node with the label, ascending.
    fn all(&self, label: LabelId) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .g
            .live_nodes()
            .filter(|(_, n)| n.labels.contains(&label))
            .filter_map(|(_, n)| n.property(ID_KEY).and_then(Value::as_int))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Plain BFS over FRIEND_OF, following relationships forwards or backwards.
    fn bfs(&self, start: NodeId, forward: bool) -> HashMap<NodeId, usize> {
        let mut dist = HashMap::from([(start, 0)]);
        let mut queue = VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            let d = dist[&n];
            let next = if forward {
                self.out(n, self.friend_of)
            } else {
                self.inc(n, self.friend_of)
            };
            for m in next {
                if let Entry::Vacant(slot) = dist.entry(m) {
                    slot.insert(d + 1);
                    queue.push_back(m);
                }
            }
        }
        dist
    }

    fn person_ref(&self, n: NodeId) -> Vec<Value> {
        vec![Value::Int(self.ext(n)), self.prop(n, key::DISPLAY_NAME)]
    }

    fn activity_row(&self, a: NodeId, performer: NodeId) -> Vec<Value> {
        let media = self.by_id(self.out(a, self.has_media));
        vec![
            Value::Int(self.ext(a)),
            Value::Int(self.ext(performer)),
            self.prop(a, key::TITLE),
            self.prop(a, key::BODY),
            self.prop(a, key::POSTED_TIME),
            Value::List(media.into_iter().map(|m| self.prop(m, key::URL)).collect()),
        ]
    }

    /// Activity rows of `(activity, performer)` pairs, newest first, ties by id desc.
    fn activity_rows(&self, mut pairs: Vec<(NodeId, NodeId)>, limit: usize) -> Vec<Vec<Value>> {
        pairs.sort_by_key(|(a, _)| {
            (
                Reverse(self.time(*a, key::POSTED_TIME)),
                Reverse(self.ext(*a)),
            )
        });
        pairs
            .into_iter()
            .take(limit)
            .map(|(a, p)| self.activity_row(a, p))
            .collect()
    }

    fn profile_row(&self, p: NodeId) -> Vec<Value> {
        let mut row = vec![Value::Int(self.ext(p))];
        row.extend(PROFILE_PROPERTIES.iter().map(|k| self.prop(p, k)));
        let addresses = self.by_id(self.out(p, self.has_address));
        row.push(Value::List(
            addresses
                .into_iter()
                .map(|a| {
                    Value::Map(
                        ADDRESS_FIELDS
                            .iter()
                            .map(|f| (Arc::from(*f), self.prop(a, f)))
                            .collect(),
                    )
                })
                .collect(),
        ));
        let mut jobs = self.out_rels(p, self.works_at);
        jobs.sort_by_key(|(o, slot)| (self.ext(*o), *slot));
        row.push(Value::List(
            jobs.into_iter()
                .map(|(o, slot)| {
                    Value::Map(vec![
                        (Arc::from("id"), Value::Int(self.ext(o))),
                        (Arc::from("name"), self.prop(o, key::NAME)),
                        (Arc::from("industry"), self.prop(o, key::INDUSTRY)),
                        (Arc::from("title"), self.rel_prop(slot, key::TITLE)),
                        (
                            Arc::from("department"),
                            self.rel_prop(slot, key::DEPARTMENT),
                        ),
                        (Arc::from("startDate"), self.rel_prop(slot, key::START_DATE)),
                    ])
                })
                .collect(),
        ));
        row
    }

    /// Messages in any of the person's OWNS collections.
    fn owned_messages(&self, p: NodeId) -> Vec<NodeId> {
        let all = self
            .out(p, self.owns)
            .into_iter()
            .flat_map(|c| self.out(c, self.contains));
        self.by_id(all.collect())
    }

    fn performer(&self, a: NodeId) -> Option<NodeId> {
        self.inc(a, self.performed).first().copied()
    }
}

fn table(columns: &[&str], rows: Vec<Vec<Value>>) -> ResultSet {
    ResultSet::from_rows(columns, rows)
}

/// `limit` semantics: 0 means no limit.
fn cap(limit: i64) -> usize {
    if limit == 0 {
        usize::MAX
    } else {
        usize::try_from(limit).expect("non-negative limit")
    }
}

fn ints(ids: &[i64]) -> Value {
    Value::List(ids.iter().map(|i| Value::Int(*i)).collect())
}

// ---------------------------------------------------------------------------------
// One oracle per procedure.
// ---------------------------------------------------------------------------------

fn q01_group_members(r: &Raw, group: i64) -> Expect {
    let g = r.subject(r.group, label::GROUP, group)?;
    let members = r.by_id(r.inc(g, r.member_of));
    Ok(table(
        PERSON_COLUMNS,
        members.into_iter().map(|m| r.person_ref(m)).collect(),
    ))
}

fn q02_person_groups(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let groups = r.by_id(r.out(p, r.member_of));
    let rows = groups
        .into_iter()
        .map(|g| vec![Value::Int(r.ext(g)), r.prop(g, key::TITLE)]);
    Ok(table(&["id", "title"], rows.collect()))
}

fn q03_friend_recommendations(r: &Raw, person: i64, limit: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let friends: HashSet<NodeId> = r.out(p, r.friend_of).into_iter().collect();
    let mut common: HashMap<NodeId, i64> = HashMap::new();
    for &f in &friends {
        for c in r.out(f, r.friend_of) {
            if c != p && !friends.contains(&c) {
                *common.entry(c).or_default() += 1;
            }
        }
    }
    let mut found: Vec<(NodeId, i64)> = common.into_iter().collect();
    found.sort_by_key(|(c, n)| (Reverse(*n), r.ext(*c)));
    let rows = found.into_iter().take(cap(limit)).map(|(c, n)| {
        let mut row = r.person_ref(c);
        row.push(Value::Int(n));
        row
    });
    Ok(table(
        &["id", "displayName", "commonFriends"],
        rows.collect(),
    ))
}

fn q04_group_recommendations(r: &Raw, person: i64, limit: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let mine: HashSet<NodeId> = r.out(p, r.member_of).into_iter().collect();
    let mut count: HashMap<NodeId, i64> = HashMap::new();
    for f in r.out(p, r.friend_of) {
        for g in r.out(f, r.member_of) {
            if !mine.contains(&g) {
                *count.entry(g).or_default() += 1;
            }
        }
    }
    let mut found: Vec<(NodeId, i64)> = count.into_iter().collect();
    found.sort_by_key(|(g, n)| (Reverse(*n), r.ext(*g)));
    let rows = found
        .into_iter()
        .take(cap(limit))
        .map(|(g, n)| vec![Value::Int(r.ext(g)), r.prop(g, key::TITLE), Value::Int(n)]);
    Ok(table(&["id", "title", "friendsInGroup"], rows.collect()))
}

fn q05_friends_of_friends_3(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let dist = r.bfs(p, true);
    let near: Vec<NodeId> = dist
        .iter()
        .filter(|(_, d)| (2..=3).contains(*d))
        .map(|(n, _)| *n)
        .collect();
    let rows = r.by_id(near).into_iter().map(|n| {
        let mut row = r.person_ref(n);
        row.push(Value::Int(dist[&n] as i64));
        row
    });
    Ok(table(&["id", "displayName", "distance"], rows.collect()))
}

fn q06_friends_of_friends(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let dist = r.bfs(p, true);
    let two: Vec<NodeId> = dist
        .iter()
        .filter(|(_, d)| **d == 2)
        .map(|(n, _)| *n)
        .collect();
    Ok(table(
        PERSON_COLUMNS,
        r.by_id(two).into_iter().map(|n| r.person_ref(n)).collect(),
    ))
}

fn q07_shortest_path(r: &Raw, from: i64, to: i64) -> Expect {
    let a = r.subject(r.person, label::PERSON, from)?;
    let b = r.subject(r.person, label::PERSON, to)?;
    let mut rs = ResultSet::new(&["length", "path"]);
    let from_a = r.bfs(a, true);
    let Some(&length) = from_a.get(&b) else {
        return Ok(rs);
    };
    let to_b = r.bfs(b, false);
    // Walk from `a`, always to the smallest-id friend that lies on a shortest path.
    let mut path = vec![a];
    let mut cur = a;
    for step in 1..=length {
        cur = r
            .out(cur, r.friend_of)
            .into_iter()
            .filter(|n| from_a.get(n) == Some(&step) && to_b.get(n) == Some(&(length - step)))
            .min_by_key(|n| r.ext(*n))
            .expect("a shortest path continues");
        path.push(cur);
    }
    assert_eq!(cur, b, "the oracle's walk ends at the target");
    rs.push(vec![
        Value::Int(length as i64),
        Value::List(path.into_iter().map(|n| Value::Int(r.ext(n))).collect()),
    ]);
    Ok(rs)
}

fn q08_inbox(r: &Raw, person: i64, limit: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let inboxes = r
        .out(p, r.owns)
        .into_iter()
        .filter(|c| r.prop(*c, key::TITLE).as_str() == Some(collection::INBOX));
    let mut messages: Vec<NodeId> = inboxes.flat_map(|c| r.out(c, r.contains)).collect();
    messages.sort_unstable();
    messages.dedup();
    messages.sort_by_key(|m| (Reverse(r.time(*m, key::TIMESTAMP)), Reverse(r.ext(*m))));
    let rows = messages.into_iter().take(cap(limit)).map(|m| {
        let sender = r.out(m, r.sent_by).first().copied();
        vec![
            Value::Int(r.ext(m)),
            r.prop(m, key::TITLE),
            sender.map_or(Value::Null, |s| Value::Int(r.ext(s))),
            sender.map_or(Value::Null, |s| r.prop(s, key::DISPLAY_NAME)),
            r.prop(m, key::TIMESTAMP),
            r.prop(m, key::STATUS),
        ]
    });
    Ok(table(
        &[
            "id",
            "title",
            "senderId",
            "senderName",
            "timestamp",
            "status",
        ],
        rows.collect(),
    ))
}

fn q09_message_collections(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let rows = r.by_id(r.out(p, r.owns)).into_iter().map(|c| {
        let count = r.out(c, r.contains).len() as i64;
        vec![
            Value::Int(r.ext(c)),
            r.prop(c, key::TITLE),
            Value::Int(count),
        ]
    });
    Ok(table(&["id", "title", "messageCount"], rows.collect()))
}

const PROFILE_COLUMNS: &[&str] = &[
    "id",
    "displayName",
    "givenName",
    "familyName",
    "email",
    "phoneNumber",
    "birthday",
    "gender",
    "aboutMe",
    "interests",
    "jobTitle",
    "updated",
    "addresses",
    "organizations",
];

fn q10_profile(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    Ok(table(PROFILE_COLUMNS, vec![r.profile_row(p)]))
}

fn q11_profiles(r: &Raw, people: &[i64]) -> Expect {
    let mut rows = Vec::new();
    for &id in people {
        rows.push(r.profile_row(r.subject(r.person, label::PERSON, id)?));
    }
    Ok(table(PROFILE_COLUMNS, rows))
}

fn q12_friends_of_people(r: &Raw, people: &[i64]) -> Expect {
    let mut rows = Vec::new();
    for &id in people {
        let p = r.subject(r.person, label::PERSON, id)?;
        for f in r.by_id(r.out(p, r.friend_of)) {
            let mut row = vec![Value::Int(id)];
            row.extend(r.person_ref(f));
            rows.push(row);
        }
    }
    Ok(table(&["personId", "id", "displayName"], rows))
}

fn q13_friends(r: &Raw, person: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let friends = r.by_id(r.out(p, r.friend_of));
    Ok(table(
        PERSON_COLUMNS,
        friends.into_iter().map(|f| r.person_ref(f)).collect(),
    ))
}

fn q14_activity(r: &Raw, person: i64, activity: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let a = r.subject(r.activity, label::ACTIVITY, activity)?;
    let rows = if r.out(p, r.performed).contains(&a) {
        vec![r.activity_row(a, p)]
    } else {
        vec![]
    };
    Ok(table(ACTIVITY_COLUMNS, rows))
}

fn q15_person_activities(r: &Raw, person: i64, limit: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let pairs = r.out(p, r.performed).into_iter().map(|a| (a, p)).collect();
    Ok(table(ACTIVITY_COLUMNS, r.activity_rows(pairs, cap(limit))))
}

fn q16_activities_of_people(r: &Raw, people: &[i64]) -> Expect {
    let mut rows = Vec::new();
    for &id in people {
        let p = r.subject(r.person, label::PERSON, id)?;
        let pairs = r.out(p, r.performed).into_iter().map(|a| (a, p)).collect();
        rows.extend(r.activity_rows(pairs, usize::MAX));
    }
    Ok(table(ACTIVITY_COLUMNS, rows))
}

fn q17_activities_by_ids(r: &Raw, person: i64, activities: &[i64]) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let mut found = Vec::new();
    for &id in activities {
        found.push(r.subject(r.activity, label::ACTIVITY, id)?);
    }
    let mine = r.out(p, r.performed);
    let rows = found
        .into_iter()
        .filter(|a| mine.contains(a))
        .map(|a| r.activity_row(a, p));
    Ok(table(ACTIVITY_COLUMNS, rows.collect()))
}

fn q18_activity_stream(r: &Raw, person: i64, limit: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let mut pairs = Vec::new();
    for f in r.out(p, r.friend_of) {
        pairs.extend(r.out(f, r.performed).into_iter().map(|a| (a, f)));
    }
    Ok(table(ACTIVITY_COLUMNS, r.activity_rows(pairs, cap(limit))))
}

fn q19_message(r: &Raw, person: i64, message: i64) -> Expect {
    let p = r.subject(r.person, label::PERSON, person)?;
    let m = r.subject(r.message, label::MESSAGE, message)?;
    let columns = [
        "id",
        "title",
        "body",
        "senderId",
        "recipientId",
        "timestamp",
        "status",
        "collection",
    ];
    let holders: Vec<NodeId> = r
        .out(p, r.owns)
        .into_iter()
        .filter(|c| r.out(*c, r.contains).contains(&m))
        .collect();
    let Some(&first) = r.by_id(holders).first() else {
        return Ok(ResultSet::new(&columns));
    };
    let end = |t| {
        r.out(m, t)
            .first()
            .map_or(Value::Null, |n| Value::Int(r.ext(*n)))
    };
    let row = vec![
        Value::Int(r.ext(m)),
        r.prop(m, key::TITLE),
        r.prop(m, key::BODY),
        end(r.sent_by),
        end(r.sent_to),
        r.prop(m, key::TIMESTAMP),
        r.prop(m, key::STATUS),
        r.prop(first, key::TITLE),
    ];
    Ok(table(&columns, vec![row]))
}

// ---------------------------------------------------------------------------------
// Fixtures: generated graphs with edge cases, a snapshot, and sampled subjects.
// ---------------------------------------------------------------------------------

struct Fixture {
    name: String,
    raw: Raw,
    snapshot: Snapshot,
    registry: Registry,
    /// Sampled person ids (highest and lowest degree, the edge cases, evenly spaced).
    people: Vec<i64>,
}

/// Adds the hand-made edge cases to a generated graph.
fn add_edge_cases(g: &mut RawGraph) -> Result<(), StorageError> {
    let c = &mut g.catalog;
    let (person, group) = (c.label(label::PERSON)?, c.label(label::GROUP)?);
    let (activity, media) = (c.label(label::ACTIVITY)?, c.label(label::MEDIA_ITEM)?);
    let (folder, message) = (
        c.label(label::MESSAGE_COLLECTION)?,
        c.label(label::MESSAGE)?,
    );
    let (friend_of, performed, has_media) = (
        c.rel_type(rel::FRIEND_OF)?,
        c.rel_type(rel::PERFORMED)?,
        c.rel_type(rel::HAS_MEDIA)?,
    );
    let (owns, contains) = (c.rel_type(rel::OWNS)?, c.rel_type(rel::CONTAINS)?);
    let (sent_by, sent_to) = (c.rel_type(rel::SENT_BY)?, c.rel_type(rel::SENT_TO)?);
    let name = c.prop_key(key::DISPLAY_NAME)?;
    let given = c.prop_key(key::GIVEN_NAME)?;
    let interests = c.prop_key(key::INTERESTS)?;
    let title = c.prop_key(key::TITLE)?;
    let body = c.prop_key(key::BODY)?;
    let posted = c.prop_key(key::POSTED_TIME)?;
    let url = c.prop_key(key::URL)?;
    let timestamp = c.prop_key(key::TIMESTAMP)?;
    let status = c.prop_key(key::STATUS)?;
    let id = |i: i64| (ID_KEY, Value::Int(i));
    let s = |text: &str| Value::string(text);

    // A person with no relationships at all; displayName is assigned twice.
    g.add_node(
        vec![person],
        vec![
            id(ISOLATED),
            (name, s("Old Name")),
            (name, s("Isolde Alone")),
        ],
    )?;
    // A group nobody is a member of.
    g.add_node(
        vec![group],
        vec![id(EMPTY_GROUP), (title, s("Empty Group"))],
    )?;
    // Two people who are only each other's friends: a component of their own.
    let a = g.add_node(vec![person], vec![id(ISLAND.0), (name, s("Island One"))])?;
    let b = g.add_node(vec![person], vec![id(ISLAND.1), (name, s("Island Two"))])?;
    g.add_rel(friend_of, a, b, vec![])?;
    g.add_rel(friend_of, b, a, vec![])?;

    // A person befriending person 1, whose activities and inbox messages tie on time.
    let tie = g.add_node(
        vec![person],
        vec![
            id(TIE_POSTER),
            (name, s("Tie Poster")),
            (given, s("Tie")),
            (interests, Value::List(vec![])),
        ],
    )?;
    let first_person = g
        .live_nodes()
        .find(|(_, n)| n.labels.contains(&person) && n.property(ID_KEY) == Some(&Value::Int(1)))
        .map(|(n, _)| n)
        .expect("person 1");
    g.add_rel(friend_of, tie, first_person, vec![])?;
    g.add_rel(friend_of, first_person, tie, vec![])?;
    let when = Value::DateTime(1_400_000_000_000);
    let mut acts = Vec::new();
    for i in 0..3 {
        let a = g.add_node(
            vec![activity],
            vec![
                id(900_001 + i),
                (title, Value::string(format!("tie {i}"))),
                (body, s("same time")),
                (posted, when.clone()),
            ],
        )?;
        g.add_rel(performed, tie, a, vec![])?;
        acts.push(a);
    }
    // Media items inserted in descending id order: rows must list them by id.
    for i in [900_002, 900_001] {
        let m = g.add_node(
            vec![media],
            vec![
                id(i),
                (
                    url,
                    Value::string(format!("https://media.intranet.example/tie-{i}.jpg")),
                ),
            ],
        )?;
        g.add_rel(has_media, acts[1], m, vec![])?;
    }
    // Collections: the smaller id is the Archive, so `message` must pick it.
    let archive = g.add_node(
        vec![folder],
        vec![id(900_001), (title, s(collection::ARCHIVE))],
    )?;
    let inbox = g.add_node(
        vec![folder],
        vec![id(900_002), (title, s(collection::INBOX))],
    )?;
    g.add_rel(owns, tie, archive, vec![])?;
    g.add_rel(owns, tie, inbox, vec![])?;
    for i in [900_001, 900_002] {
        let m = g.add_node(
            vec![message],
            vec![
                id(i),
                (title, Value::string(format!("tie message {i}"))),
                (body, s("same time")),
                (timestamp, when.clone()),
                (status, s("unread")),
            ],
        )?;
        g.add_rel(sent_by, m, first_person, vec![])?;
        g.add_rel(sent_to, m, tie, vec![])?;
        g.add_rel(contains, inbox, m, vec![])?;
        if i == 900_001 {
            g.add_rel(contains, archive, m, vec![])?;
        }
    }
    Ok(())
}

fn sample_people(r: &Raw) -> Vec<i64> {
    let generated: Vec<i64> = r
        .all(r.person)
        .into_iter()
        .filter(|id| *id < 900_000)
        .collect();
    let degree = |id: &i64| {
        r.find(r.person, *id)
            .map_or(0, |p| r.out(p, r.friend_of).len())
    };
    let highest = generated
        .iter()
        .max_by_key(|id| (degree(id), Reverse(**id)))
        .expect("people");
    let lowest = generated
        .iter()
        .min_by_key(|id| (degree(id), **id))
        .expect("people");
    let mut sample = vec![*highest, *lowest, ISOLATED, TIE_POSTER, ISLAND.0];
    let n = generated.len();
    sample.extend((0..=10).map(|k| generated[k * (n - 1) / 10]));
    let mut seen = HashSet::new();
    sample.retain(|id| seen.insert(*id));
    sample
}

fn fixture(seed: u64, scale: f64) -> Fixture {
    let mut g = generate(ShindigConfig { scale, seed }).expect("generates");
    add_edge_cases(&mut g).expect("edge cases fit");
    let snapshot = Snapshot::from_raw(g.clone()).expect("loads");
    let raw = Raw::new(g);
    let people = sample_people(&raw);
    Fixture {
        name: format!("seed {seed}, scale {scale}"),
        raw,
        snapshot,
        registry: Registry::with_builtins(),
        people,
    }
}

fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        vec![
            fixture(1, 0.05),
            fixture(2, 0.05),
            fixture(3, 0.05),
            fixture(9, 0.25),
        ]
    })
}

impl Fixture {
    /// Calls the procedure and compares with the oracle's expectation; returns the
    /// number of rows expected (0 for an error), so tests can see what they covered.
    fn check(&self, name: &str, params: &[(&str, Value)], expected: Expect) -> usize {
        let given: Vec<(String, Value)> = params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let what = format!("{name} on {} with {params:?}", self.name);
        let actual = self.registry.call(&self.snapshot, name, &given);
        let rows = expected.as_ref().map_or(0, |rs| rs.len());
        match (actual, expected) {
            (Ok(actual), Ok(expected)) => {
                assert_eq!(actual.columns(), expected.columns(), "{what}: columns");
                for i in 0..actual.len().max(expected.len()) {
                    assert_eq!(
                        actual.row(i),
                        expected.row(i),
                        "{what}: row {i} (actual has {} rows, expected {})",
                        actual.len(),
                        expected.len()
                    );
                }
                assert_eq!(actual, expected, "{what}");
            }
            (Err(e), Ok(_)) => panic!("{what}: expected a result, got error {}", variant(&e)),
            (Ok(rs), Err(msg)) => panic!("{what}: expected not_found `{msg}`, got {rs:?}"),
            (Err(e), Err(msg)) => {
                assert_eq!((variant(&e), e.to_string()), ("NotFound", msg), "{what}");
            }
        }
        rows
    }

    /// Checks an error's variant and that its message mentions every needle.
    fn check_err(&self, name: &str, params: Vec<(String, Value)>, code: &str, needles: &[&str]) {
        let what = format!("{name} on {} with {:?}", self.name, short(&params));
        match self.registry.call(&self.snapshot, name, &params) {
            Ok(rs) => panic!("{what}: expected error {code}, got {} rows", rs.len()),
            Err(e) => {
                assert_eq!(variant(&e), code, "{what}: {e}");
                let msg = e.to_string();
                for needle in needles {
                    assert!(
                        msg.contains(needle),
                        "{what}: message `{msg}` should name `{needle}`"
                    );
                }
            }
        }
    }

    fn person_activities(&self, person: i64) -> Vec<i64> {
        let r = &self.raw;
        let p = r.find(r.person, person).expect("sampled person");
        r.by_id(r.out(p, r.performed))
            .into_iter()
            .map(|a| r.ext(a))
            .collect()
    }

    /// Up to `n` activity ids from across the graph that `person` did not perform.
    fn others_activities(&self, person: i64, n: usize) -> Vec<i64> {
        let r = &self.raw;
        let all = r.all(r.activity);
        let spots = [
            0,
            all.len() / 3,
            all.len() / 2,
            all.len() - 1,
            all.len() - 2,
        ];
        let mut out: Vec<i64> = spots
            .iter()
            .map(|&i| all[i])
            .filter(|a| {
                let node = r.find(r.activity, *a).expect("activity");
                r.performer(node).map(|p| r.ext(p)) != Some(person)
            })
            .collect();
        out.dedup();
        out.truncate(n);
        out
    }

    fn person_messages(&self, person: i64) -> Vec<i64> {
        let r = &self.raw;
        let p = r.find(r.person, person).expect("sampled person");
        r.owned_messages(p).into_iter().map(|m| r.ext(m)).collect()
    }

    fn others_messages(&self, person: i64, n: usize) -> Vec<i64> {
        let mine: HashSet<i64> = self.person_messages(person).into_iter().collect();
        let all = self.raw.all(self.raw.message);
        let spots = [
            0,
            all.len() / 3,
            2 * all.len() / 3,
            all.len() - 1,
            all.len() - 2,
        ];
        let mut out: Vec<i64> = spots
            .iter()
            .map(|&i| all[i])
            .filter(|m| !mine.contains(m))
            .collect();
        out.dedup();
        out.truncate(n);
        out
    }
}

/// Parameters for messages, with long lists cut short.
fn short(params: &[(String, Value)]) -> Vec<(String, String)> {
    params
        .iter()
        .map(|(k, v)| (k.clone(), format!("{v:?}").chars().take(60).collect()))
        .collect()
}

fn int(name: &str, v: i64) -> (&str, Value) {
    (name, Value::Int(v))
}

/// First, middle and last element of a list (each once).
fn ends(ids: &[i64]) -> Vec<i64> {
    let mut out: Vec<i64> = [ids.first(), ids.get(ids.len() / 2), ids.last()]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    out.dedup();
    out
}

/// Limit variants: omitted (the default), 0 (no limit), 1 and 5.
const LIMITS: [Option<i64>; 4] = [None, Some(0), Some(1), Some(5)];

/// Runs a `person_id` + `limit` procedure for every sampled person and limit.
fn check_limited(name: &str, default: i64, oracle: fn(&Raw, i64, i64) -> Expect) {
    for fx in fixtures() {
        for &p in &fx.people {
            for limit in LIMITS {
                let mut params = vec![int("person_id", p)];
                params.extend(limit.map(|l| int("limit", l)));
                fx.check(name, &params, oracle(&fx.raw, p, limit.unwrap_or(default)));
            }
        }
    }
}

/// Runs a `person_id` procedure for every sampled person.
fn check_person(name: &str, oracle: fn(&Raw, i64) -> Expect) {
    for fx in fixtures() {
        for &p in &fx.people {
            fx.check(name, &[int("person_id", p)], oracle(&fx.raw, p));
        }
    }
}

/// Runs a `person_ids` procedure on lists with repeats, empty lists and all samples.
fn check_people_list(name: &str, oracle: fn(&Raw, &[i64]) -> Expect) {
    for fx in fixtures() {
        let s = &fx.people;
        let lists: Vec<Vec<i64>> = vec![
            vec![s[0], s[4], s[0]],
            vec![],
            vec![ISOLATED, ISOLATED],
            vec![TIE_POSTER, 1, TIE_POSTER, 1],
            s.clone(),
            s.iter().rev().copied().collect(),
        ];
        for list in lists {
            fx.check(name, &[("person_ids", ints(&list))], oracle(&fx.raw, &list));
        }
    }
}

// ---------------------------------------------------------------------------------
// The tests: one per procedure, then the errors.
// ---------------------------------------------------------------------------------

#[test]
fn q01_group_members_matches_oracle() {
    for fx in fixtures() {
        for g in fx.raw.all(fx.raw.group) {
            fx.check(
                "shindig.group_members",
                &[int("group_id", g)],
                q01_group_members(&fx.raw, g),
            );
        }
    }
}

#[test]
fn q02_person_groups_matches_oracle() {
    check_person("shindig.person_groups", q02_person_groups);
}

#[test]
fn q03_friend_recommendations_matches_oracle() {
    check_limited(
        "shindig.friend_recommendations",
        0,
        q03_friend_recommendations,
    );
}

#[test]
fn q04_group_recommendations_matches_oracle() {
    check_limited(
        "shindig.group_recommendations",
        0,
        q04_group_recommendations,
    );
}

#[test]
fn q05_friends_of_friends_3_matches_oracle() {
    check_person("shindig.friends_of_friends_3", q05_friends_of_friends_3);
}

#[test]
fn q06_friends_of_friends_matches_oracle() {
    check_person("shindig.friends_of_friends", q06_friends_of_friends);
}

#[test]
fn q07_shortest_path_matches_oracle() {
    let (mut lengths, mut ties) = (BTreeSet::new(), 0);
    for fx in fixtures() {
        let r = &fx.raw;
        let s = &fx.people;
        let mut pairs: Vec<(i64, i64)> = Vec::new();
        for &a in s.iter().take(7) {
            pairs.extend(s.iter().take(7).map(|&b| (a, b)));
        }
        pairs.extend(
            s.iter()
                .enumerate()
                .map(|(i, &a)| (a, s[(i * 7 + 3) % s.len()])),
        );
        pairs.extend([
            (s[0], ISOLATED),
            (ISOLATED, s[0]),
            (ISOLATED, ISOLATED),
            (TIE_POSTER, s[1]),
            (ISLAND.0, ISLAND.1),
            (ISLAND.1, s[0]),
        ]);
        // People in different friendship components, if the graph has several.
        let mut component: HashMap<i64, usize> = HashMap::new();
        let mut leaders = Vec::new();
        for id in r.all(r.person) {
            if id == ISOLATED || component.contains_key(&id) {
                continue;
            }
            let start = r.find(r.person, id).expect("person");
            for n in r.bfs(start, true).into_keys() {
                component.insert(r.ext(n), leaders.len());
            }
            leaders.push(id);
        }
        if let [first, second, ..] = leaders[..] {
            pairs.extend([(first, second), (second, first)]);
        }
        for (a, b) in pairs {
            let expected = q07_shortest_path(r, a, b);
            let length = match expected.as_ref().map(|rs| rs.row(0)) {
                Ok(Some(row)) => row[0].as_int(),
                _ => None,
            };
            lengths.insert(length);
            // Several first steps on a shortest path: the tie-break matters.
            if length.is_some_and(|l| l >= 2) {
                let (from, to) = (r.find(r.person, a), r.find(r.person, b));
                let (from, to) = (from.expect("person"), to.expect("person"));
                let to_b = r.bfs(to, false);
                let want = to_b[&from] - 1;
                let steps = r
                    .out(from, r.friend_of)
                    .into_iter()
                    .filter(|n| to_b.get(n) == Some(&want));
                ties += usize::from(steps.count() > 1);
            }
            fx.check(
                "shindig.shortest_path",
                &[int("from_id", a), int("to_id", b)],
                expected,
            );
        }
    }
    for wanted in [None, Some(0), Some(1), Some(2)] {
        assert!(
            lengths.contains(&wanted),
            "the pairs cover length {wanted:?}: {lengths:?}"
        );
    }
    assert!(ties > 0, "some pairs have several shortest paths");
}

#[test]
fn q08_inbox_matches_oracle() {
    check_limited("shindig.inbox", 0, q08_inbox);
}

#[test]
fn q09_message_collections_matches_oracle() {
    check_person("shindig.message_collections", q09_message_collections);
}

#[test]
fn q10_profile_matches_oracle() {
    check_person("shindig.profile", q10_profile);
}

#[test]
fn q11_profiles_matches_oracle() {
    check_people_list("shindig.profiles", q11_profiles);
}

#[test]
fn q12_friends_of_people_matches_oracle() {
    check_people_list("shindig.friends_of_people", q12_friends_of_people);
}

#[test]
fn q13_friends_matches_oracle() {
    check_person("shindig.friends", q13_friends);
}

#[test]
fn q14_activity_matches_oracle() {
    let mut seen = BTreeSet::new();
    for fx in fixtures() {
        for &p in &fx.people {
            let mut activities = ends(&fx.person_activities(p));
            activities.extend(fx.others_activities(p, 3));
            activities.push(900_001);
            for a in activities {
                let rows = fx.check(
                    "shindig.activity",
                    &[int("person_id", p), int("activity_id", a)],
                    q14_activity(&fx.raw, p, a),
                );
                seen.insert(rows);
            }
        }
    }
    assert_eq!(
        seen,
        BTreeSet::from([0, 1]),
        "both owned and others' activities are asked"
    );
}

#[test]
fn q15_person_activities_matches_oracle() {
    check_limited("shindig.person_activities", 0, q15_person_activities);
}

#[test]
fn q16_activities_of_people_matches_oracle() {
    check_people_list("shindig.activities_of_people", q16_activities_of_people);
}

#[test]
fn q17_activities_by_ids_matches_oracle() {
    let mut mixed_lists = 0;
    for fx in fixtures() {
        for &p in &fx.people {
            let own = fx.person_activities(p);
            let others = fx.others_activities(p, 3);
            let mut mixed = Vec::new();
            for i in 0..own.len().max(others.len()).min(4) {
                mixed.extend(own.get(i));
                mixed.extend(others.get(i));
            }
            mixed.extend(own.first());
            mixed.extend(others.first());
            let lists = [mixed, own.iter().rev().copied().collect(), others, vec![]];
            for list in lists {
                let rows = fx.check(
                    "shindig.activities_by_ids",
                    &[int("person_id", p), ("activity_ids", ints(&list))],
                    q17_activities_by_ids(&fx.raw, p, &list),
                );
                mixed_lists += usize::from(rows > 0 && rows < list.len());
            }
        }
    }
    assert!(
        mixed_lists > 0,
        "some lists mix the person's activities and others'"
    );
}

#[test]
fn q18_activity_stream_matches_oracle() {
    check_limited("shindig.activity_stream", 100, q18_activity_stream);
    for fx in fixtures() {
        let p = fx.people[0];
        fx.check(
            "shindig.activity_stream",
            &[int("person_id", p), int("limit", 1000)],
            q18_activity_stream(&fx.raw, p, 1000),
        );
    }
}

#[test]
fn q19_message_matches_oracle() {
    let mut seen = BTreeSet::new();
    for fx in fixtures() {
        for &p in &fx.people {
            let mut messages = ends(&fx.person_messages(p));
            messages.extend(fx.others_messages(p, 3));
            messages.extend([900_001, 900_002]);
            for m in messages {
                let rows = fx.check(
                    "shindig.message",
                    &[int("person_id", p), int("message_id", m)],
                    q19_message(&fx.raw, p, m),
                );
                seen.insert(rows);
            }
        }
    }
    assert_eq!(
        seen,
        BTreeSet::from([0, 1]),
        "both owned and others' messages are asked"
    );
}

/// The 19 procedures with one valid parameter set each, built from a person id.
fn valid_calls(p: i64) -> Vec<(&'static str, Vec<(String, Value)>)> {
    let one = |k: &str, v: i64| vec![(k.to_owned(), Value::Int(v))];
    let two = |k1: &str, v1: i64, k2: &str, v2: i64| {
        vec![
            (k1.to_owned(), Value::Int(v1)),
            (k2.to_owned(), Value::Int(v2)),
        ]
    };
    let list = |k: &str| vec![(k.to_owned(), ints(&[p]))];
    vec![
        ("shindig.group_members", one("group_id", 1)),
        ("shindig.person_groups", one("person_id", p)),
        ("shindig.friend_recommendations", one("person_id", p)),
        ("shindig.group_recommendations", one("person_id", p)),
        ("shindig.friends_of_friends_3", one("person_id", p)),
        ("shindig.friends_of_friends", one("person_id", p)),
        ("shindig.shortest_path", two("from_id", p, "to_id", p)),
        ("shindig.inbox", one("person_id", p)),
        ("shindig.message_collections", one("person_id", p)),
        ("shindig.profile", one("person_id", p)),
        ("shindig.profiles", list("person_ids")),
        ("shindig.friends_of_people", list("person_ids")),
        ("shindig.friends", one("person_id", p)),
        ("shindig.activity", two("person_id", p, "activity_id", 1)),
        ("shindig.person_activities", one("person_id", p)),
        ("shindig.activities_of_people", list("person_ids")),
        (
            "shindig.activities_by_ids",
            vec![
                ("person_id".to_owned(), Value::Int(p)),
                ("activity_ids".to_owned(), ints(&[1])),
            ],
        ),
        ("shindig.activity_stream", one("person_id", p)),
        ("shindig.message", two("person_id", p, "message_id", 1)),
    ]
}

#[test]
fn errors_name_what_is_wrong() {
    let fx = &fixtures()[0];
    let s = |k: &str, v: Value| (k.to_owned(), v);
    let unknown_person = format!("no Person with id {UNKNOWN}");

    assert_eq!(
        fx.registry
            .iter()
            .filter(|p| p.name.starts_with("shindig."))
            .count(),
        19,
        "19 Shindig procedures are registered"
    );
    // LDBC procedures on a Shindig graph name what the graph lacks; an LDBC update
    // called as a read is refused, pointing at the write path.
    fx.check_err(
        "ldbc.is1",
        vec![s("personId", Value::Int(1))],
        "SchemaMismatch",
        &["ldbc procedures need a ldbc graph"],
    );
    fx.check_err(
        "ldbc.iu8",
        vec![],
        "UpdateNotHere",
        &["update procedure", "kith replay"],
    );
    fx.check_err(
        "ldbc.ic1",
        vec![
            s("personId", Value::string("x")),
            s("firstName", Value::string("A")),
        ],
        "WrongParameterType",
        &["personId", "Int"],
    );
    fx.check_err(
        "shindig.freinds",
        vec![s("person_id", Value::Int(1))],
        "UnknownProcedure",
        &["shindig.freinds", "shindig.friends"],
    );

    for (name, params) in valid_calls(1) {
        // Valid as given.
        let given = params.clone();
        assert!(
            fx.registry.call(&fx.snapshot, name, &given).is_ok(),
            "{name} {given:?} runs"
        );
        // Each required parameter missing.
        for (i, (param, _)) in params.iter().enumerate() {
            let mut without = params.clone();
            without.remove(i);
            fx.check_err(name, without, "MissingParameter", &[name, param.as_str()]);
        }
        // An unknown parameter.
        let mut extra = params.clone();
        extra.push(s("bogus", Value::Int(1)));
        fx.check_err(name, extra, "UnknownParameter", &[name, "bogus"]);
        // Each parameter with the wrong type.
        for (i, (param, value)) in params.iter().enumerate() {
            let mut wrong = params.clone();
            let (bad, expected) = match value {
                Value::List(_) => (Value::Int(1), "List<Int>"),
                _ => (Value::string("1"), "Int"),
            };
            wrong[i].1 = bad;
            fx.check_err(
                name,
                wrong,
                "WrongParameterType",
                &[name, param.as_str(), expected],
            );
            if matches!(value, Value::List(_)) {
                let mut strings = params.clone();
                strings[i].1 = Value::List(vec![Value::Int(1), Value::string("2")]);
                fx.check_err(
                    name,
                    strings,
                    "WrongParameterType",
                    &[name, param.as_str(), "List<Int>"],
                );
                let mut long = params.clone();
                long[i].1 = Value::List((0..1001).map(Value::Int).collect());
                fx.check_err(
                    name,
                    long,
                    "ParameterOutOfRange",
                    &[name, param.as_str(), "1001"],
                );
            }
        }
    }

    // Negative limits.
    for name in [
        "shindig.friend_recommendations",
        "shindig.group_recommendations",
        "shindig.inbox",
        "shindig.person_activities",
        "shindig.activity_stream",
    ] {
        let params = vec![s("person_id", Value::Int(1)), s("limit", Value::Int(-1))];
        fx.check_err(name, params, "ParameterOutOfRange", &[name, "limit", "-1"]);
    }

    // Unknown subjects: the person, then each other subject in turn.
    for (name, params) in valid_calls(UNKNOWN) {
        if name == "shindig.group_members" {
            continue;
        }
        fx.check_err(name, params, "NotFound", &[unknown_person.as_str()]);
    }
    for bad in [0, -5] {
        let msg = format!("no Person with id {bad}");
        fx.check_err(
            "shindig.friends",
            vec![s("person_id", Value::Int(bad))],
            "NotFound",
            &[&msg],
        );
    }
    let not_found = |name: &str, params: Vec<(String, Value)>, msg: &str| {
        fx.check_err(name, params, "NotFound", &[msg]);
    };
    not_found(
        "shindig.group_members",
        vec![s("group_id", Value::Int(UNKNOWN))],
        &format!("no Group with id {UNKNOWN}"),
    );
    not_found(
        "shindig.shortest_path",
        vec![s("from_id", Value::Int(1)), s("to_id", Value::Int(UNKNOWN))],
        &unknown_person,
    );
    not_found(
        "shindig.shortest_path",
        vec![
            s("from_id", Value::Int(ISOLATED)),
            s("to_id", Value::Int(UNKNOWN)),
        ],
        &unknown_person,
    );
    for name in [
        "shindig.profiles",
        "shindig.friends_of_people",
        "shindig.activities_of_people",
    ] {
        not_found(
            name,
            vec![s("person_ids", ints(&[1, 2, UNKNOWN, 1]))],
            &unknown_person,
        );
    }
    not_found(
        "shindig.activity",
        vec![
            s("person_id", Value::Int(1)),
            s("activity_id", Value::Int(UNKNOWN)),
        ],
        &format!("no Activity with id {UNKNOWN}"),
    );
    let own = fx.person_activities(1);
    let mut ids = own.clone();
    ids.push(UNKNOWN);
    ids.extend(own.first());
    not_found(
        "shindig.activities_by_ids",
        vec![s("person_id", Value::Int(1)), s("activity_ids", ints(&ids))],
        &format!("no Activity with id {UNKNOWN}"),
    );
    not_found(
        "shindig.message",
        vec![
            s("person_id", Value::Int(1)),
            s("message_id", Value::Int(UNKNOWN)),
        ],
        &format!("no Message with id {UNKNOWN}"),
    );
    // 900002 is a Person id here but not a Group id: lookups are per label.
    not_found(
        "shindig.group_members",
        vec![s("group_id", Value::Int(EMPTY_GROUP + 1))],
        &format!("no Group with id {}", EMPTY_GROUP + 1),
    );
}

/// The name of an error's variant: the registry's errors carry no wire codes (the
/// server maps them), so the oracle names the variant it expects.
fn variant(e: &ProcedureError) -> &'static str {
    match e {
        ProcedureError::UnknownProcedure { .. } => "UnknownProcedure",
        ProcedureError::MissingParameter { .. } => "MissingParameter",
        ProcedureError::UnknownParameter { .. } => "UnknownParameter",
        ProcedureError::WrongParameterType { .. } => "WrongParameterType",
        ProcedureError::ParameterOutOfRange { .. } => "ParameterOutOfRange",
        ProcedureError::NotFound { .. } => "NotFound",
        ProcedureError::SchemaMismatch { .. } => "SchemaMismatch",
        ProcedureError::UpdateNotHere { .. } => "UpdateNotHere",
    }
}
