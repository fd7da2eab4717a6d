//! The graph file: a whole graph in one checksummed, versioned binary file.
//!
//! Layout (all integers little-endian; `docs/storage-format.md` has the byte-level
//! description and the invariants):
//!
//! ```text
//! header   magic "KITHGRPH" (8) | format version u32 | flags u32 (0)
//! catalog  3 name tables (labels, rel types, prop keys): count u32, then per name
//!          byte length u32 + UTF-8
//! meta     (version 2) commit version u64 | index count u32 | (label u16, key u16)*
//! schema   (version 3) index names: count u32 + (name, label, key, owner flag u8
//!          [+ owner])*; uniqueness constraints: count u32 + (name, label, key)*;
//!          stored procedures: count u32 + (name, text)*; every string u32 length
//!          + UTF-8
//! nodes    slot count u32, then per slot: tag u8 (0 deleted, 1 live); live slots:
//!          label count u16 + u16 ids, property count u16 + (key u16, value)*
//! rels     slot count u32, then per slot: tag u8; live: type u16, src u32, dst u32,
//!          property count u16 + (key u16, value)*
//! trailer  CRC-32 (IEEE) of every byte before it u32 | magic "KITHEND." (8)
//! ```
//!
//! A value is a tag byte and its payload: 0 null; 1 bool u8; 2 int i64; 3 float f64
//! bits; 4 string u32 length + UTF-8; 5 datetime i64 epoch millis; 6 list u32 count +
//! values. Readers check magic, version, length and checksum before decoding a byte,
//! so a truncated or damaged file is refused with its name, never half-loaded.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use kith_core::{IndexDef, LabelId, LabelKey, NodeId, PropKeyId, RelTypeId, Schema, Value};

use crate::catalog::Names;
use crate::{Catalog, RawGraph, RawNode, RawRel, Snapshot, StorageError};

/// The format version this build writes. Version 1 files (no meta section: commit
/// version 0, no property indexes) and version 2 (no schema section: indexes get
/// their default names) are still read.
pub const GRAPH_FILE_VERSION: u32 = 3;

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

const TAG_NULL: u8 = 0;
const TAG_BOOL: u8 = 1;
const TAG_INT: u8 = 2;
const TAG_FLOAT: u8 = 3;
const TAG_STRING: u8 = 4;
const TAG_DATETIME: u8 = 5;
const TAG_LIST: u8 = 6;
const TAG_TEMPORAL: u8 = 7;

/// Writes a snapshot to `path` atomically: a temporary file is written, synced and
/// renamed over the target, so a crash leaves either the old file or the new one.
pub fn write_graph_file(snapshot: &Snapshot, path: &Path) -> Result<(), StorageError> {
    let mut out = Vec::with_capacity(64 * (snapshot.node_count + snapshot.rel_count) + 1024);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, GRAPH_FILE_VERSION);
    put_u32(&mut out, 0);
    let catalog = &snapshot.catalog;
    for names in [&catalog.labels, &catalog.rel_types, &catalog.prop_keys] {
        put_len(&mut out, names.all().len());
        for name in names.all() {
            put_len(&mut out, name.len());
            out.extend_from_slice(name.as_bytes());
        }
    }
    out.extend_from_slice(&snapshot.version.to_le_bytes());
    let indexes = snapshot.prop_indexes.definitions();
    put_len(&mut out, indexes.len());
    for (label, key) in indexes {
        put_u16(&mut out, label.0);
        put_u16(&mut out, key.0);
    }
    put_schema(&mut out, &snapshot.schema);
    put_len(&mut out, snapshot.nodes.len());
    for (slot, record) in snapshot.nodes.iter().enumerate() {
        let Some(record) = record else {
            out.push(0);
            continue;
        };
        out.push(1);
        let labels = &snapshot.shapes.get(record.shape()).labels;
        put_u16(&mut out, labels.len() as u16);
        for label in labels.iter() {
            put_u16(&mut out, label.0);
        }
        put_column_values(
            &mut out,
            snapshot,
            &snapshot.node_cols,
            record.shape(),
            slot,
        );
    }
    put_len(&mut out, snapshot.rels.len());
    for (slot, rel) in snapshot.rels.iter().enumerate() {
        let Some(rel) = rel else {
            out.push(0);
            continue;
        };
        out.push(1);
        put_u16(&mut out, rel.rel_type.0);
        put_u32(&mut out, rel.src.0);
        put_u32(&mut out, rel.dst.0);
        put_column_values(
            &mut out,
            snapshot,
            &snapshot.rel_cols,
            rel.shape.get(),
            slot,
        );
    }
    let crc = crc32fast::hash(&out);
    put_u32(&mut out, crc);
    out.extend_from_slice(END_MAGIC);

    let tmp = path.with_extension("tmp");
    let io = |source| StorageError::Io {
        path: tmp.clone(),
        source,
    };
    let mut file = File::create(&tmp).map_err(io)?;
    file.write_all(&out).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&tmp, path).map_err(|source| StorageError::Io {
        path: path.into(),
        source,
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Make the rename itself durable.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|source| StorageError::Io {
                path: dir.into(),
                source,
            })?;
    }
    Ok(())
}

