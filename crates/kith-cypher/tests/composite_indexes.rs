//! Composite indexes and uniqueness constraints (`ON (n.a, n.b)`, `REQUIRE (n.a,
//! n.b) IS UNIQUE`): declared, listed and dropped as Neo4j 5 does; equalities on
//! several keys (WHERE conjuncts or a pattern's properties) answer exactly what a
//! scan answers, under a composite (`C`), under one-key indexes (`S`) and under no
//! index (`N`), in both plan modes.

mod seek_support;

use kith_core::Value;
use kith_cypher::{Engine, Limits};
use kith_storage::{Snapshot, Store, Tx};
use seek_support::{commit, explained, rows, try_commit};

/// Values of `a` and `b` of many kinds, missing ones among them.
const VALUES: &str = "[1, 1.0, 2, -0.0, 0, 9007199254740993, 9007199254740992.0, 'x', 'y', \
    true, [1], null, 0.0 / 0.0, datetime('2020-01-01T00:00:00Z')]";

fn graph() -> Store {
    let store = Store::new(Snapshot::default());
    commit(&store, "CREATE INDEX ab FOR (n:C) ON (n.a, n.b)");
    commit(&store, "CREATE INDEX FOR (n:S) ON (n.b)");
    commit(
        &store,
        &format!(
            "UNWIND {VALUES} AS a UNWIND {VALUES} AS b \
             CREATE (:C {{a: a, b: b, c: 1}}), (:S {{a: a, b: b, c: 1}}), \
             (:N {{a: a, b: b, c: 1}})"
        ),
    );
    store
}

const PREDICATES: &[&str] = &[
    "n.a = 1 AND n.b = 'x'",
    "n.b = 'x' AND n.a = 1",
    "n.a = 1.0 AND n.b = 2",
    "n.a = -0.0 AND n.b = 0",
    "n.a = 9007199254740992 AND n.b = 9007199254740993",
    "n.a = 9007199254740993 AND n.b = 'y'",
    "n.a = 9007199254740992.0 AND n.b = 'x'",
    "n.a = true AND n.b = [1]",
    "n.a = [1] AND n.b = 'x'",
    "n.a = null AND n.b = 'x'",
    "n.a = 0.0 / 0.0 AND n.b = 'x'",
    "n.a = datetime('2020-01-01T00:00:00Z') AND n.b = 1",
    "n.a = 1 AND n.b = 'x' AND n.c = 1",
    "n.a = 1 AND n.b = 'x' AND n.c = 2",
    "n.a = 1 AND n.b IN ['x', 'y']",
    "n.a = 2 AND n.b > 1",
];

