//! Stored Cypher procedures: registered with `kith.procedure.register`, kept in the
//! graph's schema, called like native ones (arguments, YIELD, writes in the caller's
//! transaction), prepared again when the set changes, refused when malformed.

use std::sync::Arc;

use kith_core::{GraphView, Value};
use kith_cypher::{Engine, ErrorCode, Limits, NoProcedures, QueryResult, WithStored};
use kith_storage::{Snapshot, Store, Tx};

struct Db {
    store: Arc<Store>,
    engine: Engine,
}

fn db() -> Db {
    let store = Arc::new(Store::new(Snapshot::default()));
    let current = store.clone();
    let procs = WithStored::new(
        Arc::new(NoProcedures),
        Box::new(move || -> Arc<dyn GraphView> { current.snapshot() }),
    );
    let db = Db {
        store,
        engine: Engine::with_procedures(64, procs),
    };
    db.commit(
        "CREATE (a:Person {id: 1, name: 'Ann'})-[:KNOWS]->(b:Person {id: 2, name: 'Bob'}),
                (b)-[:KNOWS]->(:Person {id: 3, name: 'Cid'})",
        &[],
    );
    db
}

impl Db {
    fn try_commit(&self, text: &str, params: &[(&str, Value)]) -> kith_cypher::Result<QueryResult> {
        let params: Vec<(String, Value)> = params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let mut tx = Tx::new(&self.store.snapshot());
        let r = self
            .engine
            .query_tx(&mut tx, text, &params, &Limits::default())?;
        self.store
            .apply(&tx.into_batch())
            .expect("the writes apply");
        Ok(r)
    }

    fn commit(&self, text: &str, params: &[(&str, Value)]) -> QueryResult {
        self.try_commit(text, params)
            .unwrap_or_else(|e| panic!("{}", e.render(text)))
    }

    fn register(&self, name: &str, text: &str) {
        self.commit(
            "CALL kith.procedure.register($name, $text)",
            &[("name", Value::string(name)), ("text", Value::string(text))],
        );
    }
}

fn s(v: &str) -> Value {
    Value::string(v)
}

#[test]
fn a_stored_procedure_is_called_like_a_native_one() {
    let db = db();
    db.register(
        "app.friends",
        "MATCH (:Person {id: $id})-[:KNOWS]-(f) RETURN f.name AS name, f ORDER BY name",
    );
    let r = db.commit(
        "CALL app.friends(2) YIELD name RETURN collect(name) AS names",
        &[],
    );
    assert_eq!(r.rows, vec![vec![Value::List(vec![s("Ann"), s("Cid")])]]);
    // Standalone with implicit arguments: every column, from the parameter of the
    // same name.
    let r = db.commit("CALL app.friends", &[("id", Value::Int(1))]);
    assert_eq!(r.columns, vec!["name", "f"]);
    assert_eq!(r.rows.len(), 1);
    // A node it yields is a node: the caller can walk on from it.
    let r = db.commit(
        "CALL app.friends(1) YIELD f MATCH (f)-[:KNOWS]->(g) RETURN g.name",
        &[],
    );
    assert_eq!(r.rows, vec![vec![s("Cid")]]);
    let listed = db.commit(
        "SHOW PROCEDURES YIELD name, signature WHERE name STARTS WITH 'app.' RETURN signature",
        &[],
    );
    assert_eq!(
        listed.rows,
        vec![vec![s("app.friends(id :: ANY) :: (name, f)")]]
    );
}

#[test]
fn a_writing_stored_procedure_writes_in_the_callers_transaction() {
    let db = db();
    db.register(
        "app.befriend",
        "MATCH (a:Person {id: $a}), (b:Person {id: $b}) MERGE (a)-[:KNOWS]->(b) RETURN count(*) AS made",
    );
    let r = db.commit(
        "UNWIND [[1, 3], [3, 1]] AS pair CALL app.befriend(pair[0], pair[1]) YIELD made \
         WITH sum(made) AS made MATCH (:Person {id: 1})-[k:KNOWS]-(:Person {id: 3}) RETURN made, count(k)",
        &[],
    );
    assert_eq!(r.rows, vec![vec![Value::Int(2), Value::Int(2)]]);
    let n = db.commit("MATCH (:Person)-[k:KNOWS]->() RETURN count(k)", &[]);
    assert_eq!(
        n.rows,
        vec![vec![Value::Int(4)]],
        "committed with the caller"
    );
}

