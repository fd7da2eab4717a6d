//! Input files: expanding a group's names (paths or regular expressions), reading
//! them (gzip too), and cutting their text into chunks the threads parse apart.

use std::io::Read;
use std::path::{Path, PathBuf};

use kith_storage::disk::{Disk, FileBytes, OsDisk};
use regex::Regex;

use crate::error::{ErrorKind, ImportError, Result};

/// A chunk aims at this many bytes; it ends at the next line break after it.
const CHUNK_BYTES: usize = 1 << 20;

/// The files one name stands for: itself if it exists, else the files of its directory
/// whose whole name matches it as a regular expression, in name order (as Neo4j's
/// importer does: `import/person_.*\.csv`).
pub fn expand(name: &str) -> Result<Vec<PathBuf>> {
    let path = Path::new(name);
    if path.is_file() {
        return Ok(vec![path.to_owned()]);
    }
    let (dir, pattern) = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => (p.to_owned(), path.file_name()),
        _ => (PathBuf::from("."), path.file_name()),
    };
    let pattern = pattern.and_then(|p| p.to_str()).unwrap_or_default();
    let missing = || ImportError::new(ErrorKind::Io, format!("{name}: no such file"));
    let Ok(regex) = Regex::new(&format!("^(?:{pattern})$")) else {
        return Err(missing());
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Err(missing());
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
        .filter(|e| e.file_name().to_str().is_some_and(|n| regex.is_match(n)))
        .map(|e| e.path())
        .collect();
    if found.is_empty() {
        return Err(ImportError::new(
            ErrorKind::Io,
            format!(
                "{name}: no such file, and no file in {} matches it as a pattern",
                dir.display()
            ),
        ));
    }
    found.sort();
    Ok(found)
}

/// A file's whole text: mapped from the page cache (as the store maps a graph
/// file), or decompressed (`.gz`).
pub type Text = FileBytes;

/// A file's whole text; `.gz` files are decompressed.
pub fn read(path: &Path) -> Result<Text> {
    let io = |e: std::io::Error| ImportError::new(ErrorKind::Io, e.to_string()).in_file(path);
    if path.extension().is_some_and(|e| e == "gz") {
        let file = std::fs::File::open(path).map_err(io)?;
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file))
            .read_to_end(&mut text)
            .map_err(|e| {
                ImportError::new(ErrorKind::Io, format!("not gzip data: {e}")).in_file(path)
            })?;
        return Ok(Text::Owned(text));
    }
    OsDisk.map(path).map_err(io)
}

/// The number of line breaks in a file, to size the graph's lists once instead of
/// growing them (0 for gzip: counting would mean decompressing it twice).
pub fn count_lines(path: &Path) -> Result<u64> {
    if path.extension().is_some_and(|e| e == "gz") {
        return Ok(0);
    }
    let text = read(path)?;
    Ok(memchr::memchr_iter(b'\n', &text).count() as u64)
}

/// A file's first line (gzip too), without its line break.
pub fn first_line(path: &Path) -> Result<Vec<u8>> {
    use std::io::BufRead;
    let io = |e: std::io::Error| ImportError::new(ErrorKind::Io, e.to_string()).in_file(path);
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
            file,
        )))
    } else {
        Box::new(std::io::BufReader::new(file))
    };
    let mut line = Vec::new();
    reader.read_until(b'\n', &mut line).map_err(io)?;
    if line.starts_with(BOM) {
        line.drain(..BOM.len());
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    Ok(line)
}

/// The size a file's progress is counted in (its bytes on disk).
pub fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// A piece of one file's text that starts at a line's start, with that line's number.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    /// The text (whole lines; the last may lack its line break).
    pub text: &'a [u8],
    /// The number of its first line in the file, from 1.
    pub first_line: u64,
}

/// Cuts `text` (starting at line `first_line`) into chunks of whole lines. With
/// `whole`, one chunk: a quoted field may hold a line break.
pub fn chunks(text: &[u8], first_line: u64, whole: bool) -> Vec<Chunk<'_>> {
    if whole {
        return vec![Chunk { text, first_line }];
    }
    let mut out = Vec::with_capacity(text.len() / CHUNK_BYTES + 1);
    let (mut start, mut line) = (0, first_line);
    while start < text.len() {
        let aim = (start + CHUNK_BYTES).min(text.len());
        let end = match memchr::memchr(b'\n', &text[aim..]) {
            Some(i) if aim < text.len() => aim + i + 1,
            _ => text.len(),
        };
        let piece = &text[start..end];
        out.push(Chunk {
            text: piece,
            first_line: line,
        });
        line += memchr::memchr_iter(b'\n', piece).count() as u64;
        start = end;
    }
    out
}

/// The UTF-8 byte-order mark some editors (Excel) put at a file's start.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `text` without a leading byte-order mark: it is not part of the first field.
pub fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Splits off the first line of `text` (the header): (header, rest).
pub fn split_header(text: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memchr(b'\n', text) {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_text_at_line_starts() {
        let mut text = Vec::new();
        for i in 0..300_000 {
            text.extend_from_slice(format!("{i},name {i}\n").as_bytes());
        }
        let parts = chunks(&text, 2, false);
        assert!(parts.len() > 1);
        let joined: Vec<u8> = parts.iter().flat_map(|c| c.text.iter().copied()).collect();
        assert_eq!(joined, text);
        for c in &parts {
            let first = std::str::from_utf8(c.text)
                .expect("utf8")
                .lines()
                .next()
                .expect("a line");
            let n: u64 = first.split(',').next().expect("id").parse().expect("int");
            assert_eq!(c.first_line, n + 2, "chunk starts at line {}", c.first_line);
        }
    }

    #[test]
    fn patterns_expand_in_name_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in ["p_2.csv", "p_1.csv", "q.csv"] {
            std::fs::write(dir.path().join(name), "x\n").expect("write");
        }
        let found = expand(&format!("{}/p_.*\\.csv", dir.path().display())).expect("matches");
        let names: Vec<_> = found
            .iter()
            .map(|p| p.file_name().expect("name").to_owned())
            .collect();
        assert_eq!(names, ["p_1.csv", "p_2.csv"]);
        let err = expand(&format!("{}/none.csv", dir.path().display())).expect_err("missing");
        assert_eq!(err.kind, ErrorKind::Io);
    }
}
