//! EXPLAIN and PROFILE: a plan as a tree of operators, as Neo4j shows one (the
//! result at the root, each operator's input as its child, the first scan as the
//! leaf), with estimated rows and, after a profiled run, the rows each operator
//! produced, its db hits (graph reads) and its time.
//!
//! Estimates come from the graph's counts and fixed guesses where kith keeps no
//! statistics: a label scan yields the label's count, an id seek 1, an indexed
//! property seek 1 (10 % of the label unindexed), an expand the average degree, a
//! filter or a node check keeps 25 %, an aggregation with keys 10 %.

use kith_core::GraphView;

use super::{Expand, IndexSeek, NodeKey, Op, Plan, Step};
use crate::ast::RelDirection;
use crate::binder::BExpr;
use crate::value::Val;

/// One operator of a described plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanNode {
    /// Its kind, Neo4j's name where Neo4j has one (`NodeByLabelScan`, `Expand(All)`).
    pub operator: String,
    /// What it works on (`p:Person`, `(p)-[:KNOWS]->(f)`).
    pub details: String,
    /// Rows it is expected to produce.
    pub estimated_rows: f64,
    /// After PROFILE: rows it produced.
    pub rows: Option<u64>,
    /// After PROFILE: graph reads it made.
    pub db_hits: Option<u64>,
    /// After PROFILE: time spent in it, its inputs' time not included, in
    /// microseconds.
    pub time_us: Option<f64>,
    /// Its inputs: the operator before it, and for an apply its inner plan.
    pub children: Vec<PlanNode>,
    /// The plan element it stands for (the profiler's key for it).
    pub(crate) key: usize,
}

/// What a profiled run counted of one operator.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counted {
    /// Rows handed to it.
    pub rows_in: u64,
    /// Graph reads.
    pub db_hits: u64,
    /// Nanoseconds spent in it alone.
    pub nanos: u64,
}

/// Describes `plan` over `graph` (for its counts).
pub fn describe(plan: &Plan, graph: &dyn GraphView) -> PlanNode {
    let d = Describer { plan, graph };
    let mut root = d.pipeline(&plan.ops, None, 1.0);
    for (all, other) in &plan.unions {
        let od = Describer { plan: other, graph };
        let right = od.pipeline(&other.ops, None, 1.0);
        let estimated_rows = root.estimated_rows + right.estimated_rows;
        let op = if *all { "Union" } else { "Distinct(Union)" };
        root = node(op, String::new(), estimated_rows, vec![root, right], 0);
    }
    let columns: Vec<&str> = plan.columns.iter().map(|(n, _)| n.as_str()).collect();
    let estimated_rows = root.estimated_rows;
    node(
        "ProduceResults",
        columns.join(", "),
        estimated_rows,
        vec![root],
        0,
    )
}

fn node(
    op: &str,
    details: String,
    estimated_rows: f64,
    children: Vec<PlanNode>,
    key: usize,
) -> PlanNode {
    PlanNode {
        operator: op.to_owned(),
        details,
        estimated_rows,
        rows: None,
        db_hits: None,
        time_us: None,
        children,
        key,
    }
}

/// The profiler's key of a plan element: its address, stable while the plan lives.
pub(crate) fn key_of<T>(x: &T) -> usize {
    x as *const T as usize
}

struct Describer<'a> {
    plan: &'a Plan,
    graph: &'a dyn GraphView,
}

const FILTER: f64 = 0.25;

