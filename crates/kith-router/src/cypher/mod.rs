//! Cypher on a router, in the forms Neo4j Fabric gives a sharded graph
//! (docs/sharding.md "Cypher on a router"):
//!
//! - `USE person ...`, `USE forum3 ...`, `USE kith.graph(id) ...`: the query runs on
//!   that shard, as it is (graph id 0 is the person shard, i + 1 forum shard i);
//! - `UNWIND kith.graphIds() AS g CALL { USE kith.graph(g) ... } RETURN ...`: the
//!   subquery runs on every graph of the list at once, and what follows it runs on
//!   the router over their rows (sums, top-k, ORDER BY);
//! - anything else runs on the router's own engine, which holds no graph but routes
//!   its CALLs of the LDBC reads (`CALL ldbc.ic9($personId, $maxDate)`), so Neo4j's
//!   drivers reach the reads over Bolt.
//!
//! Writes are refused: the shards take updates from their update stream.

mod form;
mod local;
mod nograph;

use std::sync::Arc;

use futures_util::future::join_all;
use kith_core::GraphView;
use kith_core::Value;
use kith_cypher::{CallOutput, CypherError, Procedures, Signature};
use kith_procedures::Registry;

use crate::shard::Shard;
use crate::{RouteError, Router};
use form::{Form, Graph, Unwind};

/// A Cypher query's answer on a router.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CypherAnswer {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one value per column.
    pub rows: Vec<Vec<Value>>,
}

/// The parameter a fan-out's rows reach the router's engine in.
const ROWS_PARAM: &str = "__kith_rows";
/// The parameter a graph id reaches a subquery or an expression in.
const GRAPH_PARAM: &str = "__kith_graph";

/// `params` with `name` set to `value` (a client's parameter of that name is
/// replaced: the engine would take the first).
fn with_param(params: &[(String, Value)], name: &str, value: Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = params.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_owned(), value));
    out
}

impl Router {
    /// Runs a Cypher query across the shards (see the module's forms).
    pub async fn cypher(
        self: &Arc<Router>,
        text: &str,
        params: &[(String, Value)],
    ) -> Result<CypherAnswer, RouteError> {
        let (columns, rows) = match form::read(text)? {
            Form::Use { graph, body } => {
                let shard = self.graph(&graph, params, None).await?;
                refuse_writes(&self.registry, body)?;
                let answer = shard.cypher(body, params.to_vec()).await?;
                (answer.columns, answer.rows)
            }
            Form::FanOut {
                unwind,
                graph,
                imports,
                inner,
                rest,
            } => {
                // An imported variable reaches the subquery as a parameter.
                let inner = match (&unwind, imports) {
                    (Some(u), true) => format!("WITH ${GRAPH_PARAM} AS {} {inner}", quoted(&u.var)),
                    _ => inner.to_owned(),
                };
                refuse_writes(&self.registry, &inner)?;
                let ran = self.fan_out(unwind.as_ref(), &graph, imports, &inner, params);
                let (var, columns, rows) = ran.await?;
                self.after(var, columns, rows, rest, params).await?
            }
            Form::Local => local::run(self, text.to_owned(), params.to_vec(), true).await?,
        };
        Ok(CypherAnswer { columns, rows })
    }

