//! The openCypher TCK against kith's Cypher engine.
//!
//! Runs every scenario of the vendored feature files (`tests/tck/features`, see
//! `tests/tck/README.md`), prints the pass rate per feature file and the most common
//! failure causes, and fails if a scenario listed in `tests/tck/passing.txt` does not
//! pass: a passing scenario may never regress.
//!
//! ```text
//! cargo test -p kith-cypher --test tck                  # run, check passing.txt
//! cargo test -p kith-cypher --test tck -- Match7 Create  # only ids containing a word
//! KITH_TCK_WRITE=1 cargo test -p kith-cypher --test tck  # rewrite passing.txt
//! KITH_TCK_VERBOSE=1 ...                                 # every failure, in full
//! KITH_TCK_REPORT=/tmp/tck.tsv ...                       # one line per scenario
//! KITH_TCK_TRACE=1 ...                                   # every query and its result
//! ```
//!
//! Each scenario runs on its own thread with a fresh in-memory store. Queries run under
//! a time limit, a scenario that does not finish within a wall-clock limit is reported
//! as hanging, and a panic fails only its scenario (reported as an engine bug).

#[path = "tck/effects.rs"]
mod effects;
#[path = "tck/gherkin.rs"]
mod gherkin;
#[path = "tck/procs.rs"]
mod procs;
#[path = "tck/values.rs"]
mod values;

use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kith_core::Value;
use kith_cypher::{CypherError, Engine, ErrorCode, Limits, QueryResult};
use kith_storage::{Snapshot, StorageError, Store, Tx};

use values::{Expected, ListOrder};

/// The engine's time limit for one query.
const QUERY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a whole scenario may take before it is reported as hanging (a query that
/// never looks at its deadline cannot be stopped; its thread is abandoned).
const SCENARIO_WALL: Duration = Duration::from_secs(30);

/// Why a scenario did not pass.
#[derive(Clone, Debug)]
struct Failure {
    /// A short key that groups failures with one cause.
    cause: String,
    /// The particulars: the step, expected and actual values.
    detail: String,
}

impl Failure {
    fn new(cause: impl Into<String>, detail: impl Into<String>) -> Failure {
        Failure {
            cause: cause.into(),
            detail: detail.into(),
        }
    }
}

/// When an error was raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Parsing, binding, planning.
    Compile,
    /// Running, or applying the writes.
    Runtime,
}

/// An error a query ended with.
#[derive(Debug)]
enum Raised {
    /// The engine's error.
    Engine(CypherError, Phase),
    /// The engine produced writes the store refused.
    Storage(StorageError),
}

impl Raised {
    fn phase(&self) -> Phase {
        match self {
            Raised::Engine(_, p) => *p,
            Raised::Storage(_) => Phase::Runtime,
        }
    }

    /// A grouping key: the code and the message.
    fn cause(&self) -> String {
        match self {
            Raised::Engine(e, _) => format!("{:?}: {}", e.code, e.message),
            Raised::Storage(e) => format!("write refused by the store: {e}"),
        }
    }

    fn kind(&self) -> String {
        match self {
            Raised::Engine(e, _) => format!("{:?}", e.code),
            Raised::Storage(_) => "a store error".into(),
        }
    }
}

/// Whether an error of the TCK's type `tck` (with its detail) is what kith raised.
/// Strict about the kind, not the detail: each TCK type maps to one `ErrorCode`,
/// except that kith has its own code for the TCK's `SyntaxError: UnknownFunction`, and
/// refusals by the store stand for the TCK's entity and constraint errors.
fn accepts(tck: &str, detail: &str, raised: &Raised) -> bool {
    let code = match raised {
        Raised::Engine(e, _) => e.code,
        Raised::Storage(_) => {
            return matches!(
                tck,
                "EntityNotFound" | "ConstraintVerificationFailed" | "ConstraintValidationFailed"
            )
        }
    };
    match tck {
        "SyntaxError" => {
            code == ErrorCode::SyntaxError
                || (detail == "UnknownFunction" && code == ErrorCode::UnknownFunction)
        }
        "SemanticError" => code == ErrorCode::SemanticError,
        "TypeError" => code == ErrorCode::TypeError,
        "ArgumentError" => code == ErrorCode::ArgumentError,
        "ArithmeticError" => code == ErrorCode::ArithmeticError,
        "ParameterMissing" => code == ErrorCode::ParameterMissing,
        "EntityNotFound" => code == ErrorCode::EntityNotFound,
        "ProcedureError" => {
            matches!(
                code,
                ErrorCode::ProcedureNotFound | ErrorCode::ProcedureCallFailed
            )
        }
        "ConstraintVerificationFailed" | "ConstraintValidationFailed" => {
            code == ErrorCode::ConstraintViolation
        }
        _ => false,
    }
}

