//! Parameter schemas and validated parameters.

use kith_core::Value;

use crate::ProcedureError;

/// The most elements a list parameter may hold: a bound on the work one call asks for.
pub const LIST_PARAM_LEN_MAX: usize = 1_000;

/// The bound of a list parameter that says so ([`ParamSpec::long_list`]): a shard's
/// part of an LDBC read is handed the persons its person shard reached (two KNOWS
/// steps reach tens of thousands at large scale factors); the request's size limit
/// bounds it further.
pub const LONG_LIST_PARAM_LEN_MAX: usize = 1_000_000;

/// The type of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// An integer.
    Int,
    /// A list of integers.
    IntList,
    /// A string.
    String,
    /// Any scalar: bool, integer, float, string or datetime.
    Scalar,
    /// A list of strings.
    StringList,
    /// A list of `[Int, Int]` pairs (LDBC's `[organisationId, year]`).
    IntPairList,
    /// A map: a procedure's configuration (`{sample: 100}`), read key by key.
    Map,
}

impl ParamType {
    fn accepts(self, value: &Value) -> bool {
        match (self, value) {
            (ParamType::Int, Value::Int(_)) => true,
            (ParamType::IntList, Value::List(items)) => {
                items.iter().all(|v| matches!(v, Value::Int(_)))
            }
            (ParamType::String, Value::String(_)) => true,
            (ParamType::StringList, Value::List(items)) => {
                items.iter().all(|v| matches!(v, Value::String(_)))
            }
            (ParamType::IntPairList, Value::List(items)) => items.iter().all(|v| {
                matches!(v, Value::List(pair)
                    if pair.len() == 2 && pair.iter().all(|x| matches!(x, Value::Int(_))))
            }),
            (ParamType::Map, Value::Map(_)) => true,
            (
                ParamType::Scalar,
                Value::Bool(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::String(_)
                | Value::DateTime(_),
            ) => true,
            _ => false,
        }
    }

    /// The name used in schemas and errors.
    pub fn name(self) -> &'static str {
        match self {
            ParamType::Int => "Int",
            ParamType::IntList => "List<Int>",
            ParamType::String => "String",
            ParamType::Scalar => "Scalar",
            ParamType::StringList => "List<String>",
            ParamType::IntPairList => "List<[Int, Int]>",
            ParamType::Map => "Map",
        }
    }
}

/// One parameter of a procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Name.
    pub name: &'static str,
    /// Type.
    pub ty: ParamType,
    /// Value when omitted; `None` makes the parameter required.
    pub default: Option<DefaultValue>,
    /// What it means.
    pub doc: &'static str,
    /// The most elements a list value may hold.
    pub list_len_max: usize,
}

impl ParamSpec {
    /// A required parameter.
    pub const fn required(name: &'static str, ty: ParamType, doc: &'static str) -> Self {
        ParamSpec {
            name,
            ty,
            default: None,
            doc,
            list_len_max: LIST_PARAM_LEN_MAX,
        }
    }

    /// This list parameter may hold up to [`LONG_LIST_PARAM_LEN_MAX`] elements.
    pub const fn long_list(mut self) -> Self {
        self.list_len_max = LONG_LIST_PARAM_LEN_MAX;
        self
    }

    /// An optional Int parameter.
    pub const fn optional(name: &'static str, default: i64, doc: &'static str) -> Self {
        ParamSpec {
            name,
            ty: ParamType::Int,
            default: Some(DefaultValue::Int(default)),
            doc,
            list_len_max: LIST_PARAM_LEN_MAX,
        }
    }

    /// An optional String parameter.
    pub const fn optional_str(
        name: &'static str,
        default: &'static str,
        doc: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            ty: ParamType::String,
            default: Some(DefaultValue::Str(default)),
            doc,
            list_len_max: LIST_PARAM_LEN_MAX,
        }
    }

    /// An optional Map parameter, `{}` when left out.
    pub const fn optional_map(name: &'static str, doc: &'static str) -> Self {
        ParamSpec {
            name,
            ty: ParamType::Map,
            default: Some(DefaultValue::EmptyMap),
            doc,
            list_len_max: LIST_PARAM_LEN_MAX,
        }
    }

    /// An optional Scalar parameter whose default is a boolean.
    pub const fn optional_bool(name: &'static str, default: bool, doc: &'static str) -> Self {
        ParamSpec {
            name,
            ty: ParamType::Scalar,
            default: Some(DefaultValue::Bool(default)),
            doc,
            list_len_max: LIST_PARAM_LEN_MAX,
        }
    }
}

