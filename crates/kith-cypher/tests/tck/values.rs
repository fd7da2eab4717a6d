//! The TCK's value syntax (expected results and parameters) and how an expected value
//! is compared with a value kith returned.
//!
//! Syntax (tck/README.adoc, "Format of the expected results"): `null`, `true`,
//! `false`, integers, floats (decimal or scientific, `NaN`, `Inf`, `-Inf`), strings in
//! single quotes, lists `[a, b]`, maps `{k: v}`, nodes `(:A:B {k: v})`,
//! relationships `[:T {k: v}]` and paths `<(:A)-[:T]->(:B)<-[:U]-()>`.
//!
//! kith returns nodes as maps `{_id, _labels, properties}`, relationships as
//! `{_id, _type, _start, _end, properties}` and paths as `{nodes, relationships}`.
//! Nodes and relationships are compared by labels or type and properties, never by
//! id; a path's relationships must also connect its nodes in the written direction.

use std::fmt::Write as _;

use kith_core::Value;

/// A value as the TCK writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Expected>),
    /// A map.
    Map(Vec<(String, Expected)>),
    /// A node.
    Node(NodePattern),
    /// A relationship.
    Rel(RelPattern),
    /// A path: the first node, then (relationship, written left to right?, node).
    Path(NodePattern, Vec<(RelPattern, bool, NodePattern)>),
}

/// `(:A:B {k: v})`.
#[derive(Clone, Debug, PartialEq)]
pub struct NodePattern {
    /// Labels.
    pub labels: Vec<String>,
    /// Properties.
    pub props: Vec<(String, Expected)>,
}

/// `[:T {k: v}]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RelPattern {
    /// Type.
    pub rel_type: String,
    /// Properties.
    pub props: Vec<(String, Expected)>,
}

