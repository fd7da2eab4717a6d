//! Tests of the TCK runner's own parts (`tests/tck/`): the Gherkin reader, the
//! expected-value parser and comparator, and the side-effect count. The runner
//! (`tests/tck.rs`) has no test harness, so its pieces are checked here.

#![allow(clippy::unwrap_used)]

#[path = "tck/effects.rs"]
mod effects;
#[path = "tck/gherkin.rs"]
mod gherkin;
#[path = "tck/values.rs"]
mod values;

use std::sync::Arc;

use kith_core::write_op::{NodeRef, WriteOp};
use kith_core::{NodeId, Value};
use kith_storage::{Snapshot, Store, WriteBatch};
use values::{matches, parse, Expected, ListOrder};

fn node(id: i64, labels: &[&str], props: Vec<(&str, Value)>) -> Value {
    Value::Map(vec![
        (Arc::from("_id"), Value::Int(id)),
        (
            Arc::from("_labels"),
            Value::List(labels.iter().map(|l| Value::string(*l)).collect()),
        ),
        (Arc::from("properties"), map(props)),
    ])
}

fn rel(id: i64, t: &str, start: i64, end: i64, props: Vec<(&str, Value)>) -> Value {
    Value::Map(vec![
        (Arc::from("_id"), Value::Int(id)),
        (Arc::from("_type"), Value::string(t)),
        (Arc::from("_start"), Value::Int(start)),
        (Arc::from("_end"), Value::Int(end)),
        (Arc::from("properties"), map(props)),
    ])
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (Arc::from(k), v))
            .collect(),
    )
}

fn is(expected: &str, actual: &Value) -> bool {
    matches(&parse(expected).unwrap(), actual, ListOrder::Strict)
}

#[test]
fn scalars_parse_and_keep_their_type() {
    assert_eq!(parse("null").unwrap(), Expected::Null);
    assert_eq!(parse("-42").unwrap(), Expected::Int(-42));
    assert_eq!(
        parse("-9223372036854775808").unwrap(),
        Expected::Int(i64::MIN)
    );
    assert_eq!(parse("1.5e3").unwrap(), Expected::Float(1500.0));
    assert_eq!(parse(".1e-5").unwrap(), Expected::Float(0.1e-5));
    assert_eq!(parse("-Inf").unwrap(), Expected::Float(f64::NEG_INFINITY));
    assert_eq!(parse("'it\\'s'").unwrap(), Expected::Str("it's".into()));
    // The TCK's Literals6 [5]: `\\` is one backslash inside a string.
    assert_eq!(parse(r"'a\\b'").unwrap(), Expected::Str(r"a\b".into()));
    assert!(parse("'open").is_err());
    assert!(parse("[1, 2").is_err());
    assert!(parse("1 2").is_err());

    assert!(is("1", &Value::Int(1)));
    assert!(!is("1", &Value::Float(1.0)), "an integer is not a float");
    assert!(!is("1.0", &Value::Int(1)), "a float is not an integer");
    assert!(is("-0.0", &Value::Float(-0.0)));
    assert!(is("NaN", &Value::Float(f64::NAN)));
    assert!(!is("NaN", &Value::Float(1.0)));
    assert!(is("'a'", &Value::string("a")));
    assert!(!is("'a'", &Value::Null));
    assert!(!is("null", &Value::string("null")));
}

#[test]
fn containers_compare_structurally() {
    let list = Value::List(vec![Value::Int(1), Value::string("x"), Value::Null]);
    assert!(is("[1, 'x', null]", &list));
    assert!(!is("['x', 1, null]", &list));
    assert!(matches(
        &parse("['x', null, 1]").unwrap(),
        &list,
        ListOrder::Ignore
    ));
    assert!(!is("[1, 'x']", &list));
    let m = map(vec![("a", Value::Int(1)), ("b", list.clone())]);
    assert!(is("{b: [1, 'x', null], a: 1}", &m), "map key order is free");
    assert!(!is("{a: 1}", &m));
    assert!(!is("{a: 1, b: [1, 'x', null], c: 2}", &m));
    assert!(is("{}", &map(vec![])));
    assert!(is("[]", &Value::List(vec![])));
    assert!(!is("[]", &map(vec![])));
}

#[test]
fn graph_elements_compare_without_ids() {
    let n = node(7, &["B", "A"], vec![("name", Value::string("n"))]);
    assert!(is("(:A:B {name: 'n'})", &n), "labels are a set");
    assert!(!is("(:A {name: 'n'})", &n));
    assert!(!is("(:A:B)", &n));
    assert!(!is("(:A:B {name: 'm'})", &n));
    assert!(is("()", &node(1, &[], vec![])));
    assert!(!is("()", &map(vec![])), "a map is not a node");
    assert!(
        !is("{}", &node(1, &[], vec![])),
        "a node is not an (empty) map"
    );

    let r = rel(3, "T", 1, 2, vec![("num", Value::Int(1))]);
    assert!(is("[:T {num: 1}]", &r));
    assert!(!is("[:U {num: 1}]", &r));
    assert!(!is("[:T]", &r));
    assert!(
        !is("[{num: 1}]", &r),
        "a list with a map is not a relationship"
    );

    let a = node(1, &["A"], vec![]);
    let b = node(2, &["B"], vec![]);
    let path = |rels: Vec<Value>| {
        map(vec![
            ("nodes", Value::List(vec![a.clone(), b.clone()])),
            ("relationships", Value::List(rels)),
        ])
    };
    let forward = path(vec![rel(0, "T", 1, 2, vec![])]);
    let backward = path(vec![rel(0, "T", 2, 1, vec![])]);
    assert!(is("<(:A)-[:T]->(:B)>", &forward));
    assert!(!is("<(:A)<-[:T]-(:B)>", &forward), "direction counts");
    assert!(is("<(:A)<-[:T]-(:B)>", &backward));
    assert!(!is("<(:A)-[:T]->(:C)>", &forward));
    assert!(!is("<(:A)>", &forward));
    let single = map(vec![
        ("nodes", Value::List(vec![a.clone()])),
        ("relationships", Value::List(vec![])),
    ]);
    assert!(is("<(:A)>", &single));
}

