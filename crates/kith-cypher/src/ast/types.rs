//! The types of Neo4j 5's type predicates: `x IS :: INTEGER`, `x IS NOT TYPED STRING
//! NOT NULL`, `x :: LIST<INTEGER | FLOAT>`.

/// A type, nullable unless `NOT NULL` (or `!`) follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct CypherType {
    /// What values it holds.
    pub kind: TypeKind,
    /// Whether null belongs to it too.
    pub nullable: bool,
}

/// The kinds of type Neo4j 5 names.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// `NOTHING`: no value, not even null.
    Nothing,
    /// `NULL`: null alone.
    Null,
    /// `BOOLEAN`.
    Boolean,
    /// `STRING`.
    String,
    /// `INTEGER`.
    Integer,
    /// `FLOAT`.
    Float,
    /// `DATE`.
    Date,
    /// `LOCAL TIME`.
    LocalTime,
    /// `ZONED TIME`.
    ZonedTime,
    /// `LOCAL DATETIME`.
    LocalDateTime,
    /// `ZONED DATETIME`.
    ZonedDateTime,
    /// `DURATION`.
    Duration,
    /// `POINT`.
    Point,
    /// `NODE`.
    Node,
    /// `RELATIONSHIP`.
    Relationship,
    /// `MAP`.
    Map,
    /// `PATH`.
    Path,
    /// `PROPERTY VALUE`: what a property can hold.
    PropertyValue,
    /// `ANY`.
    Any,
    /// `LIST<T>`.
    List(Box<CypherType>),
    /// `A | B`, `ANY<A | B>`: any of them.
    Union(Vec<CypherType>),
}
