//! The write-ahead log: append-only segment files of checksummed records.
//!
//! Layout (little-endian; `docs/storage-format.md` 2 has the details):
//!
//! ```text
//! segment  wal/<first version, 20 digits>.wal
//! header   magic "KITHWAL." (8) | format version u32 | reserved u32 (0) |
//!          first version u64 (the version of the segment's first transaction)
//! record   payload length u32 | CRC-32 of the payload u32 | payload
//! payload  first version u64 | batch count u32 | batches (see `codec`)
//! ```
//!
//! One record holds one commit group: the transactions one fsync made durable, with
//! consecutive versions starting at `first version`. A record is either wholly valid
//! (length fits, checksum matches) or it is where the log ends: recovery cuts a torn
//! tail of the newest segment at the last valid record and reports what it dropped.
//! Damage in an older segment cannot be a torn write, so it stops recovery instead.

pub(crate) mod codec;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::disk::{Disk, DiskFile};
use crate::graph_file::Reader;
use crate::{StorageError, WriteBatch};

/// The log format version this build writes and reads.
pub const WAL_FORMAT_VERSION: u32 = 1;

const SEGMENT_MAGIC: &[u8; 8] = b"KITHWAL.";
const SEGMENT_HEADER_BYTES: usize = 24;
const RECORD_HEADER_BYTES: usize = 8;
/// No group is this large (frames are limited far below); a longer length is damage.
const RECORD_MAX_BYTES: usize = 1 << 31;

/// Whether a commit waits for the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// `fsync` every group before acknowledging it (the default).
    #[default]
    Fsync,
    /// Write to the OS and acknowledge without waiting: a power loss can lose
    /// acknowledged writes. For experiments only, and always labelled as such.
    None,
}

impl Durability {
    /// The name used in flags and reports.
    pub fn name(self) -> &'static str {
        match self {
            Durability::Fsync => "fsync",
            Durability::None => "none",
        }
    }
}

impl std::str::FromStr for Durability {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fsync" => Ok(Durability::Fsync),
            "none" => Ok(Durability::None),
            other => Err(format!(
                "unknown durability `{other}`; expected `fsync` or `none`"
            )),
        }
    }
}

/// One segment file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    pub(crate) first_version: u64,
    pub(crate) path: PathBuf,
}

