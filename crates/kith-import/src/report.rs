//! Skipped entries (bad relationships, duplicate nodes): counted against the
//! tolerance, and listed for the report file.

use crate::error::{ErrorKind, ImportError, Result};

/// At most this many skipped entries are kept for the report; the rest are counted.
const KEPT: usize = 100_000;

/// The skipped entries.
#[derive(Debug, Default)]
pub struct Report {
    /// One line per kept entry: `FILE:LINE: what`.
    pub lines: Vec<String>,
    /// Every skipped entry, kept or not.
    pub skipped: u64,
}

impl Report {
    /// Notes a skipped entry; fails once more than `tolerance` were skipped.
    pub fn skip(&mut self, line: String, tolerance: u64) -> Result<()> {
        self.skipped += 1;
        let over = self.skipped > tolerance;
        let message = over.then(|| {
            format!("more than {tolerance} entries were bad (--bad-tolerance); the last: {line}")
        });
        if self.lines.len() < KEPT {
            self.lines.push(line);
        }
        match message {
            Some(message) => Err(ImportError::new(ErrorKind::TooManyBad, message)),
            None => Ok(()),
        }
    }

    /// The report file's text.
    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        let more = self.skipped - self.lines.len() as u64;
        if more > 0 {
            text.push_str(&format!("... and {more} more skipped entries\n"));
        }
        text
    }
}