/// Parses one value; the whole text must be consumed.
pub fn parse(text: &str) -> Result<Expected, String> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.pos != p.chars.len() {
        return Err(p.error("the end of the value"));
    }
    Ok(v)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error(&self, wanted: &str) -> String {
        let rest: String = self.chars[self.pos.min(self.chars.len())..]
            .iter()
            .take(20)
            .collect();
        format!("expected {wanted} at `{rest}`")
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("`{c}`")))
        }
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn keyword(&mut self, word: &str) -> bool {
        let n = word.chars().count();
        if self.starts_with(word) && !self.peek_at(n).is_some_and(is_ident_char) {
            self.pos += n;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Expected, String> {
        self.ws();
        let Some(c) = self.peek() else {
            return Err(self.error("a value"));
        };
        match c {
            '\'' | '"' => self.string().map(Expected::Str),
            '[' => {
                let mut look = self.pos + 1;
                while self.chars.get(look).is_some_and(|c| c.is_whitespace()) {
                    look += 1;
                }
                if self.chars.get(look) == Some(&':') {
                    self.rel().map(Expected::Rel)
                } else {
                    self.list()
                }
            }
            '{' => self.map().map(Expected::Map),
            '(' => self.node().map(Expected::Node),
            '<' => self.path(),
            _ => {
                if self.keyword("null") {
                    Ok(Expected::Null)
                } else if self.keyword("true") {
                    Ok(Expected::Bool(true))
                } else if self.keyword("false") {
                    Ok(Expected::Bool(false))
                } else if self.keyword("NaN") {
                    Ok(Expected::Float(f64::NAN))
                } else if self.keyword("Inf") || self.keyword("Infinity") {
                    Ok(Expected::Float(f64::INFINITY))
                } else if self.keyword("-Inf") || self.keyword("-Infinity") {
                    Ok(Expected::Float(f64::NEG_INFINITY))
                } else {
                    self.number()
                }
            }
        }
    }

    fn number(&mut self) -> Result<Expected, String> {
        let start = self.pos;
        if matches!(self.peek(), Some('-' | '+')) {
            self.pos += 1;
        }
        let mut float = false;
        while let Some(c) = self.peek() {
            match c {
                '0'..='9' => {}
                '.' | 'e' | 'E' => float = true,
                '-' | '+' if matches!(self.chars.get(self.pos - 1), Some('e' | 'E')) => {}
                _ => break,
            }
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        if !text.chars().any(|c| c.is_ascii_digit()) {
            self.pos = start;
            return Err(self.error("a value"));
        }
        if float {
            text.parse::<f64>()
                .map(Expected::Float)
                .map_err(|e| format!("bad float `{text}`: {e}"))
        } else {
            text.parse::<i64>()
                .map(Expected::Int)
                .map_err(|e| format!("bad integer `{text}`: {e}"))
        }
    }

    /// A quoted string; backslash escapes as in Cypher string literals.
    fn string(&mut self) -> Result<String, String> {
        let Some(quote) = self.peek() else {
            return Err(self.error("a string"));
        };
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("the end of the string"));
            };
            self.pos += 1;
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.peek() else {
                return Err(self.error("an escaped character"));
            };
            self.pos += 1;
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex: String = self.chars[self.pos..].iter().take(4).collect();
                    let ch = u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| format!("bad \\u escape `{hex}`"))?;
                    self.pos += 4;
                    out.push(ch);
                }
                other => out.push(other),
            }
        }
    }

    fn list(&mut self) -> Result<Expected, String> {
        self.expect('[')?;
        let mut items = Vec::new();
        if self.eat(']') {
            return Ok(Expected::List(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(']') {
                return Ok(Expected::List(items));
            }
            self.expect(',')?;
        }
    }

    fn name(&mut self) -> Result<String, String> {
        self.ws();
        if self.peek() == Some('`') {
            self.pos += 1;
            let mut out = String::new();
            loop {
                match self.peek() {
                    None => return Err(self.error("a closing backtick")),
                    Some('`') if self.peek_at(1) == Some('`') => {
                        out.push('`');
                        self.pos += 2;
                    }
                    Some('`') => {
                        self.pos += 1;
                        return Ok(out);
                    }
                    Some(c) => {
                        out.push(c);
                        self.pos += 1;
                    }
                }
            }
        }
        let start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error("a name"));
        }
        Ok(self.chars[start..self.pos].iter().collect())
    }

    fn map(&mut self) -> Result<Vec<(String, Expected)>, String> {
        self.expect('{')?;
        let mut entries = Vec::new();
        if self.eat('}') {
            return Ok(entries);
        }
        loop {
            let key = self.name()?;
            self.expect(':')?;
            let value = self.value()?;
            entries.push((key, value));
            if self.eat('}') {
                return Ok(entries);
            }
            self.expect(',')?;
        }
    }

    fn props(&mut self) -> Result<Vec<(String, Expected)>, String> {
        self.ws();
        if self.peek() == Some('{') {
            self.map()
        } else {
            Ok(Vec::new())
        }
    }

    fn node(&mut self) -> Result<NodePattern, String> {
        self.expect('(')?;
        let mut labels = Vec::new();
        while self.eat(':') {
            labels.push(self.name()?);
        }
        let props = self.props()?;
        self.expect(')')?;
        Ok(NodePattern { labels, props })
    }

    fn rel(&mut self) -> Result<RelPattern, String> {
        self.expect('[')?;
        self.expect(':')?;
        let rel_type = self.name()?;
        let props = self.props()?;
        self.expect(']')?;
        Ok(RelPattern { rel_type, props })
    }

    fn path(&mut self) -> Result<Expected, String> {
        self.expect('<')?;
        let start = self.node()?;
        let mut steps = Vec::new();
        loop {
            self.ws();
            if self.eat('>') {
                return Ok(Expected::Path(start, steps));
            }
            let backward = self.eat('<');
            self.expect('-')?;
            let rel = self.rel()?;
            self.expect('-')?;
            let forward = !backward && self.eat('>');
            if backward == forward {
                return Err(self.error("a relationship direction (`-[]->` or `<-[]-`)"));
            }
            let node = self.node()?;
            steps.push((rel, forward, node));
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A parameter value: an expected value without graph elements, as a kith value.
pub fn to_param(e: &Expected) -> Result<Value, String> {
    Ok(match e {
        Expected::Null => Value::Null,
        Expected::Bool(b) => Value::Bool(*b),
        Expected::Int(i) => Value::Int(*i),
        Expected::Float(f) => Value::Float(*f),
        Expected::Str(s) => Value::string(s.as_str()),
        Expected::List(items) => Value::List(items.iter().map(to_param).collect::<Result<_, _>>()?),
        Expected::Map(entries) => Value::Map(
            entries
                .iter()
                .map(|(k, v)| Ok((k.as_str().into(), to_param(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Expected::Node(_) | Expected::Rel(_) | Expected::Path(..) => {
            return Err("a graph element cannot be a parameter".into())
        }
    })
}

/// How lists are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListOrder {
    /// Element by element.
    Strict,
    /// As multisets, at every depth ("ignoring element order for lists").
    Ignore,
}

/// Whether kith's value `actual` is the TCK's `expected`. Types must agree exactly
/// (1 is not 1.0); floats compare with `==` except that NaN equals NaN.
pub fn matches(expected: &Expected, actual: &Value, lists: ListOrder) -> bool {
    match (expected, actual) {
        (Expected::Null, Value::Null) => true,
        (Expected::Bool(a), Value::Bool(b)) => a == b,
        (Expected::Int(a), Value::Int(b)) => a == b,
        (Expected::Float(a), Value::Float(b)) => a == b || (a.is_nan() && b.is_nan()),
        (Expected::Str(a), Value::String(b)) => a.as_str() == &**b,
        // The TCK writes temporal values in java.time's text form.
        (Expected::Str(a), Value::Temporal(t)) => *a == t.java_time_text(),
        (Expected::List(a), Value::List(b)) => list_matches(a, b, lists),
        (Expected::Map(a), Value::Map(b)) => map_matches(a, b, lists),
        (Expected::Node(n), v) => node(v).is_some_and(|v| node_matches(n, &v, lists)),
        (Expected::Rel(r), v) => rel(v).is_some_and(|v| rel_matches(r, &v, lists)),
        (Expected::Path(start, steps), v) => path_matches(start, steps, v, lists),
        _ => false,
    }
}

fn list_matches(a: &[Expected], b: &[Value], lists: ListOrder) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match lists {
        ListOrder::Strict => a.iter().zip(b).all(|(x, y)| matches(x, y, lists)),
        ListOrder::Ignore => bag_matches(a, b, |x, y| matches(x, y, lists)),
    }
}

/// Whether every expected item pairs with its own actual item. Matching is an
/// equivalence here, so pairing greedily finds a perfect matching when one exists.
pub fn bag_matches<E, A>(expected: &[E], actual: &[A], eq: impl Fn(&E, &A) -> bool) -> bool {
    if expected.len() != actual.len() {
        return false;
    }
    let mut used = vec![false; actual.len()];
    expected.iter().all(|e| {
        let found = actual
            .iter()
            .enumerate()
            .position(|(i, a)| !used[i] && eq(e, a));
        match found {
            Some(i) => {
                used[i] = true;
                true
            }
            None => false,
        }
    })
}

fn map_matches(
    a: &[(String, Expected)],
    b: &[(std::sync::Arc<str>, Value)],
    lists: ListOrder,
) -> bool {
    a.len() == b.len()
        && a.iter().all(|(k, v)| {
            b.iter()
                .find(|(k2, _)| k.as_str() == &**k2)
                .is_some_and(|(_, w)| matches(v, w, lists))
        })
}

/// A node as kith returns it.
struct NodeValue<'a> {
    id: i64,
    labels: Vec<&'a str>,
    props: &'a [(std::sync::Arc<str>, Value)],
}

/// A relationship as kith returns it.
struct RelValue<'a> {
    start: i64,
    end: i64,
    rel_type: &'a str,
    props: &'a [(std::sync::Arc<str>, Value)],
}

fn get<'a>(entries: &'a [(std::sync::Arc<str>, Value)], key: &str) -> Option<&'a Value> {
    entries.iter().find(|(k, _)| &**k == key).map(|(_, v)| v)
}

fn has_keys(entries: &[(std::sync::Arc<str>, Value)], keys: &[&str]) -> bool {
    entries.len() == keys.len() && keys.iter().all(|k| get(entries, k).is_some())
}

fn node(v: &Value) -> Option<NodeValue<'_>> {
    let Value::Map(entries) = v else { return None };
    if !has_keys(entries, &["_id", "_labels", "properties"]) {
        return None;
    }
    let (Some(Value::Int(id)), Some(Value::List(labels)), Some(Value::Map(props))) = (
        get(entries, "_id"),
        get(entries, "_labels"),
        get(entries, "properties"),
    ) else {
        return None;
    };
    let labels = labels
        .iter()
        .map(|l| match l {
            Value::String(s) => Some(&**s),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some(NodeValue {
        id: *id,
        labels,
        props,
    })
}

fn rel(v: &Value) -> Option<RelValue<'_>> {
    let Value::Map(entries) = v else { return None };
    if !has_keys(entries, &["_id", "_type", "_start", "_end", "properties"]) {
        return None;
    }
    let (
        Some(Value::Int(_)),
        Some(Value::String(rel_type)),
        Some(Value::Int(start)),
        Some(Value::Int(end)),
        Some(Value::Map(props)),
    ) = (
        get(entries, "_id"),
        get(entries, "_type"),
        get(entries, "_start"),
        get(entries, "_end"),
        get(entries, "properties"),
    )
    else {
        return None;
    };
    Some(RelValue {
        start: *start,
        end: *end,
        rel_type,
        props,
    })
}

fn node_matches(n: &NodePattern, v: &NodeValue<'_>, lists: ListOrder) -> bool {
    let mut want: Vec<&str> = n.labels.iter().map(String::as_str).collect();
    let mut got = v.labels.clone();
    want.sort_unstable();
    want.dedup();
    got.sort_unstable();
    got.dedup();
    want == got && map_matches(&n.props, v.props, lists)
}

fn rel_matches(r: &RelPattern, v: &RelValue<'_>, lists: ListOrder) -> bool {
    r.rel_type == v.rel_type && map_matches(&r.props, v.props, lists)
}

fn path_matches(
    start: &NodePattern,
    steps: &[(RelPattern, bool, NodePattern)],
    v: &Value,
    lists: ListOrder,
) -> bool {
    let Value::Map(entries) = v else { return false };
    if !has_keys(entries, &["nodes", "relationships"]) {
        return false;
    }
    let (Some(Value::List(nodes)), Some(Value::List(rels))) =
        (get(entries, "nodes"), get(entries, "relationships"))
    else {
        return false;
    };
    if nodes.len() != steps.len() + 1 || rels.len() != steps.len() {
        return false;
    }
    let Some(nodes) = nodes.iter().map(node).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let Some(rels) = rels.iter().map(rel).collect::<Option<Vec<_>>>() else {
        return false;
    };
    if !node_matches(start, &nodes[0], lists) {
        return false;
    }
    steps.iter().enumerate().all(|(i, (r, forward, n))| {
        let (from, to) = (nodes[i].id, nodes[i + 1].id);
        let connects = if *forward {
            rels[i].start == from && rels[i].end == to
        } else {
            rels[i].start == to && rels[i].end == from
        };
        connects && rel_matches(r, &rels[i], lists) && node_matches(n, &nodes[i + 1], lists)
    })
}

/// A kith value written in the TCK's syntax, for failure messages.
pub fn show(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v);
    out
}

