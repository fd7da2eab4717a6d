//! The log: a segment's bytes as recovery reads them, and one record's payload as a
//! replica reads it from Kafka.

use kith_storage::{decode_payload, scan_log_bytes};

use crate::input::choose;

/// Record checksums are recomputed over the input before reading, so the fuzzer
/// reaches the payload decoder instead of stopping at the checksum.
pub fn wal_record(data: &[u8]) {
    let Some((mode, rest)) = choose(data, 2) else {
        return;
    };
    if mode == 0 {
        let _ = decode_payload(rest, std::path::Path::new("<bytes>"));
        return;
    }
    let mut bytes = segment_header(first_version(rest));
    bytes.extend_from_slice(rest);
    fix_checksums(&mut bytes);
    if let Ok(scan) = scan_log_bytes(&bytes, first_version(rest)) {
        assert!(scan.valid_len as usize <= bytes.len());
        assert_eq!(
            scan.damage.is_none(),
            scan.valid_len as usize == bytes.len()
        );
    }
}

/// The segment's first version: the first record's, when there is one, so the
/// version check passes as often as not.
fn first_version(records: &[u8]) -> u64 {
    records
        .get(8..16)
        .map_or(1, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
}

fn segment_header(first_version: u64) -> Vec<u8> {
    let mut out = b"KITHWAL.".to_vec();
    out.extend_from_slice(&kith_storage::WAL_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&first_version.to_le_bytes());
    out
}

/// Writes each whole record's checksum as the writer would have.
fn fix_checksums(bytes: &mut [u8]) {
    let mut pos = 24;
    while pos + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().expect("4 bytes")) as usize;
        let Some(end) = (pos + 8).checked_add(len).filter(|&e| e <= bytes.len()) else {
            return;
        };
        let crc = crc32(&bytes[pos + 8..end]);
        bytes[pos + 4..pos + 8].copy_from_slice(&crc.to_le_bytes());
        pos = end;
    }
}

pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}
