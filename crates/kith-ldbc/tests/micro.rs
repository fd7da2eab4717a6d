//! S4's micro-queries (`s4.point_lookup`, `s4.one_hop`, `s4.two_hop`, `s4.shortest_path`)
//! against an oracle computed here straight from the official test data set's CSV files
//! (`person_0_0.csv` and `person_knows_person_0_0.csv`), for every person.

mod common;

use std::collections::{BTreeSet, HashMap, VecDeque};

use common::{int, rows, vanilla};
use kith_core::Value;
use kith_procedures::Registry;
use kith_storage::Snapshot;

struct Oracle {
    persons: Vec<Vec<String>>,
    friends: HashMap<i64, BTreeSet<i64>>,
}

impl Oracle {
    fn read() -> Self {
        let mut friends: HashMap<i64, BTreeSet<i64>> = HashMap::new();
        for r in rows("dynamic/person_knows_person") {
            let (a, b): (i64, i64) = (int(&r[0]), int(&r[1]));
            friends.entry(a).or_default().insert(b);
            friends.entry(b).or_default().insert(a);
        }
        Oracle {
            persons: rows("dynamic/person"),
            friends,
        }
    }

    fn one_hop(&self, p: i64) -> Vec<i64> {
        self.friends
            .get(&p)
            .map(|f| f.iter().copied().collect())
            .unwrap_or_default()
    }

    fn two_hop(&self, p: i64) -> Vec<i64> {
        let set: BTreeSet<i64> = self
            .one_hop(p)
            .into_iter()
            .flat_map(|f| self.one_hop(f))
            .filter(|&q| q != p)
            .collect();
        set.into_iter().collect()
    }

    fn distance(&self, a: i64, b: i64) -> i64 {
        let mut seen = HashMap::from([(a, 0i64)]);
        let mut queue = VecDeque::from([a]);
        while let Some(n) = queue.pop_front() {
            if n == b {
                return seen[&n];
            }
            for f in self.one_hop(n) {
                if !seen.contains_key(&f) {
                    seen.insert(f, seen[&n] + 1);
                    queue.push_back(f);
                }
            }
        }
        -1
    }
}

fn call(
    g: &Snapshot,
    registry: &Registry,
    procedure: &str,
    params: &[(&str, i64)],
) -> Vec<Vec<Value>> {
    let params: Vec<(String, Value)> = params
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::Int(*v)))
        .collect();
    let result = registry
        .call(g, procedure, &params)
        .unwrap_or_else(|e| panic!("{procedure} {params:?}: {e}"));
    result.rows().map(|r| r.to_vec()).collect()
}

fn ints(rows: Vec<Vec<Value>>) -> Vec<i64> {
    rows.into_iter()
        .map(|r| match r.as_slice() {
            [Value::Int(i)] => *i,
            other => panic!("expected one Int column, got {other:?}"),
        })
        .collect()
}

fn graph() -> Snapshot {
    let (raw, _) = kith_ldbc::load(&vanilla()).expect("loads the test data set");
    Snapshot::from_raw(raw).expect("builds")
}

#[test]
fn hops_and_lookups_equal_the_csv_oracle_for_every_person() {
    let (g, oracle, registry) = (graph(), Oracle::read(), Registry::with_builtins());
    assert!(
        oracle.persons.len() > 200,
        "the test data set has 222 persons"
    );
    for person in &oracle.persons {
        let id: i64 = int(&person[0]);
        let lookup = call(&g, &registry, "s4.point_lookup", &[("personId", id)]);
        let birthday: i64 = int(&person[4]);
        let expected = [
            Value::Int(id),
            Value::string(&person[1]),
            Value::string(&person[2]),
            Value::string(&person[3]),
        ];
        assert_eq!(lookup.len(), 1, "one row for person {id}");
        assert_eq!(lookup[0][..4], expected[..], "person {id}");
        assert!(
            matches!(&lookup[0][4], Value::Int(b) if *b == birthday)
                || matches!(&lookup[0][4], Value::DateTime(b) if *b == birthday),
            "birthday of {id}: {:?}, the file says {birthday}",
            lookup[0][4]
        );
        assert_eq!(
            ints(call(&g, &registry, "s4.one_hop", &[("personId", id)])),
            oracle.one_hop(id),
            "one hop of {id}"
        );
        assert_eq!(
            ints(call(&g, &registry, "s4.two_hop", &[("personId", id)])),
            oracle.two_hop(id),
            "two hops of {id}"
        );
    }
}

#[test]
fn shortest_paths_equal_a_breadth_first_search_of_the_csv() {
    let (g, oracle, registry) = (graph(), Oracle::read(), Registry::with_builtins());
    let ids: Vec<i64> = oracle.persons.iter().map(|p| int(&p[0])).collect();
    let (mut connected, mut apart) = (0, 0);
    for (i, &a) in ids.iter().enumerate() {
        // Each person against 25 others spread over the file, and against itself.
        for &b in ids
            .iter()
            .skip(i % 7)
            .step_by(ids.len() / 25)
            .chain([a].iter())
        {
            let want = oracle.distance(a, b);
            let got = ints(call(
                &g,
                &registry,
                "s4.shortest_path",
                &[("person1Id", a), ("person2Id", b)],
            ));
            assert_eq!(got, vec![want], "shortest path {a} -> {b}");
            if want > 0 {
                connected += 1
            } else if want < 0 {
                apart += 1
            }
        }
    }
    assert!(
        connected > 1000 && apart > 10,
        "both kinds of pair were checked: {connected} connected, {apart} not"
    );
}

#[test]
fn a_person_who_does_not_exist_has_no_rows_and_no_path() {
    let (g, registry) = (graph(), Registry::with_builtins());
    let some = int(&Oracle::read().persons[0][0]);
    for procedure in ["s4.point_lookup", "s4.one_hop", "s4.two_hop"] {
        assert!(
            call(&g, &registry, procedure, &[("personId", 1)]).is_empty(),
            "{procedure}"
        );
    }
    let no_path = |a, b| {
        ints(call(
            &g,
            &registry,
            "s4.shortest_path",
            &[("person1Id", a), ("person2Id", b)],
        ))
    };
    assert_eq!(no_path(1, some), vec![-1]);
    assert_eq!(no_path(some, 1), vec![-1]);
    let missing = Registry::with_builtins()
        .call(&g, "s4.one_hop", &[("person".to_owned(), Value::Int(1))])
        .expect_err("a misnamed parameter is refused");
    assert!(missing.to_string().contains("personId"), "{missing}");
}
