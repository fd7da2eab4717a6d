//! Binding clauses into the operator pipeline.

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::pattern::split_and;
use super::{has_aggregate, BExpr, BPart, Binder};
use super::{BoundMatch, BoundOp, BoundQuery, CreateNode, CreateRel, CreateSpec, PathSlots};
use crate::ast::{
    Clause, Expr, ExprKind, PatternPart, Projection, ProjectionItem, RelDirection, SingleQuery,
    Statement,
};
use crate::catalog::Catalog;
use crate::error::{ErrorCode, Result};

/// Binds a whole statement, UNION parts included, for the planner.
pub fn bind_statement(
    text: &str,
    statement: &Statement,
    catalog: &dyn Catalog,
) -> Result<BoundQuery> {
    let mut bound = bind_query(text, &statement.query, catalog)?;
    if statement.unions.windows(2).any(|w| w[0].0 != w[1].0) {
        return Err(crate::error::CypherError::new(
            ErrorCode::SyntaxError,
            "UNION and UNION ALL cannot be mixed in one query",
        ));
    }
    for (all, query) in &statement.unions {
        let other = bind_query(text, query, catalog)?;
        let names = |q: &BoundQuery| q.columns.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        if names(&other) != names(&bound) {
            return Err(crate::error::CypherError::new(
                ErrorCode::SyntaxError,
                "all sub queries in a UNION must return the same column names",
            ));
        }
        bound.unions.push((*all, other));
    }
    Ok(bound)
}

fn bind_query(text: &str, query: &SingleQuery, catalog: &dyn Catalog) -> Result<BoundQuery> {
    let mut b = Binder::new(text, catalog);
    let q = b.clauses(&query.clauses)?;
    let last_is_return = matches!(
        query.clauses.last(),
        Some(Clause::Return(_) | Clause::Show(..))
    ) || matches!(query.clauses.as_slice(), [Clause::Call(_)]);
    let unit_call = matches!(
        query.clauses.last(),
        Some(Clause::Call(_) | Clause::Subquery(_))
    );
    if !last_is_return && !q.writes && !unit_call {
        return Err(crate::error::CypherError::new(
            ErrorCode::SyntaxError,
            "a query cannot end with this clause: it must end with RETURN or a write (CREATE)",
        ));
    }
    Ok(BoundQuery {
        ops: q.ops,
        width: b.width.max(1),
        names: b.names,
        columns: q.columns,
        writes: q.writes,
        unions: Vec::new(),
        slot_names: b.slot_names,
        subs: b.subs,
    })
}

/// Bound clauses: the operators, the columns of a final RETURN, whether they write.
pub(crate) struct Clauses {
    pub(crate) ops: Vec<BoundOp>,
    pub(crate) columns: Vec<(String, usize)>,
    pub(crate) writes: bool,
}