pub(crate) fn segment_path(dir: &Path, first_version: u64) -> PathBuf {
    dir.join(format!("{first_version:020}.wal"))
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The segments in `dir`, oldest first. Files that are not segments are refused by
/// name, except leftovers of an interrupted segment creation, which are removed.
pub(crate) fn list_segments(disk: &dyn Disk, dir: &Path) -> Result<Vec<Segment>, StorageError> {
    let mut segments = Vec::new();
    for path in disk.list(dir).map_err(io_error(dir))? {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with(".wal.tmp") {
            disk.remove(&path).map_err(io_error(&path))?;
            continue;
        }
        let first_version = name
            .strip_suffix(".wal")
            .and_then(|stem| stem.parse::<u64>().ok())
            .ok_or_else(|| StorageError::Corrupt {
                path: path.clone(),
                reason:
                    "an unexpected file in the log directory (segments are named <version>.wal)"
                        .into(),
            })?;
        segments.push(Segment {
            first_version,
            path,
        });
    }
    segments.sort_by_key(|s| s.first_version);
    Ok(segments)
}

/// The index of the last segment holding a record (more than its header), if any.
pub(crate) fn last_with_records(
    disk: &dyn Disk,
    segments: &[Segment],
) -> Result<Option<usize>, StorageError> {
    for (i, segment) in segments.iter().enumerate().rev() {
        let len = disk.len(&segment.path).map_err(io_error(&segment.path))?;
        if len > SEGMENT_HEADER_BYTES as u64 {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Removes those of `segments` that hold no record (a header only) and are still
/// there.
pub(crate) fn remove_empty_segments(
    disk: &dyn Disk,
    dir: &Path,
    segments: &[Segment],
) -> Result<(), StorageError> {
    let mut removed = false;
    for segment in segments {
        let Ok(len) = disk.len(&segment.path) else {
            continue; // already removed as covered
        };
        if len <= SEGMENT_HEADER_BYTES as u64 {
            disk.remove(&segment.path)
                .map_err(io_error(&segment.path))?;
            removed = true;
        }
    }
    if removed {
        sync_dir(disk, dir)?;
    }
    Ok(())
}

/// Makes directory entries (creations, renames, removals) durable.
pub(crate) fn sync_dir(disk: &dyn Disk, dir: &Path) -> Result<(), StorageError> {
    disk.sync_dir(dir).map_err(io_error(dir))
}

/// What scanning one segment found.
#[derive(Debug)]
pub(crate) struct SegmentScan {
    /// Bytes up to the end of the last valid record.
    pub(crate) valid_len: u64,
    /// Why the segment ends before its file does, if it does.
    pub(crate) damage: Option<String>,
}

/// Reads every valid record of a segment in order, handing each group's first
/// version and transactions to `apply`.
pub(crate) fn scan_segment(
    disk: &dyn Disk,
    segment: &Segment,
    mut apply: impl FnMut(u64, Vec<WriteBatch>) -> Result<(), StorageError>,
) -> Result<SegmentScan, StorageError> {
    scan_segment_raw(disk, segment, |record| {
        let (first_version, batches) = decode_payload(record.payload, &segment.path)?;
        apply(first_version, batches)
    })
}

/// One valid record of a segment, not yet decoded.
pub(crate) struct RawRecord<'a> {
    pub(crate) first_version: u64,
    pub(crate) transactions: u32,
    /// The payload as logged (first version, count, batches): what replication sends.
    pub(crate) payload: &'a [u8],
}

/// Reads every valid record of a segment in order, checking its frame, checksum and
/// version sequence, and hands each payload to `visit` undecoded.
pub(crate) fn scan_segment_raw(
    disk: &dyn Disk,
    segment: &Segment,
    mut visit: impl FnMut(RawRecord<'_>) -> Result<(), StorageError>,
) -> Result<SegmentScan, StorageError> {
    let path = &segment.path;
    let bytes = disk.read(path).map_err(io_error(path))?;
    scan_bytes(&bytes, segment.first_version, path, &mut visit)
}

/// What [`scan_log_bytes`] found in one segment's bytes.
#[derive(Debug)]
pub struct LogScan {
    /// Transactions in the valid records.
    pub transactions: u64,
    /// Bytes up to the end of the last valid record.
    pub valid_len: u64,
    /// Why the segment ends before its bytes do, if it does.
    pub damage: Option<String>,
}

/// Scans a segment's bytes as recovery does, decoding every valid record: the log
/// reader's whole path from bytes, for the fuzz targets (`crates/kith-fuzz`).
pub fn scan_log_bytes(bytes: &[u8], first_version: u64) -> Result<LogScan, StorageError> {
    let path = Path::new("<bytes>");
    let mut transactions = 0u64;
    let scan = scan_bytes(bytes, first_version, path, &mut |record| {
        let (first, batches) = decode_payload(record.payload, path)?;
        assert_eq!(
            first, record.first_version,
            "the record head was read twice"
        );
        assert_eq!(batches.len(), record.transactions as usize);
        transactions += u64::from(record.transactions);
        Ok(())
    })?;
    Ok(LogScan {
        transactions,
        valid_len: scan.valid_len,
        damage: scan.damage,
    })
}

/// [`scan_segment_raw`] over bytes already read.
fn scan_bytes(
    bytes: &[u8],
    segment_first: u64,
    path: &Path,
    visit: &mut dyn FnMut(RawRecord<'_>) -> Result<(), StorageError>,
) -> Result<SegmentScan, StorageError> {
    let corrupt = |reason: String| StorageError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.len() < SEGMENT_HEADER_BYTES || &bytes[..8] != SEGMENT_MAGIC {
        return Err(corrupt(
            "not a kith log segment (bad or missing header)".into(),
        ));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != WAL_FORMAT_VERSION {
        return Err(StorageError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: WAL_FORMAT_VERSION,
        });
    }
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes[16..24]);
    if u64::from_le_bytes(first) != segment_first {
        return Err(corrupt(format!(
            "its header says it starts at version {}, its name says {segment_first}",
            u64::from_le_bytes(first),
        )));
    }
    let mut pos = SEGMENT_HEADER_BYTES;
    let mut expected = segment_first;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        if rest.len() < RECORD_HEADER_BYTES {
            return Ok(damaged(
                pos,
                format!("a torn record header ({} bytes)", rest.len()),
            ));
        }
        let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        let crc = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]);
        if !(12..=RECORD_MAX_BYTES).contains(&len) {
            return Ok(damaged(pos, format!("an impossible record length {len}")));
        }
        if rest.len() - RECORD_HEADER_BYTES < len {
            return Ok(damaged(
                pos,
                format!(
                    "a torn record ({} of {len} payload bytes present)",
                    rest.len() - RECORD_HEADER_BYTES
                ),
            ));
        }
        let payload = &rest[RECORD_HEADER_BYTES..RECORD_HEADER_BYTES + len];
        if crc32fast::hash(payload) != crc {
            return Ok(damaged(
                pos,
                "a record whose checksum does not match".into(),
            ));
        }
        // The checksum matched: from here on, anything wrong is not a torn write.
        let (first_version, transactions) = payload_head(payload);
        if first_version != expected {
            return Err(corrupt(format!(
                "the record at byte {pos} starts at version {first_version}, expected {expected}"
            )));
        }
        // Found by the fuzz target `wal_record`: a record claiming versions past
        // u64::MAX overflowed this sum.
        expected = expected
            .checked_add(u64::from(transactions))
            .ok_or_else(|| {
                corrupt(format!(
                    "the record at byte {pos} holds versions past the largest ({first_version} + {transactions})"
                ))
            })?;
        visit(RawRecord {
            first_version,
            transactions,
            payload,
        })?;
        pos += RECORD_HEADER_BYTES + len;
    }
    Ok(SegmentScan {
        valid_len: pos as u64,
        damage: None,
    })
}

/// The first version and transaction count at the head of a payload of at least 12
/// bytes.
fn payload_head(payload: &[u8]) -> (u64, u32) {
    let mut first = [0u8; 8];
    first.copy_from_slice(&payload[..8]);
    let mut count = [0u8; 4];
    count.copy_from_slice(&payload[8..12]);
    (u64::from_le_bytes(first), u32::from_le_bytes(count))
}

/// Decodes a record's payload into its first version and transactions. `source`
/// names where the bytes came from in errors (a segment, or a replication topic).
pub fn decode_payload(
    payload: &[u8],
    source: &Path,
) -> Result<(u64, Vec<WriteBatch>), StorageError> {
    let mut r = Reader {
        bytes: payload,
        pos: 0,
        path: source,
    };
    let first_version = r.i64()? as u64;
    let count = r.u32()? as usize;
    let mut batches = Vec::with_capacity(count.min(payload.len()));
    for _ in 0..count {
        batches.push(codec::read_batch(&mut r)?);
    }
    if r.pos != payload.len() {
        return Err(r.corrupt(format!(
            "{} bytes after the record's last batch",
            payload.len() - r.pos
        )));
    }
    Ok((first_version, batches))
}

fn damaged(pos: usize, what: String) -> SegmentScan {
    SegmentScan {
        valid_len: pos as u64,
        damage: Some(format!("{what} at byte {pos}")),
    }
}

/// The appending end of the log.
pub(crate) struct WalWriter {
    disk: Arc<dyn Disk>,
    dir: PathBuf,
    file: Box<dyn DiskFile>,
    path: PathBuf,
    segment_first: u64,
    durability: Durability,
    buf: Vec<u8>,
    /// The segment's length up to its last record written whole (and, with
    /// `Durability::Fsync`, synced).
    len: u64,
    /// Set when a write or sync failed: the file's tail is unknown, so nothing more is
    /// appended until [`WalWriter::cut_failed_tail`] has cut it back to `len`.
    failed: Option<String>,
}

impl WalWriter {
    /// The first version of the segment it appends to.
    pub(crate) fn first_version(&self) -> u64 {
        self.segment_first
    }

    /// Creates a new, empty segment starting at `first_version` (written to a
    /// temporary name, synced, then renamed, so a segment never has a torn header).
    pub(crate) fn create(
        disk: &Arc<dyn Disk>,
        dir: &Path,
        first_version: u64,
        durability: Durability,
    ) -> Result<WalWriter, StorageError> {
        let path = segment_path(dir, first_version);
        let tmp = path.with_extension("wal.tmp");
        let mut header = Vec::with_capacity(SEGMENT_HEADER_BYTES);
        header.extend_from_slice(SEGMENT_MAGIC);
        header.extend_from_slice(&WAL_FORMAT_VERSION.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        header.extend_from_slice(&first_version.to_le_bytes());
        {
            let mut file = disk.create(&tmp).map_err(io_error(&tmp))?;
            file.write_all(&header).map_err(io_error(&tmp))?;
            file.sync_all().map_err(io_error(&tmp))?;
        }
        disk.rename(&tmp, &path).map_err(io_error(&path))?;
        sync_dir(&**disk, dir)?;
        WalWriter::append_to(
            disk,
            dir,
            Segment {
                first_version,
                path,
            },
            durability,
        )
    }

    /// Opens an existing (recovered) segment for appending at its end.
    pub(crate) fn append_to(
        disk: &Arc<dyn Disk>,
        dir: &Path,
        segment: Segment,
        durability: Durability,
    ) -> Result<WalWriter, StorageError> {
        let file = disk
            .append(&segment.path)
            .map_err(io_error(&segment.path))?;
        let len = disk.len(&segment.path).map_err(io_error(&segment.path))?;
        Ok(WalWriter {
            disk: Arc::clone(disk),
            len,
            dir: dir.to_path_buf(),
            file,
            path: segment.path,
            segment_first: segment.first_version,
            durability,
            buf: Vec::with_capacity(64 * 1024),
            failed: None,
        })
    }

    /// Appends one group as one record and, with `Durability::Fsync`, waits until it
    /// is on disk. Returns the record's size in bytes.
    pub(crate) fn append(
        &mut self,
        first_version: u64,
        batches: &[&WriteBatch],
    ) -> Result<u64, StorageError> {
        self.cut_failed_tail()?;
        self.buf.clear();
        self.buf.extend_from_slice(&[0u8; RECORD_HEADER_BYTES]);
        self.buf.extend_from_slice(&first_version.to_le_bytes());
        crate::graph_file::put_len(&mut self.buf, batches.len());
        for batch in batches {
            codec::put_batch(&mut self.buf, batch);
        }
        let len = self.buf.len() - RECORD_HEADER_BYTES;
        if len > RECORD_MAX_BYTES {
            return Err(StorageError::CapacityExceeded(
                "a commit group over 2 GiB in the log",
            ));
        }
        let crc = crc32fast::hash(&self.buf[RECORD_HEADER_BYTES..]);
        self.buf[..4].copy_from_slice(&(len as u32).to_le_bytes());
        self.buf[4..8].copy_from_slice(&crc.to_le_bytes());
        // Failed until the record is whole: should the write or sync panic (a bug
        // below), the writer's thread goes on, and the next append must first cut
        // whatever part of this record reached the file.
        self.failed = Some("an append was interrupted by a panic".to_owned());
        let mut outcome = self.file.write_all(&self.buf);
        if outcome.is_ok() && self.durability == Durability::Fsync {
            outcome = self.file.sync_data();
        }
        if let Err(e) = outcome {
            let reason = e.to_string();
            self.failed = Some(reason.clone());
            return Err(self.failure(reason));
        }
        self.failed = None;
        self.len += self.buf.len() as u64;
        Ok(self.buf.len() as u64)
    }

    /// After a failed append, cuts the segment back to its last whole record and
    /// syncs it, so that appending can go on (a disk that was full has room again).
    /// The failed group was never acknowledged, and no later one is appended behind
    /// its torn bytes. Whether its sync or its write failed, the cut segment holds
    /// exactly the records before it, synced: with `Durability::Fsync` each was
    /// synced before the failure, and the cut's own sync covers them otherwise.
    fn cut_failed_tail(&mut self) -> Result<(), StorageError> {
        let Some(reason) = self.failed.clone() else {
            return Ok(());
        };
        let cut = self
            .disk
            .truncate(&self.path, self.len)
            .and_then(|()| self.disk.append(&self.path));
        match cut {
            Ok(file) => {
                tracing::warn!(path = %self.path.display(), after = %reason, "the log's failed tail was cut; appending again");
                self.file = file;
                self.failed = None;
                Ok(())
            }
            Err(e) => Err(self.failure(format!("{reason}; cutting its tail failed too: {e}"))),
        }
    }

    /// The payload of the record [`WalWriter::append`] wrote last.
    pub(crate) fn last_payload(&self) -> &[u8] {
        &self.buf[RECORD_HEADER_BYTES..]
    }

    fn failure(&self, reason: String) -> StorageError {
        StorageError::Io {
            path: self.path.clone(),
            source: std::io::Error::other(format!(
                "the log could not be written ({reason}); writes are refused until the log can be written again (reads go on)"
            )),
        }
    }

    /// Closes the current segment and starts a new one at `next_version`.
    pub(crate) fn rotate(&mut self, next_version: u64) -> Result<(), StorageError> {
        self.cut_failed_tail()?;
        if next_version == self.segment_first {
            return Ok(()); // the current segment is still empty
        }
        self.file.sync_all().map_err(io_error(&self.path))?;
        match WalWriter::create(&self.disk, &self.dir, next_version, self.durability) {
            Ok(next) => *self = next,
            Err(e) => {
                // The new segment may exist (renamed in, its directory not synced):
                // the writer goes on in the old one, so the new one goes too, as far
                // as it can. Recovery copes with it left behind (an empty newest
                // segment below the versions the older one holds).
                let stray = segment_path(&self.dir, next_version);
                if self.disk.exists(&stray) {
                    let _ = self.disk.remove(&stray);
                    let _ = self.disk.sync_dir(&self.dir);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Syncs what was written (for `Durability::None` on a clean shutdown); a failed
    /// group's torn tail is cut first, so it never becomes durable.
    pub(crate) fn sync(&mut self) -> Result<(), StorageError> {
        self.cut_failed_tail()?;
        self.file.sync_all().map_err(io_error(&self.path))
    }
}

/// Where the log goes on after each of `segments` (sorted), and which are strays;
/// `current` is the first version of the segment the writer appends to.
///
/// A stray is an empty segment (a header only, or already gone) other than the
/// writer's: a failed rotation's, whose removal failed too (it may be the newest, the
/// writer having gone on in the one before). The writer went on in the older
/// segment past the stray's start, so a stray says nothing of where that segment
/// ends: a segment's versions end below the start of the next segment that is not a
/// stray (`None` for the newest). Taken at its word, a stray made a replication floor
/// between the two remove, and a replica's catch-up skip, versions no replica had read.
pub(crate) fn successors(disk: &dyn Disk, segments: &[Segment], current: u64) -> Vec<Successor> {
    let mut out = vec![Successor::default(); segments.len()];
    let mut next_start = None;
    for (i, segment) in segments.iter().enumerate().rev() {
        let empty = disk.len(&segment.path).unwrap_or(0) <= SEGMENT_HEADER_BYTES as u64;
        let stray = empty && segment.first_version != current;
        out[i] = Successor { stray, next_start };
        if !stray {
            next_start = Some(segment.first_version);
        }
    }
    out
}

/// What [`successors`] says of one segment.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Successor {
    /// An empty segment not the writer's: it holds nothing and ends nothing.
    pub(crate) stray: bool,
    /// The first version of the next segment that is not a stray.
    pub(crate) next_start: Option<u64>,
}

/// Removes every segment whose versions all lie at or below `covered`: one followed by
/// a segment (not a stray, see [`successors`]) starting at or before `covered + 1`. A
/// checkpoint at version `c` rotates the log to `c + 1`, so with `covered = c` every
/// older segment goes; a lower `covered` (versions not yet replicated) keeps the
/// segments holding what is above it. Strays go too: they hold nothing.
///
/// `current`: the first version of the writer's segment (never removed).
pub(crate) fn remove_segments_covered(
    disk: &dyn Disk,
    dir: &Path,
    covered: u64,
    current: u64,
) -> Result<usize, StorageError> {
    let segments = list_segments(disk, dir)?;
    let mut removed = 0;
    for (segment, after) in segments.iter().zip(successors(disk, &segments, current)) {
        let covered = after.next_start.is_some_and(|next| next <= covered + 1);
        if segment.first_version != current && (after.stray || covered) {
            disk.remove(&segment.path)
                .map_err(io_error(&segment.path))?;
            removed += 1;
        }
    }
    if removed > 0 {
        sync_dir(disk, dir)?;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment holding one record with a valid checksum and `payload`.
    fn segment(first_version: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = SEGMENT_MAGIC.to_vec();
        out.extend_from_slice(&WAL_FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&first_version.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }

    /// A failed rotation left an empty segment at 6 whose removal failed too; the
    /// writer went on in the segment at 1 (to version 10), and the next checkpoint's
    /// rotation made the segment at 11. With replicas having read to 7, the segment at
    /// 1 still holds what they have not read.
    #[test]
    fn a_stray_segment_does_not_end_the_segment_before_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let disk = crate::disk::OsDisk;
        let header = |first: u64| segment(first, b"")[..SEGMENT_HEADER_BYTES].to_vec();
        std::fs::write(segment_path(dir.path(), 1), segment(1, b"ten versions")).expect("1");
        std::fs::write(segment_path(dir.path(), 6), header(6)).expect("6");
        std::fs::write(segment_path(dir.path(), 11), header(11)).expect("11");
        let left = |dir: &Path| -> Vec<u64> {
            let listed = list_segments(&disk, dir).expect("list");
            listed.iter().map(|s| s.first_version).collect()
        };

        assert_eq!(
            remove_segments_covered(&disk, dir.path(), 7, 11).expect("removed"),
            1
        );
        assert_eq!(
            left(dir.path()),
            [1, 11],
            "the stray goes, the segment it followed stays"
        );
        assert_eq!(
            remove_segments_covered(&disk, dir.path(), 10, 11).expect("removed"),
            1
        );
        assert_eq!(left(dir.path()), [11]);
    }

    /// Regression: fuzz target `wal_record`, fuzz/regressions/wal_record/version-overflow.
    #[test]
    fn a_record_whose_versions_pass_u64_max_is_corrupt_not_a_panic() {
        let first = u64::MAX - 1;
        let mut payload = first.to_le_bytes().to_vec();
        payload.extend_from_slice(&5u32.to_le_bytes());
        let e = scan_log_bytes(&segment(first, &payload), first).expect_err("corrupt");
        assert!(e.to_string().contains("past the largest"), "{e}");
    }
}