    /// Runs `inner` on every graph of the fan-out at once: the variable, the inner
    /// columns, and rows led by their graph id (when there is a variable).
    async fn fan_out(
        self: &Arc<Router>,
        unwind: Option<&Unwind<'_>>,
        graph: &Graph,
        imports: bool,
        inner: &str,
        params: &[(String, Value)],
    ) -> Result<(Option<String>, Vec<String>, Vec<Vec<Value>>), RouteError> {
        let Some(unwind) = unwind else {
            let shard = self.graph(graph, params, None).await?;
            let answer = shard.cypher(inner, params.to_vec()).await?;
            return Ok((None, answer.columns, answer.rows));
        };
        let ids = self.graph_ids(unwind.list, params).await?;
        let mut calls = Vec::with_capacity(ids.len());
        for &id in &ids {
            let shard = self.graph(graph, params, Some((&unwind.var, id))).await?;
            let p = match imports {
                true => with_param(params, GRAPH_PARAM, Value::Int(id)),
                false => params.to_vec(),
            };
            calls.push(async move { shard.cypher(inner, p).await });
        }
        let mut columns: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for (id, answer) in ids.iter().zip(join_all(calls).await) {
            let answer = answer?;
            if columns.get_or_insert_with(|| answer.columns.clone()) != &answer.columns {
                return Err(RouteError::bad_request(
                    "the shards answered the USE subquery with different columns",
                ));
            }
            rows.extend(answer.rows.into_iter().map(|r| {
                let mut row = Vec::with_capacity(r.len() + 1);
                row.push(Value::Int(*id));
                row.extend(r);
                row
            }));
        }
        Ok((Some(unwind.var.clone()), columns.unwrap_or_default(), rows))
    }

    /// What follows a fan-out, run on the router over its rows (none: the rows).
    async fn after(
        self: &Arc<Router>,
        var: Option<String>,
        columns: Vec<String>,
        rows: Vec<Vec<Value>>,
        rest: &str,
        params: &[(String, Value)],
    ) -> Result<local::Rows, RouteError> {
        if rest.trim().is_empty() {
            let skip = usize::from(var.is_some());
            let rows = rows.into_iter().map(|r| r[skip..].to_vec()).collect();
            return Ok((columns, rows));
        }
        let names: Vec<&str> = var
            .iter()
            .map(String::as_str)
            .chain(columns.iter().map(String::as_str))
            .collect();
        let binds: Vec<String> = (names.iter().enumerate())
            .map(|(i, n)| format!("__kith_row[{i}] AS {}", quoted(n)))
            .collect();
        let text = format!(
            "UNWIND ${ROWS_PARAM} AS __kith_row WITH {} {rest}",
            binds.join(", ")
        );
        let rows = Value::List(rows.into_iter().map(Value::List).collect());
        local::run(self, text, with_param(params, ROWS_PARAM, rows), false).await
    }

    /// The graph ids a fan-out runs on: every graph, or the list's values.
    async fn graph_ids(
        self: &Arc<Router>,
        list: Option<&str>,
        params: &[(String, Value)],
    ) -> Result<Vec<i64>, RouteError> {
        let Some(expr) = list else {
            return Ok((0..=self.forums.len() as i64).collect());
        };
        let bad = || {
            RouteError::bad_request(format!(
                "the UNWIND before a USE subquery takes a list of graph ids (integers), such as kith.graphIds(); `{expr}` is not one"
            ))
        };
        let Value::List(items) = local::value(self, expr, params.to_vec()).await? else {
            return Err(bad());
        };
        let mut ids = Vec::with_capacity(items.len());
        for item in &items {
            let id = item.as_int().ok_or_else(bad)?;
            // Each graph once: the list is bounded by the graphs there are.
            if ids.contains(&id) {
                return Err(RouteError::bad_request(format!(
                    "graph {id} is listed twice before the USE subquery: each graph once"
                )));
            }
            ids.push(id);
        }
        Ok(ids)
    }

