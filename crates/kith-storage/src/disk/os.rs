//! The real file system.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{DirLock, Disk, DiskFile, FileBytes};

/// `std::fs`, with graph files mapped rather than read.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsDisk;

impl DiskFile for File {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        Write::write_all(self, bytes)
    }

    fn sync_data(&mut self) -> io::Result<()> {
        File::sync_data(self)
    }

    fn sync_all(&mut self) -> io::Result<()> {
        File::sync_all(self)
    }
}

impl Disk for OsDisk {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect()
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        fs::metadata(path).map(|m| m.len())
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn map(&self, path: &Path) -> io::Result<FileBytes> {
        let file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(FileBytes::Owned(Vec::new()));
        }
        map(&file).map(FileBytes::Mapped)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        Ok(Box::new(File::create(path)?))
    }

    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        Ok(Box::new(OpenOptions::new().append(true).open(path)?))
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(len)?;
        file.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }

    fn lock(&self, path: &Path) -> io::Result<Option<DirLock>> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Box::new(file))),
            Err(fs::TryLockError::WouldBlock) => Ok(None),
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

#[expect(
    unsafe_code,
    reason = "maps a graph file instead of copying it into memory"
)]
fn map(file: &File) -> io::Result<memmap2::Mmap> {
    // Safety: the mapping is read-only and lives only while the file is decoded;
    // decoding copies every name, string and array out of it, so the graph keeps no
    // reference into it. kith never changes a graph file in place: a checkpoint
    // writes a new file and renames it over the old one, which leaves a mapped file
    // intact, even while a server holds the directory and a tool (`kith stats`) reads
    // its last checkpoint. Someone else truncating the file meanwhile would stop the
    // process with SIGBUS, not make it read wrong data: checksum and section checks
    // run over the mapped bytes.
    let map = unsafe { memmap2::MmapOptions::new().populate().map(file) }?;
    // Only a hint: the load is correct without it.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    Ok(map)
}
