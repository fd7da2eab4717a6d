//! S5's split of the official test data set (docs/sharding.md), checked element by
//! element: every forum-side node on exactly its forum's shard, persons and
//! organisations on the person shard, static data everywhere, every relationship where
//! the rule puts it (with proxies holding only the id), and nothing lost or doubled.

#[allow(dead_code)] // the CSV readers serve the other tests
mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::vanilla;
use kith_core::ldbc_schema::{key, label, rel};
use kith_core::Value;
use kith_ldbc::shard::{
    forum_shard, split, with_proxies, Placement, PlacementError, Shard, Side, SplitError,
};
use kith_procedures::Registry;
use kith_storage::{RawGraph, Snapshot, Store, WriteBatch};

/// (labels, id) of every node: a node's identity across graphs.
type Key = (Vec<String>, i64);

fn node_key(g: &RawGraph, node: kith_core::NodeId) -> Key {
    let raw = g.nodes[node.index()].as_ref().expect("live");
    let mut labels: Vec<String> = (raw.labels.iter())
        .map(|l| g.catalog.label_name(*l).to_owned())
        .collect();
    labels.sort();
    let id = g.catalog.find_prop_key(key::ID).expect("id key");
    match raw.property(id) {
        Some(Value::Int(i)) => (labels, *i),
        other => panic!("node without an Int id: {other:?}"),
    }
}

/// Every relationship as (type, source key, target key) with its count.
fn rels(g: &RawGraph) -> BTreeMap<(String, Key, Key), usize> {
    let mut out = BTreeMap::new();
    for (_, r) in g.live_rels() {
        let k = (
            g.catalog.rel_type_name(r.rel_type).to_owned(),
            node_key(g, r.src),
            node_key(g, r.dst),
        );
        *out.entry(k).or_default() += 1;
    }
    out
}

fn is(k: &Key, l: &str) -> bool {
    k.0.iter().any(|x| x == l)
}

fn is_static(k: &Key) -> bool {
    [label::TAG, label::TAG_CLASS, label::PLACE]
        .iter()
        .any(|l| is(k, l))
}

#[test]
fn every_element_is_where_the_rule_puts_it() {
    let (whole, _) = kith_ldbc::load(&vanilla()).expect("load");
    for n in [1, 2, 3, 8] {
        let s = split(&whole, n).expect("split");
        assert_eq!(s.forums.len(), n);
        check(&whole, &s.person, &s.forums, n);
    }
}

fn check(whole: &RawGraph, person: &RawGraph, forums: &[RawGraph], n: usize) {
    // Which forum each message belongs to (through its thread's root post).
    let all_rels = rels(whole);
    let mut container: BTreeMap<i64, i64> = BTreeMap::new();
    let mut parent: BTreeMap<i64, i64> = BTreeMap::new();
    for (t, a, b) in all_rels.keys() {
        if t == rel::CONTAINER_OF {
            container.insert(b.1, a.1);
        } else if t == rel::REPLY_OF {
            parent.insert(a.1, b.1);
        }
    }
    let home_of = |k: &Key| -> Option<usize> {
        if is(k, label::FORUM) {
            return Some(forum_shard(k.1, n));
        }
        if is(k, label::MESSAGE) {
            let mut m = k.1;
            while let Some(p) = parent.get(&m) {
                m = *p;
            }
            return Some(forum_shard(container[&m], n));
        }
        None
    };
    let keys =
        |g: &RawGraph| -> BTreeSet<Key> { g.live_nodes().map(|(id, _)| node_key(g, id)).collect() };
    let person_keys = keys(person);
    let whole_keys = keys(whole);
    let forum_keys: Vec<BTreeSet<Key>> = forums.iter().map(keys).collect();
    for k in &whole_keys {
        match home_of(k) {
            Some(i) => {
                for (j, f) in forum_keys.iter().enumerate() {
                    assert_eq!(f.contains(k), i == j, "{k:?} on forum shard {j}");
                }
                assert!(!person_keys.contains(k), "{k:?} on the person shard");
            }
            None if is_static(k) => {
                assert!(person_keys.contains(k));
                assert!(forum_keys.iter().all(|f| f.contains(k)), "{k:?} everywhere");
            }
            None => assert!(person_keys.contains(k), "{k:?} on the person shard"),
        }
    }
    // No node appears from nowhere, and a forum shard's persons are id-only proxies.
    assert!(person_keys.is_subset(&whole_keys));
    for f in forums {
        for (id, raw) in f.live_nodes() {
            let k = node_key(f, id);
            assert!(whole_keys.contains(&k));
            assert!(
                !is(&k, label::ORGANISATION),
                "no organisation on a forum shard"
            );
            if is(&k, label::PERSON) {
                assert_eq!(raw.properties.len(), 1, "a proxy holds only its id: {k:?}");
            }
        }
    }
    // Every relationship where the rule puts it, once (static ones on every shard).
    let mut person_rels = rels(person);
    let mut forum_rels: Vec<_> = forums.iter().map(rels).collect();
    for (k, count) in &all_rels {
        let (_, a, b) = k;
        let take = |m: &mut BTreeMap<_, usize>| m.remove(k) == Some(*count);
        match home_of(a).or_else(|| home_of(b)) {
            Some(i) => assert!(take(&mut forum_rels[i]), "{k:?} on forum shard {i}"),
            None if is_static(a) && is_static(b) => {
                assert!(take(&mut person_rels), "{k:?} on the person shard");
                assert!(
                    forum_rels.iter_mut().all(take),
                    "{k:?} on every forum shard"
                );
            }
            None => assert!(take(&mut person_rels), "{k:?} on the person shard"),
        }
    }
    assert!(person_rels.is_empty(), "extra: {person_rels:?}");
    assert!(
        forum_rels.iter().all(|m| m.is_empty()),
        "extra forum-shard relationships"
    );
}

