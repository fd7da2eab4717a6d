//! The syntax tree: what the parser read, before names are resolved.
//!
//! Every expression carries the byte offset it starts at, so later stages can point
//! at the place in the text an error belongs to.

pub mod types;

/// A whole statement: clauses, possibly several queries joined by UNION.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// The first query.
    pub query: SingleQuery,
    /// `UNION [ALL]` parts that follow, with whether each is ALL.
    pub unions: Vec<(bool, SingleQuery)>,
}

/// One query: a sequence of clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct SingleQuery {
    /// The clauses in order.
    pub clauses: Vec<Clause>,
}

/// A clause.
#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    /// `[OPTIONAL] MATCH pattern [WHERE expr]`.
    Match(Match),
    /// `UNWIND expr AS var`.
    Unwind {
        /// The list.
        expr: Expr,
        /// The variable each element binds.
        var: String,
    },
    /// `WITH ...`: a projection that opens a new scope.
    With(Projection),
    /// `RETURN ...`.
    Return(Projection),
    /// `CREATE pattern`.
    Create(Vec<PatternPart>),
    /// `SET item, ...`.
    Set(Vec<SetItem>),
    /// `REMOVE item, ...`.
    Remove(Vec<RemoveItem>),
    /// `[DETACH] DELETE expr, ...`.
    Delete {
        /// DETACH.
        detach: bool,
        /// What to delete.
        exprs: Vec<Expr>,
    },
    /// `MERGE part [ON CREATE SET ...] [ON MATCH SET ...]`.
    Merge(Merge),
    /// `CALL proc(args) [YIELD ...]`.
    Call(Call),
    /// `CALL { subquery }`.
    Subquery(Box<Statement>),
    /// `SHOW PROCEDURES [YIELD ...]` (and what other lists kith shows).
    Show(Show, Option<Yield>),
    /// A schema command (`CREATE INDEX`, `DROP CONSTRAINT`, ...): a statement of its
    /// own.
    Schema(SchemaCommand),
    /// `FOREACH (var IN list | clauses)`.
    Foreach {
        /// The element variable.
        var: String,
        /// The list.
        list: Expr,
        /// The update clauses run for each element.
        clauses: Vec<Clause>,
    },
}

/// `CALL name(args) YIELD ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The dotted name.
    pub name: String,
    /// The arguments; `None` when the parentheses are left out (implicit arguments,
    /// taken from the query's parameters of the same names).
    pub args: Option<Vec<Expr>>,
    /// `YIELD`.
    pub yields: Option<Yield>,
    /// Offset in the text.
    pub pos: usize,
}

/// `YIELD * | col [AS name], ... [WHERE expr]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Yield {
    /// `YIELD *`.
    pub star: bool,
    /// The columns, each with its alias.
    pub items: Vec<(String, Option<String>)>,
    /// WHERE.
    pub where_: Option<Expr>,
}

/// What SHOW lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Show {
    /// `SHOW PROCEDURES`.
    Procedures,
    /// `SHOW [ALL | RANGE | TEXT | POINT | LOOKUP] INDEXES`.
    Indexes(IndexFilter),
    /// `SHOW CONSTRAINTS`.
    Constraints,
    /// `SHOW DATABASES`, `SHOW DATABASE name`, `SHOW DEFAULT | HOME DATABASE`.
    Databases(DatabasePick),
}

/// Which indexes SHOW lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexFilter {
    /// Every index (`SHOW [ALL] INDEXES`).
    All,
    /// The property indexes of one kind.
    Kind(kith_core::IndexKind),
    /// The label lookup index.
    Lookup,
}

/// Which databases SHOW lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabasePick {
    /// `SHOW [ALL] DATABASES`.
    All,
    /// `SHOW DATABASE name`.
    Named(String),
    /// `SHOW DEFAULT DATABASE` (or `HOME`): without the `default` and `home` columns.
    Default,
}