impl Binder<'_> {
    /// Binds clauses in order from the current scope (a query, or a subquery whose
    /// scope starts with the outer row's variables).
    pub(crate) fn clauses(&mut self, clauses: &[Clause]) -> Result<Clauses> {
        let mut q = Clauses {
            ops: Vec::new(),
            columns: Vec::new(),
            writes: false,
        };
        for clause in clauses {
            match clause {
                Clause::Match(m) => {
                    let pre = self.bound_slots();
                    let parts = self.pattern_parts(&m.pattern, &pre)?;
                    let mut conjuncts = std::mem::take(&mut self.bound_rel_checks);
                    if let Some(w) = &m.where_ {
                        conjuncts.extend(split_and(self.expr(w)?));
                    }
                    let slots = new_slots(&parts, &pre);
                    let pattern = BoundMatch {
                        parts,
                        conjuncts,
                        pre,
                    };
                    if m.optional {
                        q.ops.push(BoundOp::Optional { pattern, slots });
                    } else {
                        q.ops.push(BoundOp::Match(pattern));
                    }
                }
                Clause::Unwind { expr, var } => {
                    let expr = self.expr(expr)?;
                    let slot = self.slot();
                    self.define(var, slot);
                    q.ops.push(BoundOp::Unwind { expr, slot });
                }
                Clause::With(p) => {
                    self.projection(p, &mut q.ops, true)?;
                }
                Clause::Return(p) => q.columns = self.projection(p, &mut q.ops, false)?,
                Clause::Create(parts) => {
                    q.writes = true;
                    let spec = self.create(parts)?;
                    q.ops.push(BoundOp::Create(spec));
                }
                Clause::Call(c) => {
                    let standalone = clauses.len() == 1;
                    let bound = self.call_clause(c, standalone)?;
                    q.writes |= bound.writes;
                    q.ops.extend(bound.ops);
                    if standalone {
                        q.columns = bound.columns;
                    }
                }
                Clause::Subquery(statement) => {
                    let bound = self.call_subquery(statement)?;
                    q.writes |= bound.writes;
                    q.ops.extend(bound.ops);
                }
                Clause::Show(what, yields) => {
                    let bound = self.show_clause(what, yields.as_ref())?;
                    q.ops.extend(bound.ops);
                    q.columns = bound.columns;
                }
                Clause::Schema(command) => {
                    q.writes = true;
                    q.ops.push(BoundOp::Schema(command.clone()));
                }
                Clause::Set(_)
                | Clause::Remove(_)
                | Clause::Delete { .. }
                | Clause::Merge(_)
                | Clause::Foreach { .. } => {
                    q.writes = true;
                    let op = self.update(clause)?;
                    q.ops.push(op);
                }
            }
        }
        Ok(q)
    }
}

fn new_slots(parts: &[BPart], pre: &FxHashSet<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    for p in parts {
        out.extend(p.nodes.iter().map(|n| n.slot));
        out.extend(p.rels.iter().map(|r| r.slot));
        out.extend(p.path_slot);
    }
    out.retain(|s| !pre.contains(s));
    out.sort_unstable();
    out.dedup();
    out
}

