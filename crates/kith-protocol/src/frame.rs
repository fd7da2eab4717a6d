//! The 12-byte frame header (`docs/protocol.md` 1.2).

use crate::ProtocolError;

/// Header size in bytes.
pub const HEADER_BYTES: usize = 12;
/// Protocol version carried in byte 0.
pub const VERSION: u8 = 1;
/// Flag bit 0: the payload is compressed.
pub const FLAG_COMPRESSED: u8 = 0x01;
/// Flag bit 1: more chunks of this result follow.
pub const FLAG_MORE: u8 = 0x02;
const FLAGS_KNOWN: u8 = FLAG_COMPRESSED | FLAG_MORE;

/// What a frame carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Client request.
    Request = 1,
    /// A chunk of a result.
    Result = 16,
    /// An error answer.
    Error = 17,
}

/// A decoded header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameHeader {
    /// Kind.
    pub kind: Kind,
    /// Flag bits.
    pub flags: u8,
    /// The client's request id.
    pub request_id: u64,
}

impl FrameHeader {
    /// Appends the 12 header bytes to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[VERSION, self.kind as u8, self.flags, 0]);
        out.extend_from_slice(&self.request_id.to_le_bytes());
    }

    /// Splits a message into its header and payload.
    pub fn read(message: &[u8]) -> Result<(FrameHeader, &[u8]), ProtocolError> {
        if message.len() < HEADER_BYTES {
            return Err(ProtocolError::BadFrame(format!(
                "{} bytes is shorter than the {HEADER_BYTES}-byte header",
                message.len()
            )));
        }
        if message[0] != VERSION {
            return Err(ProtocolError::BadFrame(format!(
                "protocol version {} (this server speaks {VERSION})",
                message[0]
            )));
        }
        let kind = match message[1] {
            1 => Kind::Request,
            16 => Kind::Result,
            17 => Kind::Error,
            other => {
                return Err(ProtocolError::BadFrame(format!(
                    "unknown frame kind {other}"
                )))
            }
        };
        let flags = message[2];
        if flags & !FLAGS_KNOWN != 0 || message[3] != 0 {
            return Err(ProtocolError::BadFrame("reserved bits are set".into()));
        }
        let mut id = [0u8; 8];
        id.copy_from_slice(&message[4..12]);
        Ok((
            FrameHeader {
                kind,
                flags,
                request_id: u64::from_le_bytes(id),
            },
            &message[HEADER_BYTES..],
        ))
    }

    /// The request id of a message whose header may be malformed (0 if too short), so
    /// an error about it can still name the request.
    pub fn request_id_of(message: &[u8]) -> u64 {
        message
            .get(4..12)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_bad_headers_are_refused() {
        let h = FrameHeader {
            kind: Kind::Result,
            flags: FLAG_MORE,
            request_id: 0x0102_0304_0506_0708,
        };
        let mut out = Vec::new();
        h.write(&mut out);
        out.extend_from_slice(b"xyz");
        assert_eq!(out[..4], [1, 16, 2, 0]);
        assert_eq!(out[4], 0x08, "request id is little-endian");
        let (back, payload) = FrameHeader::read(&out).expect("valid");
        assert_eq!((back, payload), (h, &b"xyz"[..]));
        for (bytes, why) in [
            (&out[..11], "shorter"),
            (&[2u8, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][..], "version 2"),
            (&[1u8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][..], "kind 9"),
            (&[1u8, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0][..], "reserved"),
            (&[1u8, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0][..], "reserved"),
        ] {
            let err = FrameHeader::read(bytes).expect_err(why);
            assert_eq!(err.code(), crate::ErrorCode::BadFrame);
            assert!(
                err.to_string()
                    .contains(why.split(' ').next().unwrap_or(why)),
                "{err}"
            );
        }
        assert_eq!(FrameHeader::request_id_of(&out), 0x0102_0304_0506_0708);
        assert_eq!(FrameHeader::request_id_of(&[1, 2]), 0);
    }
}
