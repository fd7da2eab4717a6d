//! The file operations a data directory needs, behind a trait, so that tests can run
//! the database on a simulated disk that fails or "crashes" at any chosen point
//! ([`SimDisk`]; `docs/reliability.md`, "Crash injection").
//!
//! Every write, sync, rename, removal and truncation the log, the checkpoint and
//! recovery perform goes through [`Disk`]; [`OsDisk`] is the real file system.

mod os;
mod sim;

use std::io;
use std::path::{Path, PathBuf};

pub use os::OsDisk;
pub use sim::{Fault, SimDisk, SIMULATED_PANIC};

/// A file open for writing.
pub trait DiskFile: Send {
    /// Writes all of `bytes` at the end of what was written.
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Makes the file's data durable (`fdatasync`).
    fn sync_data(&mut self) -> io::Result<()>;
    /// Makes the file's data and metadata durable (`fsync`).
    fn sync_all(&mut self) -> io::Result<()>;
}

/// A file's bytes, read whole: mapped from the page cache on a real disk.
pub enum FileBytes {
    /// A read-only mapping.
    Mapped(memmap2::Mmap),
    /// A copy.
    Owned(Vec<u8>),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Owned(bytes) => bytes,
        }
    }
}

/// A held lock on a data directory; dropping it releases the lock.
pub type DirLock = Box<dyn std::any::Any + Send + Sync>;

/// The file system a database runs on.
pub trait Disk: Send + Sync + std::fmt::Debug {
    /// Creates a directory and its parents.
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// The paths of a directory's entries.
    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>>;
    /// Whether a file exists.
    fn exists(&self, path: &Path) -> bool;
    /// A file's length.
    fn len(&self, path: &Path) -> io::Result<u64>;
    /// A file's bytes.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// A file's bytes, mapped when the disk can (a graph file: gigabytes).
    fn map(&self, path: &Path) -> io::Result<FileBytes>;
    /// Creates (or empties) a file for writing.
    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>>;
    /// Opens an existing file for appending.
    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>>;
    /// Cuts a file to `len` bytes and syncs it.
    fn truncate(&self, path: &Path, len: u64) -> io::Result<()>;
    /// Renames a file (atomically replacing `to`).
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a file.
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Makes a directory's entries (creations, renames, removals) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Takes the directory's exclusive lock file; `Ok(None)` when another holds it.
    fn lock(&self, path: &Path) -> io::Result<Option<DirLock>>;
}
