//! Schema commands, Neo4j 5's syntax: `CREATE [RANGE | TEXT | POINT] INDEX` (range
//! indexes on one key or several), `CREATE CONSTRAINT ... IS UNIQUE` (one key or
//! several), `DROP INDEX`, `DROP CONSTRAINT`. What kith cannot hold (relationship,
//! lookup, fulltext or vector indexes; other constraint kinds) is refused by name.

use kith_core::IndexKind;

use super::Parser;
use crate::ast::{Clause, SchemaCommand, SingleQuery, Statement};
use crate::error::{CypherError, ErrorCode, Result};
use crate::lexer::Token;

/// Index kinds Neo4j has that kith does not declare.
const OTHER_INDEX_KINDS: [&str; 4] = ["LOOKUP", "FULLTEXT", "VECTOR", "BTREE"];

/// The kinds of property index kith declares, as written before INDEX.
const INDEX_KINDS: [&str; 3] = ["RANGE", "TEXT", "POINT"];

impl Parser<'_> {
    /// Whether the statement is a schema command.
    pub(super) fn at_schema_command(&self) -> bool {
        let create = self.at_keyword("CREATE")
            && (self.keyword_at(1, "INDEX")
                || self.keyword_at(1, "CONSTRAINT")
                || INDEX_KINDS.iter().any(|k| self.keyword_at(1, k))
                || OTHER_INDEX_KINDS.iter().any(|k| self.keyword_at(1, k)));
        let drop = self.at_keyword("DROP")
            && (self.keyword_at(1, "INDEX") || self.keyword_at(1, "CONSTRAINT"));
        create || drop
    }

    /// A schema command, as a statement of one clause.
    pub(super) fn schema_statement(&mut self) -> Result<Statement> {
        let command = if self.eat_keyword("DROP") {
            self.drop_command()?
        } else {
            self.expect_keyword("CREATE")?;
            self.create_command()?
        };
        Ok(Statement {
            query: SingleQuery {
                clauses: vec![Clause::Schema(command)],
            },
            unions: Vec::new(),
        })
    }

    fn drop_command(&mut self) -> Result<SchemaCommand> {
        let index = self.eat_keyword("INDEX");
        if !index {
            self.expect_keyword("CONSTRAINT")?;
        }
        if self.at_keyword("ON") {
            return Err(self.unsupported("`DROP ... ON` (Neo4j 4 syntax); drop it by name"));
        }
        let name = self.name("a name")?;
        let if_exists = self.if_words("EXISTS")?;
        Ok(if index {
            SchemaCommand::DropIndex { name, if_exists }
        } else {
            SchemaCommand::DropConstraint { name, if_exists }
        })
    }

    fn create_command(&mut self) -> Result<SchemaCommand> {
        for kind in OTHER_INDEX_KINDS {
            if self.at_keyword(kind) {
                return Err(self.unsupported(&format!(
                    "{kind} indexes (kith has range, text and point indexes on one node \
                     property, and a built-in label lookup)"
                )));
            }
        }
        let kind = INDEX_KINDS
            .into_iter()
            .find(|k| self.at_keyword(k))
            .and_then(IndexKind::parse);
        if kind.is_some() {
            self.advance();
        }
        let index = kind.is_some() || self.at_keyword("INDEX");
        if index {
            self.expect_keyword("INDEX")?;
        } else {
            self.expect_keyword("CONSTRAINT")?;
        }
        if self.at_keyword("ON") {
            return Err(self.unsupported(
                "`ON :Label(key)` / `ON ... ASSERT` (Neo4j 4 syntax); write FOR (n:Label) ...",
            ));
        }
        let name = if self.at_keyword("IF") || self.at_keyword("FOR") {
            None
        } else {
            Some(self.name("a name, IF NOT EXISTS or FOR")?)
        };
        let if_not_exists = self.if_words("NOT")?;
        let (var, label) = self.for_node()?;
        if index {
            self.expect_keyword("ON")?;
            self.expect(&Token::LParen, "'(' before the property")?;
            let at = self.offset();
            let keys = self.properties_of(&var, "Index", &label)?;
            let kind = kind.unwrap_or_default();
            if keys.len() > 1 && kind != IndexKind::Range {
                // Neo4j's words: TEXT and POINT indexes hold one property.
                return Err(CypherError::at(
                    ErrorCode::SyntaxError,
                    format!(
                        "Only single property {} indexes are supported",
                        kind.name().to_lowercase()
                    ),
                    self.text,
                    at,
                ));
            }
            return Ok(SchemaCommand::CreateIndex {
                kind,
                name,
                label,
                keys,
                if_not_exists,
            });
        }
        self.expect_keyword("REQUIRE")?;
        let keys = match self.at(&Token::LParen) {
            true => {
                self.advance();
                self.properties_of(&var, "Constraint", &label)?
            }
            false => vec![self.property_of(&var)?],
        };
        self.expect_keyword("IS")?;
        self.eat_keyword("NODE");
        if !self.eat_keyword("UNIQUE") {
            return Err(self
                .unsupported("this constraint kind (kith has uniqueness constraints: IS UNIQUE)"));
        }
        Ok(SchemaCommand::CreateUnique {
            name,
            label,
            keys,
            if_not_exists,
        })
    }

    /// `IF NOT EXISTS` (`word` = NOT) or `IF EXISTS` (`word` = EXISTS), if there.
    fn if_words(&mut self, word: &str) -> Result<bool> {
        if !self.eat_keyword("IF") {
            return Ok(false);
        }
        self.expect_keyword(word)?;
        if word == "NOT" {
            self.expect_keyword("EXISTS")?;
        }
        Ok(true)
    }

    /// `FOR (n:Label)`: the variable and the label.
    fn for_node(&mut self) -> Result<(String, String)> {
        self.expect_keyword("FOR")?;
        let relationship = matches!(self.peek_at(1), Token::RParen);
        if relationship || !self.eat(&Token::LParen) {
            return Err(self.unsupported("relationship indexes and constraints (nodes only)"));
        }
        let var = self.variable()?;
        self.expect(&Token::Colon, "':' and a label")?;
        let label = self.name("a label")?;
        self.expect(&Token::RParen, "')' after the label")?;
        Ok((var, label))
    }

    /// `n.a, n.b, ...)` after a `(`: the keys, each once (`rule` and `label` name
    /// what repeats one, in Neo4j's words).
    fn properties_of(&mut self, var: &str, rule: &str, label: &str) -> Result<Vec<String>> {
        let mut keys = vec![self.property_of(var)?];
        while self.eat(&Token::Comma) {
            keys.push(self.property_of(var)?);
        }
        self.expect(&Token::RParen, "')' after the properties")?;
        if keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k)) {
            let message = format!(
                "{rule} on (:{label} {{{}}}) includes a property more than once.",
                keys.join(", ")
            );
            // Neo4j finds it declaring the rule, not parsing: its general status.
            return Err(CypherError::new(ErrorCode::RepeatedProperty, message).with_gql("50N42"));
        }
        Ok(keys)
    }

    /// `n.key` for the variable `var`: the key.
    fn property_of(&mut self, var: &str) -> Result<String> {
        let at = self.offset();
        let v = self.variable()?;
        if v != var {
            return Err(CypherError::at(
                ErrorCode::SyntaxError,
                format!("expected a property of `{var}`, found `{v}`"),
                self.text,
                at,
            ));
        }
        self.expect(&Token::Dot, "'.' and a property key")?;
        self.name("a property key")
    }

    fn unsupported(&self, what: &str) -> CypherError {
        CypherError::at(
            ErrorCode::NotSupported,
            format!("kith does not support {what}"),
            self.text,
            self.offset(),
        )
    }
}
