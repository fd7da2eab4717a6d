//! IC1, IC3 and IC6 for every person of the official test data set, against an oracle
//! computed here with plain loops straight from the CSV files. The oracle fixtures
//! (`oracle.rs`) hold a handful of cases; these reads take shortcuts (IC1 places the
//! persons with the name instead of walking everyone three steps away; IC3 reads only each person's messages inside the date window when the store keeps
//! them newest first; IC6 walks the tag's posts or the persons' posts, whichever list is
//! shorter), so every person, several windows and both rare and common tags are checked.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};

use common::{int, rows, vanilla};
use kith_core::Value;
use kith_procedures::Registry;
use kith_storage::Snapshot;

const DAY_MS: i64 = 86_400_000;

/// `from -> to` for a two-column relationship file.
fn pairs(file: &str) -> Vec<(i64, i64)> {
    rows(file)
        .iter()
        .map(|r| (int(&r[0]), int(&r[1])))
        .collect()
}

struct Oracle {
    persons: Vec<i64>,
    friends: HashMap<i64, HashSet<i64>>,
    /// message -> (creator, creation date, country, is a post)
    messages: HashMap<i64, (i64, i64, i64, bool)>,
    post_tags: HashMap<i64, Vec<i64>>,
    tag_names: HashMap<i64, String>,
    country_names: HashMap<i64, String>,
    /// person -> country (through their city)
    home: HashMap<i64, i64>,
}

impl Oracle {
    fn read() -> Self {
        let mut friends: HashMap<i64, HashSet<i64>> = HashMap::new();
        for (a, b) in pairs("dynamic/person_knows_person") {
            friends.entry(a).or_default().insert(b);
            friends.entry(b).or_default().insert(a);
        }
        let part_of: HashMap<i64, i64> = pairs("static/place_isPartOf_place").into_iter().collect();
        let home = pairs("dynamic/person_isLocatedIn_place")
            .into_iter()
            .map(|(p, city)| (p, part_of[&city]))
            .collect();
        let mut messages = HashMap::new();
        for (kind, is_post, date_col) in [("post", true, 2), ("comment", false, 1)] {
            let creators: HashMap<i64, i64> = pairs(&format!("dynamic/{kind}_hasCreator_person"))
                .into_iter()
                .collect();
            let places: HashMap<i64, i64> = pairs(&format!("dynamic/{kind}_isLocatedIn_place"))
                .into_iter()
                .collect();
            for r in rows(&format!("dynamic/{kind}")) {
                let id = int(&r[0]);
                messages.insert(id, (creators[&id], int(&r[date_col]), places[&id], is_post));
            }
        }
        let mut post_tags: HashMap<i64, Vec<i64>> = HashMap::new();
        for (post, tag) in pairs("dynamic/post_hasTag_tag") {
            post_tags.entry(post).or_default().push(tag);
        }
        let places = rows("static/place");
        Oracle {
            persons: rows("dynamic/person").iter().map(|r| int(&r[0])).collect(),
            friends,
            messages,
            post_tags,
            tag_names: rows("static/tag")
                .into_iter()
                .map(|r| (int(&r[0]), r[1].clone()))
                .collect(),
            country_names: places
                .into_iter()
                .filter(|r| r[3] == "country")
                .map(|r| (int(&r[0]), r[1].clone()))
                .collect(),
            home,
        }
    }

    fn within_two(&self, p: i64) -> HashSet<i64> {
        let none = HashSet::new();
        let first = self.friends.get(&p).unwrap_or(&none);
        let mut all: HashSet<i64> = first.clone();
        for f in first {
            all.extend(self.friends.get(f).unwrap_or(&none));
        }
        all.remove(&p);
        all
    }

    /// IC3's rows: (personId, xCount, yCount), top 20 by total desc, id asc.
    fn ic3(&self, p: i64, x: i64, y: i64, start: i64, days: i64) -> Vec<(i64, i64, i64)> {
        let end = start + days * DAY_MS;
        let reach = self.within_two(p);
        let mut counts: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for &(creator, date, country, _) in self.messages.values() {
            if !reach.contains(&creator) || date < start || date >= end {
                continue;
            }
            let home = self.home[&creator];
            if home == x || home == y {
                continue;
            }
            let c = counts.entry(creator).or_default();
            if country == x {
                c.0 += 1;
            } else if country == y {
                c.1 += 1;
            }
        }
        let mut out: Vec<(i64, i64, i64)> = counts
            .into_iter()
            .filter(|(_, (a, b))| *a > 0 && *b > 0)
            .map(|(id, (a, b))| (id, a, b))
            .collect();
        out.sort_by_key(|&(id, a, b)| (-(a + b), id));
        out.truncate(20);
        out
    }