/// The last query a scenario ran.
struct Executed {
    outcome: Result<QueryResult, Raised>,
    before: effects::State,
}

/// A scenario's running state.
struct Run {
    store: Store,
    engine: Engine,
    procedures: Vec<procs::Fixture>,
    params: Vec<(String, Value)>,
    last: Option<Executed>,
    /// Whether an expected error was raised in another phase than the TCK says.
    phase_mismatch: bool,
}

impl Run {
    fn new() -> Run {
        Run {
            store: Store::new(Snapshot::empty()),
            engine: Engine::default(),
            procedures: Vec::new(),
            params: Vec::new(),
            last: None,
            phase_mismatch: false,
        }
    }

    /// Runs `text` on the current graph and applies its writes.
    fn execute(&self, text: &str) -> Executed {
        let snapshot = self.store.snapshot();
        let before = effects::State::of(&snapshot);
        let limits = Limits {
            timeout: Some(QUERY_TIMEOUT),
            ..Limits::default()
        };
        let outcome = match self.engine.prepare(text) {
            Err(e) => Err(Raised::Engine(e, Phase::Compile)),
            Ok(prepared) => {
                let mut tx = Tx::new(&snapshot);
                match kith_cypher::run_tx(&mut tx, &prepared, &self.params, &limits) {
                    Err(e) => Err(Raised::Engine(e, Phase::Runtime)),
                    Ok(result) if tx.is_empty() => Ok(result),
                    Ok(result) => match self.store.apply(&tx.into_batch()) {
                        Ok(_) => Ok(result),
                        Err(e) => Err(Raised::Storage(e)),
                    },
                }
            }
        };
        Executed { outcome, before }
    }

    fn last(&self, step: &str) -> Result<&Executed, Failure> {
        self.last.as_ref().ok_or_else(|| {
            Failure::new(
                "runner: a check before any query",
                format!("`{step}` comes before `When executing query`"),
            )
        })
    }

    fn step(&mut self, step: &gherkin::Step) -> Result<(), Failure> {
        let text = step.text.as_str();
        let doc = || {
            step.doc.clone().ok_or_else(|| {
                Failure::new("runner: a step without its query", format!("`{text}`"))
            })
        };
        match text {
            "an empty graph" | "any graph" => {
                self.store = Store::new(Snapshot::empty());
                Ok(())
            }
            "having executed:" => {
                let query = doc()?;
                let done = self.execute(&query);
                match done.outcome {
                    Ok(_) => Ok(()),
                    Err(e) => Err(Failure::new(
                        format!("setup query failed: {}", e.cause()),
                        format!("the set-up query\n{query}\nfailed: {e:?}"),
                    )),
                }
            }
            "parameters are:" => {
                for row in &step.table {
                    let [name, value] = row.as_slice() else {
                        return Err(Failure::new(
                            "runner: a parameter row without two cells",
                            format!("{row:?}"),
                        ));
                    };
                    let parsed = values::parse(value)
                        .and_then(|v| values::to_param(&v))
                        .map_err(|e| {
                            Failure::new(
                                "runner: cannot parse a parameter",
                                format!("`{value}`: {e}"),
                            )
                        })?;
                    self.params.push((name.clone(), parsed));
                }
                Ok(())
            }
            "executing query:" | "executing control query:" => {
                let query = doc()?;
                let done = self.execute(&query);
                if trace() {
                    let shown = match &done.outcome {
                        Ok(r) => show_result(r),
                        Err(e) => format!("  {e:?}\n"),
                    };
                    println!("--- {query}\n{shown}");
                }
                self.last = Some(done);
                Ok(())
            }
            "the result should be empty" => {
                let result = self.result(text)?;
                if result.rows.is_empty() {
                    Ok(())
                } else {
                    Err(Failure::new(
                        "wrong result: rows where none are expected",
                        format!("expected no rows, got\n{}", show_result(result)),
                    ))
                }
            }
            "no side effects" => self.side_effects(&[]),
            "the side effects should be:" => self.side_effects(&step.table),
            _ => {
                if let Some(how) = text.strip_prefix("the result should be") {
                    let (ordered, lists) = match how {
                        ", in any order:" => (false, ListOrder::Strict),
                        ", in order:" => (true, ListOrder::Strict),
                        " (ignoring element order for lists):" => (false, ListOrder::Ignore),
                        ", in order (ignoring element order for lists):" => {
                            (true, ListOrder::Ignore)
                        }
                        _ => return Err(unknown_step(text)),
                    };
                    let result = self.result(text)?;
                    return check_result(&step.table, result, ordered, lists);
                }
                if let Some(error) = parse_error_step(text) {
                    return self.error(text, &error);
                }
                if let Some(declaration) = text.strip_prefix("there exists a procedure ") {
                    let fixture = procs::fixture(declaration, &step.table).map_err(|e| {
                        Failure::new("runner: cannot read a procedure", format!("`{text}`: {e}"))
                    })?;
                    self.procedures.push(fixture);
                    let set = procs::TestProcedures {
                        fixtures: self.procedures.clone(),
                    };
                    // The plans cached so far knew fewer procedures: a new engine.
                    self.engine = Engine::with_procedures(1024, std::sync::Arc::new(set));
                    return Ok(());
                }
                if let Some(name) = text
                    .strip_prefix("the ")
                    .and_then(|t| t.strip_suffix(" graph"))
                {
                    return self.named_graph(name);
                }
                Err(unknown_step(text))
            }
        }
    }

