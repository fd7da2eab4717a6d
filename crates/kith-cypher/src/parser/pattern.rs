//! Patterns: `p = shortestPath((a:L {k: v})-[r:T*1..3]->(b))`, comma-separated.

use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::ast::{NodePattern, PathKind, PathPattern, PatternPart, RelDirection, RelPattern};
use crate::error::Result;
use crate::lexer::Token;
use crate::notices::{NoticeKind, TokenKind};

impl Parser<'_> {
    /// Comma-separated pattern parts.
    pub(super) fn pattern(&mut self) -> Result<Vec<PatternPart>> {
        let mut parts = vec![self.pattern_part()?];
        while self.eat(&Token::Comma) {
            parts.push(self.pattern_part()?);
        }
        Ok(parts)
    }

    pub(super) fn pattern_part(&mut self) -> Result<PatternPart> {
        let pos = self.offset();
        let path_var = if matches!(self.peek(), Token::Ident(_)) && self.peek_at(1) == &Token::Eq {
            let v = self.variable()?;
            self.advance();
            Some(v)
        } else {
            None
        };
        let kind = if self.at_keyword("shortestPath") {
            PathKind::Shortest
        } else if self.at_keyword("allShortestPaths") {
            PathKind::AllShortest
        } else {
            PathKind::Plain
        };
        if kind == PathKind::Plain {
            let path = self.path_pattern()?;
            return Ok(PatternPart {
                path_var,
                kind,
                path,
                pos,
            });
        }
        self.advance();
        self.expect(&Token::LParen, "'(' after the shortest-path function")?;
        let path = self.path_pattern()?;
        self.note_unbounded(&path);
        self.expect(&Token::RParen, "')'")?;
        if path.steps.len() != 1 {
            return Err(self.error_here("a shortest path pattern has exactly one relationship"));
        }
        Ok(PatternPart {
            path_var,
            kind,
            path,
            pos,
        })
    }

    /// Notes a shortest path over `*` with no bounds (just read), as Neo4j does.
    fn note_unbounded(&mut self, path: &PathPattern) {
        if !path
            .steps
            .iter()
            .any(|(r, _)| r.length == Some((None, None)))
        {
            return;
        }
        let text = &self.text[path.start.pos..self.previous_end()];
        self.notes.fix(
            NoticeKind::UnboundedShortestPath,
            Some(path.start.pos),
            format!(
                "The provided pattern '{text}' is unbounded. Shortest path with an unbounded \
                 pattern may result in long execution times. Use an upper limit (e.g. \
                 '[*..5]') on the number of node hops in your pattern."
            ),
            "Using shortest path with an unbounded pattern will likely result in long \
             execution times. It is recommended to use an upper limit to the number of node \
             hops in your pattern."
                .to_owned(),
        );
    }

    /// `(a)-[r]->(b)...`.
    pub(super) fn path_pattern(&mut self) -> Result<PathPattern> {
        self.enter()?;
        let start = self.node_pattern()?;
        let mut steps = Vec::new();
        while self.at_relationship() {
            let rel = self.rel_pattern()?;
            let node = self.node_pattern()?;
            steps.push((rel, node));
        }
        self.leave();
        Ok(PathPattern { start, steps })
    }

    /// Whether a relationship pattern starts here: `-[`, `--`, `->`, `<-`.
    pub(super) fn at_relationship(&self) -> bool {
        matches!(
            (self.peek(), self.peek_at(1)),
            (Token::Minus, Token::LBracket | Token::Minus | Token::Gt) | (Token::Lt, Token::Minus)
        )
    }

    pub(super) fn node_pattern(&mut self) -> Result<NodePattern> {
        let pos = self.offset();
        self.expect(&Token::LParen, "'(' to start a node pattern")?;
        let var = if matches!(self.peek(), Token::Ident(_)) {
            Some(self.variable()?)
        } else {
            None
        };
        if let Some(v) = &var {
            self.notes.entity(v);
        }
        let mut var = var;
        let labels = match self.node_labels(false)? {
            None => Vec::new(),
            Some(e) => match e.conjunction() {
                Some(labels) => labels,
                None => {
                    // Scans use labels; any other label expression filters the node.
                    let name = var.get_or_insert_with(|| format!(" labels{pos}")).clone();
                    let subject = Expr {
                        kind: ExprKind::Var(name),
                        pos,
                    };
                    self.label_predicate(e.node_predicate(&subject), "a node's label expression")?;
                    Vec::new()
                }
            },
        };
        let props = self.pattern_properties()?;
        self.inline_predicate("a node pattern")?;
        self.expect(&Token::RParen, "')' to close the node pattern")?;
        Ok(NodePattern {
            var,
            labels,
            props,
            pos,
        })
    }

    fn pattern_properties(&mut self) -> Result<Option<crate::ast::Expr>> {
        if !matches!(self.peek(), Token::LBrace | Token::Param(_)) {
            return Ok(None);
        }
        // Patterns inside the properties' expressions belong to no clause.
        let outer = self.inline_where.take();
        let keys_before = self.notes.map_keys.len();
        let props = self.primary();
        self.inline_where = outer;
        // The map's keys (and any nested map's, a rare over-report) are property keys.
        for (key, at) in self.notes.map_keys.split_off(keys_before) {
            self.notes.token(TokenKind::PropertyKey, &key, at, None);
        }
        props.map(Some)
    }

    /// Notes the old alternation `:R|:S` of the type expression from byte `colon_at`
    /// (just read), deprecated in Neo4j 5 for `:R|S`.
    fn note_colon_alternation(&mut self, colon_at: usize) {
        let text = &self.text[colon_at..self.previous_end()];
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let Some(bar) = text.find('|').filter(|_| compact.contains("|:")) else {
            return;
        };
        let new = compact.replace("|:", "|");
        self.notes.fix(
            NoticeKind::DeprecatedWithReplacement,
            Some(colon_at + bar),
            format!("'{compact}' is deprecated. It is replaced by '{new}'."),
            format!(
                "The semantics of using colon in the separation of alternative relationship \
                 types will change in a future version. (Please use '{new}' instead)"
            ),
        );
    }

    fn rel_pattern(&mut self) -> Result<RelPattern> {
        let pos = self.offset();
        let left = self.eat(&Token::Lt);
        self.expect(&Token::Minus, "'-'")?;
        let mut rel = RelPattern {
            var: None,
            types: Vec::new(),
            props: None,
            direction: RelDirection::Both,
            length: None,
            pos,
        };
        if self.eat(&Token::LBracket) {
            self.rel_detail(&mut rel)?;
            self.expect(&Token::RBracket, "']' to close the relationship pattern")?;
        }
        self.expect(&Token::Minus, "'-'")?;
        let right = self.eat(&Token::Gt);
        rel.direction = match (left, right) {
            (true, false) => RelDirection::Left,
            (false, true) => RelDirection::Right,
            (false, false) => RelDirection::Both,
            // `<-->` matches either direction, like `--`.
            (true, true) => RelDirection::Both,
        };
        Ok(rel)
    }

    fn rel_detail(&mut self, rel: &mut RelPattern) -> Result<()> {
        if matches!(self.peek(), Token::Ident(_)) {
            let var = self.variable()?;
            self.notes.entity(&var);
            rel.var = Some(var);
        }
        let colon_at = self.offset();
        let types = if self.eat(&Token::Colon) {
            let types = self.label_expr("a relationship type", false)?;
            self.note_colon_alternation(colon_at);
            Some(types)
        } else {
            None
        };
        if self.eat(&Token::Star) {
            rel.length = Some(self.range()?);
        }
        if let Some(e) = types {
            match e.disjunction() {
                Some(types) => rel.types = types,
                None if rel.length.is_some() => {
                    return Err(self.error_here(
                        "a type expression beyond `|` on a variable-length relationship".to_owned(),
                    ))
                }
                None => {
                    let pos = self.offset();
                    let name = rel
                        .var
                        .get_or_insert_with(|| format!(" types{pos}"))
                        .clone();
                    let subject = Expr {
                        kind: ExprKind::Var(name),
                        pos,
                    };
                    self.label_predicate(
                        e.type_predicate(&subject),
                        "a relationship's type expression",
                    )?;
                }
            }
        }
        rel.props = self.pattern_properties()?;
        if rel.length.is_some() && self.at_keyword("WHERE") {
            return Err(self.error_here(
                "a WHERE inside a variable-length relationship pattern: filter the walk in \
                 the clause's WHERE (all(r IN rels WHERE ...))"
                    .to_owned(),
            ));
        }
        self.inline_predicate("a relationship pattern")
    }

    /// A label or type expression's predicate, for the clause's WHERE.
    fn label_predicate(&mut self, predicate: Expr, what: &str) -> Result<()> {
        match self.inline_where.as_mut() {
            Some(found) => {
                found.push(predicate);
                Ok(())
            }
            None => Err(self.error_here(format!(
                "{what} other than a conjunction of labels (or a choice of types) stands only \
                 in MATCH, a subquery's or a pattern comprehension's pattern"
            ))),
        }
    }

    /// `WHERE pred` before a node or relationship pattern closes: kept for the clause,
    /// which ANDs it into its own WHERE (`(n:A WHERE n.x > 1)` matches as `(n:A) ...
    /// WHERE n.x > 1`).
    fn inline_predicate(&mut self, what: &str) -> Result<()> {
        if !self.at_keyword("WHERE") {
            return Ok(());
        }
        if self.inline_where.is_none() {
            return Err(self.error_here(format!(
                "a WHERE inside {what} stands only in MATCH, a subquery's or a pattern \
                 comprehension's pattern"
            )));
        }
        self.advance();
        // The predicate's own patterns may carry none.
        let outer = self.inline_where.take();
        let predicate = self.expr();
        self.inline_where = outer;
        let predicate = predicate?;
        if let Some(found) = self.inline_where.as_mut() {
            found.push(predicate);
        }
        Ok(())
    }

    /// Runs `read` (a pattern's parse) taking the patterns' inline predicates, and
    /// returns its result with them joined by AND into `where_`.
    pub(super) fn with_inline_predicates<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<(T, Vec<crate::ast::Expr>)> {
        let outer = self.inline_where.replace(Vec::new());
        let read = read(self);
        let found = std::mem::replace(&mut self.inline_where, outer);
        Ok((read?, found.unwrap_or_default()))
    }

    /// After `*`: nothing, `n`, `n..`, `..m`, `n..m`.
    fn range(&mut self) -> Result<(Option<u64>, Option<u64>)> {
        let min = self.range_bound()?;
        if !self.eat(&Token::DotDot) {
            return Ok(match min {
                Some(n) => (Some(n), Some(n)),
                None => (None, None),
            });
        }
        let max = self.range_bound()?;
        Ok((min, max))
    }

    fn range_bound(&mut self) -> Result<Option<u64>> {
        if let Token::Integer(s) = self.peek() {
            let n = s
                .parse()
                .map_err(|_| self.error_here(format!("bad length bound {s}")))?;
            self.advance();
            return Ok(Some(n));
        }
        Ok(None)
    }
}

/// `where_` with the pattern's inline predicates before it, all joined by AND.
pub(super) fn and_all(
    inline: Vec<crate::ast::Expr>,
    where_: Option<crate::ast::Expr>,
) -> Option<crate::ast::Expr> {
    inline.into_iter().chain(where_).reduce(|a, b| {
        let pos = a.pos;
        crate::ast::Expr {
            kind: crate::ast::ExprKind::Binary(crate::ast::BinaryOp::And, Box::new(a), Box::new(b)),
            pos,
        }
    })
}
