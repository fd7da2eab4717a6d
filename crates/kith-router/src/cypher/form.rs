//! Which of a router's Cypher forms a text is, read from its tokens (kith-cypher's
//! lexer, so strings, comments and quoted names never confuse it):
//!
//! - `USE graph query`: the query runs on that shard;
//! - `[UNWIND list AS var] CALL { [WITH var] USE graph inner } rest`: `inner` runs on
//!   every graph of the list at once, and `rest` over their rows on the router;
//! - anything else runs on the router's own engine, which holds no graph: only
//!   clauses over values and CALLs of the routed LDBC reads (a query that looks
//!   into the graph is refused as it runs: `nograph.rs`).

use kith_cypher::lexer::{tokenize, Spanned, Token};

use crate::RouteError;

/// A graph as `USE` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Graph {
    /// `person`, `forum3`, `` `forum-3` ``.
    Name(String),
    /// `kith.graph(expr)`: the expression's text (a graph id: 0 the person shard,
    /// i + 1 forum shard i).
    Id(String),
}

/// A fan-out's list of graphs and the variable each binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unwind<'a> {
    /// `kith.graphIds()` (every graph), or an expression's text.
    pub(crate) list: Option<&'a str>,
    /// The variable.
    pub(crate) var: String,
}

/// The form of a router's Cypher text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Form<'a> {
    /// `USE graph body`.
    Use { graph: Graph, body: &'a str },
    /// `[UNWIND ...] CALL { [WITH var] USE graph inner } rest`.
    FanOut {
        unwind: Option<Unwind<'a>>,
        graph: Graph,
        /// Whether the subquery imports the variable (`WITH var`).
        imports: bool,
        inner: &'a str,
        rest: &'a str,
    },
    /// Anything else: the router's own engine.
    Local,
}

fn syntax(message: impl Into<String>) -> RouteError {
    let mut e = RouteError::bad_request(message);
    e.code = kith_protocol::ErrorCode::CypherError;
    e.cypher = Some(crate::error::CypherDetail {
        code: "Neo.ClientError.Statement.SyntaxError".into(),
        position: None,
    });
    e
}

fn is_kw(t: &Spanned, kw: &str) -> bool {
    matches!(&t.token, Token::Ident(s) if s.eq_ignore_ascii_case(kw))
}

/// Reads the form of `text`.
pub(crate) fn read(text: &str) -> Result<Form<'_>, RouteError> {
    let tokens = tokenize(text).map_err(|e| syntax(e.message))?;
    if tokens.first().is_some_and(|t| is_kw(t, "USE")) {
        let (graph, next) = graph_ref(text, &tokens, 1)?;
        let body = &text[tokens[next].start..];
        if body.trim().is_empty() {
            return Err(syntax("USE names a graph, then the query to run there"));
        }
        return Ok(Form::Use { graph, body });
    }
    match subquery_at(&tokens) {
        Some(call) => fan_out(text, &tokens, call),
        None => Ok(Form::Local),
    }
}

/// The index of the first `CALL {` whose subquery starts with `USE` (or `WITH ...
/// USE`), at any depth.
fn subquery_at(tokens: &[Spanned]) -> Option<usize> {
    (0..tokens.len().saturating_sub(2)).find(|&i| {
        is_kw(&tokens[i], "CALL")
            && tokens[i + 1].token == Token::LBrace
            && (is_kw(&tokens[i + 2], "USE") || use_after_import(tokens, i + 2).is_some())
    })
}

/// `WITH var USE`: the index of `USE` when the subquery at `at` imports one variable.
fn use_after_import(tokens: &[Spanned], at: usize) -> Option<usize> {
    let ok = is_kw(tokens.get(at)?, "WITH")
        && matches!(tokens.get(at + 1)?.token, Token::Ident(_))
        && is_kw(tokens.get(at + 2)?, "USE");
    ok.then_some(at + 2)
}

fn fan_out<'a>(text: &'a str, tokens: &[Spanned], call: usize) -> Result<Form<'a>, RouteError> {
    let unwind = unwind(text, &tokens[..call])?;
    let close = closing(tokens, call + 1)?;
    let (imports, use_at) = match use_after_import(tokens, call + 2) {
        Some(at) => (true, at),
        None => (false, call + 2),
    };
    let (graph, mut next) = graph_ref(text, tokens, use_at + 1)?;
    let mut imports = imports;
    // The import may follow USE too (`USE kith.graph(g) WITH g ...`).
    if !imports && is_kw(&tokens[next], "WITH") {
        if let (Some(u), Token::Ident(v)) = (&unwind, &tokens[next + 1].token) {
            let ends = matches!(tokens[next + 2].token, Token::Ident(_) | Token::RBrace);
            if *v == u.var && ends && !is_kw(&tokens[next + 2], "AS") {
                imports = true;
                next += 2;
            }
        }
    }
    if imports && unwind.is_none() {
        return Err(syntax(
            "a USE subquery imports only the variable of the UNWIND before it",
        ));
    }
    let inner = &text[tokens[next].start..tokens[close].start];
    if inner.trim().is_empty() {
        return Err(syntax("the USE subquery has no query to run"));
    }
    let rest_tokens = &tokens[close + 1..];
    if subquery_at(rest_tokens).is_some() {
        return Err(syntax(
            "a router runs one USE subquery per query (the fan-out); run the others as queries of their own",
        ));
    }
    Ok(Form::FanOut {
        unwind,
        graph,
        imports,
        inner,
        rest: &text[tokens[close].end..],
    })
}

