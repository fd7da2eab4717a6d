//! `graph.traverse`: a traversal ([`crate::traverse`]) from one node, counting (and
//! optionally returning) the nodes reached that have a label and a property value.
//!
//! S2's traversal: `CALL graph.traverse(0, ['A:HAS_B', 'B:HAS_A'], 'dfs', 'none', 'B',
//! 'flag', true)` counts the `B` nodes whose `flag` is true.

use kith_core::{Direction, GraphView, NodeId, Value};

use crate::traverse::{Order, Rule, Traversal, Uniqueness};
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "graph.traverse",
    description: "Traverses from a node, following per label the relationship types of \
                  `expand`, depth or breadth first; counts the nodes reached with `label` \
                  (any if '') whose `key` (none if '') equals `value`",
    params: &[
        ParamSpec::required("start", ParamType::Int, "the internal id of the start node"),
        ParamSpec::required(
            "expand",
            ParamType::StringList,
            "rules 'Label:TYPE' or 'Label:>TYPE' (outgoing), 'Label:<TYPE' (incoming), \
             'Label:-TYPE' (both); '*' for any label",
        ),
        ParamSpec::optional_str("order", "dfs", "'dfs' (depth first) or 'bfs'"),
        ParamSpec::optional_str(
            "uniqueness",
            "node_global",
            "'node_global' (each node once) or 'none' (trees: no bitset)",
        ),
        ParamSpec::optional_str("label", "", "the label counted ('' or '*' for any)"),
        ParamSpec::optional_str("key", "", "the property tested ('' for none)"),
        ParamSpec::optional_bool("value", true, "the value the property must equal"),
        ParamSpec::optional("max_depth", 0, "deepest level followed (0: no bound)"),
        ParamSpec::optional("collect", 0, "at most this many counted node ids returned"),
        ParamSpec::optional(
            "visits_max",
            PUSHES_MAX_DEFAULT,
            "most nodes reached before the call fails (bounds a walk without uniqueness)",
        ),
    ],
    columns: COLUMNS,
    run,
};

const COLUMNS: &[&str] = &["count", "visited", "expanded", "nodes"];

/// 20 million: S2's tree fourteen times over, at most 160 MB of frontier.
const PUSHES_MAX_DEFAULT: i64 = 20_000_000;

/// The most `visits_max` may ask for: a worker busy a few seconds at most.
const PUSHES_MAX_CEILING: i64 = 100_000_000;

/// The most node ids one answer carries (they travel in one cell).
const COLLECT_MAX: i64 = 10_000;

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let bad = |parameter: &str, reason: String| ProcedureError::ParameterOutOfRange {
        procedure: PROCEDURE.name.into(),
        parameter: parameter.into(),
        reason,
    };
    let start = u32::try_from(p.int("start")?)
        .ok()
        .map(NodeId)
        .filter(|n| g.contains_node(*n))
        .ok_or(ProcedureError::NotFound {
            label: "node",
            id: p.int("start")?,
        })?;
    let traversal = Traversal {
        order: match p.string("order")? {
            "dfs" => Order::DepthFirst,
            "bfs" => Order::BreadthFirst,
            other => return Err(bad("order", format!("is '{other}'; use 'dfs' or 'bfs'"))),
        },
        uniqueness: match p.string("uniqueness")? {
            "node_global" => Uniqueness::NodeGlobal,
            "none" => Uniqueness::None,
            other => {
                return Err(bad(
                    "uniqueness",
                    format!("is '{other}'; use 'node_global' or 'none'"),
                ))
            }
        },
        rules: rules(g, &p.string_list("expand")?).map_err(|e| bad("expand", e))?,
        max_depth: match p.int("max_depth")? {
            0 => None,
            d => Some(u32::try_from(d).map_err(|_| bad("max_depth", format!("is {d}")))?),
        },
        pushes_max: match p.int("visits_max")? {
            n if (1..=PUSHES_MAX_CEILING).contains(&n) => n as u64,
            n => {
                return Err(bad(
                    "visits_max",
                    format!("is {n}; it must be 1 to {PUSHES_MAX_CEILING}"),
                ))
            }
        },
    };
    let counted = Counted::new(g, p)?;
    let mut count: u64 = 0;
    let mut nodes = Vec::new();
    let keep = match p.int("collect")? {
        n if (0..=COLLECT_MAX).contains(&n) => n as usize,
        n => {
            return Err(bad(
                "collect",
                format!("is {n}; it must be 0 to {COLLECT_MAX}"),
            ))
        }
    };
    let walked = traversal
        .run(g, start, |node, _| {
            if counted.matches(g, node) {
                count += 1;
                if nodes.len() < keep {
                    nodes.push(Value::Int(i64::from(node.0)));
                }
            }
        })
        .map_err(|e| {
            bad(
                "visits_max",
                format!(
                    "reached after {} nodes; bound max_depth, use node_global uniqueness or \
                     raise visits_max",
                    e.walked.visited
                ),
            )
        })?;
    let mut out = ResultSet::new(COLUMNS);
    out.push([
        Value::Int(count as i64),
        Value::Int(walked.visited as i64),
        Value::Int(walked.expanded as i64),
        Value::List(nodes),
    ]);
    Ok(out)
}

