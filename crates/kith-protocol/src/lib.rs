//! kith-protocol: the bytes between a kith client and server.
//!
//! `docs/protocol.md` is the specification; this crate is its one implementation,
//! shared by the server and the Rust client so they cannot drift apart. It knows
//! values and documents, never storage or sockets.
//!
//! - [`negotiate`]: the `kith.v1.<encoding>.<compression>` subprotocols;
//! - [`frame`]: the 12-byte frame header;
//! - [`compress`]: the five compressions, with bounded decompression;
//! - [`message`]: requests, result chunks and errors in any encoding;
//! - [`ops`]: builders for the operations of a write request;
//! - [`Wire`]: all of it for one connection;
//! - [`bolt`]: Neo4j's Bolt protocol (handshake, chunks, PackStream, messages).

pub mod bolt;
mod code;
mod codec;
pub mod compress;
mod error;
pub mod frame;
pub mod message;
pub mod negotiate;
pub mod ops;
mod wire;

pub use code::{ErrorCode, UnknownCode};
pub use codec::{decode_document, encode_document};
pub use error::ProtocolError;

/// WebSocket read buffer size for kith's peers. tungstenite zero-fills its whole read
/// buffer before each read, so its 128 KiB default cost more than the rest of a small
/// round trip; 16 KiB still reads typical answers in one call.
pub const READ_BUFFER_BYTES: usize = 16 * 1024;
pub use frame::{FrameHeader, Kind, FLAG_COMPRESSED, FLAG_MORE, HEADER_BYTES};
pub use message::{Commit, CypherErrorDetail, ErrorBody, Request, ResultChunk, Timing, Trailer};
pub use negotiate::{Compression, Encoding, Subprotocol};
pub use wire::{Wire, COMPRESS_MIN_BYTES};