impl Describer<'_> {
    fn var(&self, slot: usize) -> String {
        match self.plan.slot_names.get(slot) {
            Some(n) if !n.is_empty() => n.clone(),
            _ => format!("anon_{slot}"),
        }
    }

    fn label(&self, i: usize) -> &str {
        self.plan.names.labels.get(i).map_or("?", |l| l)
    }

    fn key(&self, i: usize) -> &str {
        self.plan.names.keys.get(i).map_or("?", |k| k)
    }

    fn label_count(&self, i: usize) -> f64 {
        let count = self
            .graph
            .label_id(self.label(i))
            .and_then(|l| self.graph.label_count(l));
        count.unwrap_or(self.graph.node_count()) as f64
    }

    fn degree(&self) -> f64 {
        let nodes = self.graph.node_count().max(1) as f64;
        (self.graph.rel_count() as f64 / nodes).max(1.0)
    }

    /// Operators in order, the first fed by `input` (estimated `rows` rows).
    fn pipeline(&self, ops: &[Op], input: Option<PlanNode>, rows: f64) -> PlanNode {
        let mut below = input;
        let mut rows = rows;
        for op in ops {
            let n = self.op(op, below.take(), rows);
            rows = n.estimated_rows;
            below = Some(n);
        }
        below.unwrap_or_else(|| node("Argument", String::new(), rows, Vec::new(), 0))
    }

    fn op(&self, op: &Op, input: Option<PlanNode>, rows: f64) -> PlanNode {
        let key = key_of(op);
        let child = |input: Option<PlanNode>| input.into_iter().collect::<Vec<_>>();
        let (name, details, out) = match op {
            Op::Match(steps) => return self.steps(steps, input, rows),
            Op::Optional { pattern: steps, .. } => {
                let inner = self.steps(steps, None, rows);
                let out = inner.estimated_rows.max(rows);
                let mut children = child(input);
                children.push(inner);
                return node("Apply(Optional)", String::new(), out, children, key);
            }
            Op::Unwind { expr, slot } => {
                let n = match expr {
                    BExpr::Const(Val::List(l)) => l.len() as f64,
                    _ => 10.0,
                };
                ("Unwind", format!("… AS {}", self.var(*slot)), rows * n)
            }
            Op::Project(items) => {
                let vars: Vec<String> = items.iter().map(|(s, _)| self.var(*s)).collect();
                ("Projection", vars.join(", "), rows)
            }
            Op::Aggregate { keys, aggs } => {
                let mut vars: Vec<String> = keys.iter().map(|(s, _)| self.var(*s)).collect();
                vars.extend(aggs.iter().map(|a| self.var(a.slot)));
                let out = if keys.is_empty() {
                    1.0
                } else {
                    (rows * 0.1).max(1.0)
                };
                ("EagerAggregation", vars.join(", "), out)
            }
            Op::Distinct(slots) => {
                let vars: Vec<String> = slots.iter().map(|s| self.var(*s)).collect();
                ("Distinct", vars.join(", "), rows)
            }
            Op::Sort { limit, .. } => match const_int(limit.as_ref()) {
                Some(l) => ("Top", format!("LIMIT {l}"), rows.min(l)),
                None => ("Sort", String::new(), rows),
            },
            Op::Skip(e) => (
                "Skip",
                String::new(),
                (rows - const_int(Some(e)).unwrap_or(0.0)).max(0.0),
            ),
            Op::Limit(e) => match const_int(Some(e)) {
                Some(l) => ("Limit", format!("{l}"), rows.min(l)),
                None => ("Limit", String::new(), rows),
            },
            Op::Filter(_) => ("Filter", String::new(), rows * FILTER),
            Op::Create(spec) => {
                let vars: Vec<String> = spec.nodes.iter().map(|n| self.var(n.slot)).collect();
                ("Create", vars.join(", "), rows)
            }
            Op::Set(_) => ("SetProperties", String::new(), rows),
            Op::Delete { detach, .. } => {
                let name = if *detach { "DetachDelete" } else { "Delete" };
                (name, String::new(), rows)
            }
            Op::Merge(spec) => {
                let inner = self.steps(&spec.pattern, None, 1.0);
                let mut children = child(input);
                children.push(inner);
                return node("Merge", String::new(), rows, children, key);
            }
            Op::Call(spec) => {
                let out = if spec.void { rows } else { rows * 10.0 };
                let Some(stored) = &spec.stored else {
                    return node("ProcedureCall", spec.name.clone(), out, child(input), key);
                };
                // A stored procedure's own plan, as the call's inner plan (its
                // operators are counted under their own keys when profiled).
                let inner = Describer {
                    plan: stored,
                    graph: self.graph,
                };
                let mut children = child(input);
                children.push(inner.pipeline(&stored.ops, None, 1.0));
                return node("ProcedureCall", spec.name.clone(), out, children, key);
            }
            Op::Subquery(spec) => {
                let mut children = child(input);
                for (ops, _) in &spec.parts {
                    children.push(self.pipeline(ops, None, 1.0));
                }
                return node("Apply(CallSubquery)", String::new(), rows, children, key);
            }
            Op::Foreach { slot, ops, .. } => {
                let mut children = child(input);
                children.push(self.pipeline(ops, None, 1.0));
                let details = format!("{} IN …", self.var(*slot));
                return node("Foreach", details, rows, children, key);
            }
            Op::Schema(command) => ("SchemaCommand", format!("{command:?}"), 0.0),
        };
        node(name, details, out, child(input), key)
    }

    fn steps(&self, steps: &[Step], input: Option<PlanNode>, rows: f64) -> PlanNode {
        let mut below = input;
        let mut rows = rows;
        for step in steps {
            let (name, details, out) = self.step(step, rows);
            let n = node(
                name,
                details,
                out,
                below.take().into_iter().collect(),
                key_of(step),
            );
            rows = out;
            below = Some(n);
        }
        below.unwrap_or_else(|| node("Argument", String::new(), rows, Vec::new(), 0))
    }

    /// A seek of a WHERE conjunct: by the index when the pair has one, else a label
    /// scan (the conjunct's Filter follows either way).
    fn index_seek(
        &self,
        slot: usize,
        label: usize,
        key: usize,
        seek: &IndexSeek,
        rows: f64,
    ) -> (&'static str, String, f64) {
        if let IndexSeek::All(pairs) = seek {
            return self.equalities_seek(slot, label, pairs, rows);
        }
        let indexed = match (
            self.graph.label_id(self.label(label)),
            self.graph.prop_key_id(self.key(key)),
        ) {
            (Some(l), Some(k)) => self.graph.is_indexed(l, k),
            _ => false,
        };
        let var = self.var(slot);
        if !indexed {
            let details = format!("{var}:{}", self.label(label));
            return ("NodeByLabelScan", details, rows * self.label_count(label));
        }
        let (operator, what, share) = match seek {
            IndexSeek::Equal(_) => ("NodeIndexSeek", "= …".to_owned(), 0.1),
            IndexSeek::Any(_) => ("NodeIndexSeek", "IN …".to_owned(), 0.1),
            IndexSeek::Prefix(_) => ("NodeIndexSeekByRange", "STARTS WITH …".to_owned(), 0.1),
            IndexSeek::Contains(_) => ("NodeIndexContainsScan", "CONTAINS …".to_owned(), 0.1),
            IndexSeek::Suffix(_) => ("NodeIndexEndsWithScan", "ENDS WITH …".to_owned(), 0.1),
            IndexSeek::Within(..) => ("NodeIndexSeekByRange", "in a box".to_owned(), 0.1),
            IndexSeek::Near { .. } => ("NodeIndexSeekByRange", "near a point".to_owned(), 0.1),
            IndexSeek::All(_) => unreachable!("described above"),
            IndexSeek::Range { lower, upper } => {
                let lower = lower
                    .as_ref()
                    .map(|(_, inc)| if *inc { ">= …" } else { "> …" });
                let upper = upper
                    .as_ref()
                    .map(|(_, inc)| if *inc { "<= …" } else { "< …" });
                let what: Vec<&str> = lower.into_iter().chain(upper).collect();
                ("NodeIndexSeekByRange", what.join(" AND "), 0.3)
            }
        };
        let details = format!("{var}:{}({}) {what}", self.label(label), self.key(key));
        (operator, details, rows * self.label_count(label) * share)
    }

    /// Equalities on several keys: the composite index that answers them (named by
    /// its keys), else a one-key index on one of them, else a label scan.
    fn equalities_seek(
        &self,
        slot: usize,
        label: usize,
        pairs: &[(usize, crate::binder::BExpr)],
        rows: f64,
    ) -> (&'static str, String, f64) {
        let (var, label_name) = (self.var(slot), self.label(label));
        let names: Vec<&str> = pairs.iter().map(|(k, _)| self.key(*k)).collect();
        if let Some((_, def)) = self.graph.schema().composite_within(label_name, &names) {
            let keys: Vec<&str> = def.on.keys().collect();
            let details = format!("{var}:{label_name}({}) = …", keys.join(", "));
            return ("NodeIndexSeek", details, rows);
        }
        let l = self.graph.label_id(label_name);
        let single = names.iter().find(|k| match (l, self.graph.prop_key_id(k)) {
            (Some(l), Some(k)) => self.graph.is_indexed(l, k),
            _ => false,
        });
        match single {
            Some(key) => {
                let details = format!("{var}:{label_name}({key}) = …");
                (
                    "NodeIndexSeek",
                    details,
                    rows * self.label_count(label) * 0.1,
                )
            }
            None => {
                let details = format!("{var}:{label_name}");
                ("NodeByLabelScan", details, rows * self.label_count(label))
            }
        }
    }

    fn step(&self, step: &Step, rows: f64) -> (&'static str, String, f64) {
        match step {
            Step::ScanAll { slot } => (
                "AllNodesScan",
                self.var(*slot),
                rows * self.graph.node_count() as f64,
            ),
            Step::ScanLabel { slot, label } => (
                "NodeByLabelScan",
                format!("{}:{}", self.var(*slot), self.label(*label)),
                rows * self.label_count(*label),
            ),
            Step::SeekId { slot, label, .. } => (
                "NodeUniqueIndexSeek",
                format!("{}:{}(id)", self.var(*slot), self.label(*label)),
                rows,
            ),
            Step::SeekNode { slot, key, .. } => (
                "NodeByIdSeek",
                match key {
                    NodeKey::Id => format!("{} WHERE id({}) = …", self.var(*slot), self.var(*slot)),
                    NodeKey::ElementId => format!(
                        "{} WHERE elementId({}) = …",
                        self.var(*slot),
                        self.var(*slot)
                    ),
                },
                rows,
            ),
            Step::SeekRelEnds {
                left,
                right,
                direction,
                key,
                ..
            } => (
                match (direction, key) {
                    (RelDirection::Both, NodeKey::Id) => "UndirectedRelationshipByIdSeek",
                    (RelDirection::Both, NodeKey::ElementId) => {
                        "UndirectedRelationshipByElementIdSeek"
                    }
                    (_, NodeKey::Id) => "DirectedRelationshipByIdSeek",
                    (_, NodeKey::ElementId) => "DirectedRelationshipByElementIdSeek",
                },
                format!("({})-[…]-({})", self.var(*left), self.var(*right)),
                rows,
            ),
            Step::SeekIdAny {
                slot,
                label,
                values,
            } => (
                "NodeUniqueIndexSeek",
                format!("{}:{}(id) IN …", self.var(*slot), self.label(*label)),
                rows * values.len() as f64,
            ),
            Step::SeekProp {
                slot, label, key, ..
            } => {
                let indexed = match (
                    self.graph.label_id(self.label(*label)),
                    self.graph.prop_key_id(self.key(*key)),
                ) {
                    (Some(l), Some(k)) => self.graph.is_indexed(l, k),
                    _ => false,
                };
                let details = format!(
                    "{}:{}({})",
                    self.var(*slot),
                    self.label(*label),
                    self.key(*key)
                );
                if indexed {
                    ("NodeIndexSeek", details, rows)
                } else {
                    (
                        "NodeByLabelScan+Filter",
                        details,
                        rows * self.label_count(*label) * 0.1,
                    )
                }
            }
            Step::SeekIndex {
                slot,
                label,
                key,
                seek,
            } => self.index_seek(*slot, *label, *key, seek, rows),
            Step::CheckNode { slot, .. } => ("Filter", self.var(*slot), rows * FILTER),
            Step::Expand(e) => {
                let name = if e.into {
                    "Expand(Into)"
                } else {
                    "Expand(All)"
                };
                let out = if e.into {
                    rows * FILTER
                } else {
                    rows * self.degree()
                };
                (name, self.expand(e), out)
            }
            Step::VarExpand(e) => {
                let hops = f64::from(e.max.min(3).max(e.min.max(1)));
                let out = rows * self.degree().powf(hops);
                ("VarLengthExpand(All)", self.expand(e), out)
            }
            Step::Shortest {
                expand,
                all,
                residual,
                ..
            } => {
                let name = if *all {
                    "AllShortestPaths"
                } else {
                    "ShortestPath"
                };
                let mut details = self.expand(expand);
                if !residual.is_empty() {
                    details.push_str(", paths by length checked against the WHERE");
                }
                (name, details, rows)
            }
            Step::Filter(_) => ("Filter", String::new(), rows * FILTER),
            Step::DistinctRels(_) => ("RelationshipUniqueness", String::new(), rows),
            Step::BuildPath { slot, .. } => ("Projection", self.var(*slot), rows),
        }
    }

    fn expand(&self, e: &Expand) -> String {
        let types: Vec<&str> = e
            .types
            .iter()
            .map(|t| self.plan.names.types.get(*t).map_or("?", |t| &**t))
            .collect();
        let types = if types.is_empty() {
            String::new()
        } else {
            format!(":{}", types.join("|"))
        };
        let hops = match (e.min, e.max) {
            (1, 1) => String::new(),
            (min, u32::MAX) => format!("*{min}.."),
            (min, max) => format!("*{min}..{max}"),
        };
        let rel = format!("[{}{types}{hops}]", self.var(e.rel));
        let (from, to) = (self.var(e.from), self.var(e.to));
        let mut text = match e.dir {
            super::Dir::Out => format!("({from})-{rel}->({to})"),
            super::Dir::In => format!("({from})<-{rel}-({to})"),
            super::Dir::Both => format!("({from})-{rel}-({to})"),
        };
        let (rels, nodes) = (e.filters.rels.len(), e.filters.nodes.len());
        if rels + nodes > 0 {
            text.push_str(&format!(
                ", pruned by {rels} relationship and {nodes} node predicate(s)"
            ));
        }
        text
    }
}

