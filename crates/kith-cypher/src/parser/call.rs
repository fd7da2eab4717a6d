//! `CALL proc(args) YIELD ...`, `CALL { subquery }` and `SHOW PROCEDURES | INDEXES |
//! CONSTRAINTS`.

use super::Parser;
use crate::ast::{
    Call, Clause, DatabasePick, Expr, ExprKind, IndexFilter, Projection, ProjectionItem, Show,
    Statement, Yield,
};
use crate::error::Result;
use crate::lexer::Token;
use crate::notices::NoticeKind;

impl Parser<'_> {
    /// A CALL clause (the keyword not yet taken).
    pub(super) fn call_clause(&mut self) -> Result<Clause> {
        let pos = self.offset();
        self.advance();
        let scope = if self.at(&Token::LParen) {
            Some(self.import_scope()?)
        } else {
            None
        };
        if scope.is_some() || self.at(&Token::LBrace) {
            self.expect(&Token::LBrace, "'{' to open the subquery")?;
            self.enter()?;
            let mut statement = self.statement()?;
            self.leave();
            self.expect(&Token::RBrace, "'}' to close the subquery")?;
            match scope {
                Some(Some(import)) => import_into(&mut statement, &import),
                Some(None) => {}
                None => self.note_unscoped(pos, &statement),
            }
            return Ok(Clause::Subquery(Box::new(statement)));
        }
        let mut name = self.name("a procedure name")?;
        while self.eat(&Token::Dot) {
            name.push('.');
            name.push_str(&self.name("a procedure name")?);
        }
        let args = if self.eat(&Token::LParen) {
            let mut args = Vec::new();
            if !self.eat(&Token::RParen) {
                loop {
                    args.push(self.expr()?);
                    if !self.eat(&Token::Comma) {
                        break;
                    }
                }
                self.expect(&Token::RParen, "')' after the arguments")?;
            }
            Some(args)
        } else {
            None
        };
        let yields = if self.eat_keyword("YIELD") {
            Some(self.yield_items()?)
        } else {
            None
        };
        Ok(Clause::Call(Call {
            name,
            args,
            yields,
            pos,
        }))
    }

    /// Notes a `CALL { ... }` (at byte `pos`) without a variable scope clause,
    /// deprecated in Neo4j 5.23 for `CALL (a, b) { ... }`: the scope its importing WITH
    /// stands for.
    fn note_unscoped(&mut self, pos: usize, body: &Statement) {
        let scope = match body.query.clauses.first() {
            Some(Clause::With(p)) if p.star => "*".to_owned(),
            Some(Clause::With(p)) => (p.items.iter())
                .filter_map(|i| match &i.expr.kind {
                    ExprKind::Var(v) if *v == i.name => Some(v.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(", "),
            _ => String::new(),
        };
        let advice = format!("Use CALL ({scope}) {{ ... }}");
        self.notes.fix(
            NoticeKind::Deprecated,
            Some(pos),
            format!("CALL subquery without a variable scope clause is deprecated. {advice}"),
            format!("CALL subquery without a variable scope clause is now deprecated. {advice}"),
        );
    }

    /// A scoped subquery's `(a, b)`, `(*)` or `()`: the WITH it stands for (a
    /// projection of the variables, or of all of them), `None` for `()`.
    fn import_scope(&mut self) -> Result<Option<Projection>> {
        self.expect(&Token::LParen, "'('")?;
        let star = self.eat(&Token::Star);
        let mut items = Vec::new();
        while !star && !self.at(&Token::RParen) {
            let pos = self.offset();
            let name = self.variable()?;
            items.push(ProjectionItem {
                expr: Expr {
                    kind: ExprKind::Var(name.clone()),
                    pos,
                },
                name,
                aliased: false,
            });
            if !self.eat(&Token::Comma) {
                break;
            }
        }
        self.expect(
            &Token::RParen,
            "')' to close the variables the subquery imports",
        )?;
        Ok((star || !items.is_empty()).then(|| Projection {
            distinct: false,
            star,
            items,
            order_by: Vec::new(),
            skip: None,
            limit: None,
            where_: None,
        }))
    }

    fn yield_items(&mut self) -> Result<Yield> {
        let star = self.eat(&Token::Star);
        let mut items = Vec::new();
        if !star {
            loop {
                let column = self.name("a column to yield")?;
                let alias = if self.eat_keyword("AS") {
                    Some(self.variable()?)
                } else {
                    None
                };
                items.push((column, alias));
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        let where_ = if self.eat_keyword("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Yield {
            star,
            items,
            where_,
        })
    }

    /// `SHOW PROCEDURES | [RANGE | ALL] INDEXES | [UNIQUE | ALL] CONSTRAINTS` (the
    /// keyword not yet taken).
    pub(super) fn show_clause(&mut self) -> Result<Clause> {
        self.advance();
        let what = if self.eat_keyword("PROCEDURES") || self.eat_keyword("PROCEDURE") {
            Show::Procedures
        } else if let Some(pick) = self.database_pick()? {
            Show::Databases(pick)
        } else {
            let filter = self.index_filter();
            let _ = filter.is_some() || self.eat_keyword("UNIQUE") || self.eat_keyword("ALL");
            if self.eat_keyword("INDEXES") || self.eat_keyword("INDEX") {
                Show::Indexes(filter.unwrap_or(IndexFilter::All))
            } else if self.eat_keyword("CONSTRAINTS") || self.eat_keyword("CONSTRAINT") {
                Show::Constraints
            } else {
                return Err(
                    self.expected("PROCEDURES, INDEXES, CONSTRAINTS or DATABASES after SHOW")
                );
            }
        };
        // `SHOW ... WHERE p` filters the default columns, as in Neo4j 5.
        let yields = if self.eat_keyword("YIELD") {
            Some(self.yield_items()?)
        } else if self.eat_keyword("WHERE") {
            let columns = what.columns().into_iter();
            Some(Yield {
                star: false,
                items: columns.map(|c| (c.to_owned(), None)).collect(),
                where_: Some(self.expr()?),
            })
        } else {
            None
        };
        Ok(Clause::Show(what, yields))
    }
}

impl Parser<'_> {
    /// `RANGE`, `TEXT`, `POINT` or `LOOKUP` before INDEXES, taken.
    fn index_filter(&mut self) -> Option<IndexFilter> {
        if !(self.keyword_at(1, "INDEXES") || self.keyword_at(1, "INDEX")) {
            return None;
        }
        if self.eat_keyword("LOOKUP") {
            return Some(IndexFilter::Lookup);
        }
        let kind = ["RANGE", "TEXT", "POINT"]
            .into_iter()
            .find(|k| self.at_keyword(k))?;
        self.advance();
        kith_core::IndexKind::parse(kind).map(IndexFilter::Kind)
    }

    /// `[ALL] DATABASES`, `DATABASE name`, `DEFAULT DATABASE`, `HOME DATABASE` after
    /// SHOW; `None` when SHOW lists something else.
    fn database_pick(&mut self) -> Result<Option<DatabasePick>> {
        if self.eat_keyword("DEFAULT") || self.eat_keyword("HOME") {
            if !self.eat_keyword("DATABASE") {
                return Err(self.expected("DATABASE after SHOW DEFAULT or SHOW HOME"));
            }
            return Ok(Some(DatabasePick::Default));
        }
        let all = self.at_keyword("ALL") && self.keyword_at(1, "DATABASES");
        if all {
            self.advance();
        }
        if self.eat_keyword("DATABASES") {
            return Ok(Some(DatabasePick::All));
        }
        if self.eat_keyword("DATABASE") {
            return Ok(Some(match self.at_keyword("YIELD") {
                true => DatabasePick::All,
                false => DatabasePick::Named(self.name("a database name")?),
            }));
        }
        Ok(None)
    }
}

/// `CALL (a, b) { ... }` is `CALL { WITH a, b ... }`: the importing WITH heads every
/// part of the subquery's UNION.
fn import_into(statement: &mut Statement, import: &Projection) {
    let parts =
        std::iter::once(&mut statement.query).chain(statement.unions.iter_mut().map(|(_, q)| q));
    for part in parts {
        part.clauses.insert(0, Clause::With(import.clone()));
    }
}
