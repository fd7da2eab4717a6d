//! Parser tests: the official LDBC texts parse, errors point at the right place.

use super::parse;
use crate::ast::{Clause, ExprKind, PathKind};
use crate::error::ErrorCode;

fn ldbc_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ldbc-cypher")
}

#[test]
fn every_official_ldbc_text_parses() {
    let dir = ldbc_dir();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("the LDBC Cypher texts are beside the repo") {
        let path = entry.expect("dir entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("cypher")
            || !path.to_string_lossy().contains("interactive")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        parse(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.render(&text)));
        seen += 1;
    }
    assert_eq!(seen, 29);
}

#[test]
fn shortest_path_stays_in_the_tree() {
    let s = parse("MATCH p = allShortestPaths((a)-[:KNOWS*0..]-(b)) RETURN p").expect("parses");
    let Clause::Match(m) = &s.query.clauses[0] else {
        panic!("a MATCH")
    };
    assert_eq!(m.pattern[0].kind, PathKind::AllShortest);
    assert_eq!(m.pattern[0].path_var.as_deref(), Some("p"));
}

#[test]
fn chained_comparison_and_pattern_predicate() {
    let s = parse("MATCH (a) WHERE 1 < a.x <= 3 AND NOT (a)-[:R]->() RETURN a").expect("parses");
    let Clause::Match(m) = &s.query.clauses[0] else {
        panic!("a MATCH")
    };
    let ExprKind::Binary(_, l, r) = &m.where_.as_ref().expect("where").kind else {
        panic!("AND")
    };
    assert!(matches!(&l.kind, ExprKind::Compare(_, chain) if chain.len() == 2));
    assert!(
        matches!(&r.kind, ExprKind::Unary(_, inner) if matches!(inner.kind, ExprKind::Pattern(_)))
    );
}

#[test]
fn comprehension_forms() {
    let s = parse("RETURN [x IN [1,2] WHERE x > 1 | x * 2], [(a)-->(b) | b.name], [1, 2][0], reduce(s = 0, v IN [1] | s + v)")
        .expect("parses");
    let Clause::Return(p) = &s.query.clauses[0] else {
        panic!("a RETURN")
    };
    assert!(matches!(
        p.items[0].expr.kind,
        ExprKind::ListComprehension { .. }
    ));
    assert!(matches!(
        p.items[1].expr.kind,
        ExprKind::PatternComprehension { .. }
    ));
    assert!(matches!(p.items[2].expr.kind, ExprKind::Index(..)));
    assert!(matches!(p.items[3].expr.kind, ExprKind::Reduce { .. }));
}

#[test]
fn syntax_errors_name_line_column_and_expectation() {
    let text = "MATCH (a:Person)\nRETURN a.name AS";
    let err = parse(text).expect_err("must fail");
    assert_eq!(err.code, ErrorCode::SyntaxError);
    let pos = err.position.expect("a position");
    assert_eq!((pos.line, pos.column), (2, 17));
    assert!(
        err.message.contains("expected a variable name"),
        "{}",
        err.message
    );
    assert!(err.render(text).contains("^"));
}

#[test]
fn unknown_clause_and_deep_nesting_are_errors() {
    assert_eq!(
        parse("FROB (a) RETURN a").expect_err("fails").code,
        ErrorCode::SyntaxError
    );
    let deep = format!("RETURN {}1{}", "(".repeat(500), ")".repeat(500));
    assert_eq!(
        parse(&deep).expect_err("too deep").code,
        ErrorCode::SyntaxError
    );
}

#[test]
fn min_int_literal() {
    let s = parse("RETURN -9223372036854775808 AS m").expect("parses");
    let Clause::Return(p) = &s.query.clauses[0] else {
        panic!("a RETURN")
    };
    assert_eq!(p.items[0].expr.kind, ExprKind::Int(i64::MIN));
}