#[test]
fn equalities_on_several_keys_answer_what_scans_answer() {
    let g = graph();
    for p in PREDICATES {
        let on = |label: &str| rows(&g, &format!("MATCH (n:{label}) WHERE {p} RETURN n.a, n.b"));
        let scanned = on("N");
        assert_eq!(on("C"), scanned, "C: WHERE {p}");
        assert_eq!(on("S"), scanned, "S: WHERE {p}");
    }
    for props in [
        "{a: 1, b: 'x'}",
        "{b: 2, a: 1}",
        "{a: 1, b: 'x', c: 1}",
        "{a: 1}",
    ] {
        let on = |label: &str| rows(&g, &format!("MATCH (n:{label} {props}) RETURN n.a, n.b"));
        assert_eq!(on("C"), on("N"), "C: {props}");
    }
    let on = |q: &str| rows(&g, &q.replace("L", "C")) == rows(&g, &q.replace("L", "N"));
    assert!(on("MATCH (n:L {a: 1}) WHERE n.b = 'x' RETURN n.a, n.b"));
    // Not vacuous: 1 and 1.0 are one value to `=`, so two `a`s and one `b`.
    let found = rows(
        &g,
        "MATCH (n:C) WHERE n.a = 1 AND n.b = 'x' RETURN n.a, n.b",
    );
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn explain_names_the_composite_that_answers() {
    let g = graph();
    let plan = explained(
        &g,
        "EXPLAIN MATCH (n:C) WHERE n.b = $b AND n.a = $a RETURN n",
    );
    assert!(
        plan.contains("NodeIndexSeek") && plan.contains("n:C(a, b) = …"),
        "{plan}"
    );
    let plan = explained(&g, "EXPLAIN MATCH (n:C {a: $a, b: $b}) RETURN n");
    assert!(plan.contains("n:C(a, b) = …"), "{plan}");
    // One key of the two: the composite does not answer; no other index does.
    let plan = explained(&g, "EXPLAIN MATCH (n:C) WHERE n.a = $a RETURN n");
    assert!(plan.contains("NodeByLabelScan"), "{plan}");
    // A one-key index on either key answers an equality on both.
    let plan = explained(&g, "EXPLAIN MATCH (n:S {a: $a, b: $b}) RETURN n");
    assert!(plan.contains("n:S(b) = …"), "{plan}");
}

#[test]
fn a_composite_seek_sees_the_transaction_s_own_writes() {
    let g = graph();
    let mut tx = Tx::new(&g.snapshot());
    let engine = Engine::default();
    let mut run = |q: &str| {
        engine
            .query_tx(&mut tx, q, &[], &Limits::default())
            .unwrap_or_else(|e| panic!("{}", e.render(q)))
            .rows
    };
    // Two nodes hold (1, 'x'): `a` 1 and `a` 1.0.
    run("MATCH (n:C {a: 1, b: 'x'}) SET n.b = 'moved' \
         WITH count(*) AS moved CREATE (:C {a: 1, b: 'x', c: moved})");
    let got = run("MATCH (n:C) WHERE n.a = 1 AND n.b = 'x' RETURN n.c");
    assert_eq!(got, vec![vec![Value::Int(2)]]);
}

fn listing(g: &Store, q: &str) -> Vec<Vec<Value>> {
    Engine::default()
        .query(&*g.snapshot(), q, &[], &Limits::default())
        .unwrap_or_else(|e| panic!("{}", e.render(q)))
        .rows
}

fn strings(values: &[&str]) -> Value {
    Value::List(values.iter().map(|s| Value::String((*s).into())).collect())
}

#[test]
fn composite_rules_are_listed_and_dropped_as_neo4j_does() {
    let g = Store::new(Snapshot::default());
    let created = try_commit(&g, "CREATE INDEX FOR (n:P) ON (n.first, n.last)").expect("creates");
    assert_eq!(created.indexes_added, 1);
    commit(
        &g,
        "CREATE CONSTRAINT one_email FOR (n:P) REQUIRE (n.email, n.site) IS UNIQUE",
    );
    let show = "SHOW INDEXES YIELD name, type, properties, owningConstraint, createStatement \
                WHERE type = 'RANGE' RETURN *";
    let got = listing(&g, show);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0][1], Value::String("index_P_first_last".into()));
    assert_eq!(got[0][3], strings(&["first", "last"]));
    assert_eq!(
        got[0][0],
        Value::String(
            "CREATE RANGE INDEX `index_P_first_last` FOR (n:`P`) ON (n.`first`, n.`last`)".into()
        )
    );
    assert_eq!(got[1][1], Value::String("one_email".into()));
    assert_eq!(
        got[1][2],
        Value::String("one_email".into()),
        "owned by its constraint"
    );
    let constraints = listing(
        &g,
        "SHOW CONSTRAINTS YIELD name, properties, createStatement",
    );
    assert_eq!(constraints[0][1], strings(&["email", "site"]));
    assert_eq!(
        constraints[0][2],
        Value::String(
            "CREATE CONSTRAINT `one_email` FOR (n:`P`) REQUIRE (n.`email`, n.`site`) IS UNIQUE"
                .into()
        )
    );
    // The same keys in the same order: IF NOT EXISTS does nothing; in another order
    // it is another index.
    let again = try_commit(
        &g,
        "CREATE INDEX IF NOT EXISTS FOR (n:P) ON (n.first, n.last)",
    );
    assert_eq!(again.expect("no error").indexes_added, 0);
    let err = try_commit(&g, "CREATE INDEX FOR (n:P) ON (n.first, n.last)").expect_err("refused");
    assert!(err.contains("already covers :P(first, last)"), "{err}");
    commit(&g, "CREATE INDEX other FOR (n:P) ON (n.last, n.first)");
    let err = try_commit(&g, "DROP INDEX one_email").expect_err("refused");
    assert!(err.contains("belongs to constraint"), "{err}");
    let dropped = try_commit(&g, "DROP INDEX index_P_first_last").expect("drops");
    assert_eq!(dropped.indexes_removed, 1);
    let dropped = try_commit(&g, "DROP CONSTRAINT one_email").expect("drops");
    assert_eq!(dropped.constraints_removed, 1);
    let names = listing(&g, "SHOW RANGE INDEXES YIELD name RETURN name");
    assert_eq!(names, vec![vec![Value::String("other".into())]]);
    // Neo4j's words for what it refuses too.
    for (q, says) in [
        (
            "CREATE TEXT INDEX FOR (n:P) ON (n.a, n.b)",
            "Only single property text indexes",
        ),
        (
            "CREATE POINT INDEX FOR (n:P) ON (n.a, n.b)",
            "Only single property point indexes",
        ),
        (
            "CREATE INDEX FOR (n:P) ON (n.a, n.a)",
            "Index on (:P {a, a}) includes a property more than once.",
        ),
    ] {
        let err = try_commit(&g, q).expect_err("refused");
        assert!(err.contains(says), "{q}: {err}");
    }
}

