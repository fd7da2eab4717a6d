//! The engine's front door: prepare (parse, bind, plan; cached by text) and run.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use std::cell::RefCell;

use kith_core::{GraphTx, GraphView, Value};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::binder::bind_statement;
use crate::error::{CypherError, ErrorCode, Result};
use crate::executor::profile::Profiler;
use crate::executor::{self, Budget, Ctx, Source};
use crate::notices::{Notes, Notification};
use crate::output::GraphValue;
use crate::parser::{parse, parse_noted};
use crate::planner::PlanMode;
use crate::planner::{describe, Plan, PlanNode};
use crate::procedures::{NoProcedures, ProcedureSet, Procedures};
use crate::value::Val;

/// How a query runs: plainly, not at all with its plan described (`EXPLAIN`), or
/// with its plan's counts (`PROFILE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Run it.
    Run,
    /// Describe the plan; run nothing.
    Explain,
    /// Run it, counting rows, db hits and time per operator.
    Profile,
}

/// A parsed, bound and planned query.
#[derive(Debug)]
pub struct Prepared {
    /// The text it came from.
    pub text: String,
    /// The plan (shared: a stored procedure's runs inside its callers').
    pub plan: Arc<Plan>,
    /// The stored procedures' epoch it was prepared under.
    pub epoch: u64,
    /// EXPLAIN, PROFILE or neither.
    pub mode: Mode,
    /// The procedures its CALLs run.
    pub procs: ProcedureSet,
    /// What its notifications are made of.
    notes: Notes,
}

/// Checks `text`'s syntax only (a leading EXPLAIN or PROFILE allowed): a cheap
/// check before loading a graph to run it on.
pub fn check_syntax(text: &str) -> Result<()> {
    let parsed = split_prefixes(text).and_then(|(_, _, body)| parse(&body).map(|_| ()));
    parsed.map_err(unparsed)
}

/// An error of a text that does not parse: GQL's syntax error status, as Neo4j's
/// (an error found later, binding the parsed query, is Neo4j's `50N42`), unless the
/// parser gave the status Neo4j gives that error.
fn unparsed(error: CypherError) -> CypherError {
    match error.gql {
        Some(_) => error,
        None => error.with_gql("42001"),
    }
}

/// A text's query options and mode, in either order (`CYPHER ... EXPLAIN` or
/// `EXPLAIN CYPHER ...`, as Neo4j takes both), and the text with both blanked.
/// The statement `text` runs, without its `CYPHER` options and `EXPLAIN` / `PROFILE`
/// (the server admits statements to its `system` database by their clauses).
pub fn statement_of(text: &str) -> Result<crate::ast::Statement> {
    let (_, _, rest) = split_prefixes(text)?;
    crate::parser::parse(&rest)
}

fn split_prefixes(text: &str) -> Result<(crate::options::Options, Mode, String)> {
    let (options, rest) = crate::options::split_options(text)?;
    let (mode, rest) = split_mode(&rest);
    if mode == Mode::Run || options != crate::options::Options::default() {
        return Ok((options, mode, rest.into_owned()));
    }
    let (options, rest) = crate::options::split_options(&rest)?;
    Ok((options, mode, rest.into_owned()))
}

/// The mode a text's first word asks for, and the text with that word blanked
/// (same length, so error positions still point into the original).
fn split_mode(text: &str) -> (Mode, std::borrow::Cow<'_, str>) {
    let start = text.len() - text.trim_start().len();
    let word: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let mode = match word.to_ascii_uppercase().as_str() {
        "EXPLAIN" => Mode::Explain,
        "PROFILE" => Mode::Profile,
        _ => return (Mode::Run, text.into()),
    };
    let blanked = format!(
        "{}{}{}",
        &text[..start],
        " ".repeat(word.len()),
        &text[start + word.len()..]
    );
    (mode, blanked.into())
}

impl Prepared {
    /// Parses, binds and plans `text`, with no procedures to call.
    pub fn new(text: &str) -> Result<Prepared> {
        Prepared::with_procedures(text, &ProcedureSet(Arc::new(NoProcedures)))
    }

