//! Where each update event of a sharded graph goes (S5's update path,
//! docs/sharding.md): a new person or friendship to the person shard; a forum, a
//! membership or a post to its forum's shard; a like or a comment to the shard of
//! the message it names. The last needs to know where every message lives: a
//! [`Placement`], made by the split and extended by the stream's own posts and
//! comments in stream order, kept beside the layout in [`PLACEMENT_FILE`].

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

use kith_core::Value;
use rustc_hash::FxHashMap;

use super::forum_shard;
use crate::UpdateEvent;

/// The placement's file in a split's directory.
pub const PLACEMENT_FILE: &str = "messages.placement";

const MAGIC: &[u8; 8] = b"KITHPLC1";

/// Which side of the scheme an update belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The person shard: IU1 (a person), IU8 (a friendship).
    Person,
    /// A forum shard: IU2-IU7.
    Forum,
}

impl Side {
    /// The side of `ldbc.iuN`; `None` for anything else.
    pub fn of(procedure: &str) -> Option<Side> {
        match procedure {
            "ldbc.iu1" | "ldbc.iu8" => Some(Side::Person),
            "ldbc.iu2" | "ldbc.iu3" | "ldbc.iu4" | "ldbc.iu5" | "ldbc.iu6" | "ldbc.iu7" => {
                Some(Side::Forum)
            }
            _ => None,
        }
    }
}

/// A shard of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shard {
    /// The person shard.
    Person,
    /// Forum shard `i` (0-based).
    Forum(usize),
}

impl Shard {
    /// Its partition of a sharded update topic: 0 for the person shard, `i + 1` for
    /// forum shard `i`.
    pub fn partition(self) -> i32 {
        match self {
            Shard::Person => 0,
            Shard::Forum(i) => i32::try_from(i + 1).expect("at most 64 forum shards"),
        }
    }

    /// Its name in a layout (`person`, `forum-3`), as `kith shard split` writes it.
    pub fn name(self) -> String {
        match self {
            Shard::Person => "person".into(),
            Shard::Forum(i) => format!("forum-{i}"),
        }
    }

    /// The shard a layout name means.
    pub fn parse(name: &str) -> Option<Shard> {
        if name == "person" {
            return Some(Shard::Person);
        }
        let digits = name.strip_prefix("forum-")?;
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        canonical.then(|| digits.parse().ok().map(Shard::Forum))?
    }
}

/// Why an event cannot be routed, or a placement file not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlacementError {
    /// The event names a message that is neither in the split nor earlier in the
    /// stream.
    UnknownMessage {
        /// The event's procedure.
        procedure: &'static str,
        /// `post` or `comment`.
        kind: &'static str,
        /// Its id.
        id: i64,
    },
    /// The event lacks a parameter the routing reads, or is not an update.
    BadEvent(String),
    /// The placement file is damaged or of another layout.
    BadFile(String),
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::UnknownMessage {
                procedure,
                kind,
                id,
            } => write!(
                f,
                "{procedure} names {kind} {id}, which is neither in the split graph nor added earlier in the stream: no shard holds it"
            ),
            PlacementError::BadEvent(why) => write!(f, "cannot route the event: {why}"),
            PlacementError::BadFile(why) => write!(f, "{PLACEMENT_FILE}: {why}"),
        }
    }
}

impl std::error::Error for PlacementError {}

/// Every message's forum shard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    forum_shards: usize,
    posts: FxHashMap<i64, u16>,
    comments: FxHashMap<i64, u16>,
}

impl Placement {
    /// An empty placement over `forum_shards` shards.
    pub fn new(forum_shards: usize) -> Placement {
        assert!((1..=64).contains(&forum_shards), "1 to 64 forum shards");
        Placement {
            forum_shards,
            ..Placement::default()
        }
    }

    /// How many forum shards.
    pub fn forum_shards(&self) -> usize {
        self.forum_shards
    }

    /// How many messages it places.
    pub fn len(&self) -> usize {
        self.posts.len() + self.comments.len()
    }

    /// Whether it places no message.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records that post `id` lives on forum shard `shard`.
    pub fn add_post(&mut self, id: i64, shard: usize) {
        assert!(shard < self.forum_shards, "shard {shard} out of range");
        self.posts.insert(id, shard as u16);
    }

    /// Records that comment `id` lives on forum shard `shard`.
    pub fn add_comment(&mut self, id: i64, shard: usize) {
        assert!(shard < self.forum_shards, "shard {shard} out of range");
        self.comments.insert(id, shard as u16);
    }

