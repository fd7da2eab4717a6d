//! The TCK's fixture procedures: `there exists a procedure name(in :: T) :: (out :: T):`
//! with a table of inputs and outputs; a call answers the output columns of the rows
//! whose inputs equal its arguments.

use kith_core::{GraphView, Value};
use kith_cypher::{CallOutput, CypherError, ErrorCode, ProcParam, Procedures, Signature};

/// One declared procedure.
#[derive(Clone)]
pub struct Fixture {
    sig: Signature,
    rows: Vec<Vec<Value>>,
}

/// Parses the step's text after "there exists a procedure " and its table (header
/// first, values in the TCK's syntax).
pub fn fixture(declaration: &str, table: &[Vec<String>]) -> Result<Fixture, String> {
    let declaration = declaration.trim_end_matches(':');
    let (name, rest) = declaration
        .split_once('(')
        .ok_or("no '(' in the declaration")?;
    let (inputs, rest) = rest.split_once(')').ok_or("no ')' after the inputs")?;
    let outputs = rest
        .trim()
        .strip_prefix("::")
        .map(str::trim)
        .and_then(|o| o.strip_prefix('('))
        .and_then(|o| o.strip_suffix(')'))
        .ok_or("no ':: (outputs)'")?;
    let fields = |list: &str| -> Vec<(String, String)> {
        list.split(',')
            .filter(|f| !f.trim().is_empty())
            .filter_map(|f| f.split_once("::"))
            .map(|(n, t)| (n.trim().to_owned(), t.trim().to_owned()))
            .collect()
    };
    let params = fields(inputs)
        .into_iter()
        .map(|(name, type_name)| ProcParam {
            name,
            type_name,
            optional: false,
        })
        .collect();
    let outputs = fields(outputs).into_iter().map(|(n, _)| n).collect();
    let mut rows = Vec::new();
    for row in table.iter().skip(1) {
        let values = row
            .iter()
            .map(|cell| crate::values::parse(cell).and_then(|v| crate::values::to_param(&v)))
            .collect::<Result<Vec<_>, _>>()?;
        rows.push(values);
    }
    Ok(Fixture {
        sig: Signature {
            name: name.trim().to_owned(),
            description: "a TCK fixture".to_owned(),
            params,
            outputs,
            writes: false,
        },
        rows,
    })
}

/// The scenario's procedures.
#[derive(Default)]
pub struct TestProcedures {
    pub fixtures: Vec<Fixture>,
}

impl Procedures for TestProcedures {
    fn signature(&self, name: &str) -> Option<Signature> {
        self.fixtures
            .iter()
            .find(|f| f.sig.name == name)
            .map(|f| f.sig.clone())
    }

    fn list(&self) -> Vec<Signature> {
        self.fixtures.iter().map(|f| f.sig.clone()).collect()
    }

    fn call(
        &self,
        _: &dyn GraphView,
        name: &str,
        args: &[(String, Value)],
    ) -> Result<CallOutput, CypherError> {
        let f = self
            .fixtures
            .iter()
            .find(|f| f.sig.name == name)
            .ok_or_else(|| CypherError::new(ErrorCode::ProcedureNotFound, name))?;
        let inputs = f.sig.params.len();
        let rows = f
            .rows
            .iter()
            .filter(|row| {
                f.sig.params.iter().zip(row.iter()).all(|(p, want)| {
                    let given = args
                        .iter()
                        .find(|(n, _)| *n == p.name)
                        .map_or(&Value::Null, |(_, v)| v);
                    same(given, want)
                })
            })
            .map(|row| row[inputs..].to_vec())
            .collect();
        Ok(CallOutput::Rows(rows))
    }
}

/// Argument equality as a procedure sees it: an integer passed for a float is that
/// float.
fn same(given: &Value, want: &Value) -> bool {
    match (given, want) {
        (Value::Int(i), Value::Float(f)) | (Value::Float(f), Value::Int(i)) => *i as f64 == *f,
        _ => given == want,
    }
}
