//! Bolt, Neo4j's protocol, so Neo4j's own drivers talk to kith unchanged: the
//! handshake, chunked messages, PackStream values and the request messages
//! (<https://neo4j.com/docs/bolt/current/>). Bytes only, like the rest of this crate:
//! the server owns the sockets and the state machine.

pub mod chunk;
pub mod handshake;
pub mod message;
pub mod packstream;

pub use handshake::Version;
pub use message::Request;
pub use packstream::{Pack, Packer};
