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

/// Element ids (Neo4j 5's `elementId()`, and Bolt 5's element id fields): a node's is
/// its id as text, a relationship's its id after an `r`, so no relationship has a
/// node's element id (Neo4j's are unique across both), and each is stable for its
/// element's life.
impl NodeId {
    /// The node's element id.
    pub fn element_id(self) -> String {
        self.0.to_string()
    }

    /// The node an element id names, if it names one: exactly the text
    /// [`NodeId::element_id`] gives (no sign, no leading zero).
    pub fn from_element_id(s: &str) -> Option<NodeId> {
        canonical_u32(s).map(NodeId)
    }
}

impl RelId {
    /// The relationship's element id.
    pub fn element_id(self) -> String {
        format!("r{}", self.0)
    }

    /// The relationship an element id names, if it names one.
    pub fn from_element_id(s: &str) -> Option<RelId> {
        s.strip_prefix('r').and_then(canonical_u32).map(RelId)
    }
}

/// `s` as a `u32` written without sign or leading zeros.
fn canonical_u32(s: &str) -> Option<u32> {
    s.parse::<u32>().ok().filter(|n| n.to_string() == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_ids_round_trip_and_never_name_the_other_kind() {
        for id in [0, 7, 4_000_000_000] {
            let (n, r) = (NodeId(id), RelId(id));
            assert_eq!(NodeId::from_element_id(&n.element_id()), Some(n));
            assert_eq!(RelId::from_element_id(&r.element_id()), Some(r));
            assert_eq!(RelId::from_element_id(&n.element_id()), None);
            assert_eq!(NodeId::from_element_id(&r.element_id()), None);
        }
        for bad in [
            "",
            "r",
            "01",
            "+1",
            "-1",
            "r01",
            "r+1",
            "1.0",
            "R1",
            "4294967296",
        ] {
            assert_eq!(NodeId::from_element_id(bad), None, "{bad}");
            assert_eq!(RelId::from_element_id(bad), None, "{bad}");
        }
    }
}
