//! Dense internal identifiers.
//!
//! Nodes and relationships are addressed by dense `u32` slots so adjacency lists stay
//! compact (8 bytes an edge). Four billion slots cover LDBC SF100 with room to spare;
//! the bound is checked where ids are allocated. Names of labels, relationship types
//! and property keys are interned into `u16` ids by the storage catalog.

use std::fmt;

macro_rules! dense_id {
    ($(#[$doc:meta])* $name:ident, $repr:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        pub struct $name(pub $repr);

        impl $name {
            /// The id as a `usize`, for indexing dense tables.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

dense_id!(
    /// Internal slot of a node; stable for the node's lifetime, never reused.
    NodeId,
    u32
);
dense_id!(
    /// Internal slot of a relationship; stable for its lifetime, never reused.
    RelId,
    u32
);
dense_id!(
    /// Interned label name.
    LabelId,
    u16
);
dense_id!(
    /// Interned relationship type name.
    RelTypeId,
    u16
);
dense_id!(
    /// Interned property key name.
    PropKeyId,
    u16
);
