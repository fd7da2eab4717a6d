//! Stored Cypher procedures: named, parameterised Cypher texts kept in the graph's
//! schema (so they are as durable as any write: in the log and the checkpoint), and
//! called exactly like native procedures. `kith.procedure.register(name, text)` and
//! `kith.procedure.drop(name)` change them; each text is prepared once per version of
//! the set and its plan runs inside the calling query.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, Weak};

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, SchemaOp, Value};
use rustc_hash::FxHashMap;

use crate::engine::Prepared;
use crate::error::{CypherError, ErrorCode};
use crate::planner::Plan;
use crate::procedures::{CallOutput, ProcParam, ProcedureSet, Procedures, Signature};

/// Registers (or replaces) a stored procedure.
pub const REGISTER: &str = "kith.procedure.register";
/// Drops a stored procedure.
pub const DROP: &str = "kith.procedure.drop";

/// The graph version stored procedures are read from (the current one).
pub type Current = Box<dyn Fn() -> Arc<dyn GraphView> + Send + Sync>;

/// Native procedures, the stored ones of the current version, and the two that
/// manage them.
pub struct WithStored {
    natives: Arc<dyn Procedures>,
    current: Current,
    me: Weak<WithStored>,
    cache: Mutex<Cache>,
}

/// Plans of stored texts, valid for one generation of the set.
#[derive(Default)]
struct Cache {
    generation: u64,
    prepared: FxHashMap<String, Arc<Prepared>>,
}

/// How deeply stored procedures may call each other (a bound on the recursion of
/// preparing and of running them).
const NESTING_MAX: usize = 16;

thread_local! {
    /// The stored procedures being prepared on this thread, outermost first: a text
    /// that calls one of them again would recurse without end.
    static PREPARING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// While a registration is checked, the procedures it reached, prepared afresh
    /// (a cached plan would hide a cycle through the one being registered), each
    /// once (a diamond of calls is not prepared once per path).
    static CHECKING: RefCell<Option<FxHashMap<String, Arc<Prepared>>>> = const { RefCell::new(None) };
}

/// Pushes a name on [`PREPARING`] and pops it when dropped, even on unwinding.
struct Preparing;

impl Preparing {
    fn enter(name: &str) -> Preparing {
        PREPARING.with(|p| p.borrow_mut().push(name.to_owned()));
        Preparing
    }
}

impl Drop for Preparing {
    fn drop(&mut self) {
        PREPARING.with(|p| p.borrow_mut().pop());
    }
}

/// Starts a registration's check and ends it when dropped.
struct Checking;

impl Checking {
    fn start() -> Checking {
        CHECKING.with(|c| *c.borrow_mut() = Some(FxHashMap::default()));
        Checking
    }
}

impl Drop for Checking {
    fn drop(&mut self) {
        CHECKING.with(|c| *c.borrow_mut() = None);
    }
}

impl WithStored {
    /// `natives` plus the stored procedures of whatever `current` answers.
    pub fn new(natives: Arc<dyn Procedures>, current: Current) -> Arc<WithStored> {
        Arc::new_cyclic(|me| WithStored {
            natives,
            current,
            me: me.clone(),
            cache: Mutex::new(Cache::default()),
        })
    }

    /// Prepares `text` as the procedure `name`, refusing a cycle of calls.
    fn prepare(&self, name: &str, text: &str) -> Result<Prepared, CypherError> {
        let (cycle, depth) = PREPARING.with(|p| {
            let p = p.borrow();
            (p.iter().any(|n| n == name), p.len())
        });
        if cycle {
            return Err(failed(format!(
                "stored procedure `{name}` would call itself (through the procedures it calls)"
            )));
        }
        if depth >= NESTING_MAX {
            return Err(failed(format!(
                "stored procedures nest deeper than {NESTING_MAX} calls at `{name}`"
            )));
        }
        let me = self.me.upgrade().ok_or_else(|| {
            CypherError::new(
                ErrorCode::ExecutionFailed,
                "the procedures are shutting down",
            )
        })?;
        let _preparing = Preparing::enter(name);
        let prepared = Prepared::with_procedures(text, &ProcedureSet(me))?;
        if prepared.mode != crate::engine::Mode::Run {
            return Err(failed(format!(
                "`{name}` starts with EXPLAIN or PROFILE: store the query itself"
            )));
        }
        Ok(prepared)
    }

    /// The stored procedure `name` of the current version, prepared (from the cache
    /// unless the set changed since).
    fn lookup(&self, name: &str) -> Option<Result<Arc<Prepared>, CypherError>> {
        // A native procedure's name always means the native one.
        if self.natives.signature(name).is_some() {
            return None;
        }
        let graph = (self.current)();
        let schema = graph.schema();
        let text = schema.procedures.get(name)?;
        let checked = CHECKING.with(|c| {
            let c = c.borrow();
            c.as_ref().map(|m| m.get(name).cloned())
        });
        match checked {
            Some(Some(done)) => return Some(Ok(done)),
            Some(None) => {
                let prepared = self.prepare(name, text).map(Arc::new);
                if let Ok(p) = &prepared {
                    CHECKING.with(|c| {
                        if let Some(m) = c.borrow_mut().as_mut() {
                            m.insert(name.to_owned(), p.clone());
                        }
                    });
                }
                return Some(prepared);
            }
            None => {}
        }
        {
            let mut cache = self.cache.lock().ok()?;
            if cache.generation != schema.generation {
                cache.prepared.clear();
                cache.generation = schema.generation;
            }
            if let Some(p) = cache.prepared.get(name) {
                return Some(Ok(p.clone()));
            }
        }
        // Prepared outside the lock: the text may call other stored procedures.
        let prepared = match self.prepare(name, text) {
            Ok(p) => Arc::new(p),
            Err(e) => return Some(Err(e)),
        };
        if let Ok(mut cache) = self.cache.lock() {
            if cache.generation == schema.generation {
                cache.prepared.insert(name.to_owned(), prepared.clone());
            }
        }
        Some(Ok(prepared))
    }