    /// Parses, binds and plans `text`; CALL may name `procs`.
    pub fn with_procedures(text: &str, procs: &ProcedureSet) -> Result<Prepared> {
        Prepared::with_plan_mode(text, procs, PlanMode::Optimised)
    }

    /// [`Prepared::with_procedures`], planning every pattern in `plan_mode`
    /// ([`PlanMode::Naive`] is an oracle for the optimised plans, not for serving).
    pub fn with_plan_mode(
        text: &str,
        procs: &ProcedureSet,
        plan_mode: PlanMode,
    ) -> Result<Prepared> {
        let epoch = procs.0.epoch();
        let (options, mode, body) = split_prefixes(text).map_err(unparsed)?;
        let plan_mode = options.plan_mode.unwrap_or(plan_mode);
        let (statement, mut notes) = parse_noted(&body).map_err(unparsed)?;
        options.note(&mut notes);
        let bound = bind_statement(&body, &statement, procs)?;
        let plan = crate::planner::plan(bound, plan_mode, &|name| procs.0.stored(name))?;
        let notes = notes.finish(crate::executor::writes(&plan), text);
        Ok(Prepared {
            text: text.to_owned(),
            plan: Arc::new(plan),
            epoch,
            mode,
            procs: procs.clone(),
            notes,
        })
    }

    /// The notifications of a run over `graph` with `params` (docs/cypher.md,
    /// "Notifications").
    pub fn notifications(
        &self,
        graph: &dyn GraphView,
        params: &[(String, Value)],
    ) -> Vec<Notification> {
        (self.notes).at_run(&self.text, graph, params, self.mode == Mode::Explain)
    }

    /// The result column names.
    pub fn columns(&self) -> Vec<String> {
        self.plan.columns.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Whether running it writes (an EXPLAIN runs nothing).
    pub fn writes(&self) -> bool {
        self.mode != Mode::Explain && crate::executor::writes(&self.plan)
    }
}

/// What one query may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Rows any one operator may hold.
    pub rows_max: usize,
    /// Rows the result may have.
    pub result_rows_max: usize,
    /// Time the query may run.
    pub timeout: Option<Duration>,
    /// Set to stop the query (its client is gone).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Set to stop the query on an operator's word (`TERMINATE TRANSACTION`).
    pub terminate: Option<Arc<AtomicBool>>,
    /// Its transaction's metadata (`tx.getMetaData()`, `tx.setMetaData()`); none: an
    /// empty map of its own.
    pub metadata: Option<crate::TxMetadata>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rows_max: 10_000_000,
            result_rows_max: 1_000_000,
            timeout: None,
            cancel: None,
            terminate: None,
            metadata: None,
        }
    }
}

/// A query's answer: rows of plain values (nodes and relationships flattened to
/// maps, kith's own protocol), or of [`GraphValue`]s ([`run_graph`], for Bolt).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryResult<T = Value> {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of values.
    pub rows: Vec<Vec<T>>,
    /// The plan, described (EXPLAIN) or with its counts (PROFILE).
    pub plan: Option<PlanNode>,
    /// What the query's answer says beside its rows.
    pub notifications: Vec<Notification>,
}

/// Plans cached by text, bounded, and the procedures queries may CALL.
pub struct Engine {
    cache: Mutex<FxHashMap<String, Arc<Prepared>>>,
    cache_entries_max: usize,
    procs: ProcedureSet,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(1024)
    }
}

impl Engine {
    /// An engine caching at most `cache_entries_max` plans.
    pub fn new(cache_entries_max: usize) -> Engine {
        Engine::with_procedures(cache_entries_max, Arc::new(NoProcedures))
    }

    /// An engine whose queries may CALL `procs`.
    pub fn with_procedures(cache_entries_max: usize, procs: Arc<dyn Procedures>) -> Engine {
        Engine {
            cache: Mutex::new(FxHashMap::default()),
            cache_entries_max,
            procs: ProcedureSet(procs),
        }
    }

    /// The procedures its queries may call.
    pub fn procedures(&self) -> &Arc<dyn Procedures> {
        &self.procs.0
    }

