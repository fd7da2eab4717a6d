//! The graph file: a whole graph in one checksummed, versioned binary file.
//!
//! Versions 4 (Storage v2) and 5 (4 with the schema's cursors) are an image of the
//! in-memory layout, so that loading is a run of sequential reads into the arrays
//! the store keeps:
//!
//! ```text
//! header    magic "KITHGRPH" (8) | format version u32 | flags u32 (0)
//! catalog   3 name tables (labels, rel types, prop keys)
//! meta      commit version u64 | declared property indexes
//! schema    index names, uniqueness constraints, stored procedures (cursors from 5)
//! orders    the armed adjacency order rules the stored lists follow
//! shapes    the distinct (labels, keys) combinations
//! nodes     one u32 per slot: shape + 1, 0 for a deleted slot
//! columns   the node property columns, page by page (256 ids)
//! rels      14 bytes per slot: shape + 1 u32 (0 deleted), type u16, src u32, dst u32
//! columns   the relationship property columns
//! adjacency the packed rows: row offsets u64, then (node u32, rel u32) words
//! trailer   CRC-32 (IEEE) of every byte before it u32 | magic "KITHEND." (8)
//! ```
//!
//! Versions 1 to 3 held one record per element (labels and a `(key, value)` list)
//! and are still read ([`records`]); version 3 is still written on request, since its
//! bytes depend on the graph's content alone (tests compare graphs by them).
//! `docs/storage-format.md` has every byte. Readers check magic, version, length and
//! checksum before decoding a byte, so a truncated or damaged file is refused with
//! its name, never half-loaded.

mod image;
mod records;

use std::path::{Path, PathBuf};

use kith_core::{IndexDef, IndexKind, LabelId, LabelKey, PropKeyId, Schema, Value};

use crate::catalog::Names;
use crate::disk::{Disk, DiskFile, FileBytes, OsDisk};
use crate::{Catalog, RawGraph, Snapshot, StorageError};

/// The format version this build writes. Versions 1 (no meta section: commit
/// version 0, no property indexes), 2 (no schema section: indexes get their
/// default names), 3 (one record per element), 4 (no cursors) and 5 (every index a
/// range index) are still read.
pub const GRAPH_FILE_VERSION: u32 = 7;

/// The first version whose head holds the schema's cursors.
const CURSORS_VERSION: u32 = 5;

/// The first version whose schema names each index's kind.
const INDEX_KIND_VERSION: u32 = 6;
/// The first version whose indexes and constraints may cover several keys.
const COMPOSITE_VERSION: u32 = 7;

/// The image format without cursors, still written on request (compatibility tests).
const IMAGE_VERSION: u32 = 4;

/// The record format ([`records`]), still written by [`write_graph_file_version`].
const RECORDS_VERSION: u32 = 3;

/// What a graph file records besides the records: the commit version it holds (a
/// checkpoint covers every log record up to it) and the declared property indexes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphFileMeta {
    /// The commit version of the snapshot written.
    pub version: u64,
    /// Declared property indexes.
    pub indexes: Vec<(LabelId, PropKeyId)>,
    /// Index names, constraints and stored procedures (`None` before version 3).
    pub schema: Option<Schema>,
}

const MAGIC: &[u8; 8] = b"KITHGRPH";
const END_MAGIC: &[u8; 8] = b"KITHEND.";
const HEADER_BYTES: usize = 16;
const TRAILER_BYTES: usize = 12;
/// Bytes a writer gathers before handing them to the file and the checksum.
const SPILL_BYTES: usize = 1 << 20;

const TAG_NULL: u8 = 0;
const TAG_BOOL: u8 = 1;
const TAG_INT: u8 = 2;
const TAG_FLOAT: u8 = 3;
const TAG_STRING: u8 = 4;
const TAG_DATETIME: u8 = 5;
const TAG_LIST: u8 = 6;
const TAG_TEMPORAL: u8 = 7;
/// A point: its SRID (u32), then its two or three coordinates (f64 bits).
const TAG_POINT: u8 = 8;
/// A byte array: its length (u32), then its bytes.
const TAG_BYTES: u8 = 9;

/// Writes a snapshot to `path` in the current format, atomically: a temporary file
/// is written, synced and renamed over the target, so a crash leaves either the old
/// file or the new one.
pub fn write_graph_file(snapshot: &Snapshot, path: &Path) -> Result<(), StorageError> {
    write_graph_file_on(&OsDisk, snapshot, path, GRAPH_FILE_VERSION)
}

/// Writes a snapshot in format `version`: 6 (the current one), 4 (the same without
/// the schema's cursors and index kinds) or 3. Version 3's bytes
/// depend only on the graph's content, not on how this version happens to lay it
/// out (shape numbers, page kinds), so two graphs are equal iff their version 3
/// files are.
pub fn write_graph_file_version(
    snapshot: &Snapshot,
    path: &Path,
    version: u32,
) -> Result<(), StorageError> {
    write_graph_file_on(&OsDisk, snapshot, path, version)
}

