//! What the index-seek tests share: committing a statement, and running a query in
//! both plan modes (the naive one never seeks), which must agree.

// Each test file that includes this uses part of it.
#![allow(dead_code)]

use kith_core::write_op::WriteCounts;
use kith_cypher::planner::PlanMode;
use kith_cypher::procedures::ProcedureSet;
use kith_cypher::{Engine, Limits, NoProcedures, Prepared};
use kith_storage::{Store, Tx};

/// Runs `text` and commits its writes: what they count, or the error.
pub fn try_commit(store: &Store, text: &str) -> Result<WriteCounts, String> {
    let mut tx = Tx::new(&store.snapshot());
    Engine::default()
        .query_tx(&mut tx, text, &[], &Limits::default())
        .map_err(|e| e.render(text))?;
    let batch = tx.into_batch();
    store.apply(&batch).map_err(|e| format!("{e}"))?;
    Ok(WriteCounts::of(&batch.ops))
}

/// [`try_commit`], which must succeed.
pub fn commit(store: &Store, text: &str) {
    try_commit(store, text).unwrap_or_else(|e| panic!("{e}"));
}

/// Sorted rows of `text` in both plan modes, which must agree.
pub fn rows(store: &Store, text: &str) -> Vec<String> {
    let procs = ProcedureSet(std::sync::Arc::new(NoProcedures));
    let [a, b] = [PlanMode::Optimised, PlanMode::Naive].map(|mode| {
        let prepared = Prepared::with_plan_mode(text, &procs, mode)
            .unwrap_or_else(|e| panic!("{}", e.render(text)));
        let mut rows: Vec<String> =
            kith_cypher::run(&*store.snapshot(), &prepared, &[], &Limits::default())
                .unwrap_or_else(|e| panic!("{}", e.render(text)))
                .rows
                .iter()
                .map(|r| format!("{r:?}"))
                .collect();
        rows.sort();
        rows
    });
    assert_eq!(a, b, "the plan modes disagree on {text}");
    a
}

/// The plan an EXPLAIN text describes, rendered.
pub fn explained(store: &Store, text: &str) -> String {
    Engine::default()
        .query(&*store.snapshot(), text, &[], &Limits::default())
        .expect("explains")
        .plan
        .expect("a plan")
        .render()
}
