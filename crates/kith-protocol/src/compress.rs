//! Payload compression with bounded decompression: a few hundred compressed bytes
//! must not be able to demand gigabytes (a decompression bomb).

use std::io::{Read, Write};

use crate::{Compression, ProtocolError};

/// Compresses `data`.
pub fn compress(compression: Compression, data: &[u8]) -> Vec<u8> {
    match compression {
        Compression::None => data.to_vec(),
        Compression::DeflateFast | Compression::DeflateBest => {
            let level = if compression == Compression::DeflateFast {
                flate2::Compression::fast()
            } else {
                flate2::Compression::best()
            };
            let mut encoder =
                flate2::write::DeflateEncoder::new(Vec::with_capacity(data.len() / 2), level);
            // Writing into a Vec cannot fail.
            let _ = encoder.write_all(data);
            encoder.finish().unwrap_or_default()
        }
        Compression::Zstd => zstd::bulk::compress(data, 3).unwrap_or_default(),
        Compression::Lz4 => lz4_flex::compress_prepend_size(data),
    }
}

/// Decompresses `data`, refusing output over `max_bytes`.
pub fn decompress(
    compression: Compression,
    data: &[u8],
    max_bytes: usize,
) -> Result<Vec<u8>, ProtocolError> {
    let bad = |reason: String| ProtocolError::BadCompression {
        compression: compression.name(),
        reason,
    };
    let too_large = || bad(format!("it expands beyond the {max_bytes}-byte limit"));
    match compression {
        Compression::None => Ok(data.to_vec()),
        Compression::DeflateFast | Compression::DeflateBest => {
            let mut out = Vec::with_capacity(data.len() * 4);
            flate2::read::DeflateDecoder::new(data)
                .take(max_bytes as u64 + 1)
                .read_to_end(&mut out)
                .map_err(|e| bad(e.to_string()))?;
            if out.len() > max_bytes {
                return Err(too_large());
            }
            Ok(out)
        }
        Compression::Zstd => {
            if let Ok(Some(size)) = zstd::zstd_safe::get_frame_content_size(data) {
                if size > max_bytes as u64 {
                    return Err(too_large());
                }
            }
            zstd::bulk::decompress(data, max_bytes).map_err(|e| bad(e.to_string()))
        }
        Compression::Lz4 => {
            let size = data
                .get(..4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map(u32::from_le_bytes)
                .ok_or_else(|| bad("shorter than its 4-byte size prefix".into()))?;
            if size as usize > max_bytes {
                return Err(too_large());
            }
            lz4_flex::decompress_size_prepended(data).map_err(|e| bad(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compression_round_trips_and_is_bounded() {
        let data: Vec<u8> = (0..20_000u32)
            .flat_map(|i| (i % 97).to_le_bytes())
            .collect();
        for c in Compression::ALL {
            let packed = compress(c, &data);
            if c != Compression::None {
                assert!(packed.len() < data.len() / 2, "{c:?} does not compress");
            }
            assert_eq!(
                decompress(c, &packed, data.len()).expect("round trip"),
                data
            );
            if c != Compression::None {
                let err = decompress(c, &packed, 1000).expect_err("over the limit");
                assert!(err.to_string().contains("limit"), "{c:?}: {err}");
                assert!(
                    decompress(c, b"\xff\xfe garbage", 1 << 20).is_err(),
                    "{c:?} accepted garbage"
                );
            }
        }
    }
}