impl Show {
    /// What the command lists, as written after SHOW (for messages).
    pub fn noun(&self) -> &'static str {
        match self {
            Show::Procedures => "PROCEDURES",
            Show::Indexes(_) => "INDEXES",
            Show::Constraints => "CONSTRAINTS",
            Show::Databases(_) => "DATABASES",
        }
    }

    /// The columns each row answers, in order (what YIELD may name).
    pub fn columns(&self) -> Vec<&'static str> {
        self.all_columns()
            .iter()
            .copied()
            .filter(|c| {
                // SHOW DEFAULT | HOME DATABASE leaves these out, as Neo4j does.
                !matches!(self, Show::Databases(DatabasePick::Default))
                    || !matches!(*c, "default" | "home")
            })
            .collect()
    }

    /// Every column a YIELD may name: the default ones, then those only `YIELD *`
    /// or a name shows (as Neo4j 5.26 has them).
    pub fn yieldable(&self) -> Vec<&'static str> {
        let more: &[&str] = match self {
            Show::Indexes(_) => &[
                "trackedSince",
                "options",
                "failureMessage",
                "createStatement",
            ],
            Show::Constraints => &["options", "createStatement"],
            Show::Procedures | Show::Databases(_) => &[],
        };
        let mut all = self.columns();
        all.extend_from_slice(more);
        all
    }

    fn all_columns(&self) -> &'static [&'static str] {
        match self {
            Show::Databases(_) => &[
                "name",
                "type",
                "aliases",
                "access",
                "address",
                "role",
                "writer",
                "requestedStatus",
                "currentStatus",
                "statusMessage",
                "default",
                "home",
                "constituents",
            ],
            Show::Indexes(_) => &[
                "id",
                "name",
                "state",
                "populationPercent",
                "type",
                "entityType",
                "labelsOrTypes",
                "properties",
                "indexProvider",
                "owningConstraint",
                "lastRead",
                "readCount",
            ],
            Show::Constraints => &[
                "id",
                "name",
                "type",
                "entityType",
                "labelsOrTypes",
                "properties",
                "ownedIndex",
                "propertyType",
            ],
            Show::Procedures => &["name", "signature", "description", "mode"],
        }
    }
}

/// A schema command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaCommand {
    /// `CREATE [RANGE | TEXT | POINT] INDEX [name] [IF NOT EXISTS] FOR (n:Label) ON
    /// (n.key [, n.key2 ...])` (several keys: a composite range index).
    CreateIndex {
        /// Its kind.
        kind: kith_core::IndexKind,
        /// Its name, if given.
        name: Option<String>,
        /// Label.
        label: String,
        /// Property keys, in order (one or more).
        keys: Vec<String>,
        /// IF NOT EXISTS.
        if_not_exists: bool,
    },
    /// `CREATE CONSTRAINT [name] [IF NOT EXISTS] FOR (n:Label) REQUIRE n.key IS UNIQUE`
    /// (or `REQUIRE (n.a, n.b) IS UNIQUE`: a composite).
    CreateUnique {
        /// Its name, if given.
        name: Option<String>,
        /// Label.
        label: String,
        /// Property keys, in order (one or more).
        keys: Vec<String>,
        /// IF NOT EXISTS.
        if_not_exists: bool,
    },
    /// `DROP INDEX name [IF EXISTS]`.
    DropIndex {
        /// Its name.
        name: String,
        /// IF EXISTS.
        if_exists: bool,
    },
    /// `DROP CONSTRAINT name [IF EXISTS]`.
    DropConstraint {
        /// Its name.
        name: String,
        /// IF EXISTS.
        if_exists: bool,
    },
}

/// One item of SET.
#[derive(Clone, Debug, PartialEq)]
pub enum SetItem {
    /// `target.key = value` (or `target[key] = value`: `key` an expression).
    Property {
        /// The node or relationship.
        target: Expr,
        /// The key.
        key: PropertyKey,
        /// The value.
        value: Expr,
    },
    /// `var = map`: replaces every property.
    Replace {
        /// The node or relationship.
        target: Expr,
        /// A map, node or relationship.
        value: Expr,
    },
    /// `var += map`: sets the map's entries, keeps the rest.
    Merge {
        /// The node or relationship.
        target: Expr,
        /// A map, node or relationship.
        value: Expr,
    },
    /// `var:Label:Other`.
    Labels {
        /// The node.
        target: Expr,
        /// The labels.
        labels: Vec<String>,
    },
}

/// One item of REMOVE.
#[derive(Clone, Debug, PartialEq)]
pub enum RemoveItem {
    /// `target.key`.
    Property {
        /// The node or relationship.
        target: Expr,
        /// The key.
        key: PropertyKey,
    },
    /// `var:Label:Other`.
    Labels {
        /// The node.
        target: Expr,
        /// The labels.
        labels: Vec<String>,
    },
}