impl Binder<'_> {
    /// WITH or RETURN: appends its operators and opens the new scope. Returns the
    /// output columns with their slots.
    fn projection(
        &mut self,
        p: &Projection,
        ops: &mut Vec<BoundOp>,
        with: bool,
    ) -> Result<Vec<(String, usize)>> {
        let aggregating = p.items.iter().any(|i| has_aggregate(&i.expr));
        let mut outputs: Vec<(String, usize)> = if p.star {
            self.scope.visible()
        } else {
            Vec::new()
        };
        if p.star && outputs.is_empty() && p.items.is_empty() && !with {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "RETURN * has no variables in scope",
                0,
            ));
        }
        let mut computed = Vec::new();
        let mut post = Vec::new();
        let mut keys: Vec<(usize, BExpr)> =
            outputs.iter().map(|(_, s)| (*s, BExpr::Slot(*s))).collect();
        self.aggs = if aggregating { Some(Vec::new()) } else { None };
        // Grouping keys bind first, so an aggregating item before them (`RETURN
        // c.n + count(*), c.n`) still reads its group's key.
        let order: Vec<usize> = (0..p.items.len())
            .filter(|i| !has_aggregate(&p.items[*i].expr))
            .chain((0..p.items.len()).filter(|i| has_aggregate(&p.items[*i].expr)))
            .collect();
        let mut slots = vec![0; p.items.len()];
        // A property grouping key stands for its group's value only beside an
        // aggregate: another key (`m.a AS a, m.a * 10 AS b`) reads the row's own
        // value, computed in the same projection, not the key's slot.
        let mut property_keys = Vec::new();
        for i in order {
            let item = &p.items[i];
            if with && !item.aliased && !matches!(item.expr.kind, ExprKind::Var(_)) {
                self.group_keys.clear();
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "expression in WITH must be aliased (use AS)",
                    item.expr.pos,
                ));
            }
            let item_aggregates = has_aggregate(&item.expr);
            if item_aggregates {
                self.group_keys.append(&mut property_keys);
                if let Err(e) = self.check_grouped(item, &p.items, false) {
                    self.group_keys.clear();
                    return Err(e);
                }
            }
            let bound = match self.expr(&item.expr) {
                Ok(b) => b,
                Err(e) => {
                    self.aggs = None;
                    self.group_keys.clear();
                    return Err(e);
                }
            };
            let slot = match bound {
                BExpr::Slot(s) => s,
                other => {
                    let s = self.slot();
                    if item_aggregates {
                        post.push((s, other));
                    } else {
                        self.kinds.insert(s, super::Kind::of(&other, &self.kinds));
                        computed.push((s, other.clone()));
                    }
                    s
                }
            };
            if aggregating && !item_aggregates {
                keys.push((slot, BExpr::Slot(slot)));
                if matches!(item.expr.kind, ExprKind::Property(..)) {
                    property_keys.push((canonical(&item.expr), slot));
                }
            }
            slots[i] = slot;
        }
        self.group_keys.clear();
        for (item, slot) in p.items.iter().zip(slots) {
            if outputs.iter().any(|(n, _)| n == &item.name) {
                self.aggs = None;
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!("multiple result columns with the same name `{}`", item.name),
                    item.expr.pos,
                ));
            }
            outputs.push((item.name.clone(), slot));
        }
        let aggs = self.aggs.take();
        // A top-k of a plain projection computes only what the sort reads before it
        // sorts, and the rest for the rows that remain.
        let top_k = !aggregating && !p.distinct && !p.order_by.is_empty() && p.limit.is_some();
        let deferred = if top_k {
            std::mem::take(&mut computed)
        } else {
            Vec::new()
        };
        if !computed.is_empty() {
            ops.push(BoundOp::Project(computed));
        }
        if let Some(aggs) = aggs {
            ops.push(BoundOp::Aggregate { keys, aggs });
            if !post.is_empty() {
                ops.push(BoundOp::Project(post));
            }
        }
        if p.distinct {
            ops.push(BoundOp::Distinct(outputs.iter().map(|(_, s)| *s).collect()));
        }
        self.open_scope(p, &outputs, aggregating, deferred, ops)?;
        Ok(outputs)
    }

    /// In an item that aggregates, every variable read outside the aggregate must be a
    /// grouping key of the same projection (`RETURN me, me.age + count(*)`), or the
    /// value it stands for is ambiguous (`RETURN me.age + count(*)` alone).
    fn check_grouped(
        &self,
        item: &ProjectionItem,
        items: &[ProjectionItem],
        aliases: bool,
    ) -> Result<()> {
        // Grouping keys that may be read beside an aggregate: variables and their
        // properties (`RETURN a.name, {foo: a.name, kids: collect(c)}`), not larger
        // expressions.
        let keys: Vec<String> = items
            .iter()
            .filter(|i| !has_aggregate(&i.expr))
            .filter(|i| match &i.expr.kind {
                ExprKind::Var(_) => true,
                ExprKind::Property(b, _) => matches!(b.kind, ExprKind::Var(_)),
                _ => false,
            })
            .map(|i| canonical(&i.expr))
            .collect();
        // ORDER BY may also name the keys by their aliases.
        let alias_keys = items
            .iter()
            .filter(|i| aliases && !has_aggregate(&i.expr))
            .map(|i| {
                canonical(&Expr {
                    kind: ExprKind::Var(i.name.clone()),
                    pos: 0,
                })
            });
        let keys: Vec<String> = keys.into_iter().chain(alias_keys).collect();
        let mut vars = Vec::new();
        vars_outside_aggregates(&item.expr, &keys, &mut vars);
        match vars.first() {
            Some((v, pos)) => Err(self.error(
                ErrorCode::SyntaxError,
                format!("`{v}` is read beside an aggregate but is not a grouping key of the projection (project `{v}` itself)"),
                *pos,
            )),
            None => Ok(()),
        }
    }

    /// A SKIP or LIMIT count: it may not read variables, and a literal must be a
    /// non-negative integer (checked before running; a parameter is checked when run).
    fn count_expr(&mut self, e: &crate::ast::Expr, what: &str) -> Result<BExpr> {
        let saved = std::mem::take(&mut self.scope);
        let bound = self.expr(e);
        self.scope = saved;
        let bound = bound.map_err(|err| {
            self.error(
                ErrorCode::SyntaxError,
                format!("{what} may not read variables: {}", err.message),
                e.pos,
            )
        })?;
        match &bound {
            BExpr::Const(crate::value::Val::Int(n)) if *n < 0 => Err(self.error(
                ErrorCode::SyntaxError,
                format!("{what} needs a non-negative integer, got {n}"),
                e.pos,
            )),
            BExpr::Const(v) if !matches!(v, crate::value::Val::Int(_)) => Err(self.error(
                ErrorCode::SyntaxError,
                format!(
                    "{what} needs a non-negative integer, got a {}",
                    v.type_name()
                ),
                e.pos,
            )),
            _ => Ok(bound),
        }
    }

    /// ORDER BY, SKIP, LIMIT and WHERE of a projection, then the new scope.
    fn open_scope(
        &mut self,
        p: &Projection,
        outputs: &[(String, usize)],
        aggregating: bool,
        deferred: Vec<(usize, BExpr)>,
        ops: &mut Vec<BoundOp>,
    ) -> Result<()> {
        if aggregating || p.distinct {
            self.scope = Default::default();
        }
        for (name, slot) in outputs {
            self.define(name, *slot);
        }
        if !p.order_by.is_empty() {
            let mut keys = Vec::with_capacity(p.order_by.len());
            for (e, desc) in &p.order_by {
                // After grouping or DISTINCT only the projection is visible: an ORDER BY
                // expression that is (or contains) a projected expression reads its column.
                if aggregating && has_aggregate(e) {
                    let item = ProjectionItem {
                        expr: e.clone(),
                        name: String::new(),
                        aliased: false,
                    };
                    self.check_grouped(&item, &p.items, true)?;
                }
                let e = if aggregating || p.distinct {
                    projected(e, &p.items)
                } else {
                    e.clone()
                };
                keys.push((self.expr(&e)?, *desc));
            }
            let skip = p
                .skip
                .as_ref()
                .map(|e| self.count_expr(e, "SKIP"))
                .transpose()?;
            let limit = p
                .limit
                .as_ref()
                .map(|e| self.count_expr(e, "LIMIT"))
                .transpose()?;
            let read_by_sort = |slot: usize| {
                keys.iter()
                    .any(|(k, _)| super::needed_slots(k).is_none_or(|need| need.contains(&slot)))
            };
            let (early, late): (Vec<_>, Vec<_>) = deferred
                .into_iter()
                .partition(|(slot, _)| read_by_sort(*slot));
            if !early.is_empty() {
                ops.push(BoundOp::Project(early));
            }
            ops.push(BoundOp::Sort {
                keys,
                skip: skip.clone(),
                limit: limit.clone(),
            });
            if let Some(s) = skip {
                ops.push(BoundOp::Skip(s));
            }
            if let Some(l) = limit {
                ops.push(BoundOp::Limit(l));
            }
            if !late.is_empty() {
                ops.push(BoundOp::Project(late));
            }
        } else {
            if let Some(s) = &p.skip {
                let s = self.count_expr(s, "SKIP")?;
                ops.push(BoundOp::Skip(s));
            }
            if let Some(l) = &p.limit {
                let l = self.count_expr(l, "LIMIT")?;
                ops.push(BoundOp::Limit(l));
            }
        }
        // WITH's WHERE sees what its ORDER BY sees: the projection, and before grouping
        // or DISTINCT also the variables the WITH drops.
        let where_ = p.where_.as_ref().map(|w| self.expr(w)).transpose()?;
        self.scope = Default::default();
        for (name, slot) in outputs {
            self.define(name, *slot);
        }
        if let Some(w) = where_ {
            ops.push(BoundOp::Filter(w));
        }
        Ok(())
    }

    pub(crate) fn create(&mut self, parts: &[PatternPart]) -> Result<CreateSpec> {
        let mut spec = CreateSpec::default();
        for part in parts {
            let start = &part.path.start;
            let lone_bound = part.path.steps.is_empty()
                && start
                    .var
                    .as_ref()
                    .is_some_and(|v| self.scope.get(v).is_some());
            if lone_bound {
                let v = start.var.as_deref().unwrap_or_default();
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!("variable `{v}` already declared: CREATE cannot create it"),
                    start.pos,
                ));
            }
            let mut path = PathSlots {
                slot: 0,
                nodes: vec![self.create_node(start, &mut spec)?],
                rels: Vec::new(),
            };
            for (rel, node) in &part.path.steps {
                let prev = path.nodes[path.nodes.len() - 1];
                let next = self.create_node(node, &mut spec)?;
                path.rels.push(self.create_rel(rel, prev, next, &mut spec)?);
                path.nodes.push(next);
            }
            if let Some(v) = &part.path_var {
                if self.scope.get(v).is_some() {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        format!("variable `{v}` already declared"),
                        part.pos,
                    ));
                }
                path.slot = self.slot();
                self.define(v, path.slot);
                spec.paths.push(path);
            }
        }
        Ok(spec)
    }

    /// One relationship of a CREATE pattern, between the slots of its two ends (in the
    /// pattern's order): its slot.
    fn create_rel(
        &mut self,
        rel: &crate::ast::RelPattern,
        prev: usize,
        next: usize,
        spec: &mut CreateSpec,
    ) -> Result<usize> {
        let [rel_type] = rel.types.as_slice() else {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "a relationship to create needs exactly one type",
                rel.pos,
            ));
        };
        let (from, to) = match rel.direction {
            RelDirection::Right => (prev, next),
            RelDirection::Left => (next, prev),
            RelDirection::Both => {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "a relationship to create needs a direction",
                    rel.pos,
                ))
            }
        };
        if rel.length.is_some() {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "a variable-length relationship cannot be created",
                rel.pos,
            ));
        }
        let slot = self.slot();
        if let Some(v) = &rel.var {
            self.define(v, slot);
        }
        let (props, map) = self.create_props(rel.props.as_ref())?;
        let earlier: Vec<usize> = spec.rels.iter().map(|r| r.slot).collect();
        spec.rels.push(CreateRel {
            slot,
            rel_type: Arc::from(rel_type.as_str()),
            from,
            to,
            flush: reads_any(&props, &earlier),
            props,
            map,
        });
        Ok(slot)
    }

    fn create_node(&mut self, n: &crate::ast::NodePattern, spec: &mut CreateSpec) -> Result<usize> {
        if let Some(v) = &n.var {
            if let Some(slot) = self.scope.get(v) {
                if !n.labels.is_empty() || n.props.is_some() {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        format!("variable `{v}` already declared"),
                        n.pos,
                    ));
                }
                return Ok(slot);
            }
        }
        let slot = self.slot();
        if let Some(v) = &n.var {
            self.define(v, slot);
            self.kinds.insert(slot, super::Kind::Node);
        }
        let labels = n.labels.iter().map(|l| Arc::from(l.as_str())).collect();
        let (props, map) = self.create_props(n.props.as_ref())?;
        let earlier: Vec<usize> = spec.nodes.iter().map(|n| n.slot).collect();
        spec.nodes.push(CreateNode {
            slot,
            labels,
            flush: reads_any(&props, &earlier),
            props,
            map,
        });
        Ok(slot)
    }

    /// A CREATE pattern's properties: named in a map literal, or taken whole from a
    /// map parameter (`CREATE (n $props)`, as Neo4j allows in CREATE only).
    fn create_props(&mut self, props: Option<&crate::ast::Expr>) -> Result<CreateProps> {
        match props.map(|e| (&e.kind, e)) {
            None => Ok((Vec::new(), None)),
            Some((ExprKind::Map(entries), _)) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    out.push((Arc::from(k.as_str()), self.expr(v)?));
                }
                Ok((out, None))
            }
            Some((ExprKind::Param(_), e)) => Ok((Vec::new(), Some(self.expr(e)?))),
            Some((_, e)) => Err(self.error(
                ErrorCode::SyntaxError,
                "a pattern's properties are a map or a parameter",
                e.pos,
            )),
        }
    }
}

