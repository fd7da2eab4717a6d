//! `CALL proc(args) YIELD ...`, `CALL { subquery }` and `SHOW PROCEDURES | INDEXES |
//! CONSTRAINTS`.

use super::Parser;
use crate::ast::{Call, Clause, Show, Yield};
use crate::error::Result;
use crate::lexer::Token;

impl Parser<'_> {
    /// A CALL clause (the keyword not yet taken).
    pub(super) fn call_clause(&mut self) -> Result<Clause> {
        let pos = self.offset();
        self.advance();
        if self.eat(&Token::LBrace) {
            self.enter()?;
            let statement = self.statement()?;
            self.leave();
            self.expect(&Token::RBrace, "'}' to close the subquery")?;
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
        } else {
            let _ =
                self.eat_keyword("RANGE") || self.eat_keyword("UNIQUE") || self.eat_keyword("ALL");
            if self.eat_keyword("INDEXES") || self.eat_keyword("INDEX") {
                Show::Indexes
            } else if self.eat_keyword("CONSTRAINTS") || self.eat_keyword("CONSTRAINT") {
                Show::Constraints
            } else {
                return Err(self.expected("PROCEDURES, INDEXES or CONSTRAINTS after SHOW"));
            }
        };
        let yields = if self.eat_keyword("YIELD") {
            Some(self.yield_items()?)
        } else {
            None
        };
        Ok(Clause::Show(what, yields))
    }
}