/// Reads a graph file into record lists (see [`Snapshot::from_raw`]).
pub fn read_graph_file(path: &Path) -> Result<RawGraph, StorageError> {
    read_graph_file_with_meta(path).map(|(raw, _)| raw)
}

/// Reads a graph file into record lists and its metadata.
pub fn read_graph_file_with_meta(path: &Path) -> Result<(RawGraph, GraphFileMeta), StorageError> {
    let bytes = fs::read(path).map_err(|source| StorageError::Io {
        path: path.into(),
        source,
    })?;
    decode(&bytes, path)
}

/// Loads a graph file as a ready snapshot: records, commit version and indexes.
pub fn load_snapshot(path: &Path) -> Result<Snapshot, StorageError> {
    let (raw, meta) = read_graph_file_with_meta(path)?;
    let mut snapshot = Snapshot::from_raw(raw)?;
    snapshot.restore_meta(meta.version, &meta.indexes, meta.schema);
    Ok(snapshot)
}

fn decode(bytes: &[u8], path: &Path) -> Result<(RawGraph, GraphFileMeta), StorageError> {
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
    let mut r = Reader {
        bytes: &bytes[..body_end],
        pos: HEADER_BYTES,
        path,
    };
    let catalog = Catalog::from_names(r.names()?, r.names()?, r.names()?);
    if catalog.prop_keys.all().first().map(|n| &**n) != Some("id") {
        return Err(corrupt("property key 0 must be `id`".into()));
    }
    let label_count = catalog.label_count();
    let type_count = catalog.rel_type_count();
    let key_count = catalog.prop_keys.all().len();
    let mut meta = GraphFileMeta::default();
    if version >= 2 {
        meta.version = r.i64()? as u64;
        let count = r.u32()?;
        for _ in 0..count {
            let (label, key) = (r.u16()?, r.u16()?);
            if usize::from(label) >= label_count || usize::from(key) >= key_count {
                return Err(r.corrupt(format!("index ({label}, {key}) names an unknown id")));
            }
            meta.indexes.push((LabelId(label), PropKeyId(key)));
        }
    }
    if version >= 3 {
        meta.schema = Some(r.schema()?);
    }

    let node_slots = r.u32()? as usize;
    let mut nodes = Vec::with_capacity(node_slots.min(r.remaining()));
    for _ in 0..node_slots {
        if r.u8()? == 0 {
            nodes.push(None);
            continue;
        }
        let label_n = r.u16()?;
        let mut labels = Vec::with_capacity(usize::from(label_n));
        for _ in 0..label_n {
            let label = r.u16()?;
            if usize::from(label) >= label_count {
                return Err(r.corrupt(format!("label id {label} out of range")));
            }
            labels.push(LabelId(label));
        }
        let properties = r.properties(key_count)?;
        nodes.push(Some(RawNode { labels, properties }));
    }
    let rel_slots = r.u32()? as usize;
    let mut rels = Vec::with_capacity(rel_slots.min(r.remaining()));
    for _ in 0..rel_slots {
        if r.u8()? == 0 {
            rels.push(None);
            continue;
        }
        let rel_type = r.u16()?;
        if usize::from(rel_type) >= type_count {
            return Err(r.corrupt(format!("relationship type id {rel_type} out of range")));
        }
        let (src, dst) = (r.u32()?, r.u32()?);
        for end in [src, dst] {
            if !matches!(nodes.get(end as usize), Some(Some(_))) {
                return Err(r.corrupt(format!("relationship end {end} is not a live node")));
            }
        }
        let properties = r.properties(key_count)?;
        rels.push(Some(RawRel {
            rel_type: RelTypeId(rel_type),
            src: NodeId(src),
            dst: NodeId(dst),
            properties,
        }));
    }
    if r.pos != r.bytes.len() {
        return Err(r.corrupt(format!("{} unexpected bytes after the data", r.remaining())));
    }
    Ok((
        RawGraph {
            catalog,
            nodes,
            rels,
        },
        meta,
    ))
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

    fn label_key(&mut self) -> Result<LabelKey, StorageError> {
        Ok(LabelKey {
            label: self.owned()?,
            key: self.owned()?,
        })
    }

    fn schema(&mut self) -> Result<Schema, StorageError> {
        let mut schema = Schema::default();
        for _ in 0..self.u32()? {
            let name = self.owned()?;
            let on = self.label_key()?;
            let owner = match self.u8()? {
                0 => None,
                _ => Some(self.owned()?),
            };
            schema.indexes.insert(name, IndexDef { on, owner });
        }
        for _ in 0..self.u32()? {
            let name = self.owned()?;
            schema.unique.insert(name, self.label_key()?);
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
            TAG_LIST if depth == 0 => {
                let n = self.u32()? as usize;
                let mut items = Vec::with_capacity(n.min(self.remaining()));
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

pub(crate) fn put_string(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

fn put_schema(out: &mut Vec<u8>, schema: &Schema) {
    put_len(out, schema.indexes.len());
    for (name, def) in &schema.indexes {
        for s in [name, &def.on.label, &def.on.key] {
            put_string(out, s);
        }
        match &def.owner {
            None => out.push(0),
            Some(owner) => {
                out.push(1);
                put_string(out, owner);
            }
        }
    }
    put_len(out, schema.unique.len());
    for (name, on) in &schema.unique {
        for s in [name, &on.label, &on.key] {
            put_string(out, s);
        }
    }
    put_len(out, schema.procedures.len());
    for (name, text) in &schema.procedures {
        put_string(out, name);
        put_string(out, text);
    }
}

pub(crate) fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_len(out: &mut Vec<u8>, n: usize) {
    // Every count is bounded by u32 slot ids or u16 names; strings by 4 GiB.
    debug_assert!(u32::try_from(n).is_ok());
    put_u32(out, n as u32);
}

/// An element's properties straight from the columns, in the layout of
/// the `(key, value)` list it was written from before columns (no list built
/// per element).
fn put_column_values(
    out: &mut Vec<u8>,
    snapshot: &Snapshot,
    cols: &crate::columns::Columns,
    shape: crate::shapes::ShapeId,
    id: usize,
) {
    // The count goes first; it is patched once the values are written.
    let count_at = out.len();
    put_u16(out, 0);
    let mut count = 0u16;
    for (key, value) in snapshot.shape_values(cols, shape, id) {
        put_u16(out, key.0);
        put_value(out, &value);
        count += 1;
    }
    out[count_at..count_at + 2].copy_from_slice(&count.to_le_bytes());
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
        let b = raw
            .add_node(vec![person], vec![(crate::ID_KEY, Value::Int(2))])
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

    fn encode(snapshot: &Snapshot) -> (tempdir::Dir, Vec<u8>) {
        let dir = tempdir::Dir::new();
        let path = dir.path().join("graph.kith");
        write_graph_file(snapshot, &path).expect("write");
        let bytes = fs::read(&path).expect("read back");
        (dir, bytes)
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
    fn every_truncation_is_refused() {
        let (_dir, bytes) = encode(&sample());
        for len in 0..bytes.len() {
            let err = decode(&bytes[..len], Path::new("g.kith")).expect_err("truncated");
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

    #[test]
    fn every_flipped_byte_is_refused() {
        let (_dir, bytes) = encode(&sample());
        for i in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x5a;
            assert!(
                decode(&damaged, Path::new("g.kith")).is_err(),
                "flip at {i} accepted"
            );
        }
    }

    #[test]
    fn newer_versions_are_refused_by_name() {
        let (_dir, mut bytes) = encode(&sample());
        bytes[8] = 9;
        let err = decode(&bytes, Path::new("g.kith")).expect_err("version");
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
