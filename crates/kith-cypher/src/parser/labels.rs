//! Label and type expressions, as Neo4j 5 (GQL) writes them after a `:`: `A&B`,
//! `A|B`, `!A`, `%` (any label), parentheses; the colon conjunction `:A:B` and the old
//! type alternation `:R|:S` too. A plain conjunction (labels) or disjunction (types)
//! stays in the pattern, where scans and expands use it; anything else becomes a
//! predicate over the node's labels or the relationship's type, which its clause's
//! WHERE takes (as `(n WHERE ...)` does).

use super::Parser;
use crate::ast::{BinaryOp, CompareOp, Expr, ExprKind, UnaryOp};
use crate::error::Result;
use crate::lexer::Token;
use crate::notices::TokenKind;

/// A label (or type) expression.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum LabelExpr {
    Name(String),
    /// `%`: any label (a node with at least one; a relationship always).
    Any,
    Not(Box<LabelExpr>),
    And(Box<LabelExpr>, Box<LabelExpr>),
    Or(Box<LabelExpr>, Box<LabelExpr>),
}

impl Parser<'_> {
    /// The expression after a `:` (taken); `what` names what the names are. Where
    /// `pipe_ends` (a label test in a comprehension's filter), a bare `|` ends it.
    pub(super) fn label_expr(&mut self, what: &str, pipe_ends: bool) -> Result<LabelExpr> {
        let mut left = self.label_and(what)?;
        while self.at(&Token::Pipe) && !pipe_ends {
            self.advance();
            self.eat(&Token::Colon); // `:R|:S`, the old form
            let right = self.label_and(what)?;
            left = LabelExpr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn label_and(&mut self, what: &str) -> Result<LabelExpr> {
        let mut left = self.label_not(what)?;
        while self.eat(&Token::Amp) {
            let right = self.label_not(what)?;
            left = LabelExpr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn label_not(&mut self, what: &str) -> Result<LabelExpr> {
        if self.eat(&Token::Bang) {
            return Ok(LabelExpr::Not(Box::new(self.label_not(what)?)));
        }
        if self.eat(&Token::Percent) {
            return Ok(LabelExpr::Any);
        }
        if self.eat(&Token::LParen) {
            self.enter()?;
            let inner = self.label_expr(what, false);
            self.leave();
            let inner = inner?;
            self.expect(&Token::RParen, "')' to close the label expression")?;
            return Ok(inner);
        }
        let at = self.offset();
        let name = self.name(what)?;
        let kind = match what {
            "a relationship type" => TokenKind::RelType,
            _ => TokenKind::Label,
        };
        self.notes.token(kind, &name, at, None);
        Ok(LabelExpr::Name(name))
    }

    /// A node's labels after its variable: `:A:B`, `:A&B`, or any label expression,
    /// joined by AND.
    pub(super) fn node_labels(&mut self, pipe_ends: bool) -> Result<Option<LabelExpr>> {
        let mut all: Option<LabelExpr> = None;
        while self.eat(&Token::Colon) {
            let next = self.label_expr("a label name", pipe_ends)?;
            all = Some(match all {
                None => next,
                Some(prev) => LabelExpr::And(Box::new(prev), Box::new(next)),
            });
        }
        Ok(all)
    }
}

impl LabelExpr {
    /// The labels of a plain conjunction (`A`, `A&B`, `A:B`); `None` otherwise.
    pub(super) fn conjunction(&self) -> Option<Vec<String>> {
        self.names_joined(true)
    }

    /// The types of a plain disjunction (`R`, `R|S`); `None` otherwise.
    pub(super) fn disjunction(&self) -> Option<Vec<String>> {
        self.names_joined(false)
    }

    /// The names of an expression of names joined by AND only (`and`) or OR only.
    fn names_joined(&self, and: bool) -> Option<Vec<String>> {
        let (a, b) = match self {
            LabelExpr::Name(n) => return Some(vec![n.clone()]),
            LabelExpr::And(a, b) if and => (a, b),
            LabelExpr::Or(a, b) if !and => (a, b),
            _ => return None,
        };
        let mut names = a.names_joined(and)?;
        names.extend(b.names_joined(and)?);
        Some(names)
    }

    /// The predicate that `subject` (a node) has these labels.
    pub(super) fn node_predicate(&self, subject: &Expr) -> Expr {
        self.predicate(subject, &|name, pos| match name {
            Some(l) => ExprKind::HasLabels(Box::new(subject.clone()), vec![l.to_owned()]),
            None => not(call("isEmpty", call("labels", subject.clone(), pos), pos)),
        })
    }

    /// The predicate that `subject` (a relationship) has a type these allow.
    pub(super) fn type_predicate(&self, subject: &Expr) -> Expr {
        self.predicate(subject, &|name, pos| match name {
            Some(t) => ExprKind::Compare(
                Box::new(call("type", subject.clone(), pos)),
                vec![(
                    CompareOp::Eq,
                    Expr {
                        kind: ExprKind::Str(t.to_owned()),
                        pos,
                    },
                )],
            ),
            None => ExprKind::Bool(true),
        })
    }

    /// The expression as NOT/AND/OR over `leaf`'s test of one name (`None`: `%`).
    fn predicate(&self, subject: &Expr, leaf: &dyn Fn(Option<&str>, usize) -> ExprKind) -> Expr {
        let pos = subject.pos;
        let walk = |e: &LabelExpr| e.predicate(subject, leaf);
        let kind = match self {
            LabelExpr::Name(n) => leaf(Some(n), pos),
            LabelExpr::Any => leaf(None, pos),
            LabelExpr::Not(a) => not(walk(a)),
            LabelExpr::And(a, b) => binary(BinaryOp::And, walk(a), walk(b)),
            LabelExpr::Or(a, b) => binary(BinaryOp::Or, walk(a), walk(b)),
        };
        Expr { kind, pos }
    }
}

fn call(name: &str, arg: Expr, pos: usize) -> Expr {
    Expr {
        kind: ExprKind::Call {
            name: name.to_owned(),
            distinct: false,
            args: vec![arg],
        },
        pos,
    }
}

fn not(e: Expr) -> ExprKind {
    ExprKind::Unary(UnaryOp::Not, Box::new(e))
}

fn binary(op: BinaryOp, a: Expr, b: Expr) -> ExprKind {
    ExprKind::Binary(op, Box::new(a), Box::new(b))
}
