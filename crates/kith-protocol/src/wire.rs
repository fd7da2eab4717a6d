//! Everything one connection needs to turn messages into frames and back.

use kith_core::Value;

use crate::compress::{compress, decompress};
use crate::frame::{FrameHeader, Kind, FLAG_COMPRESSED, FLAG_MORE};
use crate::message::encode_chunk;
use crate::message::Trailer;
use crate::{Compression, ErrorBody, ProtocolError, Request, ResultChunk, Subprotocol, Timing};

/// Payloads smaller than this are never compressed: the saving would not pay for the
/// work (and deflate can grow tiny inputs).
pub const COMPRESS_MIN_BYTES: usize = 256;

/// A connection's negotiated subprotocol and its payload limit.
#[derive(Clone, Copy, Debug)]
pub struct Wire {
    /// The negotiated encoding and compression.
    pub subprotocol: Subprotocol,
    /// The largest decompressed payload accepted.
    pub payload_bytes_max: usize,
}

impl Wire {
    /// A wire for a negotiated subprotocol.
    pub fn new(subprotocol: Subprotocol, payload_bytes_max: usize) -> Self {
        Wire {
            subprotocol,
            payload_bytes_max,
        }
    }

    fn frame(&self, kind: Kind, mut flags: u8, request_id: u64, payload: Vec<u8>) -> Vec<u8> {
        let compression = self.subprotocol.compression;
        let payload = if compression != Compression::None && payload.len() >= COMPRESS_MIN_BYTES {
            let packed = compress(compression, &payload);
            if packed.len() < payload.len() {
                flags |= FLAG_COMPRESSED;
                packed
            } else {
                payload
            }
        } else {
            payload
        };
        let mut out = Vec::with_capacity(crate::HEADER_BYTES + payload.len());
        FrameHeader {
            kind,
            flags,
            request_id,
        }
        .write(&mut out);
        out.extend_from_slice(&payload);
        out
    }

    /// A request frame.
    pub fn request(&self, request_id: u64, request: &Request) -> Vec<u8> {
        self.request_at(request_id, request, None)
    }

    /// A request frame that the server runs only once it has applied `min_version`.
    pub fn request_at(
        &self,
        request_id: u64,
        request: &Request,
        min_version: Option<u64>,
    ) -> Vec<u8> {
        self.frame(
            Kind::Request,
            0,
            request_id,
            request.encode_at(self.subprotocol.encoding, min_version),
        )
    }

    /// An error frame.
    pub fn error(&self, request_id: u64, code: crate::ErrorCode, message: &str) -> Vec<u8> {
        self.error_body(request_id, &ErrorBody::new(code.as_str(), message))
    }

    /// An error frame from a whole error document (a Cypher error's detail included).
    pub fn error_body(&self, request_id: u64, body: &ErrorBody) -> Vec<u8> {
        self.frame(
            Kind::Error,
            0,
            request_id,
            body.encode(self.subprotocol.encoding),
        )
    }

    /// A result as frames of at most `chunk_rows` rows each (at least one frame, even
    /// for an empty result). `timing` goes into the last frame; its `encode_us` is
    /// filled in here.
    pub fn result(
        &self,
        request_id: u64,
        columns: &[String],
        values: &[Value],
        chunk_rows: usize,
        timing: Option<Timing>,
    ) -> Vec<Vec<u8>> {
        let trailer = Trailer::with_timing(timing);
        self.result_with(request_id, columns, values, chunk_rows, trailer)
    }

    /// [`Wire::result`] with a whole trailer for the last frame (a Cypher query's
    /// commit).
    pub fn result_with(
        &self,
        request_id: u64,
        columns: &[String],
        values: &[Value],
        chunk_rows: usize,
        trailer: Trailer,
    ) -> Vec<Vec<u8>> {
        let started = std::time::Instant::now();
        let width = columns.len().max(1);
        let per_chunk = chunk_rows.max(1) * width;
        let chunks: Vec<&[Value]> = if values.is_empty() {
            vec![&[][..]]
        } else {
            values.chunks(per_chunk).collect()
        };
        let last = chunks.len() - 1;
        let encoding = self.subprotocol.encoding;
        let mut frames = Vec::with_capacity(chunks.len());
        let mut trailer = Some(trailer);
        for (i, chunk) in chunks.into_iter().enumerate() {
            let columns = (i == 0).then_some(columns);
            let trailer = match trailer.take_if(|_| i == last) {
                Some(t) => Trailer {
                    timing: t.timing.map(|t| Timing {
                        encode_us: started.elapsed().as_micros() as u64,
                        ..t
                    }),
                    ..t
                },
                None => Trailer::default(),
            };
            let payload = encode_chunk(encoding, columns, chunk, width, &trailer);
            let flags = if i == last { 0 } else { FLAG_MORE };
            frames.push(self.frame(Kind::Result, flags, request_id, payload));
        }
        frames
    }

