//! Name -> schema -> implementation.

use std::collections::BTreeMap;

use kith_core::write_op::WriteOp;
use kith_core::{GraphView, Value};

use crate::{ParamSpec, Params, ProcedureError, ResultSet};

/// The body of a procedure: runs over a view with validated parameters.
pub type ProcedureFn = fn(&dyn GraphView, &Params) -> Result<ResultSet, ProcedureError>;

/// A registered procedure.
#[derive(Clone, Copy, Debug)]
pub struct Procedure {
    /// Its name, `family.query`.
    pub name: &'static str,
    /// What it answers, one line.
    pub description: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// Its result columns.
    pub columns: &'static [&'static str],
    /// Its body.
    pub run: ProcedureFn,
}

/// The body of an update procedure: turns validated parameters into one transaction.
/// It reads nothing; nodes are named by external id, so the writer resolves them
/// against the version the transaction commits on, and a missing one fails it.
pub type UpdateFn = fn(&Params) -> Result<Vec<WriteOp>, ProcedureError>;

/// A registered update procedure (e.g. LDBC's IU1..IU8).
#[derive(Clone, Copy, Debug)]
pub struct UpdateProcedure {
    /// Its name, `family.query`.
    pub name: &'static str,
    /// What it changes, one line.
    pub description: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// Its body.
    pub build: UpdateFn,
}

/// All procedures by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    procedures: BTreeMap<&'static str, Procedure>,
    updates: BTreeMap<&'static str, UpdateProcedure>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Every procedure kith ships.
    pub fn with_builtins() -> Self {
        let mut registry = Registry::new();
        for p in crate::graph::procedures()
            .into_iter()
            .chain(crate::db::procedures())
            .chain(crate::apoc_meta::procedures())
            .chain(crate::apoc_schema::procedures())
            .chain(crate::db_schema::procedures())
            .chain(crate::dbms::procedures())
            .chain(crate::shindig::procedures())
            .chain(crate::ldbc::procedures())
            .chain(crate::ldbc::micro::procedures())
            .chain(crate::ldbc::shard_procedures())
        {
            registry.register(p);
        }
        for u in crate::ldbc::updates() {
            registry.register_update(u);
        }
        registry
    }

    /// Adds (or replaces) an update procedure.
    pub fn register_update(&mut self, update: UpdateProcedure) {
        self.updates.insert(update.name, update);
    }

    /// An update procedure by name, if `name` is one.
    pub fn update(&self, name: &str) -> Option<&UpdateProcedure> {
        self.updates.get(name)
    }

    /// All update procedures, by name.
    pub fn updates(&self) -> impl Iterator<Item = &UpdateProcedure> + '_ {
        self.updates.values()
    }

    /// Validates the parameters of update procedure `name` and builds its transaction.
    pub fn build_update(
        &self,
        name: &str,
        params: &[(String, Value)],
    ) -> Result<Vec<WriteOp>, ProcedureError> {
        let update = self
            .updates
            .get(name)
            .ok_or_else(|| ProcedureError::UnknownProcedure {
                name: name.to_owned(),
                suggestions: self.suggest(name),
            })?;
        let params = Params::validate(update.name, update.params, params)?;
        (update.build)(&params)
    }

    /// Adds (or replaces) a procedure.
    pub fn register(&mut self, procedure: Procedure) {
        self.procedures.insert(procedure.name, procedure);
    }

    /// A procedure by name.
    pub fn get(&self, name: &str) -> Result<&Procedure, ProcedureError> {
        self.procedures.get(name).ok_or_else(|| {
            if self.updates.contains_key(name) {
                ProcedureError::UpdateNotHere {
                    name: name.to_owned(),
                }
            } else {
                ProcedureError::UnknownProcedure {
                    name: name.to_owned(),
                    suggestions: self.suggest(name),
                }
            }
        })
    }

    /// All procedures, by name.
    pub fn iter(&self) -> impl Iterator<Item = &Procedure> + '_ {
        self.procedures.values()
    }

    /// Validates the parameters and runs the procedure on `graph`.
    pub fn call(
        &self,
        graph: &dyn GraphView,
        name: &str,
        params: &[(String, Value)],
    ) -> Result<ResultSet, ProcedureError> {
        let procedure = self.get(name)?;
        let params = Params::validate(procedure.name, procedure.params, params)?;
        (procedure.run)(graph, &params)
    }

    /// Names within a small edit distance, or sharing the part after the dot.
    fn suggest(&self, name: &str) -> Vec<String> {
        let tail = name.rsplit('.').next().unwrap_or(name);
        self.procedures
            .keys()
            .chain(self.updates.keys())
            .filter(|candidate| {
                let candidate_tail = candidate.rsplit('.').next().unwrap_or(candidate);
                candidate_tail == tail || edit_distance(candidate, name) <= 3
            })
            .map(|c| (*c).to_owned())
            .collect()
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
