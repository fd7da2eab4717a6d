//! The Cypher lexer and parser, and parse -> bind -> plan.

use kith_cypher::planner::describe;
use kith_cypher::Prepared;
use kith_storage::Snapshot;

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

/// Any text that parses binds and plans, or is refused with a position inside it;
/// a plan that comes out describes itself (EXPLAIN) over an empty graph.
pub fn cypher_plan(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Prepared::new(text) {
        Ok(prepared) => {
            let _ = prepared.columns();
            let _ = prepared.writes();
            let _ = describe(&prepared.plan, &Snapshot::empty());
        }
        Err(e) => {
            if let Some(p) = e.position {
                assert!(
                    p.offset <= text.len(),
                    "an error position past the text: {e:?}"
                );
            }
        }
    }
}
