//! The types of type predicates (`x IS :: INTEGER NOT NULL`), with Neo4j 5's synonyms
//! (`INT`, `VARCHAR`, `TIMESTAMP WITH TIME ZONE`, `EDGE`, `ARRAY<T>`...).

use super::Parser;
use crate::ast::types::{CypherType, TypeKind};
use crate::error::Result;
use crate::lexer::Token;

impl Parser<'_> {
    /// A type: one, or several joined by `|` (a closed dynamic union). In a
    /// comprehension's filter the last `|` ends the filter instead, as in Neo4j 5.26:
    /// `[x IN l WHERE x IS :: INTEGER | FLOAT | x]` filters by the union and projects
    /// `x`; `[... IS :: INTEGER | FLOAT]` projects a variable `FLOAT`.
    pub(super) fn cypher_type(&mut self) -> Result<CypherType> {
        let first = self.type_member()?;
        if !self.at(&Token::Pipe) {
            return Ok(first);
        }
        let mut members = vec![first];
        if self.pipe_ends_filter {
            while let Some(member) = self.member_before_pipe() {
                members.push(member);
            }
        } else {
            while self.eat(&Token::Pipe) {
                members.push(self.type_member()?);
            }
        }
        match members.len() {
            1 => Ok(members.remove(0)),
            _ => self.union_of(members),
        }
    }

    /// In a comprehension's filter: `| T` when a type and another `|` follow (the
    /// union goes on); else nothing, and the `|` is the filter's end.
    fn member_before_pipe(&mut self) -> Option<CypherType> {
        let at = self.pos;
        if !self.eat(&Token::Pipe) {
            return None;
        }
        match self.type_member() {
            Ok(member) if self.at(&Token::Pipe) => Some(member),
            _ => {
                self.pos = at;
                None
            }
        }
    }

    /// All members nullable, or all `NOT NULL`, as Neo4j requires of a union;
    /// `NOTHING` (never null, holding no value) goes with either.
    fn union_of(&self, members: Vec<CypherType>) -> Result<CypherType> {
        let mut valued = members.iter().filter(|m| m.kind != TypeKind::Nothing);
        let nullable = valued.next().is_some_and(|m| m.nullable);
        if valued.any(|m| m.nullable != nullable) {
            return Err(self.error_here(
                "all types in a closed dynamic union must be nullable, or be appended with \
                 `NOT NULL`",
            ));
        }
        Ok(CypherType {
            kind: TypeKind::Union(members),
            nullable,
        })
    }

    /// One type and its `NOT NULL` (or `!`).
    fn type_member(&mut self) -> Result<CypherType> {
        let kind = self.type_kind()?;
        let not_null = if self.at_keyword("NOT") && self.keyword_at(1, "NULL") {
            self.advance();
            self.advance();
            true
        } else {
            self.eat(&Token::Bang)
        };
        let nullable = !not_null && kind != TypeKind::Nothing;
        Ok(CypherType { kind, nullable })
    }

    fn type_kind(&mut self) -> Result<TypeKind> {
        let Token::Ident(word) = self.peek().clone() else {
            return Err(self.expected("a type"));
        };
        let word = word.to_ascii_uppercase();
        self.advance();
        Ok(match word.as_str() {
            "NOTHING" => TypeKind::Nothing,
            "NULL" => TypeKind::Null,
            "BOOL" | "BOOLEAN" => TypeKind::Boolean,
            "VARCHAR" | "STRING" => TypeKind::String,
            "INT" | "INTEGER" => TypeKind::Integer,
            "SIGNED" => {
                self.expect_keyword("INTEGER")?;
                TypeKind::Integer
            }
            "FLOAT" => TypeKind::Float,
            "DATE" => TypeKind::Date,
            "LOCAL" if self.eat_keyword("TIME") => TypeKind::LocalTime,
            "LOCAL" if self.eat_keyword("DATETIME") => TypeKind::LocalDateTime,
            "ZONED" if self.eat_keyword("TIME") => TypeKind::ZonedTime,
            "ZONED" if self.eat_keyword("DATETIME") => TypeKind::ZonedDateTime,
            "TIME" => self.zone_suffix(TypeKind::LocalTime, TypeKind::ZonedTime)?,
            "TIMESTAMP" => self.zone_suffix(TypeKind::LocalDateTime, TypeKind::ZonedDateTime)?,
            "DURATION" => TypeKind::Duration,
            "POINT" => TypeKind::Point,
            "NODE" | "VERTEX" => TypeKind::Node,
            "RELATIONSHIP" | "EDGE" => TypeKind::Relationship,
            "MAP" => TypeKind::Map,
            "PATH" => TypeKind::Path,
            "PROPERTY" => {
                self.expect_keyword("VALUE")?;
                TypeKind::PropertyValue
            }
            "LIST" | "ARRAY" => TypeKind::List(Box::new(self.angled()?)),
            "ANY" => self.any_type()?,
            _ => return Err(self.error_here(format!("`{word}` is not a type"))),
        })
    }

    /// `TIME` or `TIMESTAMP`, then `WITH TIME ZONE` or `WITHOUT TIME ZONE`.
    fn zone_suffix(&mut self, without: TypeKind, with: TypeKind) -> Result<TypeKind> {
        let kind = if self.eat_keyword("WITHOUT") {
            without
        } else {
            self.expect_keyword("WITH")?;
            with
        };
        self.expect_keyword("TIME")?;
        self.expect_keyword("ZONE")?;
        Ok(kind)
    }

    /// After `ANY`: `ANY`, `ANY VALUE`, `ANY NODE`..., or `ANY<union>`.
    fn any_type(&mut self) -> Result<TypeKind> {
        if self.at(&Token::Lt) {
            let inner = self.angled()?;
            return Ok(match inner.kind {
                TypeKind::Union(_) => inner.kind,
                one => TypeKind::Union(vec![CypherType {
                    kind: one,
                    nullable: inner.nullable,
                }]),
            });
        }
        let named = [
            ("VALUE", TypeKind::Any),
            ("NODE", TypeKind::Node),
            ("VERTEX", TypeKind::Node),
            ("RELATIONSHIP", TypeKind::Relationship),
            ("EDGE", TypeKind::Relationship),
            ("MAP", TypeKind::Map),
            ("PATH", TypeKind::Path),
        ];
        for (word, kind) in named {
            if self.eat_keyword(word) {
                return Ok(kind);
            }
        }
        if self.at_keyword("PROPERTY") {
            self.advance();
            self.expect_keyword("VALUE")?;
            return Ok(TypeKind::PropertyValue);
        }
        Ok(TypeKind::Any)
    }

    /// `<type>`, `|` inside it a union whatever surrounds it.
    fn angled(&mut self) -> Result<CypherType> {
        self.expect(&Token::Lt, "'<'")?;
        let outer = std::mem::replace(&mut self.pipe_ends_filter, false);
        let inner = self.cypher_type();
        self.pipe_ends_filter = outer;
        let inner = inner?;
        self.expect(&Token::Gt, "'>'")?;
        Ok(inner)
    }
}