    /// `Given the NAME graph`: an empty graph, then the TCK's own script for it
    /// (`tck/graphs/NAME/NAME.cypher`, vendored beside the features).
    fn named_graph(&mut self, name: &str) -> Result<(), Failure> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/tck/graphs")
            .join(name)
            .join(format!("{name}.cypher"));
        let query = std::fs::read_to_string(&path).map_err(|e| {
            Failure::new(
                "runner: an unknown named graph",
                format!("{}: {e}", path.display()),
            )
        })?;
        self.store = Store::new(Snapshot::empty());
        let done = self.execute(&query);
        match done.outcome {
            Ok(_) => Ok(()),
            Err(e) => Err(Failure::new(
                format!("named graph failed: {}", e.cause()),
                format!("the {name} graph's script failed: {e:?}"),
            )),
        }
    }

    /// The last query's result; a failure if it raised an error.
    fn result(&self, step: &str) -> Result<&QueryResult, Failure> {
        match &self.last(step)?.outcome {
            Ok(r) => Ok(r),
            Err(e) => Err(Failure::new(
                e.cause(),
                format!("expected a result, got {e:?}"),
            )),
        }
    }

    fn error(&mut self, step: &str, want: &ErrorStep) -> Result<(), Failure> {
        let expected = format!("{} ({})", want.tck, want.detail);
        match &self.last(step)?.outcome {
            Ok(r) => Err(Failure::new(
                format!("expected {}, the query succeeded", want.tck),
                format!("expected {expected}, got\n{}", show_result(r)),
            )),
            Err(e) if accepts(&want.tck, &want.detail, e) => {
                if want.phase.is_some_and(|p| p != e.phase()) {
                    self.phase_mismatch = true;
                }
                Ok(())
            }
            Err(e) => Err(Failure::new(
                format!("expected {}, raised {}", want.tck, e.kind()),
                format!("expected {expected}, got {e:?}"),
            )),
        }
    }

    fn side_effects(&self, table: &[Vec<String>]) -> Result<(), Failure> {
        let last = self.last("side effects")?;
        let mut want = BTreeMap::new();
        for row in table {
            let [name, count] = row.as_slice() else {
                return Err(Failure::new(
                    "runner: a side-effect row without two cells",
                    format!("{row:?}"),
                ));
            };
            let n: usize = count.parse().map_err(|_| {
                Failure::new("runner: a side-effect count is not a number", count.clone())
            })?;
            if n > 0 {
                want.insert(name.clone(), n);
            }
        }
        let got = effects::diff(&last.before, &effects::State::of(&self.store.snapshot()));
        if got == want {
            Ok(())
        } else {
            Err(Failure::new(
                "wrong side effects",
                format!("expected side effects {want:?}, got {got:?}"),
            ))
        }
    }
}

