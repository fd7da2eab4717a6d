//! The Cypher lexer and parser, and parse -> bind -> plan.

use kith_cypher::planner::PlanMode;
use kith_cypher::procedures::ProcedureSet;
use kith_cypher::{NoProcedures, Prepared};

/// Any text lexes and parses or is refused with a position inside it; never a panic
/// or unbounded recursion (the parser bounds nesting).
pub fn cypher_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = kith_cypher::lexer::tokenize(text);
    if let Err(e) = kith_cypher::check_syntax(text) {
        if let Some(p) = e.position {
            assert!(
                p.offset <= text.len(),
                "an error position past the text: {e:?}"
            );
        }
    }
}

/// Any text that parses binds and plans, or is refused; both plan modes agree on
/// which.
pub fn cypher_plan(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let procs = ProcedureSet(std::sync::Arc::new(NoProcedures));
    let optimised = Prepared::with_plan_mode(text, &procs, PlanMode::Optimised);
    let naive = Prepared::with_plan_mode(text, &procs, PlanMode::Naive);
    assert_eq!(
        optimised.is_ok(),
        naive.is_ok(),
        "the plan modes disagree on {text:?}: {:?} / {:?}",
        optimised.as_ref().err(),
        naive.as_ref().err()
    );
    if let Ok(p) = optimised {
        let _ = p.columns();
        let _ = p.writes();
    }
}
