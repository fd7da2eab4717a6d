//! `graph.traverse` and the traversal API: S2's count on generated trees equals a
//! count over all nodes; depth- and breadth-first orders; uniqueness on a graph with
//! a cycle; bad parameters named.

use kith_core::{Direction, GraphView, NodeId, Value};
use kith_datagen::tree::{generate, TreeConfig};
use kith_procedures::traverse::{Order, Rule, Traversal, Uniqueness};
use kith_procedures::{ProcedureError, Registry};
use kith_storage::{RawGraph, Snapshot};

fn tree(levels: u32, fanout: u32) -> Snapshot {
    Snapshot::from_raw(
        generate(TreeConfig {
            levels,
            fanout,
            seed: 3,
        })
        .expect("a tree"),
    )
    .expect("valid")
}

fn call(g: &dyn GraphView, params: Vec<(&str, Value)>) -> Result<Vec<Value>, ProcedureError> {
    let params: Vec<(String, Value)> = params.into_iter().map(|(k, v)| (k.into(), v)).collect();
    Registry::with_builtins()
        .call(g, "graph.traverse", &params)
        .map(|r| r.rows().next().expect("one row").to_vec())
}

fn s2(order: &str, uniqueness: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("start", Value::Int(0)),
        (
            "expand",
            Value::List(vec![Value::string("A:HAS_B"), Value::string("B:HAS_A")]),
        ),
        ("order", Value::string(order)),
        ("uniqueness", Value::string(uniqueness)),
        ("label", Value::string("B")),
        ("key", Value::string("flag")),
        ("value", Value::Bool(true)),
        ("collect", Value::Int(5)),
    ]
}

#[test]
fn s2s_count_is_every_flagged_b_node_in_every_order() {
    let g = tree(6, 3);
    let (b, flag) = (
        g.label_id("B").expect("B"),
        g.prop_key_id("flag").expect("flag"),
    );
    let expected = g
        .node_ids()
        .filter(|n| g.has_label(*n, b) && g.node_property(*n, flag) == Some(Value::Bool(true)))
        .count() as i64;
    assert!(expected > 0);
    for order in ["dfs", "bfs"] {
        for uniqueness in ["none", "node_global"] {
            let row = call(&g, s2(order, uniqueness)).expect("runs");
            assert_eq!(row[0], Value::Int(expected), "{order} {uniqueness}");
            assert_eq!(
                row[1],
                Value::Int(g.node_count() as i64),
                "every node visited"
            );
            assert_eq!(
                row[2],
                Value::Int(g.rel_count() as i64),
                "every relationship followed"
            );
            let Value::List(nodes) = &row[3] else {
                panic!("a list")
            };
            assert_eq!(nodes.len(), 5);
        }
    }
    // Only B's flag counted: with no key, every B; with a label the graph lacks, none.
    let mut any_b = s2("dfs", "none");
    any_b.retain(|(k, _)| *k != "key");
    let bs = g.nodes_with_label(b).count() as i64;
    assert_eq!(call(&g, any_b).expect("runs")[0], Value::Int(bs));
    let mut nothing = s2("dfs", "none");
    nothing[4] = ("label", Value::string("C"));
    assert_eq!(call(&g, nothing).expect("runs")[0], Value::Int(0));
}

#[test]
fn depth_first_goes_down_before_across() {
    let g = tree(2, 2);
    let rules = |g: &Snapshot| {
        vec![
            Rule {
                label: None,
                rel_type: g.rel_type_id("HAS_B").expect("HAS_B"),
                direction: Direction::Out,
            },
            Rule {
                label: None,
                rel_type: g.rel_type_id("HAS_A").expect("HAS_A"),
                direction: Direction::Out,
            },
        ]
    };
    let order_of = |order| {
        let t = Traversal {
            order,
            uniqueness: Uniqueness::None,
            rules: rules(&g),
            max_depth: None,
            pushes_max: 100,
        };
        let mut seen = Vec::new();
        t.run(&g, NodeId(0), |n, depth| seen.push((n.0, depth)))
            .expect("within bounds");
        seen
    };
    // Nodes 1 and 2 are the root's children; 3, 4 are 1's and 5, 6 are 2's.
    let bfs = order_of(Order::BreadthFirst);
    assert_eq!(
        bfs.iter().map(|(_, d)| *d).collect::<Vec<_>>(),
        vec![0, 1, 1, 2, 2, 2, 2]
    );
    let dfs = order_of(Order::DepthFirst);
    assert_eq!(dfs[0], (0, 0));
    assert_eq!(dfs[1].1, 1);
    assert_eq!(dfs[2].1, 2, "a grandchild before the second child");
    let shallow = Traversal {
        order: Order::DepthFirst,
        uniqueness: Uniqueness::None,
        rules: rules(&g),
        max_depth: Some(1),
        pushes_max: 100,
    };
    let walked = shallow
        .run(&g, NodeId(0), |_, _| {})
        .expect("within bounds");
    assert_eq!(walked.visited, 3);
}