/// Whether `KITH_TCK_TRACE=1` asks for every query and its result to be printed.
fn trace() -> bool {
    std::env::var_os("KITH_TCK_TRACE").is_some_and(|v| v == "1")
}

fn unknown_step(text: &str) -> Failure {
    Failure::new("runner: unknown step", text.to_owned())
}

/// `a TypeError should be raised at runtime: InvalidArgumentType`.
struct ErrorStep {
    tck: String,
    phase: Option<Phase>,
    detail: String,
}

fn parse_error_step(text: &str) -> Option<ErrorStep> {
    let rest = text
        .strip_prefix("a ")
        .or_else(|| text.strip_prefix("an "))?;
    let (tck, rest) = rest.split_once(" should be raised at ")?;
    let (phase, detail) = rest.split_once(':').unwrap_or((rest, ""));
    let phase = match phase.trim() {
        "compile time" => Some(Phase::Compile),
        "runtime" => Some(Phase::Runtime),
        _ => None,
    };
    Some(ErrorStep {
        tck: tck.trim().to_owned(),
        phase,
        detail: detail.trim().to_owned(),
    })
}

fn check_result(
    table: &[Vec<String>],
    result: &QueryResult,
    ordered: bool,
    lists: ListOrder,
) -> Result<(), Failure> {
    let Some((header, rows)) = table.split_first() else {
        return Err(Failure::new("runner: a result step without a table", ""));
    };
    let mut expected: Vec<Vec<Expected>> = Vec::with_capacity(rows.len());
    for row in rows {
        let parsed = row
            .iter()
            .map(|c| values::parse(c).map_err(|e| format!("`{c}`: {e}")))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Failure::new("runner: cannot parse an expected value", e))?;
        expected.push(parsed);
    }
    let mut have: Vec<&String> = result.columns.iter().collect();
    let mut want: Vec<&String> = header.iter().collect();
    have.sort();
    want.sort();
    if have != want {
        return Err(Failure::new(
            "wrong result: column names",
            format!(
                "expected columns {header:?}, got {:?}\n{}",
                result.columns,
                show_result(result)
            ),
        ));
    }
    // The result's rows, with columns in the table's order.
    let positions: Vec<usize> = header
        .iter()
        .filter_map(|h| result.columns.iter().position(|c| c == h))
        .collect();
    let actual: Vec<Vec<&Value>> = result
        .rows
        .iter()
        .map(|r| positions.iter().filter_map(|&i| r.get(i)).collect())
        .collect();
    let row_matches = |e: &Vec<Expected>, a: &Vec<&Value>| {
        e.len() == a.len() && e.iter().zip(a).all(|(x, y)| values::matches(x, y, lists))
    };
    let ok = if ordered {
        expected.len() == actual.len()
            && expected.iter().zip(&actual).all(|(e, a)| row_matches(e, a))
    } else {
        values::bag_matches(&expected, &actual, row_matches)
    };
    if ok {
        return Ok(());
    }
    let cause = if expected.len() != actual.len() {
        "wrong result: number of rows"
    } else if ordered && values::bag_matches(&expected, &actual, row_matches) {
        "wrong result: row order"
    } else {
        "wrong result: values"
    };
    let mut detail = format!("expected {} rows:\n", expected.len());
    for row in rows {
        let _ = writeln!(detail, "  | {} |", row.join(" | "));
    }
    let _ = write!(
        detail,
        "got {} rows:\n{}",
        result.rows.len(),
        show_result(result)
    );
    Err(Failure::new(cause, detail))
}

fn show_result(r: &QueryResult) -> String {
    let mut out = format!("  | {} |\n", r.columns.join(" | "));
    for row in r.rows.iter().take(50) {
        let cells: Vec<String> = row.iter().map(values::show).collect();
        let _ = writeln!(out, "  | {} |", cells.join(" | "));
    }
    if r.rows.len() > 50 {
        let _ = writeln!(out, "  ... {} more", r.rows.len() - 50);
    }
    out
}

