//! Each decompressor, with its size bound.

use kith_protocol::compress::{compress, decompress as inflate};
use kith_protocol::Compression;

use crate::input::choose;

const MAX: usize = 1 << 16;

/// Decompresses within the bound or refuses; compressing what came out and
/// decompressing it again gives it back.
pub fn decompress(data: &[u8]) {
    let Some((i, bytes)) = choose(data, Compression::ALL.len()) else {
        return;
    };
    let compression = Compression::ALL[i];
    if let Ok(out) = inflate(compression, bytes, MAX) {
        assert!(out.len() <= MAX, "{compression:?} expanded past its bound");
        let packed = compress(compression, &out);
        let back = inflate(compression, &packed, MAX).expect("compressed data decompresses");
        assert_eq!(back, out, "{compression:?} round trip");
    }
}