    /// IC6's rows: (tagName, postCount), top 10 by count desc, name asc.
    fn ic6(&self, p: i64, tag: i64) -> Vec<(String, i64)> {
        let reach = self.within_two(p);
        let mut counts: HashMap<i64, i64> = HashMap::new();
        for (id, &(creator, _, _, is_post)) in &self.messages {
            let tags = self.post_tags.get(id).map(Vec::as_slice).unwrap_or(&[]);
            if is_post && reach.contains(&creator) && tags.contains(&tag) {
                for t in tags.iter().filter(|t| **t != tag) {
                    *counts.entry(*t).or_default() += 1;
                }
            }
        }
        let mut out: Vec<(String, i64)> = counts
            .into_iter()
            .map(|(t, n)| (self.tag_names[&t].clone(), n))
            .collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.truncate(10);
        out
    }
}

fn graph() -> Snapshot {
    let (raw, _) = kith_ldbc::load(&vanilla()).expect("the test data set loads");
    Snapshot::from_raw(raw).expect("builds")
}

fn call(
    registry: &Registry,
    g: &Snapshot,
    procedure: &str,
    params: Vec<(&str, Value)>,
) -> Vec<Vec<Value>> {
    let params: Vec<(String, Value)> = params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let result = registry
        .call(g, procedure, &params)
        .unwrap_or_else(|e| panic!("{procedure} {params:?}: {e}"));
    result.rows().map(|r| r.to_vec()).collect()
}

fn int_of(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        other => panic!("not an Int: {other:?}"),
    }
}

/// The `n` most used tags on posts and the least used one (a rare tag).
fn tags_to_try(o: &Oracle, n: usize) -> Vec<i64> {
    let mut uses: HashMap<i64, usize> = HashMap::new();
    for t in o.post_tags.values().flatten() {
        *uses.entry(*t).or_default() += 1;
    }
    let mut by_use: Vec<(usize, i64)> = uses.into_iter().map(|(t, u)| (u, t)).collect();
    by_use.sort_by(|a, b| b.cmp(a));
    let mut out: Vec<i64> = by_use.iter().take(n).map(|&(_, t)| t).collect();
    out.push(by_use.last().expect("some tag is used").1);
    out
}

#[test]
fn ic6_equals_the_oracle_for_every_person_with_common_and_rare_tags() {
    let (o, g, registry) = (Oracle::read(), graph(), Registry::with_builtins());
    let mut nonempty = 0;
    for tag in tags_to_try(&o, 3) {
        let name = o.tag_names[&tag].clone();
        for &p in &o.persons {
            let params = vec![
                ("personId", Value::Int(p)),
                ("tagName", Value::string(name.as_str())),
            ];
            let got: Vec<(String, i64)> = call(&registry, &g, "ldbc.ic6", params)
                .iter()
                .map(|r| match &r[0] {
                    Value::String(s) => (s.to_string(), int_of(&r[1])),
                    other => panic!("tagName is not a string: {other:?}"),
                })
                .collect();
            let want = o.ic6(p, tag);
            assert_eq!(got, want, "ldbc.ic6 person {p} tag {name}");
            nonempty += usize::from(!want.is_empty());
        }
    }
    assert!(
        nonempty > 100,
        "only {nonempty} non-empty answers: the sweep checks too little"
    );
}

/// The pair of countries the most persons living in neither posted in, both.
fn busiest_pair(o: &Oracle) -> (i64, i64) {
    let mut visited: HashMap<i64, HashSet<i64>> = HashMap::new();
    for &(creator, _, country, _) in o.messages.values() {
        visited.entry(creator).or_default().insert(country);
    }
    let mut pairs: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for (person, countries) in &visited {
        let mut list: Vec<i64> = countries
            .iter()
            .copied()
            .filter(|c| *c != o.home[person])
            .collect();
        list.sort_unstable();
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                *pairs.entry((*a, *b)).or_default() += 1;
            }
        }
    }
    pairs
        .into_iter()
        .max_by_key(|&(pair, n)| (n, std::cmp::Reverse(pair)))
        .expect("some person posted abroad twice")
        .0
}