    /// The shard `event` goes to; a post or comment it adds is placed, so later
    /// events naming it route too (events must come in stream order).
    pub fn route(&mut self, event: &UpdateEvent) -> Result<Shard, PlacementError> {
        let procedure = event.procedure;
        let int = |name: &str| int_param(event, name);
        let known = |map: &FxHashMap<i64, u16>, kind, id| {
            map.get(&id)
                .map(|&s| s as usize)
                .ok_or(PlacementError::UnknownMessage {
                    procedure,
                    kind,
                    id,
                })
        };
        let shard = match procedure {
            "ldbc.iu1" | "ldbc.iu8" => return Ok(Shard::Person),
            "ldbc.iu2" => known(&self.posts, "post", int("postId")?)?,
            "ldbc.iu3" => known(&self.comments, "comment", int("commentId")?)?,
            "ldbc.iu4" | "ldbc.iu5" => forum_shard(int("forumId")?, self.forum_shards),
            "ldbc.iu6" => {
                let shard = forum_shard(int("forumId")?, self.forum_shards);
                self.add_post(int("postId")?, shard);
                shard
            }
            "ldbc.iu7" => {
                let shard = match int("replyToPostId")? {
                    -1 => known(&self.comments, "comment", int("replyToCommentId")?)?,
                    post => known(&self.posts, "post", post)?,
                };
                self.add_comment(int("commentId")?, shard);
                shard
            }
            other => {
                return Err(PlacementError::BadEvent(format!(
                    "{other} is not an LDBC update (ldbc.iu1 .. ldbc.iu8)"
                )))
            }
        };
        Ok(Shard::Forum(shard))
    }

    /// Writes the placement to `path` (through a temporary file and a rename, so a
    /// crash leaves the old one or the new one).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(32 + self.len() * 10);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(self.forum_shards as u32).to_le_bytes());
        for map in [&self.posts, &self.comments] {
            let mut entries: Vec<(i64, u16)> = map.iter().map(|(&k, &v)| (k, v)).collect();
            // Sorted: the same placement is always the same bytes.
            entries.sort_unstable();
            bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
            for (id, shard) in entries {
                bytes.extend_from_slice(&id.to_le_bytes());
                bytes.extend_from_slice(&shard.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let tmp = path.with_file_name(name);
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    }

    /// Reads a placement [`Placement::write`] wrote.
    pub fn read(path: &Path) -> Result<Placement, PlacementError> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| PlacementError::BadFile(format!("reading {}: {e}", path.display())))?;
        let bad = |why: &str| PlacementError::BadFile(format!("{}: {why}", path.display()));
        if bytes.len() < MAGIC.len() + 4 + 8 + 8 + 4 || &bytes[..8] != MAGIC {
            return Err(bad("not a kith message placement"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(bad("damaged (checksum mismatch)"));
        }
        let mut at = 8;
        let mut take = |n: usize| -> Result<&[u8], PlacementError> {
            let part = body.get(at..at + n).ok_or_else(|| bad("truncated"))?;
            at += n;
            Ok(part)
        };
        let forum_shards = u32::from_le_bytes(take(4)?.try_into().expect("4")) as usize;
        if !(1..=64).contains(&forum_shards) {
            return Err(bad(&format!("{forum_shards} forum shards (1 to 64)")));
        }
        let mut placement = Placement::new(forum_shards);
        for kind in 0..2 {
            let count = u64::from_le_bytes(take(8)?.try_into().expect("8")) as usize;
            for _ in 0..count {
                let id = i64::from_le_bytes(take(8)?.try_into().expect("8"));
                let shard = u16::from_le_bytes(take(2)?.try_into().expect("2")) as usize;
                if shard >= forum_shards {
                    return Err(bad(&format!(
                        "message {id} on shard {shard} of {forum_shards}"
                    )));
                }
                match kind {
                    0 => placement.add_post(id, shard),
                    _ => placement.add_comment(id, shard),
                }
            }
        }
        if at != body.len() {
            return Err(bad("bytes after the last entry"));
        }
        Ok(placement)
    }
}

fn int_param(event: &UpdateEvent, name: &str) -> Result<i64, PlacementError> {
    match event.params.iter().find(|(k, _)| k == name) {
        Some((_, Value::Int(v))) => Ok(*v),
        Some((_, other)) => Err(PlacementError::BadEvent(format!(
            "{}: {name} is {}, not an Int",
            event.procedure,
            other.value_type()
        ))),
        None => Err(PlacementError::BadEvent(format!(
            "{}: no {name}",
            event.procedure
        ))),
    }
}