#[test]
fn replacing_a_procedure_replans_its_callers() {
    let db = db();
    db.register("app.n", "RETURN 1 AS n");
    db.register("app.outer", "CALL app.n() YIELD n RETURN n * 10 AS m");
    let q = "CALL app.outer() YIELD m RETURN m";
    assert_eq!(db.commit(q, &[]).rows, vec![vec![Value::Int(10)]]);
    db.register("app.n", "RETURN 2 AS n");
    assert_eq!(db.commit(q, &[]).rows, vec![vec![Value::Int(20)]]);
    // A cycle through the set is refused at registration.
    let e = db
        .try_commit(
            "CALL kith.procedure.register('app.n', 'CALL app.outer() YIELD m RETURN m AS n')",
            &[],
        )
        .expect_err("cycle");
    assert_eq!(e.code, ErrorCode::ProcedureCallFailed);
    assert!(e.message.contains("call itself"), "{}", e.message);
    db.commit("CALL kith.procedure.drop('app.outer')", &[]);
    let e = db.try_commit(q, &[]).expect_err("dropped");
    assert_eq!(e.code, ErrorCode::ProcedureNotFound);
}

#[test]
fn bad_registrations_are_refused_with_the_reason() {
    let db = db();
    let refused = |name: &str, text: &str| {
        db.try_commit(
            "CALL kith.procedure.register($name, $text)",
            &[("name", s(name)), ("text", s(text))],
        )
        .expect_err(name)
    };
    assert_eq!(
        refused("app friends", "RETURN 1 AS x").code,
        ErrorCode::ArgumentError
    );
    assert_eq!(
        refused("1app", "RETURN 1 AS x").code,
        ErrorCode::ArgumentError
    );
    let e = refused("kith.mine", "RETURN 1 AS x");
    assert!(e.message.contains("native"), "{}", e.message);
    let e = refused("app.broken", "MATCH (n RETURN n");
    assert_eq!(e.code, ErrorCode::ProcedureCallFailed);
    assert!(e.message.contains("does not prepare"), "{}", e.message);
    let e = db
        .try_commit("CALL kith.procedure.drop('app.none')", &[])
        .expect_err("none");
    assert_eq!(e.code, ErrorCode::ProcedureCallFailed);
    assert!(db.store.snapshot().schema().procedures.is_empty());
}

#[test]
fn union_parts_take_their_own_parameters_and_union_removes_duplicates() {
    let db = db();
    db.register(
        "app.u",
        "RETURN $a AS x UNION ALL RETURN $b + $c AS x UNION ALL RETURN $a AS x",
    );
    let r = db.commit("CALL app.u(1, 2, 3) YIELD x RETURN collect(x) AS xs", &[]);
    assert_eq!(
        r.rows,
        vec![vec![Value::List(vec![
            Value::Int(1),
            Value::Int(5),
            Value::Int(1)
        ])]]
    );
    db.register("app.d", "RETURN $a AS x UNION RETURN $a AS x");
    let r = db.commit("CALL app.d(7) YIELD x RETURN count(*) AS n", &[]);
    assert_eq!(
        r.rows,
        vec![vec![Value::Int(1)]],
        "UNION keeps each row once"
    );
}

#[test]
fn explain_texts_and_deep_chains_are_refused() {
    let db = db();
    let e = db
        .try_commit(
            "CALL kith.procedure.register('app.e', 'EXPLAIN RETURN 1 AS x')",
            &[],
        )
        .expect_err("explain");
    assert!(e.message.contains("EXPLAIN"), "{}", e.message);
    db.register("app.c0", "RETURN 1 AS x");
    for i in 1..=16 {
        let text = format!("CALL app.c{}() YIELD x RETURN x + 1 AS x", i - 1);
        let registered = db.try_commit(
            "CALL kith.procedure.register($name, $text)",
            &[("name", s(&format!("app.c{i}"))), ("text", s(&text))],
        );
        if i < 16 {
            registered.unwrap_or_else(|e| panic!("app.c{i}: {}", e.message));
        } else {
            let e = registered.expect_err("too deep");
            assert!(e.message.contains("nest deeper"), "{}", e.message);
        }
    }
    let r = db.commit("CALL app.c15() YIELD x RETURN x", &[]);
    assert_eq!(r.rows, vec![vec![Value::Int(16)]]);
}