#[test]
fn a_composite_constraint_refuses_equal_tuples_only() {
    let g = Store::new(Snapshot::default());
    commit(
        &g,
        "CREATE CONSTRAINT FOR (n:U) REQUIRE (n.a, n.b) IS UNIQUE",
    );
    commit(
        &g,
        "CREATE (:U {a: 1, b: 'x'}), (:U {a: 1, b: 'y'}), (:U {a: 2, b: 'x'})",
    );
    // Nodes lacking a key are not constrained.
    commit(&g, "CREATE (:U {a: 1}), (:U {a: 1}), (:U {b: 'x'})");
    for q in [
        "CREATE (:U {a: 1, b: 'x'})",
        "CREATE (:U {a: 1.0, b: 'x'})",
        "MATCH (n:U {a: 1, b: 'y'}) SET n.b = 'x'",
        "MATCH (n:U {a: 1}) WHERE n.b IS NULL WITH n LIMIT 1 SET n.b = 'y'",
    ] {
        let err = try_commit(&g, q).expect_err("refused");
        assert!(err.contains("(a, b)"), "{q}: {err}");
    }
    commit(&g, "MATCH (n:U {a: 1, b: 'y'}) SET n.b = 'z'");
    commit(&g, "CREATE (:U {a: 1, b: 'y'})");
    let count = listing(&g, "MATCH (n:U) RETURN count(*)");
    assert_eq!(count, vec![vec![Value::Int(7)]]);
    // Declaring it over nodes that break it is refused, and declares nothing.
    commit(&g, "CREATE (:V {a: 1, b: 2}), (:V {a: 1, b: 2.0})");
    // As Neo4j says it (a DatabaseError, status 50N11).
    let q = "CREATE CONSTRAINT v FOR (n:V) REQUIRE (n.a, n.b) IS UNIQUE";
    let mut tx = Tx::new(&g.snapshot());
    let err = Engine::default()
        .query_tx(&mut tx, q, &[], &Limits::default())
        .expect_err("refused");
    assert_eq!(
        err.code,
        kith_cypher::ErrorCode::ConstraintCreationFailed,
        "{err}"
    );
    assert_eq!(err.gql_status(), "50N11");
    let says = "Unable to create Constraint( name='v', type='UNIQUENESS', schema=(:V {a, b}) ): \
                another :V node already has (a, b) = (1, 2";
    assert!(err.message.starts_with(says), "{err}");
    assert!(listing(&g, "SHOW CONSTRAINTS YIELD name WHERE name = 'v'").is_empty());
}

#[test]
fn one_key_constraints_take_1_and_1_0_as_one_value() {
    // As Neo4j 5.26 does (and as `=` does): before, a one-key constraint let both in.
    let g = Store::new(Snapshot::default());
    commit(&g, "CREATE CONSTRAINT FOR (n:K) REQUIRE n.k IS UNIQUE");
    commit(
        &g,
        "CREATE (:K {k: 1}), (:K {k: 2.0}), (:K {k: 2.5}), (:K {k: 9007199254740993})",
    );
    for q in [
        "CREATE (:K {k: 1.0})",
        "CREATE (:K {k: 2})",
        "CREATE (:K {k: -0.0 + 1})",
    ] {
        let err = try_commit(&g, q).expect_err("refused");
        assert!(err.contains("uniqueness"), "{q}: {err}");
    }
    commit(
        &g,
        "CREATE (:K {k: 3}), (:K {k: 2.25}), (:K {k: 9007199254740992})",
    );
}
