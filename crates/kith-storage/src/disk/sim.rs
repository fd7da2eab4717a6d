//! A simulated disk for crash-injection tests: a file system in memory that keeps,
//! for every file, what was written and what was last synced, and the directory
//! changes (creations, renames, removals) not yet made durable by a directory sync,
//! in order. At chosen operations it fails, fills up, or "crashes";
//! [`SimDisk::crash`] then gives the disk as a restarted machine would find it:
//! synced data and synced directory entries, plus a random prefix of the pending
//! directory changes (a journaling file system commits them in order, and any
//! later sync may have carried them), plus a random part of what was written after
//! a file's last sync (a torn write), which may read back as zeros (the size reached
//! the disk, the data did not). Directories themselves are kept (the database syncs
//! a new one's parent).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::{DirLock, Disk, DiskFile, FileBytes};

/// What goes wrong at the chosen operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It fails with EIO; a write may have left part of its bytes.
    Error,
    /// The disk is full: this write and every later one fails with ENOSPC until
    /// [`SimDisk::free_space`].
    Full,
    /// The machine stops: a write may have left part of its bytes, and every later
    /// operation fails; [`SimDisk::crash`] is the disk after the restart.
    Crash,
    /// A bug below the store: the operation panics (a write after leaving part of
    /// its bytes), and the disk goes on working.
    Panic,
}

/// The message of a [`Fault::Panic`], for a test's panic hook to recognise.
pub const SIMULATED_PANIC: &str = "a simulated bug below the store";

#[derive(Clone, Debug, Default)]
struct Inode {
    data: Vec<u8>,
    synced: Vec<u8>,
}

/// A directory change not yet durable.
#[derive(Clone, Debug)]
enum Change {
    Link(PathBuf, usize),
    Unlink(PathBuf),
    /// Atomic: a crash keeps both halves or neither.
    Rename(PathBuf, PathBuf, usize),
}

impl Change {
    /// The entry it changes (a rename's target, in the same directory as its source).
    fn path(&self) -> &Path {
        match self {
            Change::Link(p, _) | Change::Unlink(p) | Change::Rename(_, p, _) => p,
        }
    }

