//! WebSocket frames as the server reads them (tungstenite, with the server's limits),
//! and each binary message through the server's frame path: kith's header, the
//! payload's decompression within the limit, the request document, and a write's
//! operations.

use std::io::{Cursor, Read, Write};

use kith_protocol::{Request, Subprotocol, Wire};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use crate::input::choose;

/// The server's message and frame limit here (`frame_bytes_max`, smaller than the
/// default so that the fuzzer reaches it).
const LIMIT: usize = 1 << 16;

/// A client's bytes after the upgrade: frames read until the stream ends or one is
/// refused; each binary message goes through the server's frame path.
pub fn ws_frames(data: &[u8]) {
    let subprotocols: Vec<Subprotocol> = Subprotocol::all().collect();
    let Some((i, bytes)) = choose(data, subprotocols.len()) else {
        return;
    };
    let wire = Wire::new(subprotocols[i], LIMIT);
    let config = WebSocketConfig::default()
        .max_message_size(Some(LIMIT))
        .max_frame_size(Some(LIMIT))
        .read_buffer_size(kith_protocol::READ_BUFFER_BYTES);
    let stream = Duplex {
        input: Cursor::new(bytes),
        written: 0,
    };
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    while let Ok(message) = ws.read() {
        match message {
            Message::Binary(payload) => {
                assert!(payload.len() <= LIMIT, "a message over the limit");
                frame(&wire, &payload);
            }
            Message::Close(_) => break,
            _ => {}
        }
    }
}

/// What `kith-server`'s `handle_frame` does with a binary message before it queues it.
fn frame(wire: &Wire, bytes: &[u8]) {
    let Ok((_, payload)) = wire.open(bytes) else {
        return;
    };
    assert!(
        payload.len() <= LIMIT,
        "a payload over the limit was opened"
    );
    if let Ok((Request::Write { ops, .. }, _)) = wire.decode_request_at(&payload) {
        let _ = kith_protocol::ops::decode(ops, 1000);
    }
}

/// The connection: reads the input, counts what the server would send (pongs,
/// close replies) without keeping it.
struct Duplex<'a> {
    input: Cursor<&'a [u8]>,
    written: usize,
}

impl Read for Duplex<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.input.read(buf)
    }
}

impl Write for Duplex<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.written += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