/// A property key in SET or REMOVE: a name, or an expression (`n[k]`).
#[derive(Clone, Debug, PartialEq)]
pub enum PropertyKey {
    /// `.key`.
    Name(String),
    /// `[expr]`.
    Dynamic(Expr),
}

/// MERGE.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    /// The one pattern part.
    pub part: PatternPart,
    /// ON CREATE SET items.
    pub on_create: Vec<SetItem>,
    /// ON MATCH SET items.
    pub on_match: Vec<SetItem>,
}

/// `[OPTIONAL] MATCH`.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Whether the clause is OPTIONAL.
    pub optional: bool,
    /// The comma-separated parts.
    pub pattern: Vec<PatternPart>,
    /// The WHERE predicate.
    pub where_: Option<Expr>,
}

/// The body of WITH and RETURN.
#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    /// DISTINCT.
    pub distinct: bool,
    /// `*` (all variables in scope), before the items.
    pub star: bool,
    /// The items.
    pub items: Vec<ProjectionItem>,
    /// ORDER BY keys, each with whether it is descending.
    pub order_by: Vec<(Expr, bool)>,
    /// SKIP.
    pub skip: Option<Expr>,
    /// LIMIT.
    pub limit: Option<Expr>,
    /// WHERE (WITH only).
    pub where_: Option<Expr>,
}

/// `expr [AS alias]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectionItem {
    /// The expression.
    pub expr: Expr,
    /// The name it is known by: the alias, or the expression's text.
    pub name: String,
    /// Whether `name` was given with AS.
    pub aliased: bool,
}

/// One comma-separated part of a pattern, perhaps bound to a path variable.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternPart {
    /// `p = ...`.
    pub path_var: Option<String>,
    /// Plain, or wrapped in `shortestPath` / `allShortestPaths`.
    pub kind: PathKind,
    /// The chain.
    pub path: PathPattern,
    /// Offset of the part in the text.
    pub pos: usize,
}

/// How a pattern part matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    /// Every match.
    Plain,
    /// One shortest path.
    Shortest,
    /// Every shortest path.
    AllShortest,
}

/// `(node)-[rel]-(node)...`.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPattern {
    /// The first node.
    pub start: NodePattern,
    /// Each relationship with the node after it.
    pub steps: Vec<(RelPattern, NodePattern)>,
}

/// `(var:Label:Other {k: v})`.
#[derive(Clone, Debug, PartialEq)]
pub struct NodePattern {
    /// The variable, if named.
    pub var: Option<String>,
    /// Labels the node must carry (all of them).
    pub labels: Vec<String>,
    /// Properties it must have: a map literal or a parameter.
    pub props: Option<Expr>,
    /// Offset in the text.
    pub pos: usize,
}

/// `-[var:T1|T2*min..max {k: v}]->`.
#[derive(Clone, Debug, PartialEq)]
pub struct RelPattern {
    /// The variable, if named.
    pub var: Option<String>,
    /// Allowed types (any when empty).
    pub types: Vec<String>,
    /// Properties it must have.
    pub props: Option<Expr>,
    /// Which way it points.
    pub direction: RelDirection,
    /// `*min..max`, when variable-length: each bound is absent when not written.
    pub length: Option<(Option<u64>, Option<u64>)>,
    /// Offset in the text.
    pub pos: usize,
}

/// The arrow of a relationship pattern, read left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelDirection {
    /// `-->`
    Right,
    /// `<--`
    Left,
    /// `--`
    Both,
}