    /// Checks a registration: a free, well-formed name and a text that prepares.
    fn register(&self, args: &[(String, Value)]) -> Result<CallOutput, CypherError> {
        let name = string_arg(args, "name")?;
        let text = string_arg(args, "text")?;
        check_name(&name)?;
        if name.starts_with("kith.") || self.natives.signature(&name).is_some() {
            return Err(failed(format!(
                "`{name}` is the name of a native procedure (or in kith's namespace)"
            )));
        }
        let checking = Checking::start();
        let checked = self.prepare(&name, &text);
        drop(checking);
        checked.map_err(|e| failed(format!("`{name}` does not prepare: {}", e.render(&text))))?;
        Ok(CallOutput::Writes(vec![WriteOp::Schema(
            SchemaOp::RegisterProcedure { name, text },
        )]))
    }

    fn drop_procedure(
        &self,
        graph: &dyn GraphView,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        let name = string_arg(args, "name")?;
        if !graph.schema().procedures.contains_key(&name) {
            return Err(failed(format!(
                "there is no stored procedure named `{name}`"
            )));
        }
        Ok(CallOutput::Writes(vec![WriteOp::Schema(
            SchemaOp::DropProcedure { name },
        )]))
    }
}

/// The signature of a stored procedure: its text's parameters in the order they
/// first appear (over every UNION part), its result columns.
pub(crate) fn signature_of(name: &str, p: &Prepared) -> Signature {
    let first_line = p.text.lines().next().unwrap_or("").trim();
    let mut params: Vec<&String> = Vec::new();
    let parts = std::iter::once(&*p.plan).chain(p.plan.unions.iter().map(|(_, u)| u));
    for n in parts.flat_map(|part| &part.names.params) {
        if !params.contains(&n) {
            params.push(n);
        }
    }
    Signature {
        name: name.to_owned(),
        description: format!("stored Cypher: {first_line}"),
        params: params
            .into_iter()
            .map(|n| ProcParam {
                name: n.clone(),
                type_name: "ANY".to_owned(),
                optional: false,
            })
            .collect(),
        outputs: p.columns(),
        writes: p.writes(),
    }
}

fn manager(name: &str, params: &[&str], description: &str) -> Signature {
    Signature {
        name: name.to_owned(),
        description: description.to_owned(),
        params: params
            .iter()
            .map(|p| ProcParam {
                name: (*p).to_owned(),
                type_name: "STRING".to_owned(),
                optional: false,
            })
            .collect(),
        outputs: Vec::new(),
        writes: true,
    }
}

impl Procedures for WithStored {
    fn signature(&self, name: &str) -> Option<Signature> {
        match name {
            REGISTER => Some(manager(
                REGISTER,
                &["name", "text"],
                "stores a Cypher text as a procedure (replacing one of the name)",
            )),
            DROP => Some(manager(DROP, &["name"], "drops a stored procedure")),
            _ => self.natives.signature(name).or_else(|| {
                let prepared = self.lookup(name)?.ok()?;
                Some(signature_of(name, &prepared))
            }),
        }
    }

    fn list(&self) -> Vec<Signature> {
        let mut out = self.natives.list();
        out.extend([REGISTER, DROP].iter().filter_map(|n| self.signature(n)));
        let graph = (self.current)();
        for name in graph.schema().procedures.keys() {
            match self.lookup(name) {
                Some(Ok(p)) => out.push(signature_of(name, &p)),
                Some(Err(e)) => out.push(Signature {
                    name: name.clone(),
                    description: format!("stored Cypher that no longer prepares: {}", e.message),
                    params: Vec::new(),
                    outputs: Vec::new(),
                    writes: false,
                }),
                None => {}
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    fn call(
        &self,
        graph: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        match name {
            REGISTER => self.register(args),
            DROP => self.drop_procedure(graph, args),
            _ => self.natives.call(graph, name, args),
        }
    }

    fn stored(&self, name: &str) -> Option<Result<Arc<Plan>, CypherError>> {
        Some(self.lookup(name)?.map(|p| p.plan.clone()))
    }

    fn epoch(&self) -> u64 {
        (self.current)().schema().generation
    }
}

fn string_arg(args: &[(String, Value)], name: &str) -> Result<String, CypherError> {
    match args.iter().find(|(k, _)| k == name).map(|(_, v)| v) {
        Some(Value::String(s)) => Ok(s.to_string()),
        other => Err(CypherError::new(
            ErrorCode::ArgumentError,
            format!("`{name}` must be a string, found {other:?}"),
        )),
    }
}

/// Names are dotted identifiers (`app.friends`), so a CALL names them unquoted.
fn check_name(name: &str) -> Result<(), CypherError> {
    let ok = !name.is_empty()
        && name.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    if ok {
        return Ok(());
    }
    Err(CypherError::new(
        ErrorCode::ArgumentError,
        format!("`{name}` is not a procedure name: dotted identifiers only (app.friends)"),
    ))
}

fn failed(message: String) -> CypherError {
    CypherError::new(ErrorCode::ProcedureCallFailed, message)
}