    /// The plan for `text`, from the cache when it was prepared before.
    pub fn prepare(&self, text: &str) -> Result<Arc<Prepared>> {
        if let Some(p) = self.cache.lock().map_err(|_| poisoned())?.get(text) {
            // A plan that may call an older version of a stored procedure is stale.
            if p.epoch == self.procs.0.epoch() {
                return Ok(p.clone());
            }
        }
        let prepared = Arc::new(Prepared::with_procedures(text, &self.procs)?);
        let mut cache = self.cache.lock().map_err(|_| poisoned())?;
        if cache.len() >= self.cache_entries_max {
            // A full cache starts over: simple, bounded, and texts in use return at once.
            cache.clear();
        }
        cache.insert(text.to_owned(), prepared.clone());
        Ok(prepared)
    }

    /// Prepares (or finds) and runs `text`.
    pub fn query(
        &self,
        graph: &dyn GraphView,
        text: &str,
        params: &[(String, Value)],
        limits: &Limits,
    ) -> Result<QueryResult> {
        let prepared = self.prepare(text)?;
        run(graph, &prepared, params, limits)
    }

    /// Prepares (or finds) and runs `text` in a transaction.
    pub fn query_tx(
        &self,
        tx: &mut dyn GraphTx,
        text: &str,
        params: &[(String, Value)],
        limits: &Limits,
    ) -> Result<QueryResult> {
        let prepared = self.prepare(text)?;
        run_tx(tx, &prepared, params, limits)
    }
}

fn poisoned() -> CypherError {
    CypherError::new(
        ErrorCode::Cancelled,
        "the plan cache is unusable after a panic",
    )
}

/// Runs a prepared query that only reads over a graph. A query that writes needs a
/// transaction: [`run_tx`].
pub fn run(
    graph: &dyn GraphView,
    prepared: &Prepared,
    params: &[(String, Value)],
    limits: &Limits,
) -> Result<QueryResult> {
    run_as(
        Target::Read(graph),
        prepared,
        params,
        limits,
        executor::output_value,
    )
}

/// [`run`], answering nodes, relationships and paths as such.
pub fn run_graph(
    graph: &dyn GraphView,
    prepared: &Prepared,
    params: &[(String, Value)],
    limits: &Limits,
) -> Result<QueryResult<GraphValue>> {
    run_as(
        Target::Read(graph),
        prepared,
        params,
        limits,
        executor::graph_value,
    )
}

/// Runs a prepared query in a transaction: it reads the transaction's version, its
/// writes go there (visible to its own later clauses), and the caller commits them.
pub fn run_tx(
    tx: &mut dyn GraphTx,
    prepared: &Prepared,
    params: &[(String, Value)],
    limits: &Limits,
) -> Result<QueryResult> {
    run_as(
        Target::Tx(tx),
        prepared,
        params,
        limits,
        executor::output_value,
    )
}

/// [`run_tx`], answering nodes, relationships and paths as such.
pub fn run_graph_tx(
    tx: &mut dyn GraphTx,
    prepared: &Prepared,
    params: &[(String, Value)],
    limits: &Limits,
) -> Result<QueryResult<GraphValue>> {
    run_as(
        Target::Tx(tx),
        prepared,
        params,
        limits,
        executor::graph_value,
    )
}

/// What a run reads and writes.
enum Target<'a> {
    Read(&'a dyn GraphView),
    Tx(&'a mut dyn GraphTx),
}

impl Target<'_> {
    fn source(&mut self) -> Source<'_> {
        match self {
            Target::Read(g) => Source::Read(*g),
            Target::Tx(t) => Source::Tx(RefCell::new(&mut **t)),
        }
    }

    fn view(&self) -> &dyn GraphView {
        match self {
            Target::Read(g) => *g,
            Target::Tx(t) => t.view(),
        }
    }
}

