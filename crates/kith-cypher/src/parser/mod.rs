//! A recursive-descent parser over the token list; expressions by precedence
//! climbing (`expr.rs`), patterns in `pattern.rs`, clauses in `clause.rs`.

mod call;
mod clause;
mod expr;
mod labels;
mod pattern;
mod schema;
mod types;
mod update;

use crate::ast::Statement;
use crate::error::{CypherError, ErrorCode, Result};
use crate::lexer::{tokenize, Spanned, Token};
use crate::notices::Notes;

/// Parses one statement (an optional trailing `;` is allowed).
pub fn parse(text: &str) -> Result<Statement> {
    parse_noted(text).map(|(statement, _)| statement)
}

/// [`parse`], with what the parser noted for the query's notifications.
pub(crate) fn parse_noted(text: &str) -> Result<(Statement, Notes)> {
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        text,
        tokens,
        pos: 0,
        depth: 0,
        inline_where: None,
        pipe_ends_filter: false,
        notes: Notes::default(),
    };
    let statement = if parser.at_schema_command() {
        parser.schema_statement()?
    } else {
        parser.statement()?
    };
    parser.eat(&Token::Semicolon);
    if !parser.at(&Token::Eof) {
        return Err(parser.expected("end of the query"));
    }
    Ok((statement, parser.notes))
}

/// How deeply expressions and patterns may nest: a bound on the parser's recursion so a
/// hostile text cannot overflow the stack.
const NESTING_DEPTH_MAX: usize = 200;

pub(crate) struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Spanned>,
    pos: usize,
    depth: usize,
    /// The predicates of `(n WHERE ...)` and `[r WHERE ...]` in the pattern being read,
    /// where its clause takes them (MATCH, a subquery's or a comprehension's pattern);
    /// `None` where a pattern may carry none.
    inline_where: Option<Vec<crate::ast::Expr>>,
    /// In a comprehension's WHERE, where `|` ends the filter: a label expression's
    /// `|` then needs parentheses (`x:(A|B)`).
    pipe_ends_filter: bool,
    /// What the query's notifications need: names read, deprecated forms, patterns.
    notes: Notes,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.tokens[self.pos].token
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        let i = (self.pos + ahead).min(self.tokens.len() - 1);
        &self.tokens[i].token
    }

    fn offset(&self) -> usize {
        self.tokens[self.pos].start
    }

    /// The byte just past the last token taken.
    fn previous_end(&self) -> usize {
        self.tokens[self.pos.saturating_sub(1)].end
    }

    fn advance(&mut self) -> Token {
        let token = self.tokens[self.pos].token.clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn at(&self, token: &Token) -> bool {
        self.peek() == token
    }

    fn eat(&mut self, token: &Token) -> bool {
        if self.at(token) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &Token, what: &str) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// Whether the current token is the keyword `kw` (case-insensitive).
    fn at_keyword(&self, kw: &str) -> bool {
        self.keyword_at(0, kw)
    }

    fn keyword_at(&self, ahead: usize, kw: &str) -> bool {
        matches!(self.peek_at(ahead), Token::Ident(s) if s.eq_ignore_ascii_case(kw))
    }

    fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.at_keyword(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_keyword(&mut self, kw: &str) -> Result<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.expected(kw))
        }
    }

    /// A name: an identifier (keywords included, as Cypher allows for names).
    fn name(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Token::Ident(s) => {
                let s = s.clone();
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A variable name: any identifier, keywords too, as Neo4j 5 allows (`RETURN 1 AS
    /// end`, `WITH 1 AS type`, `MATCH (match)`): where a variable stands, a keyword
    /// cannot continue the clause.
    fn variable(&mut self) -> Result<String> {
        self.name("a variable name")
    }

    fn expected(&self, what: &str) -> CypherError {
        let found = describe(self.peek());
        CypherError::at(
            ErrorCode::SyntaxError,
            format!("expected {what}, found {found}"),
            self.text,
            self.offset(),
        )
    }

    fn error_here(&self, message: impl Into<String>) -> CypherError {
        CypherError::at(ErrorCode::SyntaxError, message, self.text, self.offset())
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> CypherError {
        CypherError::at(ErrorCode::SyntaxError, message, self.text, offset)
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > NESTING_DEPTH_MAX {
            return Err(self.error_here(format!(
                "the query nests deeper than {NESTING_DEPTH_MAX} levels"
            )));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }
}

fn describe(token: &Token) -> String {
    match token {
        Token::Ident(s) => format!("'{s}'"),
        Token::Integer(s) | Token::Float(s) => format!("number {s}"),
        Token::Str(s) => format!("string {s}"),
        Token::Param(s) => format!("parameter ${s}"),
        Token::Eof => "the end of the query".to_owned(),
        other => format!("'{}'", symbol(other)),
    }
}

fn symbol(token: &Token) -> &'static str {
    match token {
        Token::LParen => "(",
        Token::RParen => ")",
        Token::LBracket => "[",
        Token::RBracket => "]",
        Token::LBrace => "{",
        Token::RBrace => "}",
        Token::Comma => ",",
        Token::DotDot => "..",
        Token::Dot => ".",
        Token::Colon => ":",
        Token::Semicolon => ";",
        Token::Pipe => "|",
        Token::Plus => "+",
        Token::PlusEq => "+=",
        Token::Minus => "-",
        Token::Star => "*",
        Token::Slash => "/",
        Token::Percent => "%",
        Token::Amp => "&",
        Token::Bang => "!",
        Token::Caret => "^",
        Token::Eq => "=",
        Token::Ne => "<>",
        Token::Lt => "<",
        Token::Gt => ">",
        Token::Le => "<=",
        Token::Ge => ">=",
        Token::RegexMatch => "=~",
        _ => "?",
    }
}

#[cfg(test)]
mod tests;
