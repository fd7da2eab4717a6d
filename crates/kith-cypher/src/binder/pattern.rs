//! Binding patterns: MATCH parts, pattern predicates and pattern comprehensions.

use rustc_hash::FxHashSet;

use super::{BExpr, BNode, BPart, BRel, Binder, BoundMatch, BoundSub, Kind, VAR_LENGTH_HOPS_MAX};
use crate::ast::{Expr, ExprKind, NodePattern, PathKind, PathPattern, PatternPart, RelPattern};
use crate::error::{ErrorCode, Result};

/// Property equalities of a pattern element, and a parameter map of them.
type PatternProps = (Vec<(usize, BExpr)>, Option<BExpr>);

impl Binder<'_> {
    /// The slots visible now: what a pattern bound from here may take as given.
    pub(crate) fn bound_slots(&self) -> FxHashSet<usize> {
        self.scope.visible().into_iter().map(|(_, s)| s).collect()
    }

    /// Binds pattern parts, defining their new variables in the current scope.
    pub(crate) fn pattern_parts(
        &mut self,
        parts: &[PatternPart],
        pre: &FxHashSet<usize>,
    ) -> Result<Vec<BPart>> {
        let mut out = Vec::with_capacity(parts.len());
        for part in parts {
            let mut bound = self.path(&part.path, pre)?;
            bound.kind = part.kind;
            if let Some(v) = &part.path_var {
                if self.scope.get(v).is_some() {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        format!("variable `{v}` already defined"),
                        part.pos,
                    ));
                }
                let slot = self.slot();
                self.define(v, slot);
                self.kinds.insert(slot, Kind::Path);
                bound.path_slot = Some(slot);
            }
            out.push(bound);
        }
        Ok(out)
    }

    fn path(&mut self, path: &PathPattern, pre: &FxHashSet<usize>) -> Result<BPart> {
        let mut nodes = vec![self.node(&path.start, pre)?];
        let mut rels = Vec::with_capacity(path.steps.len());
        for (rel, node) in &path.steps {
            rels.push(self.rel(rel, pre)?);
            nodes.push(self.node(node, pre)?);
        }
        Ok(BPart {
            path_slot: None,
            kind: PathKind::Plain,
            nodes,
            rels,
        })
    }

    /// The slot of a pattern variable of `kind`, defining it when new; a variable
    /// already holding another kind of value is an error.
    fn variable_slot(
        &mut self,
        var: Option<&str>,
        pre: &FxHashSet<usize>,
        kind: Kind,
        pos: usize,
    ) -> Result<(usize, bool)> {
        let Some(v) = var else {
            return Ok((self.slot(), false));
        };
        let Some(slot) = self.scope.get(v) else {
            let slot = self.slot();
            self.define(v, slot);
            self.kinds.insert(slot, kind);
            return Ok((slot, false));
        };
        let had = self.kinds.get(&slot).copied().unwrap_or(Kind::Unknown);
        let fits =
            had == kind || had == Kind::Unknown || (had == Kind::List && kind == Kind::RelList);
        if !fits {
            return Err(self.error(
                ErrorCode::SyntaxError,
                format!(
                    "type mismatch: `{v}` is already a {}, not a {}",
                    had.name(),
                    kind.name()
                ),
                pos,
            ));
        }
        if kind != Kind::Node && !pre.contains(&slot) {
            // One relationship pattern per relationship variable within a MATCH.
            return Err(self.error(
                ErrorCode::SyntaxError,
                format!("relationship variable `{v}` used twice in one pattern"),
                pos,
            ));
        }
        Ok((slot, pre.contains(&slot)))
    }

    fn node(&mut self, n: &NodePattern, pre: &FxHashSet<usize>) -> Result<BNode> {
        let (slot, bound) = self.variable_slot(n.var.as_deref(), pre, Kind::Node, n.pos)?;
        let labels = n.labels.iter().map(|l| self.names.label(l)).collect();
        let (props, props_map) = self.pattern_props(n.props.as_ref())?;
        Ok(BNode {
            slot,
            bound,
            labels,
            props,
            props_map,
        })
    }

    fn rel(&mut self, r: &RelPattern, pre: &FxHashSet<usize>) -> Result<BRel> {
        let kind = if r.length.is_some() {
            Kind::RelList
        } else {
            Kind::Rel
        };
        let (mut slot, mut bound) = self.variable_slot(r.var.as_deref(), pre, kind, r.pos)?;
        if bound {
            // A relationship bound before: match into a fresh slot and require the two
            // to be equal, so the earlier value constrains this pattern.
            let fresh = self.slot();
            self.bound_rel_checks.push(BExpr::Compare(
                Box::new(BExpr::Slot(fresh)),
                vec![(crate::ast::CompareOp::Eq, BExpr::Slot(slot))],
            ));
            (slot, bound) = (fresh, false);
        }
        let mut types: Vec<usize> = Vec::with_capacity(r.types.len());
        for t in &r.types {
            // `[:T|:T]` is one type: following it twice would double every match.
            let t = self.names.rel_type(t);
            if !types.contains(&t) {
                types.push(t);
            }
        }
        let (props, props_map) = self.pattern_props(r.props.as_ref())?;
        if props_map.is_some() {
            return Err(self.error(
                ErrorCode::NotSupported,
                "a parameter map on a relationship pattern",
                r.pos,
            ));
        }
        let length = r.length.map(|(min, max)| {
            let min = min.map_or(1, |m| m.min(u64::from(VAR_LENGTH_HOPS_MAX)) as u32);
            let max = max.map_or(VAR_LENGTH_HOPS_MAX, |m| {
                m.min(u64::from(VAR_LENGTH_HOPS_MAX)) as u32
            });
            (min, max)
        });
        Ok(BRel {
            named: r.var.is_some(),
            slot,
            bound,
            types,
            props,
            direction: r.direction,
            length,
        })
    }

    fn pattern_props(&mut self, props: Option<&Expr>) -> Result<PatternProps> {
        match props.map(|e| &e.kind) {
            None => Ok((Vec::new(), None)),
            Some(ExprKind::Map(entries)) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    let key = self.names.key(k);
                    out.push((key, self.expr(v)?));
                }
                Ok((out, None))
            }
            Some(_) => {
                // Neo4j 5 and openCypher allow a parameter map only where CREATE makes
                // the element, not where a pattern matches one.
                let pos = props.map_or(0, |e| e.pos);
                Err(self.error(
                    ErrorCode::SyntaxError,
                    "a parameter map cannot stand in a pattern to match",
                    pos,
                ))
            }
        }
    }

    /// `(a)-[:R]->(b)` as a predicate.
    pub(crate) fn pattern_predicate(&mut self, path: &PathPattern) -> Result<BExpr> {
        let named = std::iter::once((path.start.var.as_ref(), path.start.pos)).chain(
            path.steps
                .iter()
                .flat_map(|(r, n)| [(r.var.as_ref(), r.pos), (n.var.as_ref(), n.pos)]),
        );
        for (var, pos) in named {
            if let Some(v) = var.filter(|v| self.scope.get(v).is_none()) {
                // A predicate tests what is bound; a new name there is a typo more often
                // than not, and openCypher refuses it.
                return Err(self.error(ErrorCode::SyntaxError, format!("variable `{v}` not defined (a pattern predicate cannot introduce variables)"), pos));
            }
        }
        let saved = self.scope.clone();
        let pre = self.bound_slots();
        let parts = self.pattern_parts(&[part_of(path)], &pre);
        self.scope = saved;
        let checks = std::mem::take(&mut self.bound_rel_checks);
        let pattern = BoundMatch {
            parts: parts?,
            conjuncts: checks,
            pre,
        };
        Ok(BExpr::Exists(self.sub(BoundSub::Pattern(pattern))))
    }

    /// `[p = (a)-->(b) WHERE f | m]`.
    pub(crate) fn pattern_comprehension(
        &mut self,
        path_var: Option<&str>,
        path: &PathPattern,
        filter: Option<&Expr>,
        map: &Expr,
    ) -> Result<BExpr> {
        let saved = self.scope.clone();
        let result = self.pattern_comprehension_inner(path_var, path, filter, map);
        self.scope = saved;
        let (pattern, map) = result?;
        let sub = self.sub(BoundSub::Pattern(pattern));
        Ok(BExpr::PatternComp(sub, Box::new(map)))
    }

    fn pattern_comprehension_inner(
        &mut self,
        path_var: Option<&str>,
        path: &PathPattern,
        filter: Option<&Expr>,
        map: &Expr,
    ) -> Result<(BoundMatch, BExpr)> {
        let pre = self.bound_slots();
        let mut part = part_of(path);
        part.path_var = path_var.map(str::to_owned);
        let parts = self.pattern_parts(&[part], &pre)?;
        let mut conjuncts = std::mem::take(&mut self.bound_rel_checks);
        if let Some(f) = filter {
            conjuncts.extend(split_and(self.expr(f)?));
        }
        let map = self.expr(map)?;
        let pattern = BoundMatch {
            parts,
            conjuncts,
            pre,
        };
        Ok((pattern, map))
    }
}

fn part_of(path: &PathPattern) -> PatternPart {
    PatternPart {
        path_var: None,
        kind: PathKind::Plain,
        path: path.clone(),
        pos: path.start.pos,
    }
}

/// A predicate split at its top-level ANDs, so each piece can run as early as its
/// variables are bound.
pub(crate) fn split_and(e: BExpr) -> Vec<BExpr> {
    match e {
        BExpr::And(a, b) => {
            let mut out = split_and(*a);
            out.extend(split_and(*b));
            out
        }
        other => vec![other],
    }
}
