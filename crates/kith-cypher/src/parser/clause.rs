//! Statements and clauses.

use super::Parser;
use crate::ast::{Clause, Match, Projection, ProjectionItem, SingleQuery, Statement};
use crate::error::Result;
use crate::lexer::Token;

impl Parser<'_> {
    pub(super) fn statement(&mut self) -> Result<Statement> {
        let query = self.single_query()?;
        let mut unions = Vec::new();
        while self.eat_keyword("UNION") {
            let all = self.eat_keyword("ALL");
            unions.push((all, self.single_query()?));
        }
        Ok(Statement { query, unions })
    }

    pub(super) fn single_query(&mut self) -> Result<SingleQuery> {
        let mut clauses = Vec::new();
        loop {
            let clause = match self.clause()? {
                Some(c) => c,
                None if clauses.is_empty() => {
                    return Err(self.expected("a clause (MATCH, WITH, RETURN, UNWIND, CREATE)"))
                }
                None => break,
            };
            let ends = matches!(clause, Clause::Return(_));
            clauses.push(clause);
            if ends {
                break;
            }
        }
        Ok(SingleQuery { clauses })
    }

    fn clause(&mut self) -> Result<Option<Clause>> {
        let at = self.offset();
        if self.at_keyword("OPTIONAL") && self.keyword_at(1, "MATCH") {
            self.advance();
            self.advance();
            return self.match_clause(true, at).map(Some);
        }
        if self.eat_keyword("MATCH") {
            return self.match_clause(false, at).map(Some);
        }
        if self.eat_keyword("UNWIND") {
            let expr = self.expr()?;
            self.expect_keyword("AS")?;
            let var = self.variable()?;
            return Ok(Some(Clause::Unwind { expr, var }));
        }
        if self.eat_keyword("WITH") {
            return self.projection(true).map(|p| Some(Clause::With(p)));
        }
        if self.eat_keyword("RETURN") {
            return self.projection(false).map(|p| Some(Clause::Return(p)));
        }
        if self.eat_keyword("CREATE") {
            return self.pattern().map(|p| Some(Clause::Create(p)));
        }
        if let Some(clause) = self.update_clause()? {
            return Ok(Some(clause));
        }
        if self.at_keyword("CALL") {
            return self.call_clause().map(Some);
        }
        if self.at_keyword("SHOW") {
            return self.show_clause().map(Some);
        }
        Ok(None)
    }

    /// `[OPTIONAL] MATCH` (taken; the clause began at byte `at`).
    fn match_clause(&mut self, optional: bool, at: usize) -> Result<Clause> {
        let (pattern, inline) = self.with_inline_predicates(Self::pattern)?;
        if let Some(first) = pattern.first() {
            let text = &self.text[first.pos..self.previous_end()];
            crate::notices::cartesian_products(&mut self.notes, &pattern, at, text);
        }
        let where_ = if self.eat_keyword("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Clause::Match(Match {
            optional,
            pattern,
            where_: super::pattern::and_all(inline, where_),
        }))
    }

    fn projection(&mut self, with: bool) -> Result<Projection> {
        let distinct = self.eat_keyword("DISTINCT");
        let star = self.eat(&Token::Star);
        let mut items = Vec::new();
        if !star || self.eat(&Token::Comma) {
            loop {
                items.push(self.projection_item()?);
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        let mut order_by = Vec::new();
        if self.at_keyword("ORDER") {
            self.advance();
            self.expect_keyword("BY")?;
            loop {
                let e = self.expr()?;
                let desc = if self.eat_keyword("DESC") || self.eat_keyword("DESCENDING") {
                    true
                } else {
                    let _ = self.eat_keyword("ASC") || self.eat_keyword("ASCENDING");
                    false
                };
                order_by.push((e, desc));
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        // `OFFSET` is GQL's name for SKIP, which Neo4j 5 takes too.
        let skip = if self.eat_keyword("SKIP") || self.eat_keyword("OFFSET") {
            Some(self.expr()?)
        } else {
            None
        };
        let limit = if self.eat_keyword("LIMIT") {
            Some(self.expr()?)
        } else {
            None
        };
        let where_ = if with && self.eat_keyword("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Projection {
            distinct,
            star,
            items,
            order_by,
            skip,
            limit,
            where_,
        })
    }

    fn projection_item(&mut self) -> Result<ProjectionItem> {
        let start = self.offset();
        let expr = self.expr()?;
        let end = self.tokens[self.pos.saturating_sub(1)].end;
        if self.eat_keyword("AS") {
            let name = self.variable()?;
            return Ok(ProjectionItem {
                expr,
                name,
                aliased: true,
            });
        }
        let name = self.text[start..end.max(start)].to_owned();
        Ok(ProjectionItem {
            expr,
            name,
            aliased: false,
        })
    }
}