/// What comes before `CALL {`: nothing, or `UNWIND list AS var`.
fn unwind<'a>(text: &'a str, before: &[Spanned]) -> Result<Option<Unwind<'a>>, RouteError> {
    let n = before.len();
    if n == 0 {
        return Ok(None);
    }
    let shaped = n >= 4 && is_kw(&before[0], "UNWIND") && is_kw(&before[n - 2], "AS");
    let (true, Token::Ident(var)) = (shaped, &before[n - 1].token) else {
        return Err(syntax(
            "before a USE subquery a router takes only `UNWIND <graph ids> AS <var>` \
             (e.g. UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) ... })",
        ));
    };
    let list = &before[1..n - 2];
    let every = list.len() == 5
        && is_kw(&list[0], "kith")
        && list[1].token == Token::Dot
        && is_kw(&list[2], "graphIds")
        && list[3].token == Token::LParen
        && list[4].token == Token::RParen;
    Ok(Some(Unwind {
        list: (!every).then(|| &text[list[0].start..list[list.len() - 1].end]),
        var: var.clone(),
    }))
}

/// The graph after `USE` at `at`, and the index of the token after it.
fn graph_ref(text: &str, tokens: &[Spanned], at: usize) -> Result<(Graph, usize), RouteError> {
    let expected = || {
        syntax(
            "USE takes a graph: person, forum0 .. forumN-1 (or `forum-0`), or kith.graph(id) \
             with id 0 for the person shard and i + 1 for forum shard i",
        )
    };
    let Token::Ident(name) = &tokens.get(at).ok_or_else(expected)?.token else {
        return Err(expected());
    };
    if tokens[at + 1].token != Token::Dot {
        return Ok((Graph::Name(name.clone()), at + 1));
    }
    let function = matches!(&tokens[at + 2].token, Token::Ident(f) if f.eq_ignore_ascii_case("graph"))
        && name.eq_ignore_ascii_case("kith")
        && tokens.get(at + 3).is_some_and(|t| t.token == Token::LParen);
    if !function {
        return Err(expected());
    }
    let close = closing(tokens, at + 3)?;
    if close == at + 4 {
        return Err(expected());
    }
    let expr = &text[tokens[at + 4].start..tokens[close - 1].end];
    Ok((Graph::Id(expr.to_owned()), close + 1))
}

/// The index of the bracket closing the one at `open`.
fn closing(tokens: &[Spanned], open: usize) -> Result<usize, RouteError> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
            Token::RParen | Token::RBracket | Token::RBrace => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(syntax("a bracket is never closed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_form() {
        let f = read("USE forum3 MATCH (n) RETURN count(n)").expect("reads");
        assert_eq!(
            f,
            Form::Use {
                graph: Graph::Name("forum3".into()),
                body: "MATCH (n) RETURN count(n)"
            }
        );
        let f = read("use kith.graph($g + 1) RETURN 1").expect("reads");
        assert!(matches!(f, Form::Use { graph: Graph::Id(ref e), .. } if e == "$g + 1"));
        let text = "UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) MATCH (p:Post) RETURN count(p) AS c } RETURN sum(c) AS total";
        let Form::FanOut {
            unwind,
            graph,
            imports,
            inner,
            rest,
        } = read(text).expect("reads")
        else {
            panic!("a fan-out")
        };
        assert_eq!(
            unwind,
            Some(Unwind {
                list: None,
                var: "g".into()
            })
        );
        assert_eq!(graph, Graph::Id("g".into()));
        assert!(!imports);
        assert_eq!(inner.trim(), "MATCH (p:Post) RETURN count(p) AS c");
        assert_eq!(rest.trim(), "RETURN sum(c) AS total");
        let f = read(
            "UNWIND [1, 2] AS g CALL { WITH g USE kith.graph(g) RETURN 'x}' AS s } RETURN g, s",
        )
        .expect("reads");
        assert!(
            matches!(f, Form::FanOut { imports: true, unwind: Some(Unwind { list: Some("[1, 2]"), .. }), inner, .. } if inner.trim() == "RETURN 'x}' AS s")
        );
        assert_eq!(
            read("CALL ldbc.is1($personId)").expect("reads"),
            Form::Local
        );
        assert_eq!(
            read("WITH {set: 1} AS n RETURN n.set AS s").expect("reads"),
            Form::Local
        );
    }

    #[test]
    fn refuses_what_it_cannot_run_by_name() {
        for (text, says) in [
            ("USE", "USE takes a graph"),
            ("USE person", "then the query"),
            ("USE kith.nope(1) RETURN 1", "USE takes a graph"),
            (
                "MATCH (n) CALL { USE person RETURN 1 AS x } RETURN x",
                "only `UNWIND",
            ),
            (
                "UNWIND [1] AS g CALL { USE kith.graph(g) RETURN 1 AS x } CALL { USE person RETURN 2 AS y } RETURN x",
                "one USE subquery",
            ),
            ("RETURN 'unclosed", "unclosed"),
        ] {
            let e = read(text).expect_err(text);
            assert!(e.message.contains(says), "{text}: {}", e.message);
        }
    }
}