thread_local! {
    /// Where the last panic on this thread happened, recorded by the panic hook.
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

/// Runs one scenario; a panic is a failure of this scenario.
fn run_scenario(scenario: &gherkin::Scenario) -> (Result<(), Failure>, bool) {
    let mut run = Run::new();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        for step in &scenario.steps {
            run.step(step).map_err(|mut f| {
                f.detail = format!(
                    "step `{} {}` (line {}): {}",
                    step.keyword, step.text, step.line, f.detail
                );
                f
            })?;
        }
        Ok(())
    }));
    match outcome {
        Ok(result) => (result, run.phase_mismatch),
        Err(payload) => {
            let at = PANIC_AT.with(|p| p.borrow_mut().take()).unwrap_or_default();
            let message = panic_message(payload.as_ref());
            (
                Err(Failure::new(
                    format!("panic (engine bug) at {at}: {message}"),
                    "the scenario panicked".to_owned(),
                )),
                false,
            )
        }
    }
}

/// One scenario of one file, with its stable id.
struct Case {
    /// The feature file, relative to `features/`.
    file: String,
    /// `file :: name` or `file :: name :: example`.
    id: String,
    scenario: gherkin::Scenario,
}

/// The outcome of one case.
struct Outcome {
    result: Result<(), Failure>,
    phase_mismatch: bool,
}

fn feature_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            feature_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
    Ok(())
}

fn load(features: &Path) -> Result<(Vec<Case>, usize), String> {
    let mut files = Vec::new();
    feature_files(features, &mut files).map_err(|e| format!("{}: {e}", features.display()))?;
    files.sort();
    let mut cases = Vec::new();
    let mut ignored = 0;
    let mut ids = HashSet::new();
    for path in files {
        let rel = path
            .strip_prefix(features)
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{rel}: {e}"))?;
        let feature = gherkin::parse(&text).map_err(|e| format!("{rel}: {e}"))?;
        for scenario in feature.scenarios {
            if scenario.tags.iter().any(|t| t == "@ignore") {
                ignored += 1;
                continue;
            }
            let id = match scenario.example {
                Some(n) => format!("{rel} :: {} :: {n}", scenario.name),
                None => format!("{rel} :: {}", scenario.name),
            };
            if !ids.insert(id.clone()) {
                return Err(format!("two scenarios have the id `{id}`"));
            }
            cases.push(Case {
                file: rel.clone(),
                id,
                scenario,
            });
        }
    }
    Ok((cases, ignored))
}

/// Runs a case on its own thread, giving up on it after [`SCENARIO_WALL`].
fn run_case(case: &Case) -> Outcome {
    let (tx, rx) = mpsc::channel();
    let scenario = case.scenario.clone();
    let spawned = std::thread::Builder::new()
        .name("tck-scenario".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(run_scenario(&scenario));
        });
    if let Err(e) = spawned {
        return Outcome {
            result: Err(Failure::new("runner: cannot start a thread", e.to_string())),
            phase_mismatch: false,
        };
    }
    match rx.recv_timeout(SCENARIO_WALL) {
        Ok((result, phase_mismatch)) => Outcome {
            result,
            phase_mismatch,
        },
        Err(_) => Outcome {
            result: Err(Failure::new(
                format!("hangs: no answer within {SCENARIO_WALL:?} (engine bug)"),
                "the scenario's thread was abandoned".to_owned(),
            )),
            phase_mismatch: false,
        },
    }
}

fn read_passing(path: &Path) -> Result<Vec<String>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

const PASSING_HEADER: &str = "\
# openCypher TCK scenarios kith passes: `feature file :: scenario [:: example]`.
# `cargo test -p kith-cypher --test tck` fails if any of them fails.
# Rewrite with `KITH_TCK_WRITE=1 cargo test -p kith-cypher --test tck`.
";

fn pct(passed: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * passed as f64 / total as f64
    }
}