/// [`write_graph_file_version`] on a given disk.
pub(crate) fn write_graph_file_on(
    disk: &dyn Disk,
    snapshot: &Snapshot,
    path: &Path,
    version: u32,
) -> Result<(), StorageError> {
    if ![RECORDS_VERSION, IMAGE_VERSION, GRAPH_FILE_VERSION].contains(&version) {
        return Err(StorageError::UnsupportedVersion {
            path: path.into(),
            found: version,
            supported: GRAPH_FILE_VERSION,
        });
    }
    write_atomically(disk, path, |sink| {
        sink.out.extend_from_slice(MAGIC);
        put_u32(&mut sink.out, version);
        put_u32(&mut sink.out, 0);
        put_head(&mut sink.out, snapshot, version);
        if version == RECORDS_VERSION {
            records::put(sink, snapshot)
        } else {
            image::put(sink, snapshot)
        }
    })
}

/// Reads a graph file into record lists (see [`Snapshot::from_raw`]).
pub fn read_graph_file(path: &Path) -> Result<RawGraph, StorageError> {
    read_graph_file_with_meta(path).map(|(raw, _)| raw)
}

/// Reads a graph file into record lists and its metadata.
pub fn read_graph_file_with_meta(path: &Path) -> Result<(RawGraph, GraphFileMeta), StorageError> {
    let bytes = read_bytes(&OsDisk, path)?;
    let (version, mut r) = open(&bytes, path)?;
    let (catalog, meta) = read_head(&mut r, version)?;
    if version <= RECORDS_VERSION {
        return Ok((records::read(&mut r, catalog)?, meta));
    }
    Ok((image::read(&mut r, catalog)?.to_raw(), meta))
}

/// Loads a graph file as a ready snapshot: records, commit version and indexes.
pub fn load_snapshot(path: &Path) -> Result<Snapshot, StorageError> {
    load_snapshot_on(&OsDisk, path)
}

/// [`load_snapshot`] from a given disk.
pub(crate) fn load_snapshot_on(disk: &dyn Disk, path: &Path) -> Result<Snapshot, StorageError> {
    decode(&read_bytes(disk, path)?, path)
}

/// A graph file's bytes as a ready snapshot: the loader's whole path from bytes, for
/// the fuzz targets (`crates/kith-fuzz`).
pub fn snapshot_from_bytes(bytes: &[u8]) -> Result<Snapshot, StorageError> {
    decode(bytes, Path::new("<bytes>"))
}

/// A graph file's bytes as a ready snapshot (`path` names it in errors).
fn decode(bytes: &[u8], path: &Path) -> Result<Snapshot, StorageError> {
    let (version, mut r) = open(bytes, path)?;
    let (catalog, meta) = read_head(&mut r, version)?;
    let mut snapshot = if version <= RECORDS_VERSION {
        Snapshot::from_raw(records::read(&mut r, catalog)?)?
    } else {
        image::read(&mut r, catalog)?
    };
    snapshot.restore_meta(meta.version, &meta.indexes, meta.schema);
    Ok(snapshot)
}

/// A graph file's bytes: mapped on a real disk, so that they are read from the page
/// cache in place rather than copied into a buffer as large as the file (which would
/// be fresh memory the kernel zeroes first: at a gigabyte that was a third of a load's
/// time).
fn read_bytes(disk: &dyn Disk, path: &Path) -> Result<FileBytes, StorageError> {
    disk.map(path).map_err(|source| StorageError::Io {
        path: path.into(),
        source,
    })
}

