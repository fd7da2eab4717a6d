//! Scalar functions and the aggregate functions' names.
//!
//! Functions are resolved once, when the query is bound, to a [`Function`]; calling one
//! is a match on it. Graph functions (`labels`, `type`, `startNode`...) read through the
//! same `GraphView` as the operators.

mod convert;
mod math;
mod regexp;
mod scalar;
mod spatial;
mod text;
mod value_type;
mod vector;

pub(crate) use regexp::compile_regex;
pub use scalar::{call, format_float, to_string as scalar_to_string};
pub(crate) use spatial::field as point_field;
pub(crate) use spatial::x_range_within;
pub(crate) use value_type::conforms;

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
    /// `stDev(x)`: the sample standard deviation.
    StDev,
    /// `stDevP(x)`: the population standard deviation.
    StDevP,
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
            "stdev" => Aggregate::StDev,
            "stdevp" => Aggregate::StDevP,
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

impl Function {
    /// Whether it is one of the temporal functions (`crate::temporal`), which read the
    /// statement's clock.
    pub fn is_temporal(self) -> bool {
        use Function as F;
        matches!(
            self,
            F::Date
                | F::DateStatement
                | F::DateTransaction
                | F::DateRealtime
                | F::DateTruncate
                | F::LocalTime
                | F::LocalTimeStatement
                | F::LocalTimeTransaction
                | F::LocalTimeRealtime
                | F::LocalTimeTruncate
                | F::Time
                | F::TimeStatement
                | F::TimeTransaction
                | F::TimeRealtime
                | F::TimeTruncate
                | F::LocalDateTime
                | F::LocalDateTimeStatement
                | F::LocalDateTimeTransaction
                | F::LocalDateTimeRealtime
                | F::LocalDateTimeTruncate
                | F::DateTime
                | F::DateTimeStatement
                | F::DateTimeTransaction
                | F::DateTimeRealtime
                | F::DateTimeTruncate
                | F::DateTimeFromEpoch
                | F::DateTimeFromEpochMillis
                | F::Duration
                | F::DurationBetween
                | F::DurationInMonths
                | F::DurationInDays
                | F::DurationInSeconds
                | F::Timestamp
        )
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
    ToIntegerOrNull = "tointegerornull", 1..=1;
    ToFloatOrNull = "tofloatornull", 1..=1;
    ToStringOrNull = "tostringornull", 1..=1;
    ToBooleanOrNull = "tobooleanornull", 1..=1;
    ToIntegerList = "tointegerlist", 1..=1;
    ToFloatList = "tofloatlist", 1..=1;
    ToStringList = "tostringlist", 1..=1;
    ToBooleanList = "tobooleanlist", 1..=1;
    NullIf = "nullif", 2..=2;
    ValueType = "valuetype", 1..=1;
    ElementId = "elementid", 1..=1;
    RandomUuid = "randomuuid", 0..=0;
    File = "file", 0..=0;
    LineNumber = "linenumber", 0..=0;
    VectorCosine = "vector.similarity.cosine", 2..=2;
    VectorEuclidean = "vector.similarity.euclidean", 2..=2;
    Point = "point", 1..=1;
    PointDistance = "point.distance", 2..=2;
    PointWithinBBox = "point.withinbbox", 3..=3;
    Floor = "floor", 1..=1;
    Ceil = "ceil", 1..=1;
    Round = "round", 1..=3;
    IsNaN = "isnan", 1..=1;
    Abs = "abs", 1..=1;
    Sign = "sign", 1..=1;
    Sqrt = "sqrt", 1..=1;
    Exp = "exp", 1..=1;
    Log = "log", 1..=1;
    Log10 = "log10", 1..=1;
    Sin = "sin", 1..=1;
    Cos = "cos", 1..=1;
    Tan = "tan", 1..=1;
    Cot = "cot", 1..=1;
    Asin = "asin", 1..=1;
    Acos = "acos", 1..=1;
    Atan = "atan", 1..=1;
    Atan2 = "atan2", 2..=2;
    Degrees = "degrees", 1..=1;
    Radians = "radians", 1..=1;
    Haversin = "haversin", 1..=1;
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
    LTrim = "ltrim", 1..=2;
    RTrim = "rtrim", 1..=2;
    BTrim = "btrim", 1..=2;
    // `trim([LEADING | TRAILING | BOTH] c FROM s)`, as the parser writes it: subject,
    // one character, side. (The leading space keeps the name out of users' way.)
    TrimFrom = " trim from", 3..=3;
    ToUpper = "toupper", 1..=1;
    ToLower = "tolower", 1..=1;
    Upper = "upper", 1..=1;
    Lower = "lower", 1..=1;
    Normalize = "normalize", 1..=2;
    CharLength = "char_length", 1..=1;
    CharacterLength = "character_length", 1..=1;
    Replace = "replace", 3..=3;
    Split = "split", 2..=2;
    Exists = "exists", 1..=1;
    IsEmpty = "isempty", 1..=1;
    Date = "date", 0..=1;
    DateStatement = "date.statement", 0..=1;
    DateTransaction = "date.transaction", 0..=1;
    DateRealtime = "date.realtime", 0..=1;
    DateTruncate = "date.truncate", 2..=3;
    LocalTime = "localtime", 0..=1;
    LocalTimeStatement = "localtime.statement", 0..=1;
    LocalTimeTransaction = "localtime.transaction", 0..=1;
    LocalTimeRealtime = "localtime.realtime", 0..=1;
    LocalTimeTruncate = "localtime.truncate", 2..=3;
    Time = "time", 0..=1;
    TimeStatement = "time.statement", 0..=1;
    TimeTransaction = "time.transaction", 0..=1;
    TimeRealtime = "time.realtime", 0..=1;
    TimeTruncate = "time.truncate", 2..=3;
    LocalDateTime = "localdatetime", 0..=1;
    LocalDateTimeStatement = "localdatetime.statement", 0..=1;
    LocalDateTimeTransaction = "localdatetime.transaction", 0..=1;
    LocalDateTimeRealtime = "localdatetime.realtime", 0..=1;
    LocalDateTimeTruncate = "localdatetime.truncate", 2..=3;
    DateTime = "datetime", 0..=1;
    DateTimeStatement = "datetime.statement", 0..=1;
    DateTimeTransaction = "datetime.transaction", 0..=1;
    DateTimeRealtime = "datetime.realtime", 0..=1;
    DateTimeTruncate = "datetime.truncate", 2..=3;
    DateTimeFromEpoch = "datetime.fromepoch", 2..=2;
    DateTimeFromEpochMillis = "datetime.fromepochmillis", 1..=1;
    Duration = "duration", 1..=1;
    DurationBetween = "duration.between", 2..=2;
    DurationInMonths = "duration.inmonths", 2..=2;
    DurationInDays = "duration.indays", 2..=2;
    DurationInSeconds = "duration.inseconds", 2..=2;
    Timestamp = "timestamp", 0..=0;
    Rand = "rand", 0..=0;
    Pi = "pi", 0..=0;
    E = "e", 0..=0;
}
