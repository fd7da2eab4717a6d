//! Binding expressions.

use std::sync::Arc;

use super::{AggSpec, BExpr, BinOp, Binder, BoundMatch, BoundOp, BoundSub, Kind, MapItem};
use crate::ast::{
    BinaryOp, Expr, ExprKind, MapProjectionItem, SubqueryBody, SubqueryKind, UnaryOp,
};
use crate::error::{ErrorCode, Result};
use crate::functions::{compile_regex, Aggregate, Function};
use crate::value::Val;

impl Binder<'_> {
    /// Binds an expression in the current scope.
    pub(crate) fn expr(&mut self, e: &Expr) -> Result<BExpr> {
        Ok(match &e.kind {
            ExprKind::Null => BExpr::Const(Val::Null),
            ExprKind::Bool(b) => BExpr::Const(Val::Bool(*b)),
            ExprKind::Int(i) => BExpr::Const(Val::Int(*i)),
            ExprKind::Float(f) => BExpr::Const(Val::Float(*f)),
            ExprKind::Str(s) => BExpr::Const(Val::str(s)),
            ExprKind::Param(p) => BExpr::Param(self.names.param(p)),
            ExprKind::Var(v) => BExpr::Slot(self.lookup(v, e.pos)?),
            ExprKind::Property(base, key) => {
                if let Some(slot) = self.group_key_slot(e) {
                    return Ok(BExpr::Slot(slot));
                }
                let base = self.expr(base)?;
                if matches!(Kind::of(&base, &self.kinds), Kind::Path | Kind::RelList) {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        format!(
                            "type mismatch: a {} has no property `{key}`",
                            Kind::of(&base, &self.kinds).name()
                        ),
                        e.pos,
                    ));
                }
                BExpr::Prop(Box::new(base), self.names.key(key))
            }
            ExprKind::Index(a, i) => BExpr::Index(Box::new(self.expr(a)?), Box::new(self.expr(i)?)),
            ExprKind::Slice(a, from, to) => BExpr::Slice(
                Box::new(self.expr(a)?),
                self.opt(from.as_deref())?,
                self.opt(to.as_deref())?,
            ),
            ExprKind::HasLabels(a, labels) => {
                let labels = labels.iter().map(|l| self.names.label(l)).collect();
                BExpr::HasLabels(Box::new(self.expr(a)?), labels)
            }
            ExprKind::List(items) => BExpr::List(self.exprs(items)?),
            ExprKind::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    out.push((Arc::from(k.as_str()), self.expr(v)?));
                }
                BExpr::Map(out)
            }
            ExprKind::Unary(op, a) => {
                let a = Box::new(self.expr(a)?);
                match op {
                    UnaryOp::Not => {
                        self.boolean_operand(&a, e.pos)?;
                        BExpr::Not(a)
                    }
                    UnaryOp::Neg => BExpr::Neg(a),
                    UnaryOp::Plus => *a,
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b)?,
            ExprKind::Compare(first, rest) => {
                let first = Box::new(self.expr(first)?);
                let mut chain = Vec::with_capacity(rest.len());
                for (op, e) in rest {
                    chain.push((*op, self.expr(e)?));
                }
                BExpr::Compare(first, chain)
            }
            ExprKind::IsNull(a, negated) => BExpr::IsNull(Box::new(self.expr(a)?), *negated),
            ExprKind::IsType(a, negated, t) => {
                BExpr::IsType(Box::new(self.expr(a)?), *negated, Arc::new(t.clone()))
            }
            ExprKind::Call {
                name,
                distinct,
                args,
            } => self.call(name, *distinct, args, e.pos)?,
            ExprKind::CountStar => self.aggregate(Aggregate::Count, false, None, e.pos)?,
            ExprKind::Case {
                operand,
                whens,
                else_,
            } => {
                let operand = self.opt(operand.as_deref())?;
                let mut bound = Vec::with_capacity(whens.len());
                for (w, t) in whens {
                    bound.push((self.expr(w)?, self.expr(t)?));
                }
                BExpr::Case {
                    operand,
                    whens: bound,
                    else_: self.opt(else_.as_deref())?,
                }
            }
            ExprKind::ListComprehension {
                var,
                list,
                filter,
                map,
            } => {
                let list = Box::new(self.expr(list)?);
                let saved = self.scope.clone();
                let slot = self.slot();
                self.define(var, slot);
                let filter = self.opt(filter.as_deref());
                let map = self.opt(map.as_deref());
                self.scope = saved;
                BExpr::ListComp {
                    slot,
                    list,
                    filter: filter?,
                    map: map?,
                }
            }
            ExprKind::Reduce {
                acc,
                init,
                var,
                list,
                expr,
            } => {
                let init = Box::new(self.expr(init)?);
                let list = Box::new(self.expr(list)?);
                let saved = self.scope.clone();
                let (acc_slot, slot) = (self.slot(), self.slot());
                self.define(acc, acc_slot);
                self.define(var, slot);
                let body = self.expr(expr);
                self.scope = saved;
                BExpr::Reduce {
                    acc: acc_slot,
                    init,
                    slot,
                    list,
                    expr: Box::new(body?),
                }
            }
            ExprKind::Quantifier {
                kind,
                var,
                list,
                pred,
            } => {
                let list = Box::new(self.expr(list)?);
                let saved = self.scope.clone();
                let slot = self.slot();
                self.define(var, slot);
                let pred = self.expr(pred);
                self.scope = saved;
                BExpr::Quantifier {
                    kind: *kind,
                    slot,
                    list,
                    pred: Box::new(pred?),
                }
            }
            ExprKind::Pattern(path) => self.pattern_predicate(path)?,
            ExprKind::Subquery { kind, body } => self.subquery(*kind, body, e.pos)?,
            ExprKind::MapProjection { base, items } => {
                let base = Box::new(self.expr(base)?);
                let mut bound = Vec::with_capacity(items.len());
                for item in items {
                    bound.push(match item {
                        MapProjectionItem::Property(k) => {
                            MapItem::Property(Arc::from(k.as_str()), self.names.key(k))
                        }
                        MapProjectionItem::AllProperties => MapItem::All,
                        MapProjectionItem::Entry(k, v) => {
                            MapItem::Entry(Arc::from(k.as_str()), self.expr(v)?)
                        }
                    });
                }
                BExpr::MapProjection(base, bound)
            }
            ExprKind::PatternComprehension {
                path_var,
                pattern,
                filter,
                map,
            } => {
                self.pattern_comprehension(path_var.as_deref(), pattern, filter.as_deref(), map)?
            }
        })
    }

    pub(crate) fn exprs(&mut self, items: &[Expr]) -> Result<Vec<BExpr>> {
        items.iter().map(|e| self.expr(e)).collect()
    }

    fn opt(&mut self, e: Option<&Expr>) -> Result<Option<Box<BExpr>>> {
        e.map(|e| self.expr(e).map(Box::new)).transpose()
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr) -> Result<BExpr> {
        let literal = matches!(
            b.kind,
            ExprKind::Bool(_)
                | ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Str(_)
                | ExprKind::Map(_)
        );
        if op == BinaryOp::In && literal {
            // Known before running, as openCypher and Neo4j class it.
            return Err(self.error(
                ErrorCode::SyntaxError,
                "IN needs a list on its right, found a literal of another type",
                b.pos,
            ));
        }
        let (x, y) = (Box::new(self.expr(a)?), Box::new(self.expr(b)?));
        if matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor) {
            self.boolean_operand(&x, a.pos)?;
            self.boolean_operand(&y, b.pos)?;
        }
        let op = match op {
            BinaryOp::And => return Ok(BExpr::And(x, y)),
            BinaryOp::Or => return Ok(BExpr::Or(x, y)),
            BinaryOp::Xor => return Ok(BExpr::Xor(x, y)),
            BinaryOp::Regex => {
                if let BExpr::Const(Val::Str(pattern)) = &*y {
                    let re = compile_regex(pattern)
                        .map_err(|m| self.error(ErrorCode::ArgumentError, m, b.pos))?;
                    return Ok(BExpr::RegexConst(x, Arc::new(re)));
                }
                BinOp::Regex
            }
            BinaryOp::Add => BinOp::Add,
            BinaryOp::Concat => BinOp::Concat,
            BinaryOp::Sub => BinOp::Sub,
            BinaryOp::Mul => BinOp::Mul,
            BinaryOp::Div => BinOp::Div,
            BinaryOp::Mod => BinOp::Mod,
            BinaryOp::Pow => BinOp::Pow,
            BinaryOp::In => BinOp::In,
            BinaryOp::StartsWith => BinOp::StartsWith,
            BinaryOp::EndsWith => BinOp::EndsWith,
            BinaryOp::Contains => BinOp::Contains,
        };
        Ok(BExpr::Binary(op, x, y))
    }

    fn call(&mut self, name: &str, distinct: bool, args: &[Expr], pos: usize) -> Result<BExpr> {
        let lower = name.to_ascii_lowercase();
        if let Some(agg) = Aggregate::lookup(&lower) {
            if args.len() != agg.arity() {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!(
                        "{name}() takes {} argument(s), got {}",
                        agg.arity(),
                        args.len()
                    ),
                    pos,
                ));
            }
            let param = match args.get(1) {
                Some(p) => Some(self.expr(p)?),
                None => None,
            };
            let bound = self.aggregate(agg, distinct, Some(&args[0]), pos)?;
            if let (Some(param), Some(aggs)) = (param, self.aggs.as_mut()) {
                // The aggregate just bound is the last one.
                if let Some(last) = aggs.last_mut() {
                    last.param = Some(param);
                }
            }
            return Ok(bound);
        }
        let Some(f) = Function::lookup(&lower) else {
            return Err(self.error(
                ErrorCode::UnknownFunction,
                format!("unknown function '{name}'"),
                pos,
            ));
        };
        let (min, max) = f.arity();
        if args.len() < min || args.len() > max {
            let expected = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(self.error(
                ErrorCode::SyntaxError,
                format!("{name}() takes {expected} argument(s), got {}", args.len()),
                pos,
            ));
        }
        if f == Function::Exists && !matches!(args[0].kind, ExprKind::Pattern(_)) {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "exists() of a value is not Cypher 5: write `x IS NOT NULL`",
                pos,
            ));
        }
        if f == Function::Size && matches!(args[0].kind, ExprKind::Pattern(_)) {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "size() of a pattern: use COUNT { pattern }",
                pos,
            ));
        }
        let bound = self.exprs(args)?;
        self.check_argument_kinds(f, &bound, pos)?;
        Ok(BExpr::Call(f, bound))
    }

    fn aggregate(
        &mut self,
        func: Aggregate,
        distinct: bool,
        arg: Option<&Expr>,
        pos: usize,
    ) -> Result<BExpr> {
        let Some(mut aggs) = self.aggs.take() else {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "an aggregate function may only stand in WITH or RETURN",
                pos,
            ));
        };
        if arg.is_some_and(super::has_aggregate) {
            self.aggs = Some(aggs);
            return Err(self.error(
                ErrorCode::SyntaxError,
                "aggregate functions cannot be nested",
                pos,
            ));
        }
        let arg = arg.map(|a| self.expr(a)).transpose();
        let slot = self.slot();
        match arg {
            Ok(arg) => aggs.push(AggSpec {
                slot,
                func,
                distinct,
                arg,
                param: None,
            }),
            Err(e) => {
                self.aggs = Some(aggs);
                return Err(e);
            }
        }
        self.aggs = Some(aggs);
        Ok(BExpr::Slot(slot))
    }
}