#[test]
fn placement_spreads_forums_and_is_stable() {
    let mut counts = [0usize; 8];
    for id in 0..8_000i64 {
        counts[forum_shard(id * 4096, 8)] += 1;
    }
    assert!(
        counts.iter().all(|&c| (800..1200).contains(&c)),
        "skewed: {counts:?}"
    );
    // The placement is part of the data's layout: it must never change silently.
    assert_eq!(
        [0, 1, 2, 3, 4_398_046_511_104].map(|i| forum_shard(i, 8)),
        [0, 5, 2, 0, 1]
    );
}

#[test]
fn graphs_that_cannot_be_split_are_refused_with_the_reason() {
    let (whole, _) = kith_ldbc::load(&vanilla()).expect("load");
    assert!(matches!(split(&whole, 0), Err(SplitError::Invalid(_))));

    // A comment whose REPLY_OF is gone is in no forum.
    let mut orphan = whole.clone();
    let reply_of = orphan.catalog.find_rel_type(rel::REPLY_OF).expect("type");
    let slot = orphan
        .rels
        .iter()
        .position(|r| r.as_ref().is_some_and(|r| r.rel_type == reply_of));
    orphan.rels[slot.expect("a reply")] = None;
    let e = split(&orphan, 2).err().expect("refused");
    assert!(matches!(e, SplitError::Orphan { .. }), "{e}");
    assert!(e.to_string().contains("replies to no post"), "{e}");

    // A node of a label outside the schema.
    let mut odd = whole.clone();
    let l = odd.catalog.label("Robot").expect("label");
    let k = odd.catalog.prop_key(key::ID).expect("key");
    odd.add_node(vec![l], vec![(k, Value::Int(7))])
        .expect("node");
    let e = split(&odd, 2).err().expect("refused");
    assert!(e.to_string().contains("Robot"), "{e}");

    // A KNOWS from a person to a forum would join the person shard to a forum shard.
    let mut crossing = whole.clone();
    let knows = crossing.catalog.find_rel_type(rel::KNOWS).expect("type");
    let forum = crossing.catalog.find_label(label::FORUM).expect("label");
    let person = crossing
        .catalog
        .find_label(label::ORGANISATION)
        .expect("label");
    let find = |g: &RawGraph, l| {
        g.live_nodes()
            .find(|(_, n)| n.labels.contains(&l))
            .expect("node")
            .0
    };
    let (o, f) = (find(&crossing, person), find(&crossing, forum));
    crossing.add_rel(knows, o, f, vec![]).expect("rel");
    let e = split(&crossing, 2).err().expect("refused");
    assert!(matches!(e, SplitError::Crossing { .. }), "{e}");
}

fn streams() -> std::path::PathBuf {
    vanilla().join("../update_streams")
}

/// A graph's nodes (with their properties) and relationships, by identity.
type Content = (BTreeMap<Key, String>, BTreeMap<(String, Key, Key), usize>);

fn content(g: &RawGraph) -> Content {
    let nodes = g
        .live_nodes()
        .map(|(node, raw)| {
            let mut props: Vec<String> = (raw.properties.iter())
                .map(|(k, v)| format!("{}={v:?}", g.catalog.prop_key_name(*k)))
                .collect();
            props.sort();
            (node_key(g, node), props.join(","))
        })
        .collect();
    (nodes, rels(g))
}