/// A created element's named properties, or the map parameter that holds them.
type CreateProps = (Vec<(Arc<str>, BExpr)>, Option<BExpr>);

/// Whether property expressions read any of `slots` (or may: a pattern inside).
pub(crate) fn reads_any(props: &[(Arc<str>, BExpr)], slots: &[usize]) -> bool {
    props
        .iter()
        .any(|(_, e)| super::needed_slots(e).is_none_or(|r| slots.iter().any(|s| r.contains(s))))
}

/// `e` with every subexpression equal to a projected item's expression replaced by that
/// item's column: `RETURN n.num, count(*) ORDER BY n.num` sorts on the `n.num` column.
fn projected(e: &Expr, items: &[ProjectionItem]) -> Expr {
    let key = canonical(e);
    if let Some(item) = items.iter().find(|i| canonical(&i.expr) == key) {
        return Expr {
            kind: ExprKind::Var(item.name.clone()),
            pos: e.pos,
        };
    }
    let sub = |x: &Expr| Box::new(projected(x, items));
    let kind = match &e.kind {
        ExprKind::Property(b, k) => ExprKind::Property(sub(b), k.clone()),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::IsNull(a, n) => ExprKind::IsNull(sub(a), *n),
        ExprKind::IsType(a, n, t) => ExprKind::IsType(sub(a), *n, t.clone()),
        ExprKind::Compare(a, rest) => ExprKind::Compare(
            sub(a),
            rest.iter()
                .map(|(op, x)| (*op, projected(x, items)))
                .collect(),
        ),
        ExprKind::List(xs) => ExprKind::List(xs.iter().map(|x| projected(x, items)).collect()),
        ExprKind::Call {
            name,
            distinct,
            args,
        } => ExprKind::Call {
            name: name.clone(),
            distinct: *distinct,
            args: args.iter().map(|x| projected(x, items)).collect(),
        },
        other => other.clone(),
    };
    Expr { kind, pos: e.pos }
}

