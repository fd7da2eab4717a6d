//! Expressions, one function per precedence level, lowest first:
//! OR < XOR < AND < NOT < comparison < string/list/null predicates < + - < * / % < ^
//! < unary + - < postfix (`.key`, `[i]`, `[a..b]`, `:Label`) < atoms.

use super::Parser;
use crate::ast::{
    BinaryOp, CompareOp, Expr, ExprKind, MapProjectionItem, Quantifier, SubqueryBody, SubqueryKind,
    UnaryOp,
};
use crate::error::Result;
use crate::lexer::{unescape, Token};
use crate::notices::{NoticeKind, TokenKind};

impl Parser<'_> {
    /// An expression.
    pub(super) fn expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let e = self.or_expr();
        self.leave();
        e
    }

    fn binary_level(
        &mut self,
        keyword: &str,
        op: BinaryOp,
        next: fn(&mut Self) -> Result<Expr>,
    ) -> Result<Expr> {
        let mut left = next(self)?;
        while self.at_keyword(keyword) {
            let pos = self.offset();
            self.advance();
            let right = next(self)?;
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn or_expr(&mut self) -> Result<Expr> {
        self.binary_level("OR", BinaryOp::Or, Self::xor_expr)
    }

    fn xor_expr(&mut self) -> Result<Expr> {
        self.binary_level("XOR", BinaryOp::Xor, Self::and_expr)
    }

    fn and_expr(&mut self) -> Result<Expr> {
        self.binary_level("AND", BinaryOp::And, Self::not_expr)
    }

    fn not_expr(&mut self) -> Result<Expr> {
        if self.at_keyword("NOT") {
            let pos = self.offset();
            self.advance();
            self.enter()?;
            let inner = self.not_expr();
            self.leave();
            return Ok(Expr {
                kind: ExprKind::Unary(UnaryOp::Not, Box::new(inner?)),
                pos,
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr> {
        let first = self.predicate_expr()?;
        let pos = first.pos;
        let mut chain = Vec::new();
        while let Some(op) = self.compare_op() {
            self.advance();
            chain.push((op, self.predicate_expr()?));
        }
        if chain.is_empty() {
            return Ok(first);
        }
        Ok(Expr {
            kind: ExprKind::Compare(Box::new(first), chain),
            pos,
        })
    }

    fn compare_op(&self) -> Option<CompareOp> {
        Some(match self.peek() {
            Token::Eq => CompareOp::Eq,
            Token::Ne => CompareOp::Ne,
            Token::Lt => CompareOp::Lt,
            Token::Le => CompareOp::Le,
            Token::Gt => CompareOp::Gt,
            Token::Ge => CompareOp::Ge,
            _ => return None,
        })
    }

    /// `STARTS WITH`, `ENDS WITH`, `CONTAINS`, `IN`, `=~`, `IS [NOT] NULL`, and the
    /// type predicates `IS [NOT] :: type`, `IS [NOT] TYPED type`, `:: type`.
    fn predicate_expr(&mut self) -> Result<Expr> {
        let mut left = self.additive()?;
        loop {
            let pos = self.offset();
            let op = if self.at_keyword("STARTS") && self.keyword_at(1, "WITH") {
                self.advance();
                BinaryOp::StartsWith
            } else if self.at_keyword("ENDS") && self.keyword_at(1, "WITH") {
                self.advance();
                BinaryOp::EndsWith
            } else if self.at_keyword("CONTAINS") {
                BinaryOp::Contains
            } else if self.at_keyword("IN") {
                BinaryOp::In
            } else if self.at(&Token::RegexMatch) {
                BinaryOp::Regex
            } else if self.at_keyword("IS") {
                self.advance();
                let negated = self.eat_keyword("NOT");
                let kind = if self.eat_keyword("TYPED") || self.eat_double_colon() {
                    ExprKind::IsType(Box::new(left), negated, self.cypher_type()?)
                } else {
                    self.expect_keyword("NULL")?;
                    ExprKind::IsNull(Box::new(left), negated)
                };
                left = Expr { kind, pos };
                continue;
            } else if self.eat_double_colon() {
                let kind = ExprKind::IsType(Box::new(left), false, self.cypher_type()?);
                left = Expr { kind, pos };
                continue;
            } else {
                return Ok(left);
            };
            self.advance();
            let right = self.additive()?;
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                pos,
            };
        }
    }

    fn additive(&mut self) -> Result<Expr> {
        let mut left = self.multiplicative()?;
        loop {
            let op = match self.peek() {
                Token::Plus => BinaryOp::Add,
                Token::Minus => BinaryOp::Sub,
                Token::Pipe if self.peek_at(1) == &Token::Pipe => BinaryOp::Concat,
                _ => return Ok(left),
            };
            let pos = self.offset();
            self.advance();
            if op == BinaryOp::Concat {
                self.advance();
            }
            let right = self.multiplicative()?;
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                pos,
            };
        }
    }

    fn multiplicative(&mut self) -> Result<Expr> {
        let mut left = self.power()?;
        loop {
            let op = match self.peek() {
                Token::Star => BinaryOp::Mul,
                Token::Slash => BinaryOp::Div,
                Token::Percent => BinaryOp::Mod,
                _ => return Ok(left),
            };
            let pos = self.offset();
            self.advance();
            let right = self.power()?;
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                pos,
            };
        }
    }

    fn power(&mut self) -> Result<Expr> {
        let mut left = self.unary()?;
        while self.at(&Token::Caret) {
            let pos = self.offset();
            self.advance();
            let right = self.unary()?;
            left = Expr {
                kind: ExprKind::Binary(BinaryOp::Pow, Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr> {
        let pos = self.offset();
        let op = match self.peek() {
            Token::Minus => UnaryOp::Neg,
            Token::Plus => UnaryOp::Plus,
            _ => return self.postfix(),
        };
        self.advance();
        if op == UnaryOp::Neg {
            // `-0.0` is one literal, as in Neo4j, where `-(0.0)` is a negation (it
            // tells them apart: `-0.0 / 0.0` is folded once, `-(0.0) / 0.0` is not).
            if let Token::Float(f) = self.peek().clone() {
                if let Ok(x) = f.parse::<f64>() {
                    if x.is_finite() {
                        self.advance();
                        return self.postfix_on(Expr {
                            kind: ExprKind::Float(-x),
                            pos,
                        });
                    }
                }
            }
            if let Token::Integer(s) = self.peek().clone() {
                // `-9223372036854775808` is a literal, not the negation of one too large.
                if let Some(n) = parse_int(&format!("-{s}")) {
                    self.advance();
                    return self.postfix_on(Expr {
                        kind: ExprKind::Int(n),
                        pos,
                    });
                }
            }
        }
        self.enter()?;
        let inner = self.unary();
        self.leave();
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(inner?)),
            pos,
        })
    }

    pub(super) fn postfix(&mut self) -> Result<Expr> {
        let atom = self.primary()?;
        self.postfix_on(atom)
    }

    fn postfix_on(&mut self, mut e: Expr) -> Result<Expr> {
        loop {
            let pos = self.offset();
            if self.eat(&Token::Dot) {
                let at = self.offset();
                let key = self.name("a property name")?;
                if let ExprKind::Var(v) = &e.kind {
                    self.notes.token(TokenKind::PropertyKey, &key, at, Some(v));
                }
                e = Expr {
                    kind: ExprKind::Property(Box::new(e), key),
                    pos,
                };
            } else if self.at(&Token::LBracket) {
                self.advance();
                e = self.index_or_slice(e, pos)?;
            } else if self.at(&Token::Colon)
                && matches!(
                    self.peek_at(1),
                    Token::Ident(_) | Token::Bang | Token::Percent | Token::LParen
                )
            {
                let pipe_ends = self.pipe_ends_filter;
                let labels = self.node_labels(pipe_ends)?.expect("a colon was there");
                e = match labels.conjunction() {
                    Some(labels) => Expr {
                        kind: ExprKind::HasLabels(Box::new(e), labels),
                        pos,
                    },
                    None => labels.node_predicate(&e),
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn index_or_slice(&mut self, base: Expr, pos: usize) -> Result<Expr> {
        let from = if self.at(&Token::DotDot) {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        if self.eat(&Token::DotDot) {
            let to = if self.at(&Token::RBracket) {
                None
            } else {
                Some(Box::new(self.expr()?))
            };
            self.expect(&Token::RBracket, "']'")?;
            return Ok(Expr {
                kind: ExprKind::Slice(Box::new(base), from, to),
                pos,
            });
        }
        self.expect(&Token::RBracket, "']'")?;
        let index = from.ok_or_else(|| self.expected("an index"))?;
        Ok(Expr {
            kind: ExprKind::Index(Box::new(base), index),
            pos,
        })
    }

    /// An atom: a literal, parameter, variable, call, list, map, CASE, or parentheses.
    pub(super) fn primary(&mut self) -> Result<Expr> {
        let pos = self.offset();
        let kind = match self.peek().clone() {
            Token::Integer(s) => {
                self.advance();
                let n = parse_int(&s).ok_or_else(|| {
                    crate::error::CypherError::at(
                        crate::error::ErrorCode::SyntaxError,
                        format!("integer {s} is too large"),
                        self.text,
                        pos,
                    )
                })?;
                ExprKind::Int(n)
            }
            Token::Float(s) => {
                let x: f64 = s
                    .parse()
                    .map_err(|_| self.error_here(format!("bad number {s}")))?;
                if x.is_infinite() {
                    return Err(self.error_here(format!("floating-point number {s} is too large")));
                }
                self.advance();
                ExprKind::Float(x)
            }
            Token::Str(s) => {
                self.advance();
                ExprKind::Str(unescape(&s).map_err(|m| {
                    crate::error::CypherError::at(
                        crate::error::ErrorCode::SyntaxError,
                        m,
                        self.text,
                        pos,
                    )
                })?)
            }
            Token::Param(p) => {
                self.advance();
                self.notes.param(&p);
                ExprKind::Param(p)
            }
            Token::LBracket => return self.bracket(),
            Token::LBrace => return self.map_literal(),
            Token::LParen => return self.paren_or_pattern(),
            Token::Ident(name) => return self.identifier_atom(name, pos),
            _ => return Err(self.expected("an expression")),
        };
        Ok(Expr { kind, pos })
    }

    fn map_literal(&mut self) -> Result<Expr> {
        let pos = self.offset();
        self.expect(&Token::LBrace, "'{'")?;
        let mut entries = Vec::new();
        if !self.at(&Token::RBrace) {
            loop {
                let at = self.offset();
                let key = self.name("a map key")?;
                self.notes.map_keys.push((key.clone(), at));
                self.expect(&Token::Colon, "':' after a map key")?;
                entries.push((key, self.expr()?));
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        self.expect(&Token::RBrace, "'}' to close the map")?;
        Ok(Expr {
            kind: ExprKind::Map(entries),
            pos,
        })
    }

    /// `(expr)` or a pattern used as a predicate: `(a)-[:R]->(b)`.
    fn paren_or_pattern(&mut self) -> Result<Expr> {
        let pos = self.offset();
        let saved = self.pos;
        if let Ok(path) = self.path_pattern() {
            if !path.steps.is_empty() {
                return Ok(Expr {
                    kind: ExprKind::Pattern(Box::new(path)),
                    pos,
                });
            }
        }
        self.pos = saved;
        self.advance();
        let inner = self.expr()?;
        self.expect(&Token::RParen, "')'")?;
        Ok(inner)
    }

    /// `[...]`: a list literal, a list comprehension or a pattern comprehension.
    fn bracket(&mut self) -> Result<Expr> {
        let pos = self.offset();
        self.advance();
        if matches!(self.peek(), Token::Ident(_)) && self.keyword_at(1, "IN") {
            return self.list_comprehension(pos);
        }
        let saved = self.pos;
        if let Some(e) = self.try_pattern_comprehension(pos)? {
            return Ok(e);
        }
        self.pos = saved;
        let mut items = Vec::new();
        if !self.at(&Token::RBracket) {
            loop {
                items.push(self.expr()?);
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        self.expect(&Token::RBracket, "']' to close the list")?;
        Ok(Expr {
            kind: ExprKind::List(items),
            pos,
        })
    }

    fn list_comprehension(&mut self, pos: usize) -> Result<Expr> {
        let var = self.variable()?;
        self.expect_keyword("IN")?;
        let list = Box::new(self.expr()?);
        let filter = if self.eat_keyword("WHERE") {
            Some(Box::new(self.comprehension_filter()?))
        } else {
            None
        };
        let map = if self.eat(&Token::Pipe) {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect(&Token::RBracket, "']' to close the list comprehension")?;
        Ok(Expr {
            kind: ExprKind::ListComprehension {
                var,
                list,
                filter,
                map,
            },
            pos,
        })
    }

    fn try_pattern_comprehension(&mut self, pos: usize) -> Result<Option<Expr>> {
        let path_var = if matches!(self.peek(), Token::Ident(_)) && self.peek_at(1) == &Token::Eq {
            let v = self.variable()?;
            self.advance();
            Some(v)
        } else {
            None
        };
        if !self.at(&Token::LParen) {
            return Ok(None);
        }
        let Ok((pattern, inline)) = self.with_inline_predicates(Self::path_pattern) else {
            return Ok(None);
        };
        if pattern.steps.is_empty() {
            return Ok(None);
        }
        let filter = if self.eat_keyword("WHERE") {
            Some(self.comprehension_filter()?)
        } else {
            None
        };
        let filter = super::pattern::and_all(inline, filter).map(Box::new);
        self.expect(&Token::Pipe, "'|' in the pattern comprehension")?;
        let map = Box::new(self.expr()?);
        self.expect(&Token::RBracket, "']' to close the pattern comprehension")?;
        let pattern = Box::new(pattern);
        Ok(Some(Expr {
            kind: ExprKind::PatternComprehension {
                path_var,
                pattern,
                filter,
                map,
            },
            pos,
        }))
    }

    fn identifier_atom(&mut self, name: String, pos: usize) -> Result<Expr> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "null" => return self.keyword_value(ExprKind::Null, pos),
            "true" => return self.keyword_value(ExprKind::Bool(true), pos),
            "false" => return self.keyword_value(ExprKind::Bool(false), pos),
            "case" => return self.case_expr(pos),
            _ => {}
        }
        if matches!(lower.as_str(), "exists" | "count" | "collect")
            && self.peek_at(1) == &Token::LBrace
        {
            return self.subquery(&lower, pos);
        }
        if let Some(name) = self.function_name() {
            return self.call(name, pos);
        }
        let var = self.variable()?;
        let e = Expr {
            kind: ExprKind::Var(var),
            pos,
        };
        if self.at(&Token::LBrace) {
            return self.map_projection(e);
        }
        Ok(e)
    }

    /// `EXISTS { ... }` and its kin: a query, or a pattern with a WHERE.
    fn subquery(&mut self, lower: &str, pos: usize) -> Result<Expr> {
        let kind = match lower {
            "exists" => SubqueryKind::Exists,
            "count" => SubqueryKind::Count,
            _ => SubqueryKind::Collect,
        };
        self.advance();
        self.expect(&Token::LBrace, "'{'")?;
        self.enter()?;
        let query_starts = ["MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN"]
            .iter()
            .any(|k| self.at_keyword(k));
        let body = if query_starts {
            SubqueryBody::Query(self.statement()?)
        } else {
            let (pattern, inline) = self.with_inline_predicates(Self::pattern)?;
            let where_ = if self.eat_keyword("WHERE") {
                Some(self.expr()?)
            } else {
                None
            };
            SubqueryBody::Pattern(pattern, super::pattern::and_all(inline, where_))
        };
        self.leave();
        self.expect(&Token::RBrace, "'}' to close the subquery")?;
        Ok(Expr {
            kind: ExprKind::Subquery {
                kind,
                body: Box::new(body),
            },
            pos,
        })
    }

    /// `n {.a, k: expr, v, .*}`.
    fn map_projection(&mut self, base: Expr) -> Result<Expr> {
        let pos = base.pos;
        self.expect(&Token::LBrace, "'{'")?;
        let mut items = Vec::new();
        let of = match &base.kind {
            ExprKind::Var(v) => Some(v.clone()),
            _ => None,
        };
        if !self.at(&Token::RBrace) {
            loop {
                let at = self.offset() + 1;
                let item = self.map_projection_item()?;
                if let (MapProjectionItem::Property(key), Some(v)) = (&item, &of) {
                    self.notes.token(TokenKind::PropertyKey, key, at, Some(v));
                }
                items.push(item);
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        self.expect(&Token::RBrace, "'}' to close the map projection")?;
        Ok(Expr {
            kind: ExprKind::MapProjection {
                base: Box::new(base),
                items,
            },
            pos,
        })
    }

    fn map_projection_item(&mut self) -> Result<MapProjectionItem> {
        if self.eat(&Token::Dot) {
            if self.eat(&Token::Star) {
                return Ok(MapProjectionItem::AllProperties);
            }
            return Ok(MapProjectionItem::Property(self.name("a property name")?));
        }
        let pos = self.offset();
        let name = self.name("a map projection entry")?;
        if self.eat(&Token::Colon) {
            return Ok(MapProjectionItem::Entry(name, self.expr()?));
        }
        Ok(MapProjectionItem::Entry(
            name.clone(),
            Expr {
                kind: ExprKind::Var(name),
                pos,
            },
        ))
    }

    fn keyword_value(&mut self, kind: ExprKind, pos: usize) -> Result<Expr> {
        self.advance();
        Ok(Expr { kind, pos })
    }

    /// A (possibly dotted) name followed by `(`, consumed; `None` (nothing consumed)
    /// when the identifier here does not start a call.
    fn function_name(&mut self) -> Option<String> {
        let mut ahead = 0;
        let mut parts = Vec::new();
        loop {
            let Token::Ident(part) = self.peek_at(ahead) else {
                return None;
            };
            parts.push(part.clone());
            match self.peek_at(ahead + 1) {
                Token::LParen => break,
                Token::Dot => ahead += 2,
                _ => return None,
            }
        }
        for _ in 0..=ahead {
            self.advance();
        }
        Some(parts.join("."))
    }

    fn call(&mut self, name: String, pos: usize) -> Result<Expr> {
        self.expect(&Token::LParen, "'('")?;
        let lower = name.to_ascii_lowercase();
        if lower == "count" && self.at(&Token::Star) {
            self.advance();
            self.expect(&Token::RParen, "')'")?;
            return Ok(Expr {
                kind: ExprKind::CountStar,
                pos,
            });
        }
        if lower == "reduce" {
            return self.reduce(pos);
        }
        let quantifier = match lower.as_str() {
            "all" => Some(Quantifier::All),
            "any" => Some(Quantifier::Any),
            "none" => Some(Quantifier::None),
            "single" => Some(Quantifier::Single),
            _ => None,
        };
        if let Some(kind) = quantifier {
            return self.quantifier(kind, pos);
        }
        if lower == "trim" {
            if let Some(call) = self.trim_from(pos)? {
                return Ok(call);
            }
        }
        let distinct = self.eat_keyword("DISTINCT");
        let mut args = Vec::new();
        if !self.at(&Token::RParen) {
            loop {
                args.push(self.expr()?);
                if !self.eat(&Token::Comma) {
                    break;
                }
            }
        }
        self.expect(&Token::RParen, "')' to close the argument list")?;
        if lower == "id" {
            self.notes.fix(
                NoticeKind::DeprecatedWithoutReplacement,
                Some(pos),
                format!("{name} is deprecated and will be removed without a replacement."),
                format!("The query used a deprecated function: `{name}`."),
            );
        }
        if lower == "normalize" {
            normal_form_name(&mut args);
        }
        Ok(Expr {
            kind: ExprKind::Call {
                name,
                distinct,
                args,
            },
            pos,
        })
    }

    /// `trim([LEADING | TRAILING | BOTH] [characters] FROM s)`, after `trim(`, as a call
    /// of `ltrim`, `rtrim` or `btrim`; `None` (nothing consumed) for a plain `trim(s)`.
    fn trim_from(&mut self, pos: usize) -> Result<Option<Expr>> {
        let side = ["LEADING", "TRAILING", "BOTH"]
            .into_iter()
            .find(|kw| self.at_keyword(kw) && !matches!(self.peek_at(1), Token::RParen));
        let bare_from = self.at_keyword("FROM") && !matches!(self.peek_at(1), Token::RParen);
        if side.is_none() && !bare_from && !self.trim_has_from() {
            return Ok(None);
        }
        if side.is_some() {
            self.advance();
        }
        let characters = if self.eat_keyword("FROM") {
            None
        } else {
            let c = self.expr()?;
            self.expect_keyword("FROM")?;
            Some(c)
        };
        let subject = self.expr()?;
        self.expect(&Token::RParen, "')' to close trim(... FROM ...)")?;
        let (name, args) = match characters {
            None => {
                let name = match side {
                    Some("LEADING") => "ltrim",
                    Some("TRAILING") => "rtrim",
                    _ => "btrim",
                };
                (name, vec![subject])
            }
            Some(c) => {
                let side = Expr {
                    kind: ExprKind::Str(side.unwrap_or("BOTH").to_owned()),
                    pos,
                };
                (" trim from", vec![subject, c, side])
            }
        };
        Ok(Some(Expr {
            kind: ExprKind::Call {
                name: name.to_owned(),
                distinct: false,
                args,
            },
            pos,
        }))
    }

    /// Whether a `FROM` stands inside this `trim(`'s parentheses (`trim('x' FROM s)`).
    fn trim_has_from(&self) -> bool {
        let mut depth = 0usize;
        let mut ahead = 0;
        loop {
            let token = self.peek_at(ahead);
            ahead += 1;
            match token {
                Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace if depth == 0 => return false,
                Token::RParen | Token::RBracket | Token::RBrace => depth -= 1,
                Token::Eof => return false,
                Token::Ident(s) if depth == 0 && s.eq_ignore_ascii_case("FROM") => return true,
                _ => {}
            }
        }
    }

    /// A comprehension's WHERE, which its `|` ends.
    fn comprehension_filter(&mut self) -> Result<Expr> {
        let outer = std::mem::replace(&mut self.pipe_ends_filter, true);
        let filter = self.expr();
        self.pipe_ends_filter = outer;
        filter
    }

    fn reduce(&mut self, pos: usize) -> Result<Expr> {
        let acc = self.variable()?;
        self.expect(&Token::Eq, "'=' after the accumulator")?;
        let init = Box::new(self.expr()?);
        self.expect(&Token::Comma, "','")?;
        let var = self.variable()?;
        self.expect_keyword("IN")?;
        let list = Box::new(self.expr()?);
        self.expect(&Token::Pipe, "'|'")?;
        let expr = Box::new(self.expr()?);
        self.expect(&Token::RParen, "')'")?;
        Ok(Expr {
            kind: ExprKind::Reduce {
                acc,
                init,
                var,
                list,
                expr,
            },
            pos,
        })
    }

    fn quantifier(&mut self, kind: Quantifier, pos: usize) -> Result<Expr> {
        let var = self.variable()?;
        self.expect_keyword("IN")?;
        let list = Box::new(self.expr()?);
        self.expect_keyword("WHERE")?;
        let pred = Box::new(self.expr()?);
        self.expect(&Token::RParen, "')'")?;
        Ok(Expr {
            kind: ExprKind::Quantifier {
                kind,
                var,
                list,
                pred,
            },
            pos,
        })
    }

    fn case_expr(&mut self, pos: usize) -> Result<Expr> {
        self.advance();
        let operand = if self.at_keyword("WHEN") {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        let mut whens = Vec::new();
        while self.eat_keyword("WHEN") {
            let when = self.expr()?;
            self.expect_keyword("THEN")?;
            whens.push((when, self.expr()?));
        }
        if whens.is_empty() {
            return Err(self.expected("WHEN"));
        }
        let else_ = if self.eat_keyword("ELSE") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_keyword("END")?;
        Ok(Expr {
            kind: ExprKind::Case {
                operand,
                whens,
                else_,
            },
            pos,
        })
    }
}

/// Parses a decimal, `0x` or `0o` integer literal (with an optional leading `-`).
fn parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(o) = digits.strip_prefix("0o") {
        (8, o)
    } else {
        (10, digits)
    };
    let text = if neg {
        format!("-{body}")
    } else {
        body.to_owned()
    };
    i64::from_str_radix(&text, radix).ok()
}

/// `normalize(s, NFKC)`: the normal form is a bare name, not a variable; it becomes
/// the string the function reads.
fn normal_form_name(args: &mut [Expr]) {
    if let Some(Expr {
        kind: kind @ ExprKind::Var(_),
        ..
    }) = args.get_mut(1)
    {
        let ExprKind::Var(name) = &*kind else {
            return;
        };
        let form = name.to_ascii_uppercase();
        if ["NFC", "NFD", "NFKC", "NFKD"].contains(&form.as_str()) {
            *kind = ExprKind::Str(form);
        }
    }
}

impl Parser<'_> {
    /// `::` (two colons: the lexer has no token of its own for it).
    fn eat_double_colon(&mut self) -> bool {
        let at = self.at(&Token::Colon) && matches!(self.peek_at(1), Token::Colon);
        if at {
            self.advance();
            self.advance();
        }
        at
    }
}