fn apply(store: &Store, ops: Vec<kith_core::write_op::WriteOp>, what: &str) {
    store
        .apply(&WriteBatch { ops })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
}

#[test]
fn the_stream_routed_to_the_shards_equals_splitting_the_updated_graph() {
    let (whole, _) = kith_ldbc::load(&vanilla()).expect("load");
    let registry = Registry::with_builtins();
    let events = kith_ldbc::read_streams(&streams()).expect("streams");
    let updated = Store::new(Snapshot::from_raw(whole.clone()).expect("builds"));
    for e in &events {
        let ops = registry.build_update(e.procedure, &e.params).expect("op");
        apply(&updated, ops, e.procedure);
    }
    let updated = updated.snapshot().to_raw();
    for n in [1, 2, 4, 8] {
        let before = split(&whole, n).expect("splits");
        let store = |raw| Store::new(Snapshot::from_raw(raw).expect("builds"));
        let person = store(before.person);
        let forums: Vec<Store> = before.forums.into_iter().map(store).collect();
        let mut placement = before.placement;
        let mut sent = [0usize; 2];
        for e in &events {
            let ops = registry.build_update(e.procedure, &e.params).expect("op");
            let shard = placement.route(e).expect("routes");
            assert_eq!(
                Side::of(e.procedure),
                Some(if shard == Shard::Person {
                    Side::Person
                } else {
                    Side::Forum
                })
            );
            match shard {
                Shard::Person => apply(&person, ops, e.procedure),
                Shard::Forum(i) => apply(&forums[i], with_proxies(ops), e.procedure),
            }
            sent[usize::from(shard != Shard::Person)] += 1;
        }
        assert!(
            sent.iter().all(|&c| c > 0),
            "both sides get events: {sent:?}"
        );
        // The shards after the stream hold exactly what splitting the updated graph
        // gives, element by element, proxies included.
        let after = split(&updated, n).expect("splits");
        assert_eq!(placement, after.placement, "{n} shards: the placement");
        assert!(
            content(&person.snapshot().to_raw()) == content(&after.person),
            "{n} shards: the person shard differs"
        );
        for (i, (got, want)) in forums.iter().zip(&after.forums).enumerate() {
            assert!(
                content(&got.snapshot().to_raw()) == content(want),
                "{n} shards: forum-{i} differs"
            );
        }
    }
}

#[test]
fn an_event_naming_an_unknown_message_is_refused_by_name() {
    let (whole, _) = kith_ldbc::load(&vanilla()).expect("load");
    let mut placement = split(&whole, 2).expect("splits").placement;
    let like = kith_ldbc::parse_event(
        std::path::Path::new("s"),
        1,
        "1|0|2|933|99999999999|1347528982194",
    )
    .expect("an IU2 line");
    let e = placement.route(&like).expect_err("unknown post");
    assert!(
        matches!(
            e,
            PlacementError::UnknownMessage {
                kind: "post",
                id: 99999999999,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("post 99999999999"), "{e}");
}

#[test]
fn a_placement_file_round_trips_and_damage_is_refused() {
    let (whole, _) = kith_ldbc::load(&vanilla()).expect("load");
    let placement = split(&whole, 4).expect("splits").placement;
    assert!(placement.len() > 1000, "{}", placement.len());
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(kith_ldbc::shard::PLACEMENT_FILE);
    placement.write(&path).expect("writes");
    assert_eq!(Placement::read(&path).expect("reads"), placement);
    let mut bytes = std::fs::read(&path).expect("reads");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).expect("writes");
    let e = Placement::read(&path).expect_err("damaged");
    assert!(e.to_string().contains("checksum"), "{e}");
    std::fs::write(&path, b"hello").expect("writes");
    let e = Placement::read(&path).expect_err("not one");
    assert!(
        e.to_string().contains("not a kith message placement"),
        "{e}"
    );
}

#[test]
fn shard_names_parse_as_the_split_writes_them() {
    for shard in [Shard::Person, Shard::Forum(0), Shard::Forum(17)] {
        assert_eq!(Shard::parse(&shard.name()), Some(shard));
    }
    for bad in ["forum-", "forum-01", "forum-x", "persons", "forum--1"] {
        assert_eq!(Shard::parse(bad), None, "{bad}");
    }
    assert_eq!(Shard::Forum(3).partition(), 4);
    assert_eq!(Shard::Person.partition(), 0);
}
