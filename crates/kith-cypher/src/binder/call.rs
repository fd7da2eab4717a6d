//! Binding `CALL proc(args) YIELD ...`, `CALL { ... }` and `SHOW PROCEDURES`.

use std::sync::Arc;

use super::{has_aggregate, BExpr, Binder};
use super::{Bound, BoundOp, CallSpec, SubquerySpec};
use crate::ast::{Call, Clause, ExprKind, Show, Statement, Yield};
use crate::error::{ErrorCode, Result};
use crate::value::Val;
use kith_core::Str;

/// The parts of a subquery's UNION, bound.
pub(crate) struct UnionParts {
    /// Each part's operators and the slots of its columns.
    pub(crate) parts: Vec<(Vec<BoundOp>, Vec<usize>)>,
    /// The columns' names, the same in every part.
    pub(crate) names: Vec<String>,
    /// UNION rather than UNION ALL.
    pub(crate) distinct: bool,
    /// Whether a part writes.
    pub(crate) writes: bool,
}

/// A bound CALL: its operator, and the columns it answers when it stands alone.
pub(crate) struct BoundCall {
    pub(crate) ops: Vec<BoundOp>,
    pub(crate) columns: Vec<(String, usize)>,
    pub(crate) writes: bool,
}

impl Binder<'_> {
    /// `CALL proc(...)`: `standalone` when it is the whole query (then arguments may
    /// be implicit and the result is every column it yields).
    pub(crate) fn call_clause(&mut self, c: &Call, standalone: bool) -> Result<BoundCall> {
        // A stored procedure whose text no longer prepares says why.
        let sig = self.catalog.signature(&c.name).transpose()?;
        let sig = sig.ok_or_else(|| {
            self.error(
                ErrorCode::ProcedureNotFound,
                format!("there is no procedure named `{}`", c.name),
                c.pos,
            )
        })?;
        let args = self.call_args(c, &sig, standalone)?;
        let void = sig.outputs.is_empty();
        if !standalone && c.yields.as_ref().is_some_and(|y| y.star) {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "YIELD * is only allowed when CALL is the whole query: name the columns",
                c.pos,
            ));
        }
        if !standalone && !void && c.yields.is_none() {
            return Err(self.error(
                ErrorCode::SyntaxError,
                format!(
                    "CALL {} inside a query needs YIELD: it returns {}",
                    c.name,
                    sig.outputs.join(", ")
                ),
                c.pos,
            ));
        }
        let wanted: Vec<(String, String)> = match &c.yields {
            Some(y) if !y.star => y
                .items
                .iter()
                .map(|(col, alias)| (col.clone(), alias.clone().unwrap_or_else(|| col.clone())))
                .collect(),
            _ => sig.outputs.iter().map(|o| (o.clone(), o.clone())).collect(),
        };
        let mut yields = Vec::with_capacity(wanted.len());
        let mut columns = Vec::with_capacity(wanted.len());
        for (col, name) in wanted {
            let Some(index) = sig.outputs.iter().position(|o| *o == col) else {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!(
                        "{} has no column `{col}` to yield (it has {})",
                        c.name,
                        sig.outputs.join(", ")
                    ),
                    c.pos,
                ));
            };
            if self.scope.get(&name).is_some() {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!("variable `{name}` already declared: YIELD it AS another name"),
                    c.pos,
                ));
            }
            let slot = self.slot();
            self.define(&name, slot);
            yields.push((index, slot));
            columns.push((name, slot));
        }
        let mut ops = vec![BoundOp::Call(Box::new(CallSpec::<Bound> {
            name: sig.name.clone(),
            args,
            yields,
            void,
            writes: sig.writes,
            stored: (),
        }))];
        if let Some(w) = c.yields.as_ref().and_then(|y| y.where_.as_ref()) {
            ops.push(BoundOp::Filter(self.expr(w)?));
        }
        Ok(BoundCall {
            ops,
            columns,
            writes: sig.writes,
        })
    }

    fn call_args(
        &mut self,
        c: &Call,
        sig: &crate::catalog::Signature,
        standalone: bool,
    ) -> Result<Vec<(String, BExpr)>> {
        let Some(given) = &c.args else {
            if !standalone {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!(
                        "CALL {} inside a query needs its arguments in parentheses",
                        c.name
                    ),
                    c.pos,
                ));
            }
            // Implicit arguments: the query's parameters of the same names.
            return Ok(sig
                .params
                .iter()
                .map(|p| (p.name.clone(), BExpr::Param(self.names.param(&p.name))))
                .collect());
        };
        let required = sig.params.iter().filter(|p| !p.optional).count();
        if given.len() < required || given.len() > sig.params.len() {
            let range = if required == sig.params.len() {
                required.to_string()
            } else {
                format!("{required} to {}", sig.params.len())
            };
            return Err(self.error(
                ErrorCode::SyntaxError,
                format!(
                    "{} takes {range} arguments, got {}",
                    sig.text(),
                    given.len()
                ),
                c.pos,
            ));
        }
        let mut out = Vec::with_capacity(given.len());
        for (p, e) in sig.params.iter().zip(given) {
            if has_aggregate(e) {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "an aggregate cannot be a procedure argument",
                    e.pos,
                ));
            }
            let bound = self.expr(e)?;
            if let BExpr::Const(v) = &bound {
                if !accepts(&p.type_name, v) {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        format!(
                            "argument `{}` of {} is a {}, not a {}",
                            p.name,
                            c.name,
                            v.type_name(),
                            p.type_name
                        ),
                        e.pos,
                    ));
                }
            }
            out.push((p.name.clone(), bound));
        }
        Ok(out)
    }

    /// `CALL { ... }`: the subquery sees the outer variables a leading `WITH` imports;
    /// what it returns joins the outer row.
    pub(crate) fn call_subquery(&mut self, statement: &Statement) -> Result<BoundCall> {
        let union = self.union_parts(statement, false)?;
        let mut columns = Vec::new();
        for name in union.names {
            if self.scope.get(&name).is_some() {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!("variable `{name}` already declared outside the subquery"),
                    0,
                ));
            }
            let slot = self.slot();
            self.define(&name, slot);
            columns.push((name, slot));
        }
        Ok(BoundCall {
            ops: vec![BoundOp::Subquery(Box::new(SubquerySpec {
                parts: union.parts,
                columns: columns.iter().map(|(_, s)| *s).collect(),
                distinct: union.distinct,
                writes: union.writes,
            }))],
            columns,
            writes: union.writes,
        })
    }

    /// The parts of a subquery's UNION, each bound in the outer scope. A `CALL { }`
    /// part (`sees_outer` false) sees only what a leading `WITH` imports; the body of
    /// `COUNT { }` and its kin sees every outer variable. Scope is left as it was.
    pub(crate) fn union_parts(
        &mut self,
        statement: &Statement,
        sees_outer: bool,
    ) -> Result<UnionParts> {
        if statement.unions.windows(2).any(|w| w[0].0 != w[1].0) {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "UNION and UNION ALL cannot be mixed in one query",
                0,
            ));
        }
        let outer = self.scope.clone();
        let mut union = UnionParts {
            parts: Vec::new(),
            names: Vec::new(),
            distinct: statement.unions.first().is_some_and(|(all, _)| !*all),
            writes: false,
        };
        let queries =
            std::iter::once(&statement.query).chain(statement.unions.iter().map(|(_, q)| q));
        for (i, query) in queries.enumerate() {
            let imports = matches!(query.clauses.first(), Some(Clause::With(p)) if p.items.iter().all(|i| matches!(i.expr.kind, ExprKind::Var(_))));
            if !imports && !sees_outer {
                self.scope = Default::default();
            }
            let q = self.clauses(&query.clauses);
            self.scope = outer.clone();
            let q = q?;
            union.writes |= q.writes;
            let these: Vec<String> = q.columns.iter().map(|(n, _)| n.clone()).collect();
            if i > 0 && union.names != these {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "all parts of a UNION in a subquery must return the same columns",
                    0,
                ));
            }
            union.names = these;
            union
                .parts
                .push((q.ops, q.columns.iter().map(|(_, s)| *s).collect()));
        }
        Ok(union)
    }

    /// `SHOW PROCEDURES | INDEXES | CONSTRAINTS [YIELD ...]`: a row per procedure
    /// (known when the query is planned), index or constraint (read from the graph
    /// when it runs); YIELD picks and renames columns and may filter with WHERE, and
    /// clauses may follow.
    pub(crate) fn show_clause(&mut self, what: &Show, yields: Option<&Yield>) -> Result<BoundCall> {
        let source = match what {
            Show::Procedures => BExpr::Const(self.procedure_rows()),
            Show::Databases(pick) => BExpr::Const(super::show::database_rows(what, pick)),
            Show::Indexes(_) | Show::Constraints => BExpr::Listing(what.clone()),
        };
        let row = self.slot();
        let mut ops = vec![BoundOp::Unwind {
            expr: source,
            slot: row,
        }];
        let columns_of = what.yieldable();
        let named = |cs: Vec<&str>| cs.iter().map(|c| (c.to_string(), c.to_string())).collect();
        let wanted: Vec<(String, String)> = match yields {
            Some(y) if !y.star => y
                .items
                .iter()
                .map(|(c, a)| (c.clone(), a.clone().unwrap_or_else(|| c.clone())))
                .collect(),
            Some(_) => named(columns_of.clone()),
            None => named(what.columns()),
        };
        let mut project = Vec::new();
        let mut columns = Vec::new();
        for (column, name) in wanted {
            if !columns_of.contains(&column.as_str()) {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!(
                        "SHOW {} has no column `{column}` (it has {})",
                        what.noun(),
                        columns_of.join(", ")
                    ),
                    0,
                ));
            }
            let slot = self.slot();
            let key = self.names.key(&column);
            project.push((slot, BExpr::Prop(Box::new(BExpr::Slot(row)), key)));
            self.define(&name, slot);
            columns.push((name, slot));
        }
        ops.push(BoundOp::Project(project));
        if let Some(w) = yields.and_then(|y| y.where_.as_ref()) {
            ops.push(BoundOp::Filter(self.expr(w)?));
        }
        Ok(BoundCall {
            ops,
            columns,
            writes: false,
        })
    }

    /// SHOW PROCEDURES's rows: name, signature, description, mode.
    fn procedure_rows(&self) -> Val {
        let rows = self
            .catalog
            .list()
            .into_iter()
            .map(|sig| {
                let mode = if sig.writes { "WRITE" } else { "READ" };
                Val::Map(Arc::new(vec![
                    (Arc::from("name"), Val::Str(Str::from(sig.name.as_str()))),
                    (
                        Arc::from("signature"),
                        Val::Str(Str::from(sig.text().as_str())),
                    ),
                    (
                        Arc::from("description"),
                        Val::Str(Str::from(sig.description.as_str())),
                    ),
                    (Arc::from("mode"), Val::Str(Str::from(mode))),
                ]))
            })
            .collect();
        Val::List(Arc::new(rows))
    }
}
/// Whether a literal fits a parameter type, as far as the type's name tells (an
/// unknown name accepts anything; the procedure checks when called).
fn accepts(type_name: &str, v: &Val) -> bool {
    let t = type_name.trim_end_matches('?').to_ascii_uppercase();
    match (t.as_str(), v) {
        (_, Val::Null) => true,
        ("STRING", Val::Str(_)) => true,
        ("INTEGER" | "INT", Val::Int(_)) => true,
        ("FLOAT" | "NUMBER", Val::Int(_) | Val::Float(_)) => true,
        ("BOOLEAN", Val::Bool(_)) => true,
        ("STRING" | "INTEGER" | "INT" | "FLOAT" | "NUMBER" | "BOOLEAN", _) => false,
        _ => true,
    }
}
