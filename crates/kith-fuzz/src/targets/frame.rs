//! kith's 12-byte frame header, and a whole frame as a connection opens it.

use kith_protocol::{FrameHeader, Subprotocol, Wire};

use crate::input::choose;

/// The header reads or is refused; what it reads writes back to the same bytes.
pub fn frame_header(data: &[u8]) {
    if let Ok((header, payload)) = FrameHeader::read(data) {
        let mut out = Vec::new();
        header.write(&mut out);
        out.extend_from_slice(payload);
        assert_eq!(out, data, "a header read back differently");
    }
    // A connection of any subprotocol opens the frame (header, then decompression
    // within the payload limit) or refuses it.
    let subprotocols: Vec<Subprotocol> = Subprotocol::all().collect();
    if let Some((i, frame)) = choose(data, subprotocols.len()) {
        let wire = Wire::new(subprotocols[i], 1 << 16);
        if let Ok((_, payload)) = wire.open(frame) {
            assert!(
                payload.len() <= 1 << 16,
                "a payload over the limit was opened"
            );
        }
    }
}
