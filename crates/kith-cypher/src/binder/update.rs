//! Binding the update clauses: SET, REMOVE, DELETE, MERGE, FOREACH.

use std::sync::Arc;

use super::clause::reads_any;
use super::{BExpr, BPart, Binder};
use super::{
    Bound, BoundMatch, BoundOp, CreateNode, CreateRel, CreateSpec, MergeSpec, PathSlots, PropKey,
    SetOp,
};
use crate::ast::{Clause, Expr, ExprKind, Merge, PropertyKey, RelDirection, RemoveItem, SetItem};
use crate::error::{ErrorCode, Result};

impl Binder<'_> {
    /// The operator of an update clause.
    pub(crate) fn update(&mut self, clause: &Clause) -> Result<BoundOp> {
        Ok(match clause {
            Clause::Set(items) => BoundOp::Set(self.set_items(items)?),
            Clause::Remove(items) => BoundOp::Set(
                items
                    .iter()
                    .map(|i| self.remove_item(i))
                    .collect::<Result<_>>()?,
            ),
            Clause::Delete { detach, exprs } => BoundOp::Delete {
                exprs: exprs
                    .iter()
                    .map(|e| self.delete_expr(e))
                    .collect::<Result<_>>()?,
                detach: *detach,
            },
            Clause::Merge(m) => BoundOp::Merge(Box::new(self.merge(m)?)),
            Clause::Foreach { var, list, clauses } => {
                let list = self.expr(list)?;
                let saved = self.scope.clone();
                let slot = self.slot();
                self.define(var, slot);
                let inner = self.clauses(clauses);
                self.scope = saved;
                BoundOp::Foreach {
                    slot,
                    list,
                    ops: inner?.ops,
                }
            }
            _ => unreachable!("only update clauses come here"),
        })
    }

    fn set_items(&mut self, items: &[SetItem]) -> Result<Vec<SetOp>> {
        items.iter().map(|i| self.set_item(i)).collect()
    }

    fn set_item(&mut self, item: &SetItem) -> Result<SetOp> {
        Ok(match item {
            SetItem::Property { target, key, value } => SetOp::Prop {
                target: self.expr(target)?,
                key: self.prop_key(key)?,
                value: Some(self.expr(value)?),
            },
            SetItem::Replace { target, value } => SetOp::Replace {
                target: self.expr(target)?,
                value: self.expr(value)?,
            },
            SetItem::Merge { target, value } => SetOp::Merge {
                target: self.expr(target)?,
                value: self.expr(value)?,
            },
            SetItem::Labels { target, labels } => SetOp::Labels {
                target: self.expr(target)?,
                labels: labels.iter().map(|l| Arc::from(l.as_str())).collect(),
                add: true,
            },
        })
    }

    fn remove_item(&mut self, item: &RemoveItem) -> Result<SetOp> {
        Ok(match item {
            RemoveItem::Property { target, key } => SetOp::Prop {
                target: self.expr(target)?,
                key: self.prop_key(key)?,
                value: None,
            },
            RemoveItem::Labels { target, labels } => SetOp::Labels {
                target: self.expr(target)?,
                labels: labels.iter().map(|l| Arc::from(l.as_str())).collect(),
                add: false,
            },
        })
    }

    fn prop_key(&mut self, key: &PropertyKey) -> Result<PropKey> {
        Ok(match key {
            PropertyKey::Name(k) => PropKey::Name(Arc::from(k.as_str())),
            PropertyKey::Dynamic(e) => PropKey::Dynamic(self.expr(e)?),
        })
    }

    /// A DELETE item: refused before running when it cannot be a node, relationship or
    /// path (a label test, a literal, arithmetic).
    fn delete_expr(&mut self, e: &Expr) -> Result<BExpr> {
        let refused = match &e.kind {
            ExprKind::HasLabels(..) => Some("a label or type cannot be deleted: use REMOVE"),
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Binary(..)
            | ExprKind::Unary(..)
            | ExprKind::Compare(..) => Some("DELETE needs a node, relationship or path"),
            _ => None,
        };
        if let Some(message) = refused {
            return Err(self.error(ErrorCode::SyntaxError, message, e.pos));
        }
        self.expr(e)
    }

    fn merge(&mut self, m: &Merge) -> Result<MergeSpec<Bound>> {
        let part = &m.part;
        if part.kind != crate::ast::PathKind::Plain {
            return Err(self.error(
                ErrorCode::SyntaxError,
                "MERGE cannot take a shortest path",
                part.pos,
            ));
        }
        let lone = &part.path.start;
        if part.path.steps.is_empty() {
            if let Some(v) = lone.var.as_deref().filter(|v| self.scope.get(v).is_some()) {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    format!("variable `{v}` already declared: MERGE cannot create it"),
                    lone.pos,
                ));
            }
        }
        let pre = self.bound_slots();
        let parts = self.pattern_parts(std::slice::from_ref(part), &pre)?;
        let conjuncts = std::mem::take(&mut self.bound_rel_checks);
        let mut create = self.merge_create(&parts[0], part)?;
        let b = &parts[0];
        create.paths.extend(b.path_slot.map(|slot| PathSlots {
            slot,
            nodes: b.nodes.iter().map(|n| n.slot).collect(),
            rels: b.rels.iter().map(|r| r.slot).collect(),
        }));
        Ok(MergeSpec {
            pattern: BoundMatch {
                parts,
                conjuncts,
                pre,
            },
            create,
            on_create: self.set_items(&m.on_create)?,
            on_match: self.set_items(&m.on_match)?,
        })
    }

    /// What MERGE creates when its pattern has no match: every node not bound before,
    /// and every relationship, with the pattern's labels, types and properties.
    fn merge_create(&self, bound: &BPart, part: &crate::ast::PatternPart) -> Result<CreateSpec> {
        let mut spec = CreateSpec::default();
        let ast_nodes =
            std::iter::once(&part.path.start).chain(part.path.steps.iter().map(|(_, n)| n));
        for (n, ast) in bound.nodes.iter().zip(ast_nodes) {
            if n.props_map.is_some() {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "MERGE cannot take its properties from a parameter map: name them",
                    ast.pos,
                ));
            }
            if n.bound {
                if !n.labels.is_empty() || !n.props.is_empty() {
                    return Err(self.error(
                        ErrorCode::SyntaxError,
                        "a variable bound before MERGE cannot be given labels or properties in it",
                        ast.pos,
                    ));
                }
                continue;
            }
            if spec.nodes.iter().any(|c| c.slot == n.slot) {
                continue;
            }
            let props = self.named_props(&n.props);
            spec.nodes.push(CreateNode {
                slot: n.slot,
                labels: n
                    .labels
                    .iter()
                    .map(|l| self.names.labels[*l].clone())
                    .collect(),
                flush: false,
                props,
                map: None,
            });
        }
        for (i, (r, (ast, _))) in bound.rels.iter().zip(&part.path.steps).enumerate() {
            let [t] = r.types.as_slice() else {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "a relationship to merge needs exactly one type",
                    ast.pos,
                ));
            };
            if r.bound || r.length.is_some() {
                return Err(self.error(
                    ErrorCode::SyntaxError,
                    "MERGE cannot merge a bound or variable-length relationship",
                    ast.pos,
                ));
            }
            let (a, b) = (bound.nodes[i].slot, bound.nodes[i + 1].slot);
            let (from, to) = match r.direction {
                RelDirection::Left => (b, a),
                RelDirection::Right | RelDirection::Both => (a, b),
            };
            let props = self.named_props(&r.props);
            spec.rels.push(CreateRel {
                slot: r.slot,
                rel_type: self.names.types[*t].clone(),
                from,
                to,
                flush: false,
                props,
                map: None,
            });
        }
        for i in 0..spec.nodes.len() {
            let earlier: Vec<usize> = spec.nodes[..i].iter().map(|n| n.slot).collect();
            spec.nodes[i].flush = reads_any(&spec.nodes[i].props, &earlier);
        }
        Ok(spec)
    }

    fn named_props(&self, props: &[(usize, BExpr)]) -> Vec<(Arc<str>, BExpr)> {
        props
            .iter()
            .map(|(k, e)| (self.names.keys[*k].clone(), e.clone()))
            .collect()
    }
}