#[test]
fn node_uniqueness_ends_a_walk_around_a_cycle() {
    let mut raw = RawGraph::default();
    let l = raw.catalog.label("N").expect("label");
    let next = raw.catalog.rel_type("NEXT").expect("type");
    let nodes: Vec<NodeId> = (0..4)
        .map(|_| raw.add_node(vec![l], vec![]).expect("node"))
        .collect();
    for i in 0..4 {
        raw.add_rel(next, nodes[i], nodes[(i + 1) % 4], vec![])
            .expect("rel");
    }
    let g = Snapshot::from_raw(raw).expect("valid");
    let params = |uniqueness: &str, depth: i64| {
        vec![
            ("start", Value::Int(0)),
            ("expand", Value::List(vec![Value::string("N:-NEXT")])),
            ("uniqueness", Value::string(uniqueness)),
            ("max_depth", Value::Int(depth)),
        ]
    };
    // Both directions, each node once: four visits.
    assert_eq!(
        call(&g, params("node_global", 0)).expect("runs")[1],
        Value::Int(4)
    );
    // Without uniqueness only the depth bound ends it: 1 + 2 + 4 + 8 walks.
    assert_eq!(
        call(&g, params("none", 3)).expect("runs")[1],
        Value::Int(15)
    );
}

#[test]
fn bad_parameters_are_named() {
    let g = tree(1, 2);
    let with = |k: &'static str, v: Value| {
        let mut p = s2("dfs", "none");
        p.retain(|(name, _)| *name != k);
        p.push((k, v));
        call(&g, p).expect_err("refused").to_string()
    };
    assert!(with("order", Value::string("sideways")).contains("order"));
    assert!(with("uniqueness", Value::string("path")).contains("uniqueness"));
    assert!(with("expand", Value::List(vec![Value::string("HAS_B")])).contains("Label:TYPE"));
    assert!(with("start", Value::Int(99)).contains("99"));
    assert!(with("max_depth", Value::Int(-1)).contains("max_depth"));
}

#[test]
fn rules_read_every_direction_and_forgive_unknown_names() {
    let g = tree(3, 2);
    let visited = |expand: &[&str], start: i64| {
        let expand = Value::List(expand.iter().map(|r| Value::string(*r)).collect());
        call(&g, vec![("start", Value::Int(start)), ("expand", expand)]).expect("runs")[1].clone()
    };
    let all = Value::Int(g.node_count() as i64);
    assert_eq!(visited(&["*:>HAS_B", "*:HAS_A"], 0), all);
    // The same rule twice is followed once: without uniqueness nothing doubles.
    let mut twice = s2("dfs", "none");
    twice[1] = (
        "expand",
        Value::List(vec![
            Value::string("A:HAS_B"),
            Value::string("*:HAS_B"),
            Value::string("B:HAS_A"),
        ]),
    );
    assert_eq!(call(&g, twice).expect("runs")[1], all);
    // Upwards from a leaf (node 14, level 3): its parent, grandparent and the root.
    assert_eq!(visited(&["A:<HAS_A", "B:<HAS_B"], 14), Value::Int(4));
    // Both ways from a middle node reaches the whole tree.
    assert_eq!(visited(&["*:-HAS_A", "*:-HAS_B"], 3), all);
    // Names the graph lacks match nothing: only the start is visited.
    assert_eq!(visited(&["A:HAS_C", "Z:HAS_B"], 0), Value::Int(1));
    let mut any = s2("bfs", "none");
    any[4] = ("label", Value::string("*"));
    any.retain(|(k, _)| *k != "key");
    assert_eq!(call(&g, any).expect("runs")[0], all);
}

#[test]
fn the_answer_and_the_walk_are_bounded() {
    let g = tree(1, 2);
    let with = |k: &'static str, v: Value| {
        let mut p = s2("dfs", "none");
        p.retain(|(name, _)| *name != k);
        p.push((k, v));
        call(&g, p)
    };
    assert!(with("collect", Value::Int(10_001))
        .expect_err("refused")
        .to_string()
        .contains("collect"));
    assert!(with("visits_max", Value::Int(i64::MAX))
        .expect_err("refused")
        .to_string()
        .contains("visits_max"));
    assert!(with("visits_max", Value::Int(0)).is_err());
    assert!(with("visits_max", Value::Int(2))
        .expect_err("three nodes")
        .to_string()
        .contains("visits_max"));
    assert_eq!(
        with("visits_max", Value::Int(3)).expect("three nodes")[1],
        Value::Int(3)
    );
}