    fn apply(&self, names: &mut BTreeMap<PathBuf, usize>) {
        match self {
            Change::Link(p, i) => {
                names.insert(p.clone(), *i);
            }
            Change::Unlink(p) => {
                names.remove(p);
            }
            Change::Rename(from, to, i) => {
                names.remove(from);
                names.insert(to.clone(), *i);
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
struct State {
    inodes: Vec<Inode>,
    /// The directory entries a process sees.
    names: BTreeMap<PathBuf, usize>,
    /// The entries a crash keeps for certain (as of each directory's last sync).
    durable: BTreeMap<PathBuf, usize>,
    /// Changes since, in order: a crash keeps a prefix of them.
    pending: Vec<Change>,
    dirs: BTreeSet<PathBuf>,
    /// Operations that could fail, so far.
    points: u64,
    faults: Vec<(u64, Fault)>,
    full: bool,
    crashed: bool,
    rng: u64,
}

/// A disk in memory with one planned fault; clones share it.
#[derive(Clone, Debug)]
pub struct SimDisk(Arc<Mutex<State>>);

fn crash_error() -> io::Error {
    io::Error::other("the simulated machine crashed")
}

impl SimDisk {
    /// An empty disk; `seed` decides how much of a torn write survives.
    pub fn new(seed: u64) -> SimDisk {
        SimDisk(Arc::new(Mutex::new(State {
            rng: seed | 1,
            ..State::default()
        })))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Plans `fault` at the operation numbered `point` (counting from 0 since the
    /// disk was made) that writes, syncs, creates, renames, removes or truncates.
    /// Several faults may be planned.
    pub fn fail_at(&self, point: u64, fault: Fault) {
        self.state().faults.push((point, fault));
    }

    /// A copy that goes its own way from here (the same files, no fault planned).
    pub fn fork(&self) -> SimDisk {
        let mut s = self.state().clone();
        s.faults.clear();
        SimDisk(Arc::new(Mutex::new(s)))
    }

    /// Such operations so far: a fault-free run tells how many points to try.
    pub fn points(&self) -> u64 {
        self.state().points
    }

    /// Whether the planned crash happened.
    pub fn crashed(&self) -> bool {
        self.state().crashed
    }

    /// Ends a [`Fault::Full`]: writes succeed again.
    pub fn free_space(&self) {
        self.state().full = false;
    }

    /// The disk as a restart after a crash finds it (for a process restart without
    /// a machine crash, keep using this disk: the page cache survives).
    pub fn crash(&self) -> SimDisk {
        let mut s = self.state().clone();
        let State { inodes, rng, .. } = &mut s;
        for inode in inodes.iter_mut() {
            let kept = survivor(inode, rng);
            inode.data = kept.clone();
            inode.synced = kept;
        }
        let kept = (next(&mut s.rng) % (s.pending.len() as u64 + 1)) as usize;
        let mut names = s.durable.clone();
        for change in &s.pending[..kept] {
            change.apply(&mut names);
        }
        s.names = names.clone();
        s.durable = names;
        s.pending.clear();
        s.faults.clear();
        s.full = false;
        s.crashed = false;
        SimDisk(Arc::new(Mutex::new(s)))
    }
}

/// What of a file survives a crash: its synced bytes and a random part of the
/// appended bytes after them, zeroed one time in four.
fn survivor(inode: &Inode, rng: &mut u64) -> Vec<u8> {
    let mut kept = inode.synced.clone();
    if inode.data.len() > kept.len() && inode.data.starts_with(&kept) {
        let tail = &inode.data[kept.len()..];
        let n = (next(rng) % (tail.len() as u64 + 1)) as usize;
        if next(rng).is_multiple_of(4) {
            kept.extend(std::iter::repeat_n(0, n));
        } else {
            kept.extend_from_slice(&tail[..n]);
        }
    }
    kept
}

fn next(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

impl State {
    /// Passes one fault point: the fault planned for it, if any. A full disk fails
    /// every write (`writes`) until freed.
    fn point(&mut self, writes: bool) -> io::Result<Option<Fault>> {
        if self.crashed {
            return Err(crash_error());
        }
        let here = self.points;
        self.points += 1;
        match self.faults.iter().find(|(at, _)| *at == here) {
            Some(&(_, fault)) => Ok(Some(fault)),
            None if self.full && writes => Ok(Some(Fault::Full)),
            None => Ok(None),
        }
    }

    /// The outcome of a fault that has happened: the error to return.
    fn fail(&mut self, fault: Fault) -> io::Error {
        match fault {
            Fault::Error => io::Error::from_raw_os_error(5), // EIO
            Fault::Full => {
                self.full = true;
                io::Error::from_raw_os_error(28) // ENOSPC
            }
            Fault::Crash => {
                self.crashed = true;
                crash_error()
            }
            Fault::Panic => panic!("{SIMULATED_PANIC}"),
        }
    }

    fn inode(&self, path: &Path) -> io::Result<usize> {
        if self.crashed {
            return Err(crash_error());
        }
        self.names
            .get(path)
            .copied()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{}", path.display())))
    }

    fn write(&mut self, inode: usize, bytes: &[u8]) -> io::Result<()> {
        match self.point(true)? {
            None => {
                self.inodes[inode].data.extend_from_slice(bytes);
                Ok(())
            }
            Some(fault) => {
                // A failed or interrupted write may leave a prefix of its bytes.
                let n = (next(&mut self.rng) % (bytes.len() as u64 + 1)) as usize;
                let n = if fault == Fault::Full { n / 2 } else { n };
                self.inodes[inode].data.extend_from_slice(&bytes[..n]);
                Err(self.fail(fault))
            }
        }
    }

    fn sync(&mut self, inode: usize) -> io::Result<()> {
        match self.point(false)? {
            None => {
                let i = &mut self.inodes[inode];
                i.synced = i.data.clone();
                Ok(())
            }
            Some(fault) => Err(self.fail(fault)),
        }
    }

    /// A namespace change (create, rename, remove): all or nothing, durable only
    /// once the directory is synced.
    fn change(
        &mut self,
        writes: bool,
        apply: impl FnOnce(&mut State) -> io::Result<()>,
    ) -> io::Result<()> {
        match self.point(writes)? {
            None => apply(self),
            Some(fault) => Err(self.fail(fault)),
        }
    }
}

struct SimFile {
    disk: SimDisk,
    inode: usize,
}

impl DiskFile for SimFile {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.disk.state().write(self.inode, bytes)
    }

    fn sync_data(&mut self) -> io::Result<()> {
        self.disk.state().sync(self.inode)
    }

    fn sync_all(&mut self) -> io::Result<()> {
        self.disk.state().sync(self.inode)
    }
}

impl Disk for SimDisk {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut s = self.state();
        for d in dir.ancestors() {
            s.dirs.insert(d.to_path_buf());
        }
        Ok(())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let s = self.state();
        if s.crashed {
            return Err(crash_error());
        }
        if !s.dirs.contains(dir) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}", dir.display()),
            ));
        }
        Ok(s.names
            .keys()
            .filter(|p| p.parent() == Some(dir))
            .cloned()
            .collect())
    }

    fn exists(&self, path: &Path) -> bool {
        let s = self.state();
        s.names.contains_key(path) || s.dirs.contains(path)
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        let s = self.state();
        let i = s.inode(path)?;
        Ok(s.inodes[i].data.len() as u64)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let s = self.state();
        let i = s.inode(path)?;
        Ok(s.inodes[i].data.clone())
    }

    fn map(&self, path: &Path) -> io::Result<FileBytes> {
        self.read(path).map(FileBytes::Owned)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        let mut s = self.state();
        let inode = s.inodes.len();
        let path = path.to_path_buf();
        s.change(true, |s| {
            s.inodes.push(Inode::default());
            s.names.insert(path.clone(), inode);
            s.pending.push(Change::Link(path, inode));
            Ok(())
        })?;
        Ok(Box::new(SimFile {
            disk: self.clone(),
            inode,
        }))
    }

    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        let inode = self.state().inode(path)?;
        Ok(Box::new(SimFile {
            disk: self.clone(),
            inode,
        }))
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        let mut s = self.state();
        let inode = s.inode(path)?;
        s.change(false, |s| {
            let i = &mut s.inodes[inode];
            i.data.truncate(len as usize);
            i.synced = i.data.clone();
            Ok(())
        })
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        debug_assert_eq!(
            from.parent(),
            to.parent(),
            "renames stay in their directory"
        );
        let mut s = self.state();
        let inode = s.inode(from)?;
        s.change(false, |s| {
            s.names.remove(from);
            s.names.insert(to.to_path_buf(), inode);
            s.pending
                .push(Change::Rename(from.to_path_buf(), to.to_path_buf(), inode));
            Ok(())
        })
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut s = self.state();
        s.inode(path)?;
        s.change(false, |s| {
            s.names.remove(path);
            s.pending.push(Change::Unlink(path.to_path_buf()));
            Ok(())
        })
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut s = self.state();
        s.change(false, |s| {
            // The directory's changes become durable, in order; others stay pending.
            let (mine, others): (Vec<Change>, Vec<Change>) = std::mem::take(&mut s.pending)
                .into_iter()
                .partition(|c| c.path().parent() == Some(dir));
            for change in &mine {
                change.apply(&mut s.durable);
            }
            s.pending = others;
            Ok(())
        })
    }

    fn lock(&self, _path: &Path) -> io::Result<Option<DirLock>> {
        Ok(Some(Box::new(())))
    }
}
