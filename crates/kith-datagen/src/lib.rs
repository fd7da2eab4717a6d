//! kith-datagen: deterministic data generators.
//!
//! [`shindig`] builds the intranet social network of the first source paper (S1): the
//! same seed and scale always give the same graph, byte for byte, on every machine
//! (a PCG generator, no hash-order dependence, word lists compiled in). [`tree`] builds
//! S2's traversal tree.

pub mod shindig;
pub mod tree;
