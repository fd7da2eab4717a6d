//! The update clauses: SET, REMOVE, [DETACH] DELETE, MERGE, FOREACH.

use super::Parser;
use crate::ast::{Clause, Expr, ExprKind, Merge, PropertyKey, RemoveItem, SetItem};
use crate::error::Result;
use crate::lexer::Token;

impl Parser<'_> {
    /// An update clause, if one starts here.
    pub(super) fn update_clause(&mut self) -> Result<Option<Clause>> {
        if self.eat_keyword("SET") {
            return self.set_items().map(|items| Some(Clause::Set(items)));
        }
        if self.eat_keyword("REMOVE") {
            let mut items = vec![self.remove_item()?];
            while self.eat(&Token::Comma) {
                items.push(self.remove_item()?);
            }
            return Ok(Some(Clause::Remove(items)));
        }
        let detach = self.at_keyword("DETACH") && self.keyword_at(1, "DELETE");
        if detach {
            self.advance();
        }
        if self.eat_keyword("DELETE") {
            let mut exprs = vec![self.expr()?];
            while self.eat(&Token::Comma) {
                exprs.push(self.expr()?);
            }
            return Ok(Some(Clause::Delete { detach, exprs }));
        }
        if self.eat_keyword("MERGE") {
            return self.merge().map(|m| Some(Clause::Merge(m)));
        }
        if self.eat_keyword("FOREACH") {
            return self.foreach().map(Some);
        }
        Ok(None)
    }

    /// `item, item, ...` after SET.
    fn set_items(&mut self) -> Result<Vec<SetItem>> {
        let mut items = vec![self.set_item()?];
        while self.eat(&Token::Comma) {
            items.push(self.set_item()?);
        }
        Ok(items)
    }

    fn set_item(&mut self) -> Result<SetItem> {
        let start = self.offset();
        let target = self.postfix()?;
        if self.eat(&Token::PlusEq) {
            let value = self.expr()?;
            return Ok(SetItem::Merge { target, value });
        }
        if let ExprKind::HasLabels(node, labels) = target.kind {
            return Ok(SetItem::Labels {
                target: *node,
                labels,
            });
        }
        self.expect(&Token::Eq, "'=', '+=' or a label after the SET target")?;
        let value = self.expr()?;
        match target.kind {
            ExprKind::Property(base, key) => Ok(SetItem::Property {
                target: *base,
                key: PropertyKey::Name(key),
                value,
            }),
            ExprKind::Index(base, key) => Ok(SetItem::Property {
                target: *base,
                key: PropertyKey::Dynamic(*key),
                value,
            }),
            ExprKind::Var(_) => Ok(SetItem::Replace { target, value }),
            _ => Err(self.error_at(
                start,
                "SET needs a property (n.key), a variable (n = map, n += map) or labels (n:Label)",
            )),
        }
    }

    fn remove_item(&mut self) -> Result<RemoveItem> {
        let start = self.offset();
        let target: Expr = self.postfix()?;
        match target.kind {
            ExprKind::HasLabels(node, labels) => Ok(RemoveItem::Labels {
                target: *node,
                labels,
            }),
            ExprKind::Property(base, key) => Ok(RemoveItem::Property {
                target: *base,
                key: PropertyKey::Name(key),
            }),
            ExprKind::Index(base, key) => Ok(RemoveItem::Property {
                target: *base,
                key: PropertyKey::Dynamic(*key),
            }),
            _ => Err(self.error_at(start, "REMOVE needs a property (n.key) or labels (n:Label)")),
        }
    }

    fn merge(&mut self) -> Result<Merge> {
        let part = self.pattern_part()?;
        let mut on_create = Vec::new();
        let mut on_match = Vec::new();
        while self.at_keyword("ON") {
            self.advance();
            let create = if self.eat_keyword("CREATE") {
                true
            } else if self.eat_keyword("MATCH") {
                false
            } else {
                return Err(self.expected("CREATE or MATCH after ON"));
            };
            self.expect_keyword("SET")?;
            let items = self.set_items()?;
            if create {
                on_create.extend(items);
            } else {
                on_match.extend(items);
            }
        }
        Ok(Merge {
            part,
            on_create,
            on_match,
        })
    }

    fn foreach(&mut self) -> Result<Clause> {
        self.expect(&Token::LParen, "'(' after FOREACH")?;
        let var = self.variable()?;
        self.expect_keyword("IN")?;
        let list = self.expr()?;
        self.expect(&Token::Pipe, "'|' before FOREACH's clauses")?;
        self.enter()?;
        let mut clauses = Vec::new();
        loop {
            // CREATE is read here too: it is not an update_clause because the
            // query's own clause list takes it first.
            if self.eat_keyword("CREATE") {
                clauses.push(Clause::Create(self.pattern()?));
                continue;
            }
            match self.update_clause()? {
                Some(c) => clauses.push(c),
                None => break,
            }
        }
        self.leave();
        if clauses.is_empty() {
            return Err(self.expected(
                "an update clause (CREATE, SET, REMOVE, DELETE, MERGE, FOREACH) in FOREACH",
            ));
        }
        self.expect(&Token::RParen, "')' to close FOREACH")?;
        Ok(Clause::Foreach { var, list, clauses })
    }
}