/// Checks length, magics, version and checksum; returns the version and a reader
/// at the first byte after the header, ending before the trailer.
fn open<'a>(bytes: &'a [u8], path: &'a Path) -> Result<(u32, Reader<'a>), StorageError> {
    let corrupt = |reason: String| StorageError::Corrupt {
        path: path.into(),
        reason,
    };
    if bytes.len() < HEADER_BYTES + TRAILER_BYTES {
        return Err(corrupt(format!(
            "{} bytes is shorter than the smallest graph file ({} bytes); truncated?",
            bytes.len(),
            HEADER_BYTES + TRAILER_BYTES
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt("not a kith graph file (bad magic)".into()));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if !(1..=GRAPH_FILE_VERSION).contains(&version) {
        return Err(StorageError::UnsupportedVersion {
            path: path.into(),
            found: version,
            supported: GRAPH_FILE_VERSION,
        });
    }
    let body_end = bytes.len() - TRAILER_BYTES;
    if &bytes[body_end + 4..] != END_MAGIC {
        return Err(corrupt("end marker missing; the file is truncated".into()));
    }
    let stored_crc = u32::from_le_bytes([
        bytes[body_end],
        bytes[body_end + 1],
        bytes[body_end + 2],
        bytes[body_end + 3],
    ]);
    let crc = crc32fast::hash(&bytes[..body_end]);
    if crc != stored_crc {
        return Err(corrupt(format!(
            "checksum mismatch (stored {stored_crc:#010x}, computed {crc:#010x})"
        )));
    }
    let reader = Reader {
        bytes: &bytes[..body_end],
        pos: HEADER_BYTES,
        path,
    };
    Ok((version, reader))
}

/// The name tables, the commit version and indexes (version 2 on) and the schema
/// (version 3 on): what every version holds before its elements.
fn put_head(out: &mut Vec<u8>, snapshot: &Snapshot, version: u32) {
    let catalog = &snapshot.catalog;
    for names in [&catalog.labels, &catalog.rel_types, &catalog.prop_keys] {
        put_len(out, names.all().len());
        for name in names.all() {
            put_string(out, name);
        }
    }
    put_u64(out, snapshot.version);
    let indexes = snapshot.prop_indexes.definitions();
    put_len(out, indexes.len());
    for (label, key) in indexes {
        put_u16(out, label.0);
        put_u16(out, key.0);
    }
    put_schema(out, &snapshot.schema, version);
    if version >= CURSORS_VERSION {
        put_len(out, snapshot.schema.cursors.len());
        for (name, value) in &snapshot.schema.cursors {
            put_string(out, name);
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
}

fn read_head(r: &mut Reader<'_>, version: u32) -> Result<(Catalog, GraphFileMeta), StorageError> {
    let catalog = Catalog::from_names(r.names()?, r.names()?, r.names()?);
    if catalog.prop_keys.all().first().map(|n| &**n) != Some("id") {
        return Err(r.corrupt("property key 0 must be `id`".into()));
    }
    let mut meta = GraphFileMeta::default();
    if version >= 2 {
        meta.version = r.i64()? as u64;
        let count = r.u32()?;
        for _ in 0..count {
            let (label, key) = (r.u16()?, r.u16()?);
            if usize::from(label) >= catalog.label_count()
                || usize::from(key) >= catalog.prop_keys.all().len()
            {
                return Err(r.corrupt(format!("index ({label}, {key}) names an unknown id")));
            }
            meta.indexes.push((LabelId(label), PropKeyId(key)));
        }
    }
    if version >= 3 {
        let mut schema = r.schema(version)?;
        if version >= CURSORS_VERSION {
            for _ in 0..r.u32()? {
                let name = r.owned()?;
                schema.cursors.insert(name, r.i64()?);
            }
        }
        meta.schema = Some(schema);
    }
    Ok((catalog, meta))
}

/// A file being written: bytes gather in `out` and go to the file and the checksum
/// a megabyte at a time, so a writer never holds a whole graph's bytes.
pub(crate) struct Sink {
    pub(crate) out: Vec<u8>,
    crc: crc32fast::Hasher,
    file: Box<dyn DiskFile>,
    path: PathBuf,
}

impl Sink {
    /// Hands the gathered bytes on once there are enough of them.
    pub(crate) fn spill(&mut self) -> Result<(), StorageError> {
        if self.out.len() >= SPILL_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StorageError> {
        self.crc.update(&self.out);
        self.file
            .write_all(&self.out)
            .map_err(|source| StorageError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.out.clear();
        Ok(())
    }

    /// Writes the trailer and syncs the file.
    fn finish(mut self) -> Result<(), StorageError> {
        self.flush()?;
        let crc = self.crc.clone().finalize();
        put_u32(&mut self.out, crc);
        self.out.extend_from_slice(END_MAGIC);
        self.file
            .write_all(&self.out)
            .and_then(|()| self.file.sync_all())
            .map_err(|source| StorageError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// Writes `path` through a synced temporary file renamed over it.
fn write_atomically(
    disk: &dyn Disk,
    path: &Path,
    body: impl FnOnce(&mut Sink) -> Result<(), StorageError>,
) -> Result<(), StorageError> {
    let tmp = path.with_extension("tmp");
    let file = disk.create(&tmp).map_err(|source| StorageError::Io {
        path: tmp.clone(),
        source,
    })?;
    let mut sink = Sink {
        out: Vec::with_capacity(SPILL_BYTES + (1 << 16)),
        crc: crc32fast::Hasher::new(),
        file,
        path: tmp.clone(),
    };
    body(&mut sink)?;
    sink.finish()?;
    disk.rename(&tmp, path).map_err(|source| StorageError::Io {
        path: path.into(),
        source,
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Make the rename itself durable.
        disk.sync_dir(dir).map_err(|source| StorageError::Io {
            path: dir.into(),
            source,
        })?;
    }
    Ok(())
}

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) path: &'a Path,
}

impl<'a> Reader<'a> {
    pub(crate) fn corrupt(&self, reason: String) -> StorageError {
        StorageError::Corrupt {
            path: PathBuf::from(self.path),
            reason: format!("{reason} at byte {}", self.pos),
        }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], StorageError> {
        if self.remaining() < n {
            return Err(self.corrupt(format!("needs {n} more bytes, {} left", self.remaining())));
        }
        let bytes: &'a [u8] = self.bytes;
        let slice = &bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(slice)
    }

    /// Refuses bytes left after the last section.
    fn finish(&self) -> Result<(), StorageError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(self.corrupt(format!("{n} unexpected bytes after the data"))),
        }
    }

    /// `count` items of `width` bytes each.
    fn array(&mut self, count: usize, width: usize) -> Result<&'a [u8], StorageError> {
        let n = count
            .checked_mul(width)
            .ok_or_else(|| self.corrupt(format!("{count} items of {width} bytes overflow")))?;
        self.take(n)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, StorageError> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16, StorageError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, StorageError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn i64(&mut self) -> Result<i64, StorageError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(i64::from_le_bytes(a))
    }

    pub(crate) fn string(&mut self) -> Result<&'a str, StorageError> {
        let len = self.u32()? as usize;
        let start = self.pos;
        let bytes = self.take(len)?;
        let path = self.path;
        std::str::from_utf8(bytes).map_err(|_| StorageError::Corrupt {
            path: PathBuf::from(path),
            reason: format!("string at byte {start} is not UTF-8"),
        })
    }

    fn owned(&mut self) -> Result<String, StorageError> {
        self.string().map(str::to_owned)
    }

    fn label_key(&mut self, version: u32) -> Result<LabelKey, StorageError> {
        let (label, key) = (self.owned()?, self.owned()?);
        let mut more = Vec::new();
        if version >= COMPOSITE_VERSION {
            let count = self.u32()? as usize;
            if count > self.remaining() / 4 {
                return Err(self.corrupt(format!("{count} further keys of an index")));
            }
            for _ in 0..count {
                more.push(self.owned()?);
            }
        }
        Ok(LabelKey { label, key, more })
    }

    fn index_kind(&mut self) -> Result<IndexKind, StorageError> {
        let at = self.u8()?;
        [IndexKind::Range, IndexKind::Text, IndexKind::Point]
            .into_iter()
            .find(|k| kind_byte(*k) == at)
            .ok_or_else(|| self.corrupt(format!("unknown index kind {at}")))
    }

    fn schema(&mut self, version: u32) -> Result<Schema, StorageError> {
        let mut schema = Schema::default();
        for _ in 0..self.u32()? {
            let name = self.owned()?;
            let on = self.label_key(version)?;
            let owner = match self.u8()? {
                0 => None,
                _ => Some(self.owned()?),
            };
            let kind = match version >= INDEX_KIND_VERSION {
                true => self.index_kind()?,
                false => IndexKind::Range,
            };
            schema.indexes.insert(name, IndexDef { on, owner, kind });
        }
        for _ in 0..self.u32()? {
            let name = self.owned()?;
            schema.unique.insert(name, self.label_key(version)?);
        }
        for _ in 0..self.u32()? {
            let name = self.owned()?;
            schema.procedures.insert(name, self.owned()?);
        }
        Ok(schema)
    }

    fn names(&mut self) -> Result<Names, StorageError> {
        let count = self.u32()?;
        if count > u32::from(u16::MAX) + 1 {
            return Err(self.corrupt(format!("{count} names exceed the 65,536 limit")));
        }
        let mut names = Names::default();
        for _ in 0..count {
            let name = self.string()?.to_owned();
            names.push_unchecked(name.into());
        }
        if !names.rebuild_lookup() {
            return Err(self.corrupt("a name table repeats a name".into()));
        }
        Ok(names)
    }

    fn properties(&mut self, key_count: usize) -> Result<Vec<(PropKeyId, Value)>, StorageError> {
        let n = self.u16()?;
        let mut props = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            let key = self.u16()?;
            if usize::from(key) >= key_count {
                return Err(self.corrupt(format!("property key id {key} out of range")));
            }
            props.push((PropKeyId(key), self.value(0)?));
        }
        Ok(props)
    }

    pub(crate) fn value(&mut self, depth: u8) -> Result<Value, StorageError> {
        let at = self.pos;
        Ok(match self.u8()? {
            TAG_NULL => Value::Null,
            TAG_BOOL => Value::Bool(self.u8()? != 0),
            TAG_INT => Value::Int(self.i64()?),
            TAG_FLOAT => Value::Float(f64::from_bits(self.i64()? as u64)),
            TAG_STRING => Value::String(self.string()?.into()),
            TAG_DATETIME => Value::DateTime(self.i64()?),
            TAG_TEMPORAL => Value::temporal(crate::temporal_codec::read(self)?),
            TAG_POINT => Value::Point(std::sync::Arc::new(self.point()?)),
            TAG_BYTES if depth == 0 => {
                let n = self.u32()? as usize;
                Value::Bytes(self.take(n)?.into())
            }
            TAG_LIST if depth == 0 => {
                let n = self.u32()? as usize;
                // A count is not trusted for an allocation: the list grows as read.
                let mut items = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Value::List(items)
            }
            tag => {
                self.pos = at;
                return Err(self.corrupt(format!("unknown or nested value tag {tag}")));
            }
        })
    }
}

impl Reader<'_> {
    fn point(&mut self) -> Result<kith_core::Point, StorageError> {
        let srid = self.u32()?;
        let crs = kith_core::Crs::from_srid(i64::from(srid))
            .ok_or_else(|| self.corrupt(format!("unknown point SRID {srid}")))?;
        let mut coords = [0.0; 3];
        let dims = if crs.is_3d() { 3 } else { 2 };
        for c in &mut coords[..dims] {
            *c = f64::from_bits(self.i64()? as u64);
        }
        // The writer stores points as made, longitudes already wrapped: one outside
        // [-180, 180] did not come from it.
        if crs.is_geographic() && !(-180.0..=180.0).contains(&coords[0]) {
            return Err(self.corrupt(format!("a stored longitude {} is out of range", coords[0])));
        }
        kith_core::Point::new(crs, &coords[..dims])
            .map_err(|e| self.corrupt(format!("a stored point is invalid: {e}")))
    }
}

pub(crate) fn put_string(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// An index kind's byte (version 6 on).
fn kind_byte(kind: IndexKind) -> u8 {
    match kind {
        IndexKind::Range => 0,
        IndexKind::Text => 1,
        IndexKind::Point => 2,
    }
}

/// The schema section; before version 6 every index is written (and read back) as a
/// range index.
fn put_schema(out: &mut Vec<u8>, schema: &Schema, version: u32) {
    put_len(out, schema.indexes.len());
    for (name, def) in &schema.indexes {
        put_string(out, name);
        put_label_key(out, &def.on, version);
        match &def.owner {
            None => out.push(0),
            Some(owner) => {
                out.push(1);
                put_string(out, owner);
            }
        }
        if version >= INDEX_KIND_VERSION {
            out.push(kind_byte(def.kind));
        }
    }
    put_len(out, schema.unique.len());
    for (name, on) in &schema.unique {
        put_string(out, name);
        put_label_key(out, on, version);
    }
    put_len(out, schema.procedures.len());
    for (name, text) in &schema.procedures {
        put_string(out, name);
        put_string(out, text);
    }
}

/// A rule's label and keys; before version 7 only the first key (older versions
/// are written only by the tests that read them back).
fn put_label_key(out: &mut Vec<u8>, on: &LabelKey, version: u32) {
    put_string(out, &on.label);
    put_string(out, &on.key);
    if version >= COMPOSITE_VERSION {
        put_len(out, on.more.len());
        for key in &on.more {
            put_string(out, key);
        }
    }
}

pub(crate) fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_len(out: &mut Vec<u8>, n: usize) {
    // Every count is bounded by u32 slot ids or u16 names; strings by 4 GiB.
    debug_assert!(u32::try_from(n).is_ok());
    put_u32(out, n as u32);
}

pub(crate) fn put_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.push(TAG_NULL),
        Value::Bool(b) => {
            out.push(TAG_BOOL);
            out.push(u8::from(*b));
        }
        Value::Int(i) => {
            out.push(TAG_INT);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Value::Float(x) => {
            out.push(TAG_FLOAT);
            out.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        Value::String(s) => {
            out.push(TAG_STRING);
            put_len(out, s.len());
            out.extend_from_slice(s.as_bytes());
        }
        Value::DateTime(t) => {
            out.push(TAG_DATETIME);
            out.extend_from_slice(&t.to_le_bytes());
        }
        Value::Temporal(t) => {
            out.push(TAG_TEMPORAL);
            crate::temporal_codec::put(out, t);
        }
        Value::Point(p) => {
            out.push(TAG_POINT);
            // An SRID is one of four four-digit codes.
            put_u32(out, p.crs().srid() as u32);
            for c in p.coords() {
                out.extend_from_slice(&c.to_bits().to_le_bytes());
            }
        }
        Value::Bytes(bytes) => {
            out.push(TAG_BYTES);
            put_len(out, bytes.len());
            out.extend_from_slice(bytes);
        }
        Value::List(items) => {
            out.push(TAG_LIST);
            put_len(out, items.len());
            for item in items {
                put_value(out, item);
            }
        }
        // The store refuses maps as property values (`check_value`).
        Value::Map(_) => unreachable!("maps are never stored"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kith_core::GraphView;

    fn sample() -> Snapshot {
        let mut raw = RawGraph::default();
        let person = raw.catalog.label("Person").expect("label");
        let knows = raw.catalog.rel_type("KNOWS").expect("type");
        let name = raw.catalog.prop_key("name").expect("key");
        let tags = raw.catalog.prop_key("tags").expect("key");
        let since = raw.catalog.prop_key("since").expect("key");
        let a = raw
            .add_node(
                vec![person],
                vec![
                    (crate::ID_KEY, Value::Int(1)),
                    (name, Value::string("Ann")),
                    (
                        tags,
                        Value::List(vec![Value::Int(1), Value::Float(2.5), Value::Bool(true)]),
                    ),
                ],
            )
            .expect("node");
        let at = raw.catalog.prop_key("at").expect("key");
        let blob = raw.catalog.prop_key("blob").expect("key");
        let points = [
            kith_core::Point::new(kith_core::Crs::Wgs84_3d, &[12.5, -33.0, 7.0]),
            kith_core::Point::new(kith_core::Crs::Cartesian, &[-0.0, 1e300]),
        ]
        .map(|p| Value::Point(std::sync::Arc::new(p.expect("a point"))));
        let b = raw
            .add_node(
                vec![person],
                vec![
                    (crate::ID_KEY, Value::Int(2)),
                    (at, Value::List(points.into())),
                    (blob, Value::Bytes(vec![0, 1, 128, 255].into())),
                ],
            )
            .expect("node");
        raw.add_rel(
            knows,
            a,
            b,
            vec![
                (since, Value::DateTime(1_262_304_000_000)),
                (tags, Value::List(temporal_samples())),
            ],
        )
        .expect("rel");
        Snapshot::from_raw(raw).expect("valid")
    }

    /// One value of every temporal kind, a named zone among them.
    fn temporal_samples() -> Vec<Value> {
        use kith_core::{Duration, Temporal, ZonedDateTime};
        let local = chrono::NaiveDate::from_ymd_opt(1984, 10, 11)
            .and_then(|d| d.and_hms_nano_opt(12, 31, 14, 645_876_123))
            .expect("a datetime");
        let tz = "Europe/Stockholm".parse().expect("a zone");
        [
            Temporal::Date(local.date()),
            Temporal::LocalTime(local.time()),
            Temporal::Time(local.time(), -3600),
            Temporal::LocalDateTime(local),
            Temporal::DateTime(ZonedDateTime::in_zone(local, tz, None)),
            Temporal::DateTime(ZonedDateTime {
                local,
                offset: 19_800,
                zone: None,
            }),
            Temporal::Duration(Duration::new(14, -3, 70, 1)),
        ]
        .into_iter()
        .map(Value::temporal)
        .collect()
    }

    /// The sample after writes that leave deleted slots, a node beyond the packed
    /// base, edited lists in the delta, a widened page and a schema.
    fn edited() -> Snapshot {
        use crate::WriteOp;
        use kith_core::{NodeId, SchemaOp};
        let store = crate::Store::new(sample());
        let node = |id| crate::NodeRef::Node(NodeId(id));
        let ops = vec![
            WriteOp::CreateNode {
                labels: vec!["Person".into(), "Admin".into()],
                properties: vec![("id".into(), Value::Int(3)), ("name".into(), Value::Int(7))],
            },
            WriteOp::CreateNode {
                labels: vec!["Person".into()],
                properties: vec![("id".into(), Value::Int(4))],
            },
            WriteOp::CreateRel {
                rel_type: "KNOWS".into(),
                src: node(0),
                dst: crate::NodeRef::Created(0),
                properties: vec![],
            },
            WriteOp::DeleteNode {
                node: crate::NodeRef::Created(1),
                detach: true,
            },
            WriteOp::DeleteRel {
                rel: kith_core::RelId(0),
            },
            WriteOp::CreateIndex {
                label: "Person".into(),
                key: "name".into(),
            },
            WriteOp::Schema(SchemaOp::KindIndex {
                label: "Person".into(),
                key: "name".into(),
                kind: kith_core::IndexKind::Text,
            }),
            WriteOp::Schema(SchemaOp::CreateUnique {
                name: "one_id".into(),
                label: "Admin".into(),
                key: "id".into(),
            }),
            WriteOp::Schema(SchemaOp::SetCursor {
                name: "ingest:t".into(),
                value: 42,
                expect: Some(0),
            }),
        ];
        store
            .apply(&crate::WriteBatch { ops })
            .expect("the edits apply");
        (*store.snapshot()).clone()
    }

    fn encode_version(snapshot: &Snapshot, version: u32) -> (tempdir::Dir, Vec<u8>) {
        let dir = tempdir::Dir::new();
        let path = dir.path().join("graph.kith");
        write_graph_file_version(snapshot, &path, version).expect("write");
        let bytes = std::fs::read(&path).expect("read back");
        (dir, bytes)
    }

    fn encode(snapshot: &Snapshot) -> (tempdir::Dir, Vec<u8>) {
        encode_version(snapshot, GRAPH_FILE_VERSION)
    }

    /// The graph's content: its version 3 bytes.
    fn content(snapshot: &Snapshot) -> Vec<u8> {
        encode_version(snapshot, RECORDS_VERSION).1
    }

    #[test]
    fn round_trips() {
        let snapshot = sample();
        let (dir, _) = encode(&snapshot);
        let raw = read_graph_file(&dir.path().join("graph.kith")).expect("readable");
        let loaded = Snapshot::from_raw(raw).expect("valid");
        assert_eq!(loaded.node_count(), 2);
        assert_eq!(loaded.rel_count(), 1);
        let person = loaded.label_id("Person").expect("label");
        let a = loaded.node_by_id(person, 1).expect("indexed");
        assert_eq!(loaded.node_properties(a), snapshot.node_properties(a));
        let knows = loaded.rel_type_id("KNOWS").expect("type");
        assert_eq!(
            loaded.neighbors(a, knows, kith_core::Direction::Out).len(),
            1
        );
    }

    #[test]
    fn both_versions_load_what_was_written() {
        for snapshot in [sample(), edited()] {
            for version in [RECORDS_VERSION, GRAPH_FILE_VERSION] {
                let (_dir, bytes) = encode_version(&snapshot, version);
                let loaded = decode(&bytes, Path::new("g.kith")).expect("loads");
                assert_eq!(content(&loaded), content(&snapshot), "version {version}");
                assert_eq!(loaded.version(), snapshot.version());
                assert_eq!(loaded.index_definitions(), snapshot.index_definitions());
                let person = loaded.label_id("Person").expect("label");
                for id in 1..=4 {
                    assert_eq!(
                        loaded.node_by_id(person, id),
                        snapshot.node_by_id(person, id),
                        "node {id}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_current_file_is_an_image_of_the_layout() {
        let snapshot = edited();
        let (_dir, bytes) = encode(&snapshot);
        let loaded = decode(&bytes, Path::new("g.kith")).expect("loads");
        // Written again, the loaded graph gives the same bytes: shapes, pages and
        // rows were taken as stored.
        assert_eq!(encode(&loaded).1, bytes);
        let (_dir, raw_bytes) = encode_version(&snapshot, RECORDS_VERSION);
        assert_eq!(version_of(&raw_bytes), 3);
        assert_eq!(version_of(&bytes), 7);
        assert_eq!(loaded.schema.cursors.get("ingest:t"), Some(&42));
        let kinds = |s: &Snapshot| {
            s.schema
                .indexes
                .values()
                .map(|d| d.kind)
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds(&loaded), kinds(&snapshot));
        assert!(kinds(&loaded).contains(&kith_core::IndexKind::Text));
    }

    #[test]
    fn composites_come_back_filled_with_their_keys_in_order() {
        use kith_core::{GraphView, LabelKey, SchemaOp};
        let store = crate::Store::new(sample());
        let person = |first: &str, last: &str| crate::WriteOp::CreateNode {
            labels: vec!["Person".into()],
            properties: vec![
                ("first".into(), Value::String(first.into())),
                ("last".into(), Value::String(last.into())),
            ],
        };
        let on = |keys: [&str; 2]| LabelKey {
            label: "Person".into(),
            key: keys[0].into(),
            more: vec![keys[1].into()],
        };
        let ops = vec![
            person("Ada", "Lovelace"),
            person("Ada", "Byron"),
            crate::WriteOp::Schema(SchemaOp::CreateComposite {
                name: "full_name".into(),
                on: on(["first", "last"]),
                unique: true,
            }),
            crate::WriteOp::Schema(SchemaOp::CreateComposite {
                name: "last_first".into(),
                on: on(["last", "first"]),
                unique: false,
            }),
        ];
        store.apply(&crate::WriteBatch { ops }).expect("applies");
        let snapshot = (*store.snapshot()).clone();
        let (_dir, bytes) = encode(&snapshot);
        let loaded = decode(&bytes, Path::new("g.kith")).expect("loads");
        assert_eq!(loaded.schema.indexes, snapshot.schema.indexes);
        assert_eq!(loaded.schema.unique, snapshot.schema.unique);
        let c = &loaded.catalog;
        let id = |k: &str| c.find_prop_key(k).expect("known");
        let label = c.find_label("Person").expect("known");
        let found = loaded.nodes_with_values(
            label,
            &[id("last"), id("first")],
            &[Value::String("Byron".into()), Value::String("Ada".into())],
        );
        assert_eq!(found.map(|n| n.len()), Some(1));
        assert_eq!(
            loaded.unique_ids.len(),
            1,
            "the constraint is enforced again"
        );
    }

    #[test]
    fn a_version_4_file_reads_as_one_without_cursors() {
        let snapshot = edited();
        let (_dir, v4) = encode_version(&snapshot, 4);
        assert_eq!(version_of(&v4), 4);
        let loaded = decode(&v4, Path::new("g.kith")).expect("loads");
        assert!(loaded.schema.cursors.is_empty());
        assert_eq!(loaded.schema.unique, snapshot.schema.unique);
        // Version 4 names no kinds: every index reads back a range index.
        assert!(loaded
            .schema
            .indexes
            .values()
            .all(|d| d.kind == kith_core::IndexKind::Range));
        assert_eq!(encode_version(&loaded, 3).1, encode_version(&snapshot, 3).1);
    }

    fn version_of(bytes: &[u8]) -> u32 {
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]])
    }

    #[test]
    fn lists_stored_under_other_orders_are_built_again() {
        let snapshot = edited();
        let (_dir, mut bytes) = encode(&snapshot);
        // Claim one more armed rule than this build arms: the stored rows no longer
        // follow the armed orders, so the load rebuilds them from the records.
        let (_, mut r) = open(&bytes, Path::new("g.kith")).expect("opens");
        read_head(&mut r, GRAPH_FILE_VERSION).expect("head");
        let at = r.pos;
        let count = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        assert_eq!(count, 0, "the sample arms no rule");
        let mut patched = bytes[..at].to_vec();
        put_u32(&mut patched, 1);
        patched.extend_from_slice(&[0, 0, 0, 1, 0, 0]); // KNOWS out by `id`, no label
        patched.extend_from_slice(&bytes[at + 4..bytes.len() - TRAILER_BYTES]);
        let crc = crc32fast::hash(&patched);
        put_u32(&mut patched, crc);
        patched.extend_from_slice(END_MAGIC);
        bytes = patched;
        let loaded = decode(&bytes, Path::new("g.kith")).expect("loads");
        assert_eq!(content(&loaded), content(&snapshot));
    }

    #[test]
    fn every_truncation_is_refused() {
        for version in [RECORDS_VERSION, GRAPH_FILE_VERSION] {
            let (_dir, bytes) = encode_version(&edited(), version);
            for len in 0..bytes.len() {
                let Err(err) = decode(&bytes[..len], Path::new("g.kith")) else {
                    panic!("version {version} truncated to {len}: accepted");
                };
                assert!(
                    matches!(err, StorageError::Corrupt { .. }),
                    "truncated to {len}: unexpected error {err}"
                );
                assert!(
                    err.to_string().contains("g.kith"),
                    "error names the file: {err}"
                );
            }
        }
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        for version in [RECORDS_VERSION, GRAPH_FILE_VERSION] {
            let (_dir, bytes) = encode_version(&edited(), version);
            for i in 0..bytes.len() {
                let mut damaged = bytes.clone();
                damaged[i] ^= 0x5a;
                assert!(
                    decode(&damaged, Path::new("g.kith")).is_err(),
                    "version {version}: flip at {i} accepted"
                );
            }
        }
    }

    /// Damage behind a valid checksum (a writer's bug, not the disk's) is refused by
    /// the section checks, naming what is wrong.
    #[test]
    fn inconsistent_sections_are_refused_by_name() {
        let snapshot = edited();
        let (_dir, bytes) = encode(&snapshot);
        let reseal = |mut body: Vec<u8>| {
            body.truncate(body.len() - TRAILER_BYTES);
            let crc = crc32fast::hash(&body);
            put_u32(&mut body, crc);
            body.extend_from_slice(END_MAGIC);
            body
        };
        let mut refused = 0;
        for i in HEADER_BYTES..bytes.len() - TRAILER_BYTES {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x5a;
            match decode(&reseal(damaged), Path::new("g.kith")) {
                Err(StorageError::Corrupt { reason, .. }) => {
                    assert!(reason.contains("at byte"), "{reason}");
                    refused += 1;
                }
                Err(_) => refused += 1,
                // A flip in a value (a name's letter, an integer) is still a graph.
                Ok(loaded) => drop(loaded),
            }
        }
        assert!(refused > 0);
    }

    fn refusal(snapshot: &Snapshot) -> String {
        let (_dir, bytes) = encode(snapshot);
        match decode(&bytes, Path::new("g.kith")) {
            Err(StorageError::Corrupt { reason, .. }) => reason,
            Err(other) => panic!("refused as {other}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn rows_naming_the_wrong_relationship_are_refused() {
        use crate::adjacency::{Adjacency, Csr, ListOrder};
        let store = crate::Store::new(sample());
        let back = crate::WriteOp::CreateRel {
            rel_type: "KNOWS".into(),
            src: crate::NodeRef::Node(kith_core::NodeId(1)),
            dst: crate::NodeRef::Node(kith_core::NodeId(0)),
            properties: vec![],
        };
        let ops = vec![back];
        store.apply(&crate::WriteBatch { ops }).expect("creates");
        let mut snapshot = (*store.snapshot()).clone();
        // The rows of a graph whose two relationships were given each other's ids.
        let mut rels: Vec<_> = snapshot.rels.iter().cloned().collect();
        let live: Vec<usize> = (0..rels.len()).filter(|&i| rels[i].is_some()).collect();
        assert_eq!(live.len(), 2, "two live relationships to swap");
        rels.swap(live[0], live[1]);
        let csr =
            Csr::from_rels(snapshot.nodes.len(), &rels, |_, _| ListOrder::ByNode).expect("builds");
        snapshot.adj = Adjacency::from_base(csr);
        let reason = refusal(&snapshot);
        assert!(
            reason.contains("exactly the relationships' ends"),
            "{reason}"
        );
    }

    #[test]
    fn values_at_other_slots_than_the_shapes_list_are_refused() {
        let mut snapshot = sample();
        let name = snapshot.catalog.find_prop_key("name").expect("key");
        // Node 0's shape lists `name`, node 1's does not: move the value across.
        let value = snapshot.node_cols.get(name, 0).expect("a name");
        snapshot.node_cols.clear(name, 0);
        snapshot.node_cols.set(name, 1, value);
        let reason = refusal(&snapshot);
        assert!(
            reason.contains("other slots than the shapes list"),
            "{reason}"
        );
    }

    #[test]
    fn ids_that_are_not_integers_are_refused() {
        let mut snapshot = sample();
        snapshot
            .node_cols
            .set(crate::ID_KEY, 1, Value::string("two"));
        let reason = refusal(&snapshot);
        assert!(reason.contains("not integers"), "{reason}");
    }

    #[test]
    fn removed_values_do_not_reach_the_file() {
        use crate::WriteOp;
        let store = crate::Store::new(sample());
        let ops = vec![WriteOp::SetNodeProperty {
            node: crate::NodeRef::Node(kith_core::NodeId(0)),
            key: "name".into(),
            value: Value::Null,
        }];
        store.apply(&crate::WriteBatch { ops }).expect("removes");
        let (_dir, bytes) = encode(&store.snapshot());
        assert!(
            !bytes.windows(3).any(|w| w == b"Ann"),
            "a removed name was written"
        );
        let (_dir, before) = encode(&sample());
        assert!(before.windows(3).any(|w| w == b"Ann"));
    }

    #[test]
    fn newer_versions_are_refused_by_name() {
        let (_dir, mut bytes) = encode(&sample());
        bytes[8] = 9;
        let Err(err) = decode(&bytes, Path::new("g.kith")) else {
            panic!("version 9 accepted");
        };
        assert!(
            matches!(err, StorageError::UnsupportedVersion { found: 9, .. }),
            "{err}"
        );
    }

    /// A scratch directory removed on drop (no dependency needed for one test helper).
    mod tempdir {
        use std::path::{Path, PathBuf};
        use std::sync::atomic::{AtomicUsize, Ordering};

        pub struct Dir(PathBuf);
        static NEXT: AtomicUsize = AtomicUsize::new(0);

        impl Dir {
            pub fn new() -> Dir {
                let n = NEXT.fetch_add(1, Ordering::Relaxed);
                let path = std::env::temp_dir()
                    .join(format!("kith-storage-test-{}-{n}", std::process::id()));
                std::fs::create_dir_all(&path).expect("scratch dir");
                Dir(path)
            }
            pub fn path(&self) -> &Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }
}