/// Runs a prepared query, making each answer value with `out`.
fn run_as<T: std::fmt::Debug>(
    mut target: Target<'_>,
    prepared: &Prepared,
    params: &[(String, Value)],
    limits: &Limits,
    out: fn(&Val, &Ctx<'_>) -> T,
) -> Result<QueryResult<T>> {
    if prepared.writes() && matches!(target, Target::Read(_)) {
        return Err(CypherError::new(
            ErrorCode::ExecutionFailed,
            "this query writes: it must run in a transaction",
        ));
    }
    let plan = &prepared.plan;
    if prepared.mode == Mode::Explain {
        return Ok(QueryResult {
            columns: prepared.columns(),
            rows: Vec::new(),
            plan: Some(describe(plan, target.view())),
            notifications: prepared.notifications(target.view(), params),
        });
    }
    let budget = Budget {
        rows_max: limits.rows_max,
        deadline: limits.timeout.map(|t| Instant::now() + t),
        cancel: limits.cancel.clone(),
        terminate: limits.terminate.clone(),
        metadata: limits.metadata.clone(),
    };
    let profiler = (prepared.mode == Mode::Profile).then(Profiler::default);
    let run = Run {
        params,
        budget: &budget,
        out,
        profiler: profiler.as_ref(),
        procs: &prepared.procs,
        notices: RefCell::new(Vec::new()),
    };
    let mut rows = run.plan(&mut target, plan)?;
    for (all, other) in &plan.unions {
        rows.extend(run.plan(&mut target, other)?);
        if !*all {
            dedup(&mut rows);
        }
    }
    if rows.len() > limits.result_rows_max {
        return Err(CypherError::new(
            ErrorCode::LimitExceeded,
            format!("the result has more than {} rows", limits.result_rows_max),
        ));
    }
    let mut notifications = prepared.notifications(target.view(), params);
    notifications.append(&mut run.notices.take());
    let plan = profiler.map(|p| {
        let mut tree = describe(plan, target.view());
        tree.fill(&|key| p.counted(key), Some(rows.len() as u64));
        tree
    });
    Ok(QueryResult {
        columns: prepared.columns(),
        rows,
        plan,
        notifications,
    })
}

/// UNION's DISTINCT over answer rows (their printed form is their identity: answer
/// values are plain data, nodes and relationships included by id), with an integer
/// and the float equal to it one value, as DISTINCT has them (`RETURN 0 UNION RETURN
/// 0.0` is one row in Neo4j).
fn dedup<T: std::fmt::Debug>(rows: &mut Vec<Vec<T>>) {
    static INTEGRAL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let integral = INTEGRAL
        .get_or_init(|| regex::Regex::new(r"Float\((-?)(\d+)\.0\)").expect("a valid pattern"));
    let mut seen: FxHashSet<String> = FxHashSet::default();
    rows.retain(|r| {
        let text = format!("{r:?}");
        let key = integral.replace_all(&text, |c: &regex::Captures<'_>| {
            let sign = if &c[2] == "0" { "" } else { &c[1] };
            format!("Int({sign}{})", &c[2])
        });
        seen.insert(key.into_owned())
    });
}

/// What every part of one run shares.
struct Run<'r, T> {
    params: &'r [(String, Value)],
    budget: &'r Budget,
    out: fn(&Val, &Ctx<'_>) -> T,
    profiler: Option<&'r Profiler>,
    procs: &'r ProcedureSet,
    /// What running found to say (`Ctx::notices` of each part).
    notices: RefCell<Vec<Notification>>,
}

impl<T> Run<'_, T> {
    /// Runs one plan (a UNION part) over `target`: its answer rows.
    fn plan(&self, target: &mut Target<'_>, plan: &Plan) -> Result<Vec<Vec<T>>> {
        let mut values = Vec::with_capacity(plan.names.params.len());
        for name in &plan.names.params {
            let v = self
                .params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| Val::from_value(v));
            values.push(v.ok_or_else(|| {
                CypherError::new(
                    ErrorCode::ParameterMissing,
                    format!("expected a parameter named `{name}`"),
                )
            })?);
        }
        let source = target.source();
        let cx = Ctx::new(source, plan, values, self.budget.clone())
            .profiled(self.profiler)
            .with_procedures(self.procs);
        let rows = executor::run(plan, &cx)?;
        self.notices
            .borrow_mut()
            .append(&mut cx.notices.borrow_mut());
        // A query without RETURN (one ending in CREATE) answers with no rows at all.
        if plan.columns.is_empty() {
            return Ok(Vec::new());
        }
        let out = self.out;
        Ok(rows
            .iter()
            .map(|r| plan.columns.iter().map(|(_, s)| out(&r[*s], &cx)).collect())
            .collect())
    }
}