impl Binder<'_> {
    /// Arguments whose kind is known before running and can never fit the function
    /// (`length(n)` of a node, `type(n)`, `labels(p)` of a path, `properties(1)`).
    fn check_argument_kinds(&self, f: Function, args: &[BExpr], pos: usize) -> Result<()> {
        let Some(first) = args.first() else {
            return Ok(());
        };
        let kind = Kind::of(first, &self.kinds);
        let fits = match f {
            Function::Length => !matches!(kind, Kind::Node | Kind::Rel),
            Function::Size => kind != Kind::Path,
            Function::Type | Function::StartNode | Function::EndNode => {
                !matches!(kind, Kind::Node | Kind::Path | Kind::Value)
            }
            Function::Labels => !matches!(kind, Kind::Rel | Kind::Path | Kind::Value),
            Function::Properties | Function::Keys => {
                kind != Kind::Path
                    && !matches!(first, BExpr::Const(v) if !v.is_null())
                    && !matches!(first, BExpr::List(_))
            }
            Function::Nodes | Function::Relationships => {
                !matches!(kind, Kind::Node | Kind::Rel | Kind::Value)
            }
            _ => true,
        };
        if fits {
            return Ok(());
        }
        Err(self.error(
            ErrorCode::SyntaxError,
            format!("type mismatch: {}() of a {}", f.name(), kind.name()),
            pos,
        ))
    }

    /// A literal operand of a boolean operator that can never be a boolean is an error
    /// before running, as in openCypher (`RETURN 123 AND true`).
    fn boolean_operand(&self, e: &BExpr, pos: usize) -> Result<()> {
        let found = match e {
            BExpr::Const(v) if !matches!(v, Val::Bool(_) | Val::Null) => v.type_name(),
            BExpr::List(_) => "List",
            BExpr::Map(_) => "Map",
            _ => return Ok(()),
        };
        Err(self.error(
            ErrorCode::SyntaxError,
            format!("type mismatch: expected Boolean but was {found}"),
            pos,
        ))
    }

    /// `EXISTS/COUNT/COLLECT { ... }`: bound in a scope that starts with the outer
    /// variables and ends with the subquery (its variables stay inside).
    fn subquery(&mut self, kind: SubqueryKind, body: &SubqueryBody, pos: usize) -> Result<BExpr> {
        let saved_scope = self.scope.clone();
        let saved_aggs = self.aggs.take();
        let bound = self.subquery_body(kind, body, pos);
        self.scope = saved_scope;
        self.aggs = saved_aggs;
        bound
    }

    fn subquery_body(
        &mut self,
        kind: SubqueryKind,
        body: &SubqueryBody,
        pos: usize,
    ) -> Result<BExpr> {
        let (ops, columns) = match body {
            SubqueryBody::Pattern(parts, where_) => {
                let pre = self.bound_slots();
                let parts = self.pattern_parts(parts, &pre)?;
                let mut conjuncts = std::mem::take(&mut self.bound_rel_checks);
                if let Some(w) = where_ {
                    conjuncts.extend(super::pattern::split_and(self.expr(w)?));
                }
                let pattern = BoundMatch {
                    parts,
                    conjuncts,
                    pre,
                };
                (vec![BoundOp::Match(pattern)], Vec::new())
            }
            SubqueryBody::Query(statement) if statement.unions.is_empty() => {
                let bound = self.clauses(&statement.query.clauses)?;
                if bound.writes {
                    return Err(self.cannot_write(pos));
                }
                (bound.ops, bound.columns)
            }
            SubqueryBody::Query(statement) => self.union_body(statement, pos)?,
        };
        let column = match (kind, columns.as_slice()) {
            (SubqueryKind::Collect, [(_, slot)]) => Some(*slot),
            (SubqueryKind::Collect, _) => {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "a COLLECT subquery must end with a RETURN of exactly one column",
                    pos,
                ))
            }
            _ => None,
        };
        Ok(BExpr::Subquery {
            kind,
            sub: self.sub(BoundSub::Query(ops)),
            column,
        })
    }

    /// A subquery expression's UNION: its parts run as one `CALL { }` would from the
    /// outer row (each seeing the outer variables), their rows the body's rows.
    fn union_body(&mut self, statement: &crate::ast::Statement, pos: usize) -> Result<BodyOps> {
        let union = self.union_parts(statement, true)?;
        if union.writes {
            return Err(self.cannot_write(pos));
        }
        let columns: Vec<(String, usize)> = union
            .names
            .into_iter()
            .map(|name| (name, self.slot()))
            .collect();
        let spec = super::SubquerySpec {
            parts: union.parts,
            columns: columns.iter().map(|(_, s)| *s).collect(),
            distinct: union.distinct,
            writes: false,
        };
        Ok((vec![BoundOp::Subquery(Box::new(spec))], columns))
    }

    fn cannot_write(&self, pos: usize) -> crate::error::CypherError {
        self.error(
            ErrorCode::SyntaxError,
            "a subquery expression cannot write",
            pos,
        )
    }
}

/// A subquery body's operators, and its columns by name and slot.
type BodyOps = (Vec<BoundOp>, Vec<(String, usize)>);