/// An expression with its place in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Offset in the text.
    pub pos: usize,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// `$name`.
    Param(String),
    /// A variable.
    Var(String),
    /// `expr.key`.
    Property(Box<Expr>, String),
    /// `expr[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `expr[from..to]`.
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `expr:Label:Other`.
    HasLabels(Box<Expr>, Vec<String>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{k: v}`.
    Map(Vec<(String, Expr)>),
    /// A unary operator.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a < b <= c`: a chain of comparisons, true when each holds.
    Compare(Box<Expr>, Vec<(CompareOp, Expr)>),
    /// `expr IS [NOT] NULL` (the flag is NOT).
    IsNull(Box<Expr>, bool),
    /// `expr IS [NOT] :: type`, `expr IS [NOT] TYPED type`, `expr :: type` (the flag
    /// is NOT).
    IsType(Box<Expr>, bool, types::CypherType),
    /// A function call.
    Call {
        /// The name, namespace included (`datetime`, `my.fn`).
        name: String,
        /// DISTINCT (aggregates).
        distinct: bool,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `count(*)`.
    CountStar,
    /// `CASE [operand] WHEN .. THEN .. [ELSE ..] END`.
    Case {
        /// The simple form's operand.
        operand: Option<Box<Expr>>,
        /// WHEN / THEN pairs.
        whens: Vec<(Expr, Expr)>,
        /// ELSE.
        else_: Option<Box<Expr>>,
    },
    /// `[x IN list WHERE pred | expr]`.
    ListComprehension {
        /// The element variable.
        var: String,
        /// The list.
        list: Box<Expr>,
        /// WHERE.
        filter: Option<Box<Expr>>,
        /// `| expr`.
        map: Option<Box<Expr>>,
    },
    /// `[p = (a)-->(b) WHERE pred | expr]`.
    PatternComprehension {
        /// The path variable.
        path_var: Option<String>,
        /// The pattern.
        pattern: Box<PathPattern>,
        /// WHERE.
        filter: Option<Box<Expr>>,
        /// `| expr`.
        map: Box<Expr>,
    },
    /// A pattern as a predicate: true when it has a match.
    Pattern(Box<PathPattern>),
    /// `reduce(acc = init, x IN list | expr)`.
    Reduce {
        /// The accumulator.
        acc: String,
        /// Its first value.
        init: Box<Expr>,
        /// The element variable.
        var: String,
        /// The list.
        list: Box<Expr>,
        /// The step.
        expr: Box<Expr>,
    },
    /// `EXISTS { ... }`, `COUNT { ... }`, `COLLECT { ... }`.
    Subquery {
        /// Which.
        kind: SubqueryKind,
        /// A whole query, or a pattern with an optional WHERE.
        body: Box<SubqueryBody>,
    },
    /// `n {.a, .b, k: expr, .*}`.
    MapProjection {
        /// The node, relationship or map.
        base: Box<Expr>,
        /// The entries.
        items: Vec<MapProjectionItem>,
    },
    /// `all/any/none/single(x IN list WHERE pred)`.
    Quantifier {
        /// Which one.
        kind: Quantifier,
        /// The element variable.
        var: String,
        /// The list.
        list: Box<Expr>,
        /// The predicate.
        pred: Box<Expr>,
    },
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `NOT`.
    Not,
    /// `-`.
    Neg,
    /// `+`.
    Plus,
}

/// Binary operators (comparisons are [`CompareOp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `OR`.
    Or,
    /// `XOR`.
    Xor,
    /// `AND`.
    And,
    /// `+`.
    Add,
    /// `||`: strings or lists joined.
    Concat,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
    /// `^`.
    Pow,
    /// `IN`.
    In,
    /// `STARTS WITH`.
    StartsWith,
    /// `ENDS WITH`.
    EndsWith,
    /// `CONTAINS`.
    Contains,
    /// `=~`.
    Regex,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `=`.
    Eq,
    /// `<>`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// List quantifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `all`.
    All,
    /// `any`.
    Any,
    /// `none`.
    None,
    /// `single`.
    Single,
}

/// The kinds of subquery expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubqueryKind {
    /// `EXISTS { }`: whether it has a row.
    Exists,
    /// `COUNT { }`: how many rows.
    Count,
    /// `COLLECT { }`: its one column as a list.
    Collect,
}

/// What stands between the braces of a subquery expression.
#[derive(Clone, Debug, PartialEq)]
pub enum SubqueryBody {
    /// `MATCH ... RETURN ...`, perhaps parts of a UNION.
    Query(Statement),
    /// `(a)-->(b) WHERE ...`.
    Pattern(Vec<PatternPart>, Option<Expr>),
}

/// One entry of a map projection.
#[derive(Clone, Debug, PartialEq)]
pub enum MapProjectionItem {
    /// `.key`.
    Property(String),
    /// `.*`.
    AllProperties,
    /// `key: expr`, or a variable `v` (as `v: v`).
    Entry(String, Expr),
}