fn const_int(e: Option<&BExpr>) -> Option<f64> {
    match e {
        Some(BExpr::Const(Val::Int(n))) => Some(*n as f64),
        _ => None,
    }
}

impl PlanNode {
    /// Fills in what a profiled run counted: the rows each operator produced (what
    /// its parent was handed; `rows` here), db hits and time. An apply's inner plan
    /// reports its hits and time; what it produced per outer row is not counted.
    pub fn fill(&mut self, counted: &impl Fn(usize) -> Counted, rows: Option<u64>) {
        self.rows = rows;
        let c = counted(self.key);
        self.db_hits = Some(c.db_hits);
        self.time_us = Some(c.nanos as f64 / 1e3);
        // Key 0 is outside every operator: the root's, and a UNION's (whose parts'
        // shares of the rows are not counted apart).
        let handed = match (self.key, self.children.len()) {
            (0, 1) => rows,
            (0, _) => None,
            _ => Some(c.rows_in),
        };
        for (i, child) in self.children.iter_mut().enumerate() {
            child.fill(counted, if i == 0 { handed } else { None });
        }
    }

    /// The tree as a map (what the server sends): `operator`, `details`,
    /// `estimatedRows`, after PROFILE `rows`, `dbHits` and `timeUs`, and `children`.
    pub fn to_value(&self) -> kith_core::Value {
        use kith_core::Value;
        let mut entries: Vec<(std::sync::Arc<str>, Value)> = vec![
            ("operator".into(), Value::string(self.operator.as_str())),
            ("details".into(), Value::string(self.details.as_str())),
            ("estimatedRows".into(), Value::Float(self.estimated_rows)),
        ];
        if let Some(rows) = self.rows {
            entries.push(("rows".into(), Value::Int(rows as i64)));
        }
        if let Some(hits) = self.db_hits {
            entries.push(("dbHits".into(), Value::Int(hits as i64)));
        }
        if let Some(t) = self.time_us {
            entries.push(("timeUs".into(), Value::Float(t)));
        }
        let children = self.children.iter().map(PlanNode::to_value).collect();
        entries.push(("children".into(), Value::List(children)));
        Value::Map(entries)
    }

    /// The tree as text, one operator a line, Neo4j-like.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0);
        out
    }

    fn render_into(&self, out: &mut String, depth: usize) {
        use std::fmt::Write;
        let indent = "| ".repeat(depth);
        let _ = write!(out, "{indent}+{}", self.operator);
        if !self.details.is_empty() {
            let _ = write!(out, " {}", self.details);
        }
        let _ = write!(out, "  est {:.0}", self.estimated_rows);
        if let Some(rows) = self.rows {
            let _ = write!(out, ", rows {rows}");
        }
        if let (Some(hits), Some(t)) = (self.db_hits, self.time_us) {
            let _ = write!(out, ", db hits {hits}, {t:.1} us");
        }
        out.push('\n');
        for c in &self.children {
            c.render_into(out, depth + 1);
        }
    }
}