#[test]
fn ic3_equals_the_oracle_for_every_person_and_window() {
    let (o, g, registry) = (Oracle::read(), graph(), Registry::with_builtins());
    // The two countries the most persons living elsewhere posted in, and windows from
    // one day to all time.
    let (x, y) = busiest_pair(&o);
    let dates: Vec<i64> = o.messages.values().map(|m| m.1).collect();
    let first = *dates.iter().min().expect("messages");
    let last = *dates.iter().max().expect("messages");
    let middle = first + (last - first) / 2;
    let mut windows = vec![
        (first, (last - first) / DAY_MS + 1),
        (middle, 90),
        (middle, 1),
        (1_275_350_400_000, 28),
    ];
    // Windows that start, or end, exactly on the date of a message that counts test
    // both bounds.
    let mut counted: Vec<i64> = o
        .messages
        .values()
        .filter(|m| (m.2 == x || m.2 == y) && o.home[&m.0] != x && o.home[&m.0] != y)
        .map(|m| m.1)
        .collect();
    counted.sort_unstable();
    for i in 1..4 {
        let on = counted[counted.len() * i / 4];
        windows.extend([(on, 30), (on - 30 * DAY_MS, 30)]);
    }
    let mut nonempty = 0;
    for (start, days) in windows {
        for &p in &o.persons {
            let params = vec![
                ("personId", Value::Int(p)),
                ("countryXName", Value::string(o.country_names[&x].as_str())),
                ("countryYName", Value::string(o.country_names[&y].as_str())),
                ("startDate", Value::Int(start)),
                ("durationDays", Value::Int(days)),
            ];
            let got: Vec<(i64, i64, i64)> = call(&registry, &g, "ldbc.ic3", params)
                .iter()
                .map(|r| (int_of(&r[0]), int_of(&r[3]), int_of(&r[4])))
                .collect();
            let want = o.ic3(p, x, y, start, days);
            assert_eq!(
                got, want,
                "ldbc.ic3 person {p} window {start} + {days} days"
            );
            nonempty += usize::from(!want.is_empty());
        }
    }
    assert!(
        nonempty > 50,
        "only {nonempty} non-empty answers: the sweep checks too little"
    );
}

/// IC1's rows: (friendId, lastName, distance) for persons named `name` within three
/// KNOWS steps, by a plain breadth-first walk; nearest first, then last name, then id.
fn ic1_oracle(
    o: &Oracle,
    names: &HashMap<i64, (String, String)>,
    p: i64,
    name: &str,
) -> Vec<(i64, String, i64)> {
    let mut dist: HashMap<i64, i64> = HashMap::from([(p, 0)]);
    let mut frontier = vec![p];
    for d in 1..=3 {
        let mut next = Vec::new();
        for n in frontier {
            for f in o.friends.get(&n).into_iter().flatten() {
                if !dist.contains_key(f) {
                    dist.insert(*f, d);
                    next.push(*f);
                }
            }
        }
        frontier = next;
    }
    let mut out: Vec<(i64, String, i64)> = dist
        .into_iter()
        .filter(|&(n, d)| d > 0 && names[&n].0 == name)
        .map(|(n, d)| (n, names[&n].1.clone(), d))
        .collect();
    out.sort_by(|a, b| a.2.cmp(&b.2).then(a.1.cmp(&b.1)).then(a.0.cmp(&b.0)));
    out.truncate(20);
    out
}

#[test]
fn ic1_equals_the_oracle_for_every_person_and_name() {
    let (o, g, registry) = (Oracle::read(), graph(), Registry::with_builtins());
    let names: HashMap<i64, (String, String)> = rows("dynamic/person")
        .into_iter()
        .map(|r| (int(&r[0]), (r[1].clone(), r[2].clone())))
        .collect();
    // The three commonest first names and a rare one.
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for (first, _) in names.values() {
        *uses.entry(first.as_str()).or_default() += 1;
    }
    let mut by_use: Vec<(usize, &str)> = uses.into_iter().map(|(n, u)| (u, n)).collect();
    by_use.sort_by(|a, b| b.cmp(a));
    let tried: Vec<&str> = by_use
        .iter()
        .take(3)
        .chain(by_use.last())
        .map(|u| u.1)
        .collect();
    let mut nonempty = 0;
    for name in tried {
        for &p in &o.persons {
            let params = vec![
                ("personId", Value::Int(p)),
                ("firstName", Value::string(name)),
            ];
            let got: Vec<(i64, String, i64)> = call(&registry, &g, "ldbc.ic1", params)
                .iter()
                .map(|r| match &r[1] {
                    Value::String(last) => (int_of(&r[0]), last.to_string(), int_of(&r[2])),
                    other => panic!("friendLastName is not a string: {other:?}"),
                })
                .collect();
            let want = ic1_oracle(&o, &names, p, name);
            assert_eq!(got, want, "ldbc.ic1 person {p} name {name}");
            nonempty += usize::from(!want.is_empty());
        }
    }
    assert!(
        nonempty > 200,
        "only {nonempty} non-empty answers: the sweep checks too little"
    );
}