    /// Splits a received message into its header and its decompressed payload.
    pub fn open(&self, message: &[u8]) -> Result<(FrameHeader, Vec<u8>), ProtocolError> {
        let (header, payload) = FrameHeader::read(message)?;
        let payload = if header.flags & FLAG_COMPRESSED != 0 {
            if self.subprotocol.compression == Compression::None {
                return Err(ProtocolError::BadFrame(
                    "a compressed payload on a connection without compression".into(),
                ));
            }
            decompress(
                self.subprotocol.compression,
                payload,
                self.payload_bytes_max,
            )?
        } else {
            payload.to_vec()
        };
        Ok((header, payload))
    }

    /// Decodes a request payload.
    pub fn decode_request(&self, payload: &[u8]) -> Result<Request, ProtocolError> {
        Request::decode(self.subprotocol.encoding, payload)
    }

    /// Decodes a request payload and the version it must see (`min_version`).
    pub fn decode_request_at(
        &self,
        payload: &[u8],
    ) -> Result<(Request, Option<u64>), ProtocolError> {
        Request::decode_at(self.subprotocol.encoding, payload)
    }

    /// Decodes a result chunk payload.
    pub fn decode_chunk(&self, payload: &[u8]) -> Result<ResultChunk, ProtocolError> {
        ResultChunk::decode(self.subprotocol.encoding, payload)
    }

    /// Decodes an error payload.
    pub fn decode_error(&self, payload: &[u8]) -> Result<ErrorBody, ProtocolError> {
        ErrorBody::decode(self.subprotocol.encoding, payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Encoding, FLAG_MORE};

    #[test]
    fn results_are_chunked_compressed_and_reassembled() {
        for p in Subprotocol::all() {
            let wire = Wire::new(p, 1 << 20);
            let columns = vec!["id".to_owned(), "name".to_owned()];
            let values: Vec<Value> = (0..2500)
                .flat_map(|i| [Value::Int(i), Value::string(format!("person number {i}"))])
                .collect();
            let frames = wire.result(9, &columns, &values, 1000, Some(Timing::default()));
            assert_eq!(frames.len(), 3, "{p}");
            let mut rows = Vec::new();
            for (i, f) in frames.iter().enumerate() {
                let (h, payload) = wire.open(f).expect("opens");
                assert_eq!(h.request_id, 9);
                assert_eq!(h.flags & FLAG_MORE != 0, i < 2, "{p}: more flag");
                if p.compression != Compression::None {
                    assert!(
                        h.flags & FLAG_COMPRESSED != 0,
                        "{p}: a 30 kB chunk compresses"
                    );
                }
                let chunk = wire.decode_chunk(&payload).expect("decodes");
                assert_eq!(chunk.columns.is_some(), i == 0);
                assert_eq!(chunk.timing.is_some(), i == 2);
                rows.extend(chunk.rows);
            }
            assert_eq!(rows.len(), 2500);
            assert_eq!(
                rows[2499],
                vec![Value::Int(2499), Value::string("person number 2499")]
            );
        }
    }

    #[test]
    fn an_empty_result_is_one_frame_and_small_payloads_stay_plain() {
        let wire = Wire::new(
            Subprotocol {
                encoding: Encoding::Bson,
                compression: Compression::Zstd,
            },
            1 << 20,
        );
        let frames = wire.result(1, &["id".to_owned()], &[], 1000, None);
        assert_eq!(frames.len(), 1);
        let (h, payload) = wire.open(&frames[0]).expect("opens");
        assert_eq!(h.flags, 0, "small payload sent uncompressed");
        assert!(wire
            .decode_chunk(&payload)
            .expect("decodes")
            .rows
            .is_empty());
    }

    #[test]
    fn compressed_frames_on_plain_connections_and_bombs_are_refused() {
        let plain = Wire::new(Subprotocol::DEFAULT, 1 << 20);
        let mut frame = plain.error(3, crate::ErrorCode::Busy, "x");
        frame[2] |= FLAG_COMPRESSED;
        assert_eq!(
            plain.open(&frame).expect_err("flag").code(),
            crate::ErrorCode::BadFrame
        );
        let zstd = Subprotocol {
            encoding: Encoding::Json,
            compression: Compression::Zstd,
        };
        let big = Wire::new(zstd, 1 << 24);
        let request = Request::Call {
            procedure: "x".repeat(100_000),
            params: vec![],
            timing: false,
        };
        let small = Wire::new(zstd, 10_000);
        let err = small.open(&big.request(1, &request)).expect_err("bomb");
        assert!(err.to_string().contains("limit"), "{err}");
    }
}