fn write_value(out: &mut String, v: &Value) {
    if let Some(n) = node(v) {
        write_node(out, &n);
        return;
    }
    if let Some(r) = rel(v) {
        let _ = write!(out, "[:{}", r.rel_type);
        write_props(out, r.props);
        out.push(']');
        return;
    }
    if let Value::Map(entries) = v {
        if let (true, Some(Value::List(nodes)), Some(Value::List(rels))) = (
            has_keys(entries, &["nodes", "relationships"]),
            get(entries, "nodes"),
            get(entries, "relationships"),
        ) {
            if let (Some(nodes), Some(rels)) = (
                nodes.iter().map(node).collect::<Option<Vec<_>>>(),
                rels.iter().map(rel).collect::<Option<Vec<_>>>(),
            ) {
                if nodes.len() == rels.len() + 1 {
                    out.push('<');
                    write_node(out, &nodes[0]);
                    for (i, r) in rels.iter().enumerate() {
                        let forward = r.start == nodes[i].id;
                        out.push_str(if forward { "-" } else { "<-" });
                        let _ = write!(out, "[:{}", r.rel_type);
                        write_props(out, r.props);
                        out.push_str(if forward { "]->" } else { "]-" });
                        write_node(out, &nodes[i + 1]);
                    }
                    out.push('>');
                    return;
                }
            }
        }
    }
    match v {
        Value::Null => out.push_str("null"),
        // The TCK has no byte arrays; one prints as the list it reads as.
        Value::Bytes(_) => {
            let _ = write!(out, "{v}");
        }
        Value::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => {
            if f.is_nan() {
                out.push_str("NaN");
            } else if f.is_infinite() {
                out.push_str(if *f > 0.0 { "Inf" } else { "-Inf" });
            } else {
                let _ = write!(out, "{f:?}");
            }
        }
        Value::String(s) => {
            out.push('\'');
            for c in s.chars() {
                match c {
                    '\'' => out.push_str("\\'"),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    c => out.push(c),
                }
            }
            out.push('\'');
        }
        Value::DateTime(t) => {
            let _ = write!(out, "datetime({t})");
        }
        Value::Temporal(t) => {
            let _ = write!(out, "'{}'", t.java_time_text());
        }
        // The TCK writes points as Cypher's toString writes them.
        Value::Point(p) => {
            let _ = write!(out, "{p}");
        }
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            write_entries(out, entries);
            out.push('}');
        }
    }
}

fn write_node(out: &mut String, n: &NodeValue<'_>) {
    out.push('(');
    for l in &n.labels {
        let _ = write!(out, ":{l}");
    }
    if !n.labels.is_empty() && !n.props.is_empty() {
        out.push(' ');
    }
    if !n.props.is_empty() {
        out.push('{');
        write_entries(out, n.props);
        out.push('}');
    }
    out.push(')');
}

fn write_props(out: &mut String, props: &[(std::sync::Arc<str>, Value)]) {
    if !props.is_empty() {
        out.push_str(" {");
        write_entries(out, props);
        out.push('}');
    }
}

fn write_entries(out: &mut String, entries: &[(std::sync::Arc<str>, Value)]) {
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{k}: ");
        write_value(out, v);
    }
}
