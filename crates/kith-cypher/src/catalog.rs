//! What the binder needs to know of the procedures a query may `CALL`: their
//! signatures, and nothing of how they run (see `procedures.rs`), so binding stays
//! below planning.

use crate::error::CypherError;

/// A parameter of a procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcParam {
    /// Its name (the name an implicit argument is taken from).
    pub name: String,
    /// Its type, as SHOW PROCEDURES prints it.
    pub type_name: String,
    /// Whether a call may leave it out (only trailing parameters may be).
    pub optional: bool,
}

/// What CALL needs to know of a procedure before running it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Its name, dotted (`shindig.friends`).
    pub name: String,
    /// One line on what it does.
    pub description: String,
    /// Its parameters in order.
    pub params: Vec<ProcParam>,
    /// Its result columns in order (none: a VOID procedure).
    pub outputs: Vec<String>,
    /// Whether it writes (an update procedure): its writes join the query's.
    pub writes: bool,
}

impl Signature {
    /// `name(a :: Int, b = 10 :: Int) :: (x, y)`, as SHOW PROCEDURES prints it.
    pub fn text(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let opt = if p.optional { "?" } else { "" };
                format!("{}{opt} :: {}", p.name, p.type_name)
            })
            .collect();
        let outputs = if self.outputs.is_empty() {
            "VOID".to_owned()
        } else {
            format!("({})", self.outputs.join(", "))
        };
        format!("{}({}) :: {outputs}", self.name, params.join(", "))
    }
}

/// The procedures' signatures, as the binder looks them up.
pub trait Catalog {
    /// A procedure's signature; `None` when there is no such procedure, an error when
    /// it exists but cannot be called (a stored text that no longer prepares).
    fn signature(&self, name: &str) -> Option<Result<Signature, CypherError>>;
    /// Every procedure (SHOW PROCEDURES).
    fn list(&self) -> Vec<Signature>;
}