/// Prints the pass rate per feature file, per folder and in total.
fn print_table(cases: &[Case], outcomes: &[Outcome]) {
    let mut per_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut per_dir: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (case, outcome) in cases.iter().zip(outcomes) {
        let ok = usize::from(outcome.result.is_ok());
        let dir = case.file.rsplit_once('/').map_or("", |(d, _)| d);
        for entry in [
            per_file.entry(case.file.as_str()).or_default(),
            per_dir.entry(dir).or_default(),
        ] {
            entry.0 += ok;
            entry.1 += 1;
        }
    }
    println!("\nopenCypher TCK: pass rate per feature file\n");
    println!("{:<55} {:>7} {:>6}", "feature file", "passed", "rate");
    for (file, (p, t)) in &per_file {
        println!("{file:<55} {:>7} {:>5.0}%", format!("{p}/{t}"), pct(*p, *t));
    }
    println!("\nper folder\n");
    for (dir, (p, t)) in &per_dir {
        println!("{dir:<55} {:>7} {:>5.0}%", format!("{p}/{t}"), pct(*p, *t));
    }
    let passed = outcomes.iter().filter(|o| o.result.is_ok()).count();
    println!(
        "\n{:<55} {:>7} {:>5.1}%",
        "total (an outline's examples count one by one)",
        format!("{passed}/{}", outcomes.len()),
        pct(passed, outcomes.len())
    );
    // An outline counts once here, and passes only if all its examples pass.
    let mut scenarios: BTreeMap<(&str, usize), bool> = BTreeMap::new();
    for (case, outcome) in cases.iter().zip(outcomes) {
        let all = scenarios
            .entry((case.file.as_str(), case.scenario.line))
            .or_insert(true);
        *all &= outcome.result.is_ok();
    }
    let whole = scenarios.values().filter(|ok| **ok).count();
    println!(
        "{:<55} {:>7} {:>5.1}%",
        "total (an outline counts once, if all examples pass)",
        format!("{whole}/{}", scenarios.len()),
        pct(whole, scenarios.len())
    );
}

/// A cause with the names in backticks (variables, keys) blanked, so that one cause
/// with different names counts once.
fn cause_group(cause: &str) -> String {
    let mut out = String::with_capacity(cause.len());
    let mut inside = false;
    for c in cause.chars() {
        if c == '`' {
            inside = !inside;
            out.push_str(if inside { "`_" } else { "`" });
        } else if !inside {
            out.push(c);
        }
    }
    out
}

/// Prints the most common failure causes with a count and an example.
fn print_causes(cases: &[Case], outcomes: &[Outcome]) {
    let mut causes: BTreeMap<String, (usize, &str)> = BTreeMap::new();
    for (case, outcome) in cases.iter().zip(outcomes) {
        if let Err(f) = &outcome.result {
            let e = causes.entry(cause_group(&f.cause)).or_insert((0, &case.id));
            e.0 += 1;
        }
    }
    let mut sorted: Vec<_> = causes.into_iter().collect();
    sorted.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    println!(
        "\nmost common failure causes (of {} distinct)\n",
        sorted.len()
    );
    for (cause, (n, example)) in sorted.iter().take(30) {
        let cause: String = cause.chars().take(110).collect();
        println!("{n:>5}  {cause}\n       e.g. {example}");
    }
}