/// An expression's shape without its positions in the text, to compare two of them.
fn canonical(e: &Expr) -> String {
    let text = format!("{:?}", e.kind);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("pos: ") {
        out.push_str(&rest[..i]);
        rest = rest[i + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

impl Binder<'_> {
    /// The slot holding `e`'s value when `e` is one of the aggregating projection's
    /// property grouping keys being bound (see `Binder::group_keys`).
    pub(crate) fn group_key_slot(&self, e: &Expr) -> Option<usize> {
        if self.group_keys.is_empty() {
            return None;
        }
        let text = canonical(e);
        self.group_keys
            .iter()
            .find(|(k, _)| *k == text)
            .map(|(_, s)| *s)
    }
}

/// Variables an expression reads outside aggregate calls and outside the grouping
/// keys `keys` (comprehensions, which bind their own, are not entered).
fn vars_outside_aggregates(e: &Expr, keys: &[String], out: &mut Vec<(String, usize)>) {
    if keys.contains(&canonical(e)) {
        return;
    }
    let mut walk = |x: &Expr| vars_outside_aggregates(x, keys, out);
    match &e.kind {
        ExprKind::Var(v) => out.push((v.clone(), e.pos)),
        ExprKind::Call { name, args, .. }
            if crate::functions::Aggregate::lookup(&name.to_ascii_lowercase()).is_none() =>
        {
            args.iter().for_each(walk)
        }
        ExprKind::Property(b, _)
        | ExprKind::HasLabels(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::IsNull(b, _)
        | ExprKind::IsType(b, ..) => walk(b),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            walk(a);
            walk(b);
        }
        ExprKind::Compare(a, rest) => {
            walk(a);
            rest.iter().for_each(|(_, x)| walk(x));
        }
        ExprKind::List(xs) => xs.iter().for_each(walk),
        ExprKind::Map(entries) => entries.iter().for_each(|(_, x)| walk(x)),
        ExprKind::Case {
            operand,
            whens,
            else_,
        } => {
            operand.iter().for_each(|o| walk(o));
            for (w, t) in whens {
                walk(w);
                walk(t);
            }
            else_.iter().for_each(|x| walk(x));
        }
        _ => {}
    }
}