/// An optional parameter's value when it is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultValue {
    /// An integer.
    Int(i64),
    /// A string.
    Str(&'static str),
    /// A boolean.
    Bool(bool),
    /// `{}`.
    EmptyMap,
}

impl DefaultValue {
    /// As a value.
    pub fn value(self) -> Value {
        match self {
            DefaultValue::Int(i) => Value::Int(i),
            DefaultValue::Str(s) => Value::string(s),
            DefaultValue::Bool(b) => Value::Bool(b),
            DefaultValue::EmptyMap => Value::Map(Default::default()),
        }
    }
}

impl std::fmt::Display for DefaultValue {
    /// As Cypher writes it: `100`, `'dfs'`, `true`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DefaultValue::Int(i) => write!(f, "{i}"),
            DefaultValue::Str(s) => write!(f, "'{s}'"),
            DefaultValue::Bool(b) => write!(f, "{b}"),
            DefaultValue::EmptyMap => write!(f, "{{}}"),
        }
    }
}

/// Parameters checked against a schema: every name is known, every type right,
/// defaults filled in. Accessors therefore cannot fail on a validated set.
#[derive(Clone, Debug)]
pub struct Params {
    procedure: &'static str,
    values: Vec<(&'static str, Value)>,
}

impl Params {
    /// Checks `given` against `schema`.
    pub fn validate(
        procedure: &'static str,
        schema: &[ParamSpec],
        given: &[(String, Value)],
    ) -> Result<Params, ProcedureError> {
        for (name, _) in given {
            if !schema.iter().any(|p| p.name == name) {
                return Err(ProcedureError::UnknownParameter {
                    procedure: procedure.into(),
                    parameter: name.clone(),
                    expected: schema.iter().map(|p| p.name.to_owned()).collect(),
                });
            }
        }
        let mut values = Vec::with_capacity(schema.len());
        for spec in schema {
            let value = match given.iter().rev().find(|(n, _)| n == spec.name) {
                Some((_, v)) => v.clone(),
                None => match spec.default {
                    Some(d) => d.value(),
                    None => {
                        return Err(ProcedureError::MissingParameter {
                            procedure: procedure.into(),
                            parameter: spec.name.into(),
                        })
                    }
                },
            };
            if !spec.ty.accepts(&value) {
                return Err(ProcedureError::WrongParameterType {
                    procedure: procedure.into(),
                    parameter: spec.name.into(),
                    expected: spec.ty.name().into(),
                    found: describe(&value),
                });
            }
            if let Value::List(items) = &value {
                if items.len() > spec.list_len_max {
                    return Err(ProcedureError::ParameterOutOfRange {
                        procedure: procedure.into(),
                        parameter: spec.name.into(),
                        reason: format!(
                            "has {} elements; the limit is {}",
                            items.len(),
                            spec.list_len_max
                        ),
                    });
                }
            }
            values.push((spec.name, value));
        }
        Ok(Params { procedure, values })
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// An Int parameter.
    pub fn int(&self, name: &str) -> Result<i64, ProcedureError> {
        self.get(name)
            .and_then(Value::as_int)
            .ok_or_else(|| self.missing(name))
    }

    /// A `limit`-style parameter: non-negative, `0` meaning unbounded.
    pub fn limit(&self, name: &str) -> Result<usize, ProcedureError> {
        let n = self.int(name)?;
        usize::try_from(n)
            .map(|n| if n == 0 { usize::MAX } else { n })
            .map_err(|_| ProcedureError::ParameterOutOfRange {
                procedure: self.procedure.into(),
                parameter: name.into(),
                reason: format!("must be 0 (no limit) or positive, got {n}"),
            })
    }

    /// A String parameter.
    pub fn string(&self, name: &str) -> Result<&str, ProcedureError> {
        match self.get(name) {
            Some(Value::String(s)) => Ok(s),
            _ => Err(self.missing(name)),
        }
    }

    /// A parameter's value as given.
    pub fn value(&self, name: &str) -> Result<&Value, ProcedureError> {
        self.get(name).ok_or_else(|| self.missing(name))
    }

    /// A List<Int> parameter.
    pub fn int_list(&self, name: &str) -> Result<Vec<i64>, ProcedureError> {
        self.get(name)
            .and_then(Value::as_list)
            .map(|items| items.iter().filter_map(Value::as_int).collect())
            .ok_or_else(|| self.missing(name))
    }

    /// A List<String> parameter.
    pub fn string_list(&self, name: &str) -> Result<Vec<Value>, ProcedureError> {
        self.get(name)
            .and_then(Value::as_list)
            .map(<[Value]>::to_vec)
            .ok_or_else(|| self.missing(name))
    }

    /// A List<[Int, Int]> parameter.
    pub fn int_pairs(&self, name: &str) -> Result<Vec<(i64, i64)>, ProcedureError> {
        let items = self
            .get(name)
            .and_then(Value::as_list)
            .ok_or_else(|| self.missing(name))?;
        Ok(items
            .iter()
            .filter_map(|pair| match pair.as_list()? {
                [a, b] => Some((a.as_int()?, b.as_int()?)),
                _ => None,
            })
            .collect())
    }

    fn missing(&self, name: &str) -> ProcedureError {
        ProcedureError::MissingParameter {
            procedure: self.procedure.into(),
            parameter: name.into(),
        }
    }
}

/// `String "abc"`, `Float 2.5`, ... for error messages (values cut to 40 characters).
fn describe(value: &Value) -> String {
    let mut shown = value.to_string();
    if shown.len() > 40 {
        let cut = (0..=40)
            .rev()
            .find(|&i| shown.is_char_boundary(i))
            .unwrap_or(0);
        shown.truncate(cut);
        shown.push('…');
    }
    match value {
        Value::String(_) => format!("String \"{shown}\""),
        Value::Null => "Null".into(),
        other => format!("{} {shown}", other.value_type()),
    }
}

/// Parses a command-line value (`42`, `1,2,3` or `[1,2,3]`) for a parameter of `ty`.
pub fn parse_cli_value(ty: ParamType, text: &str) -> Value {
    let text = text.trim();
    match ty {
        ParamType::Int => text
            .parse()
            .map_or_else(|_| Value::string(text), Value::Int),
        ParamType::IntList => {
            let inner = text.trim_start_matches('[').trim_end_matches(']');
            let items: Vec<Value> = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().map_or_else(|_| Value::string(s), Value::Int))
                .collect();
            Value::List(items)
        }
        ParamType::String => Value::string(text),
        ParamType::StringList => Value::List(
            text.trim_start_matches('[')
                .trim_end_matches(']')
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(Value::string)
                .collect(),
        ),
        // `1,2010;5,2011`: pairs separated by `;`, as in LDBC's update streams.
        ParamType::IntPairList => Value::List(
            text.split(';')
                .filter(|s| !s.trim().is_empty())
                .map(|pair| {
                    Value::List(
                        pair.split(',')
                            .map(|s| {
                                s.trim()
                                    .parse()
                                    .map_or_else(|_| Value::string(s), Value::Int)
                            })
                            .collect(),
                    )
                })
                .collect(),
        ),
        // The command line has no map syntax: validation refuses the text, naming Map.
        ParamType::Map => Value::string(text),
        ParamType::Scalar => {
            if let Ok(i) = text.parse::<i64>() {
                Value::Int(i)
            } else if let Ok(x) = text.parse::<f64>() {
                Value::Float(x)
            } else if let Ok(b) = text.parse::<bool>() {
                Value::Bool(b)
            } else {
                Value::string(text)
            }
        }
    }
}