/// The words to select scenarios by: the arguments that are not flags. Flags meant
/// for libtest harnesses (`cargo test -- --test-threads 2`) are skipped with their
/// values.
fn filters(args: impl Iterator<Item = String>) -> Vec<String> {
    const WITH_VALUE: [&str; 5] = [
        "--skip",
        "--test-threads",
        "--color",
        "--format",
        "--logfile",
    ];
    let mut out = Vec::new();
    let mut skip_value = false;
    for a in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if a.starts_with('-') {
            skip_value = WITH_VALUE.contains(&a.as_str());
        } else {
            out.push(a);
        }
    }
    out
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tck");
    let filters = filters(std::env::args().skip(1));
    let write = std::env::var_os("KITH_TCK_WRITE").is_some_and(|v| v == "1");
    let verbose = std::env::var_os("KITH_TCK_VERBOSE").is_some_and(|v| v == "1");

    let (mut cases, ignored) = match load(&root.join("features")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tck: cannot load the feature files: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !filters.is_empty() {
        cases.retain(|c| filters.iter().any(|f| c.id.contains(f.as_str())));
    }
    if write && !filters.is_empty() {
        eprintln!("tck: KITH_TCK_WRITE=1 rewrites the whole list; run it without a filter");
        return ExitCode::FAILURE;
    }

    // Panics inside scenarios are caught and reported; record where they happened
    // instead of printing a backtrace per scenario.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("tck-scenario") {
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            PANIC_AT.with(|p| *p.borrow_mut() = Some(at));
        } else {
            default_hook(info);
        }
    }));

    let started = Instant::now();
    let outcomes: Vec<Outcome> = cases.iter().map(run_case).collect();
    let elapsed = started.elapsed();

    print_table(&cases, &outcomes);
    print_causes(&cases, &outcomes);
    let mismatched = outcomes.iter().filter(|o| o.phase_mismatch).count();
    println!(
        "\n{} scenarios in {:.1}s; {ignored} tagged @ignore by the TCK are not run; \
         {mismatched} passed with an expected error raised in another phase than the TCK names",
        cases.len(),
        elapsed.as_secs_f64()
    );

    if verbose {
        for (case, outcome) in cases.iter().zip(&outcomes) {
            if let Err(f) = &outcome.result {
                println!(
                    "\nFAIL {} (line {})\n  cause: {}\n  {}",
                    case.id, case.scenario.line, f.cause, f.detail
                );
            }
        }
    }
    if let Some(path) = std::env::var_os("KITH_TCK_REPORT") {
        let mut report = String::from("id\tstatus\tcause\n");
        for (case, outcome) in cases.iter().zip(&outcomes) {
            let (status, cause) = match &outcome.result {
                Ok(()) if outcome.phase_mismatch => {
                    ("pass", "error raised in another phase".into())
                }
                Ok(()) => ("pass", String::new()),
                Err(f) => ("fail", f.cause.replace(['\t', '\n'], " ")),
            };
            let _ = writeln!(report, "{}\t{status}\t{cause}", case.id);
        }
        if let Err(e) = std::fs::write(&path, report) {
            eprintln!("tck: cannot write the report: {e}");
        }
    }

    let passing_path = root.join("passing.txt");
    let code = if write {
        let mut text = String::from(PASSING_HEADER);
        for (case, outcome) in cases.iter().zip(&outcomes) {
            if outcome.result.is_ok() {
                text.push_str(&case.id);
                text.push('\n');
            }
        }
        match std::fs::write(&passing_path, text) {
            Ok(()) => {
                println!("\nwrote {}", passing_path.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tck: cannot write {}: {e}", passing_path.display());
                ExitCode::FAILURE
            }
        }
    } else {
        check_passing(&passing_path, &cases, &outcomes, !filters.is_empty())
    };
    // Abandoned (hanging) scenario threads must not keep the process alive.
    std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 });
}

/// Fails if a scenario listed as passing failed or no longer exists.
fn check_passing(path: &Path, cases: &[Case], outcomes: &[Outcome], filtered: bool) -> ExitCode {
    let listed = match read_passing(path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tck: {e}");
            return ExitCode::FAILURE;
        }
    };
    let by_id: BTreeMap<&str, &Outcome> = cases
        .iter()
        .zip(outcomes)
        .map(|(c, o)| (c.id.as_str(), o))
        .collect();
    let mut regressions = Vec::new();
    let mut missing = Vec::new();
    for id in &listed {
        match by_id.get(id.as_str()) {
            Some(o) => {
                if let Err(f) = &o.result {
                    regressions.push((id, f));
                }
            }
            None if !filtered => missing.push(id),
            None => {}
        }
    }
    let listed_set: HashSet<&str> = listed.iter().map(String::as_str).collect();
    let new = cases
        .iter()
        .zip(outcomes)
        .filter(|(c, o)| o.result.is_ok() && !listed_set.contains(c.id.as_str()))
        .count();
    if new > 0 {
        println!(
            "\n{new} scenarios pass that tests/tck/passing.txt does not list: \
             add them with KITH_TCK_WRITE=1"
        );
    }
    if regressions.is_empty() && missing.is_empty() {
        println!("\nno regressions: every scenario in tests/tck/passing.txt passes");
        return ExitCode::SUCCESS;
    }
    for (id, f) in &regressions {
        eprintln!("\nREGRESSION {id}\n  cause: {}\n  {}", f.cause, f.detail);
    }
    for id in &missing {
        eprintln!("\nMISSING {id}: listed in passing.txt but no such scenario");
    }
    eprintln!(
        "\ntck: {} listed scenarios fail and {} no longer exist",
        regressions.len(),
        missing.len()
    );
    ExitCode::FAILURE
}
