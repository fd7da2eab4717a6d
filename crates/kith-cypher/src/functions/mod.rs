//! Scalar functions and the aggregate functions' names.
//!
//! Functions are resolved once, when the query is bound, to a [`Function`]; calling one
//! is a match on it. Graph functions (`labels`, `type`, `startNode`...) read through the
//! same `GraphView` as the operators.

mod scalar;

pub use scalar::{call, format_float, to_string as scalar_to_string};

/// An aggregate function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// `count(x)`, `count(*)`.
    Count,
    /// `sum(x)`.
    Sum,
    /// `avg(x)`.
    Avg,
    /// `min(x)`.
    Min,
    /// `max(x)`.
    Max,
    /// `collect(x)`.
    Collect,
    /// `percentileDisc(x, p)`: the value at percentile `p` (0.0 to 1.0).
    PercentileDisc,
    /// `percentileCont(x, p)`: the percentile `p`, interpolated between values.
    PercentileCont,
}

impl Aggregate {
    /// The aggregate of this (lower-case) name.
    pub fn lookup(name: &str) -> Option<Aggregate> {
        Some(match name {
            "count" => Aggregate::Count,
            "sum" => Aggregate::Sum,
            "avg" => Aggregate::Avg,
            "min" => Aggregate::Min,
            "max" => Aggregate::Max,
            "collect" => Aggregate::Collect,
            "percentiledisc" => Aggregate::PercentileDisc,
            "percentilecont" => Aggregate::PercentileCont,
            _ => return None,
        })
    }

    /// How many arguments it takes: the value, and for a percentile the percentile.
    pub fn arity(self) -> usize {
        match self {
            Aggregate::PercentileDisc | Aggregate::PercentileCont => 2,
            _ => 1,
        }
    }
}

macro_rules! functions {
    ($($variant:ident = $name:literal, $min:literal ..= $max:literal;)*) => {
        /// A scalar function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Function {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Function {
            /// The function of this lower-case name.
            pub fn lookup(name: &str) -> Option<Function> {
                match name {
                    $($name => Some(Function::$variant),)*
                    _ => None,
                }
            }

            /// Its name as written in Cypher.
            pub fn name(self) -> &'static str {
                match self {
                    $(Function::$variant => $name,)*
                }
            }

            /// The fewest and most arguments it takes.
            pub fn arity(self) -> (usize, usize) {
                match self {
                    $(Function::$variant => ($min, $max),)*
                }
            }
        }
    };
}

functions! {
    Coalesce = "coalesce", 1..=64;
    ToInteger = "tointeger", 1..=1;
    ToFloat = "tofloat", 1..=1;
    ToString = "tostring", 1..=1;
    ToBoolean = "toboolean", 1..=1;
    Floor = "floor", 1..=1;
    Ceil = "ceil", 1..=1;
    Round = "round", 1..=1;
    Abs = "abs", 1..=1;
    Sign = "sign", 1..=1;
    Sqrt = "sqrt", 1..=1;
    Exp = "exp", 1..=1;
    Log = "log", 1..=1;
    Log10 = "log10", 1..=1;
    Size = "size", 1..=1;
    Length = "length", 1..=1;
    Head = "head", 1..=1;
    Last = "last", 1..=1;
    Tail = "tail", 1..=1;
    Nodes = "nodes", 1..=1;
    Relationships = "relationships", 1..=1;
    StartNode = "startnode", 1..=1;
    EndNode = "endnode", 1..=1;
    Labels = "labels", 1..=1;
    Type = "type", 1..=1;
    Id = "id", 1..=1;
    Keys = "keys", 1..=1;
    Properties = "properties", 1..=1;
    Range = "range", 2..=3;
    Reverse = "reverse", 1..=1;
    Substring = "substring", 2..=3;
    Left = "left", 2..=2;
    Right = "right", 2..=2;
    Trim = "trim", 1..=1;
    LTrim = "ltrim", 1..=1;
    RTrim = "rtrim", 1..=1;
    ToUpper = "toupper", 1..=1;
    ToLower = "tolower", 1..=1;
    Replace = "replace", 3..=3;
    Split = "split", 2..=2;
    Exists = "exists", 1..=1;
    IsEmpty = "isempty", 1..=1;
    DateTime = "datetime", 1..=1;
    Rand = "rand", 0..=0;
    Pi = "pi", 0..=0;
    E = "e", 0..=0;
}
