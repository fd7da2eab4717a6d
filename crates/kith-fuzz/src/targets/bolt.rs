//! Bolt: PackStream values, the handshake and chunked messages as a connection reads
//! them.

use kith_protocol::bolt::chunk::{Chunk, Dechunker};
use kith_protocol::bolt::packstream::unpack;
use kith_protocol::bolt::{handshake, Packer, Request};

use crate::input::same;

/// One PackStream value reads or is refused; what reads packs back to a value that
/// reads the same.
pub fn packstream(data: &[u8]) {
    let Ok(value) = unpack(data) else { return };
    let mut out = Vec::new();
    Packer::new(&mut out).pack(&value);
    let again = unpack(&out).expect("a packed value unpacks");
    assert!(same(&value, &again), "{value:?} read back as {again:?}");
}

/// The bytes a client sends: the handshake's offers (and, if it picked the manifest,
/// its choice), then chunked messages, each unpacked into a request whose RUN
/// parameters convert to kith values or are refused by name.
pub fn bolt_messages(data: &[u8]) {
    let Some((offers, rest)) = data.split_first_chunk::<16>() else {
        return;
    };
    let rest = match handshake::choose(offers) {
        handshake::Answer::Manifest => match handshake::read_choice(rest) {
            Ok(Some((_, used))) => &rest[used..],
            _ => return,
        },
        _ => rest,
    };
    messages(rest, 1 << 16);
}

/// Reads chunked messages as the connection's loop does, until the bytes end or one
/// is refused (which closes a real connection).
fn messages(mut bytes: &[u8], max: usize) {
    let mut dechunker = Dechunker::new(max);
    while let Some((size, rest)) = bytes.split_first_chunk::<2>() {
        bytes = rest;
        match dechunker.header(u16::from_be_bytes(*size)) {
            Err(_) => return,
            Ok(Chunk::Noop) => {}
            Ok(Chunk::Data(n)) => {
                let Some((chunk, rest)) = bytes.split_at_checked(n) else {
                    return;
                };
                dechunker.room(n).copy_from_slice(chunk);
                bytes = rest;
            }
            Ok(Chunk::End) => {
                let message = dechunker.take();
                assert!(message.len() <= max, "a message over the limit");
                if !request(&message) {
                    return;
                }
            }
        }
    }
}

/// One message; false when it is refused.
fn request(message: &[u8]) -> bool {
    let Ok(request) = unpack(message).and_then(Request::from_pack) else {
        return false;
    };
    if let Request::Run { params, .. } = request {
        for (name, value) in params {
            let _ = kith_server::fuzzing::bolt_param(&name, value);
        }
    }
    true
}
