//! In-process latency of each Shindig procedure on the scale-1 graph (seed 42).
//!
//! Each benchmark rotates through 64 people spread over the id range, so a figure is
//! the time of a typical call, not of one lucky person. The three spike queries are
//! also measured from the 667-friend hub, their worst case.
//!
//! Run: `cargo bench -p kith-procedures --bench shindig`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kith_core::shindig_schema::{label, rel};
use kith_core::{Direction, GraphView, Value};
use kith_datagen::shindig::{generate, ShindigConfig};
use kith_procedures::Registry;
use kith_storage::{Snapshot, ID_KEY};

const SAMPLE: usize = 64;

struct Fixture {
    graph: Snapshot,
    people: Vec<i64>,
    hub: i64,
    /// For each sampled person: one own activity id and one message id in their inbox.
    own_activity: Vec<i64>,
    own_message: Vec<i64>,
}

fn ext(g: &Snapshot, n: kith_core::NodeId) -> i64 {
    g.node_property(n, ID_KEY)
        .as_ref()
        .and_then(Value::as_int)
        .unwrap_or(0)
}

fn fixture() -> Fixture {
    let raw = generate(ShindigConfig {
        scale: 1.0,
        seed: 42,
    })
    .expect("generator works");
    let graph = Snapshot::from_raw(raw).expect("valid graph");
    let person = graph.label_id(label::PERSON).expect("Person");
    let friend_of = graph.rel_type_id(rel::FRIEND_OF).expect("FRIEND_OF");
    let performed = graph.rel_type_id(rel::PERFORMED).expect("PERFORMED");
    let owns = graph.rel_type_id(rel::OWNS).expect("OWNS");
    let contains = graph.rel_type_id(rel::CONTAINS).expect("CONTAINS");
    let count = graph
        .node_ids()
        .filter(|n| graph.has_label(*n, person))
        .count() as i64;
    let people: Vec<i64> = (0..SAMPLE as i64).map(|i| 1 + (i * 997) % count).collect();
    let hub = (1..=count)
        .max_by_key(|id| {
            let n = graph.node_by_id(person, *id).expect("person");
            graph.neighbors(n, friend_of, Direction::Out).len()
        })
        .expect("people exist");
    let mut own_activity = Vec::new();
    let mut own_message = Vec::new();
    for id in &people {
        let n = graph.node_by_id(person, *id).expect("person");
        let activity = graph
            .neighbors(n, performed, Direction::Out)
            .first()
            .map(|e| e.node);
        own_activity.push(activity.map_or(1, |a| ext(&graph, a)));
        let message = graph
            .neighbors(n, owns, Direction::Out)
            .iter()
            .flat_map(|c| graph.neighbors(c.node, contains, Direction::Out))
            .next()
            .map(|e| e.node);
        own_message.push(message.map_or(1, |m| ext(&graph, m)));
    }
    Fixture {
        graph,
        people,
        hub,
        own_activity,
        own_message,
    }
}

fn int(name: &str, v: i64) -> (String, Value) {
    (name.to_owned(), Value::Int(v))
}

fn list(name: &str, v: &[i64]) -> (String, Value) {
    (
        name.to_owned(),
        Value::List(v.iter().map(|i| Value::Int(*i)).collect()),
    )
}

fn bench(c: &mut Criterion) {
    let f = fixture();
    let registry = Registry::with_builtins();
    let mut group = c.benchmark_group("shindig");
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    group.sample_size(30);

    type ParamsFor = Box<dyn Fn(usize) -> Vec<(String, Value)>>;
    // Leaked once so the parameter closures are `Copy` and can share them.
    let people: &'static [i64] = Box::leak(f.people.clone().into_boxed_slice());
    let person = move |i: usize| people[i % SAMPLE];
    let ten = move |i: usize| -> Vec<i64> { (0..10).map(|k| person(i + k * 7)).collect() };
    let acts: &'static [i64] = Box::leak(f.own_activity.clone().into_boxed_slice());
    let msgs: &'static [i64] = Box::leak(f.own_message.clone().into_boxed_slice());
    let hub = f.hub;
    let cases: Vec<(&str, &str, ParamsFor)> = vec![
        (
            "q01_group_members",
            "shindig.group_members",
            Box::new(|i| vec![int("group_id", 1 + (i as i64 * 37) % 200)]),
        ),
        (
            "q02_person_groups",
            "shindig.person_groups",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q03_friend_recommendations",
            "shindig.friend_recommendations",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q03_friend_recommendations_hub",
            "shindig.friend_recommendations",
            Box::new(move |_| vec![int("person_id", hub)]),
        ),
        (
            "q04_group_recommendations",
            "shindig.group_recommendations",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q05_friends_of_friends_3",
            "shindig.friends_of_friends_3",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q05_friends_of_friends_3_hub",
            "shindig.friends_of_friends_3",
            Box::new(move |_| vec![int("person_id", hub)]),
        ),
        (
            "q06_friends_of_friends",
            "shindig.friends_of_friends",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q07_shortest_path",
            "shindig.shortest_path",
            Box::new(move |i| vec![int("from_id", person(i)), int("to_id", person(i + 31))]),
        ),
        (
            "q07_shortest_path_hub",
            "shindig.shortest_path",
            Box::new(move |i| vec![int("from_id", hub), int("to_id", person(i))]),
        ),
        (
            "q08_inbox",
            "shindig.inbox",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q09_message_collections",
            "shindig.message_collections",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q10_profile",
            "shindig.profile",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q11_profiles_x10",
            "shindig.profiles",
            Box::new(move |i| vec![list("person_ids", &ten(i))]),
        ),
        (
            "q12_friends_of_people_x10",
            "shindig.friends_of_people",
            Box::new(move |i| vec![list("person_ids", &ten(i))]),
        ),
        (
            "q13_friends",
            "shindig.friends",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q14_activity",
            "shindig.activity",
            Box::new(move |i| {
                vec![
                    int("person_id", person(i)),
                    int("activity_id", acts[i % SAMPLE]),
                ]
            }),
        ),
        (
            "q15_person_activities",
            "shindig.person_activities",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q16_activities_of_people_x10",
            "shindig.activities_of_people",
            Box::new(move |i| vec![list("person_ids", &ten(i))]),
        ),
        (
            "q17_activities_by_ids_x10",
            "shindig.activities_by_ids",
            Box::new(move |i| {
                vec![
                    int("person_id", person(i)),
                    list(
                        "activity_ids",
                        &(0..10)
                            .map(|k| 1 + ((i + k * 131) as i64 * 53) % 25_365)
                            .collect::<Vec<_>>(),
                    ),
                ]
            }),
        ),
        (
            "q18_activity_stream",
            "shindig.activity_stream",
            Box::new(move |i| vec![int("person_id", person(i))]),
        ),
        (
            "q19_message",
            "shindig.message",
            Box::new(move |i| {
                vec![
                    int("person_id", person(i)),
                    int("message_id", msgs[i % SAMPLE]),
                ]
            }),
        ),
    ];
    for (id, name, params_for) in &cases {
        // Parameters are built outside the timed loop: the figure is the procedure.
        let params: Vec<_> = (0..SAMPLE).map(params_for).collect();
        let mut i = 0;
        group.bench_function(*id, |b| {
            b.iter(|| {
                i = (i + 1) % SAMPLE;
                black_box(
                    registry
                        .call(&f.graph, name, &params[i])
                        .expect("procedure runs"),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