/// The expansion rules of `expand`; a label or type the graph has never seen
/// matches nothing, so its rule is left out (as Cypher matches nothing on an unknown
/// label, rather than failing). A rule given twice counts once.
fn rules(g: &dyn GraphView, expand: &[Value]) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for text in expand.iter().filter_map(Value::as_str) {
        let (label, ty) = text
            .split_once(':')
            .ok_or_else(|| format!("'{text}' is not 'Label:TYPE'"))?;
        let (directions, ty): (&[Direction], &str) = match ty.as_bytes().first() {
            Some(b'<') => (&[Direction::In], &ty[1..]),
            Some(b'>') => (&[Direction::Out], &ty[1..]),
            Some(b'-') => (&[Direction::Out, Direction::In], &ty[1..]),
            _ => (&[Direction::Out], ty),
        };
        if label.is_empty() || ty.is_empty() {
            return Err(format!("'{text}' is not 'Label:TYPE'"));
        }
        let label = match label {
            "*" => None,
            name => match g.label_id(name) {
                Some(l) => Some(l),
                None => continue,
            },
        };
        let Some(rel_type) = g.rel_type_id(ty) else {
            continue;
        };
        for &direction in directions {
            let rule = Rule {
                label,
                rel_type,
                direction,
            };
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
    }
    Ok(rules)
}

/// The test a reached node must pass to be counted. `Never` when the graph has no
/// such label or key: nothing can match.
enum Counted {
    Never,
    Test {
        label: Option<kith_core::LabelId>,
        property: Option<(kith_core::PropKeyId, Value)>,
    },
}

impl Counted {
    fn new(g: &dyn GraphView, p: &Params) -> Result<Counted, ProcedureError> {
        let label = match p.string("label")? {
            "" | "*" => None,
            name => match g.label_id(name) {
                Some(l) => Some(l),
                None => return Ok(Counted::Never),
            },
        };
        let property = match p.string("key")? {
            "" => None,
            name => match g.prop_key_id(name) {
                Some(k) => Some((k, p.value("value")?.clone())),
                None => return Ok(Counted::Never),
            },
        };
        Ok(Counted::Test { label, property })
    }

    fn matches(&self, g: &dyn GraphView, node: NodeId) -> bool {
        match self {
            Counted::Never => false,
            Counted::Test { label, property } => {
                label.is_none_or(|l| g.has_label(node, l))
                    && property
                        .as_ref()
                        .is_none_or(|(k, v)| g.node_property(node, *k).as_ref() == Some(v))
            }
        }
    }
}