#[test]
fn gherkin_outlines_expand_and_cells_unescape() {
    let text = "Feature: F\r\n\r\n  Background:\r\n    Given any graph\r\n\r\n  @tag\r\n  \
                Scenario Outline: [1] S <x>\r\n    When executing query:\r\n      \"\"\"\r\n      \
                RETURN <x> AS v\r\n        , 1\r\n      \"\"\"\r\n    Then the result should be, in any order:\r\n      \
                | v   |\r\n      | <x> |\r\n\r\n    Examples:\r\n      | x      |\r\n      | 1      |\r\n      \
                | 'a\\|b' |\r\n";
    let f = gherkin::parse(text).unwrap();
    assert_eq!(f.scenarios.len(), 2);
    let s = &f.scenarios[1];
    assert_eq!(s.name, "[1] S <x>");
    assert_eq!(s.example, Some(2));
    assert_eq!(s.line, 7);
    assert_eq!(s.tags, vec!["@tag".to_owned()]);
    assert_eq!(s.steps.len(), 3, "the background's step comes first");
    assert_eq!(s.steps[0].text, "any graph");
    assert_eq!(
        s.steps[1].doc.as_deref(),
        Some("RETURN 'a|b' AS v\n  , 1"),
        "doc strings lose their indentation, outlines substitute"
    );
    assert_eq!(s.steps[2].table, vec![vec!["v"], vec!["'a|b'"]]);
    assert_eq!(
        gherkin::split_row(r"| 'a\\b' | x\ny |"),
        vec![r"'a\b'".to_owned(), "x\ny".to_owned()]
    );
    assert!(gherkin::parse("Feature: F\n  Scenario: s\n    Whenever x\n").is_err());
}

#[test]
fn side_effects_count_nodes_relationships_properties_and_labels() {
    let store = Store::new(Snapshot::empty());
    let create = |labels: &[&str], props: Vec<(&str, Value)>| WriteOp::CreateNode {
        labels: labels.iter().map(|l| Arc::from(*l)).collect(),
        properties: props.into_iter().map(|(k, v)| (Arc::from(k), v)).collect(),
    };
    store
        .apply(&WriteBatch {
            ops: vec![create(&["A"], vec![("num", Value::Int(1))])],
        })
        .unwrap();
    let before = effects::State::of(&store.snapshot());
    assert!(effects::diff(&before, &before).is_empty());
    store
        .apply(&WriteBatch {
            ops: vec![
                create(&["A", "B"], vec![("num", Value::Int(1))]),
                create(&[], vec![]),
                WriteOp::CreateRel {
                    rel_type: Arc::from("T"),
                    src: NodeRef::Node(NodeId(0)),
                    dst: NodeRef::Created(1),
                    properties: vec![(Arc::from("w"), Value::Float(0.5))],
                },
                WriteOp::SetNodeProperty {
                    node: NodeRef::Node(NodeId(0)),
                    key: Arc::from("num"),
                    value: Value::Int(2),
                },
            ],
        })
        .unwrap();
    let d = effects::diff(&before, &effects::State::of(&store.snapshot()));
    let want: Vec<(&str, usize)> = vec![
        ("+labels", 1),
        ("+nodes", 2),
        // The new node's num, the relationship's w, and node 0's changed num.
        ("+properties", 3),
        ("+relationships", 1),
        // Node 0's old num.
        ("-properties", 1),
    ];
    let got: Vec<(&str, usize)> = d.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(got, want);
}

#[test]
fn shown_values_parse_back_and_parameters_convert() {
    let a = node(1, &["A"], vec![("name", Value::string("it's"))]);
    let b = node(2, &[], vec![]);
    let samples = vec![
        Value::Null,
        Value::Float(-0.5),
        Value::Float(f64::NAN),
        Value::string("back\\slash\nline"),
        Value::List(vec![Value::Int(1), map(vec![("k", Value::Bool(true))])]),
        a.clone(),
        rel(0, "T", 2, 1, vec![("w", Value::Int(3))]),
        map(vec![
            ("nodes", Value::List(vec![a, b])),
            (
                "relationships",
                Value::List(vec![rel(0, "T", 2, 1, vec![])]),
            ),
        ]),
    ];
    for v in &samples {
        let shown = values::show(v);
        assert!(is(&shown, v), "`{shown}` does not read back as {v:?}");
    }
    assert_eq!(
        values::show(&samples[7]),
        "<(:A {name: 'it\\'s'})<-[:T]-()>"
    );
    assert_eq!(
        values::to_param(&parse("{a: [1, 'x'], b: null}").unwrap()).unwrap(),
        map(vec![
            ("a", Value::List(vec![Value::Int(1), Value::string("x")])),
            ("b", Value::Null),
        ])
    );
    assert!(values::to_param(&parse("(:A)").unwrap()).is_err());
}