    /// The shard `graph` names; `bound` is the fan-out's variable and its value.
    async fn graph(
        self: &Arc<Router>,
        graph: &Graph,
        params: &[(String, Value)],
        bound: Option<(&str, i64)>,
    ) -> Result<&Shard, RouteError> {
        let id = match graph {
            Graph::Name(name) => self.graph_id_of(name)?,
            Graph::Id(expr) if bound.is_some_and(|(var, _)| var == expr.trim()) => {
                bound.expect("checked").1
            }
            Graph::Id(expr) => {
                let (text, p) = match bound {
                    Some((var, id)) => (
                        format!("WITH ${GRAPH_PARAM} AS {} RETURN {expr}", quoted(var)),
                        with_param(params, GRAPH_PARAM, Value::Int(id)),
                    ),
                    None => (format!("RETURN {expr}"), params.to_vec()),
                };
                let (_, rows) = local::run(self, text, p, false).await?;
                let value = rows.into_iter().flatten().next().unwrap_or(Value::Null);
                value.as_int().ok_or_else(|| {
                    RouteError::bad_request(format!(
                        "kith.graph({expr}) takes a graph id (an integer), not {value:?}"
                    ))
                })?
            }
        };
        self.shard_of_graph(id).ok_or_else(|| match graph {
            Graph::Name(name) => self.no_graph(name),
            Graph::Id(_) => self.no_graph(&format!("kith.graph({id})")),
        })
    }

    /// The graph id a name means: `person` 0, `forumI` (or `forum-I`) I + 1.
    fn graph_id_of(&self, name: &str) -> Result<i64, RouteError> {
        let forum = name
            .strip_prefix("forum")
            .map(|n| n.strip_prefix('-').unwrap_or(n))
            .and_then(|n| n.parse::<i64>().ok());
        match (name, forum) {
            ("person", _) => Ok(0),
            (_, Some(i)) if i >= 0 => Ok(i + 1),
            _ => Err(self.no_graph(name)),
        }
    }

    fn shard_of_graph(&self, id: i64) -> Option<&Shard> {
        match id {
            0 => Some(&self.person),
            i if i > 0 && (i as usize) <= self.forums.len() => Some(&self.forums[i as usize - 1]),
            _ => None,
        }
    }

    fn no_graph(&self, what: &str) -> RouteError {
        RouteError::bad_request(format!(
            "no graph {what} here: this router has person (graph 0) and forum0 .. forum{} (graphs 1 .. {})",
            self.forums.len() - 1,
            self.forums.len()
        ))
    }
}

/// `name` as a Cypher name, quoted.
fn quoted(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Refuses a query for a shard unless the router can tell it only reads: one that
/// does not prepare here (a shard's stored procedure, a name the router does not
/// know) is refused too, since it might write under the router's credentials.
fn refuse_writes(registry: &Arc<Registry>, text: &str) -> Result<(), RouteError> {
    let known = kith_cypher::procedures::ProcedureSet(Arc::new(Known(registry.clone())));
    match kith_cypher::Prepared::with_procedures(text, &known) {
        Ok(p) if !p.writes() => Ok(()),
        Ok(_) => Err(RouteError::read_only(
            "a router takes no writes, not even through USE: the shards take updates from their update stream (docs/sharding.md)",
        )),
        Err(e) if e.code == kith_cypher::ErrorCode::ProcedureNotFound => {
            // A client error, not `read_only`: a driver would retry that elsewhere.
            let mut refused = RouteError::bad_request(format!(
                "{}: through a router, USE runs only what it can tell is a read (kith's own procedures, no stored ones)",
                e.message
            ));
            refused.code = kith_protocol::ErrorCode::CypherError;
            refused.cypher = Some(crate::error::CypherDetail {
                code: "Neo.ClientError.Statement.AccessMode".into(),
                position: None,
            });
            Err(refused)
        }
        Err(e) => Err(RouteError::cypher(e, false)),
    }
}

/// kith's native procedures, known by signature only (to tell a read from a write).
struct Known(Arc<Registry>);

impl Procedures for Known {
    fn signature(&self, name: &str) -> Option<Signature> {
        local::signature(&self.0, name)
    }

    fn list(&self) -> Vec<Signature> {
        Vec::new()
    }

    fn call(
        &self,
        _: &dyn GraphView,
        name: &str,
        _: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        Err(CypherError::new(
            kith_cypher::ErrorCode::ProcedureCallFailed,
            format!("{name} is not run here"),
        ))
    }
}
