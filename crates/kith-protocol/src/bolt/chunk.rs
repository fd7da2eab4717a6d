//! Bolt's message framing: a message travels as chunks of at most 65,535 bytes, each
//! behind its big-endian 2-byte size, and ends with an empty chunk (`00 00`). An empty
//! chunk outside a message is a keep-alive (NOOP).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The most bytes one chunk carries.
pub const CHUNK_BYTES_MAX: usize = 0xFFFF;

/// Starts a message at the end of `out`; encode it after this, then call
/// [`end_message`] with the position returned.
pub fn begin_message(out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.extend_from_slice(&[0, 0]);
    start
}

/// Ends the message begun at `start`: writes its chunk headers and the end marker.
/// A message of up to 65,535 bytes (nearly all of them) is one chunk, its header
/// patched in place; a longer one is split, moving its tail once.
pub fn end_message(out: &mut Vec<u8>, start: usize) {
    let body = out.len() - start - 2;
    if body <= CHUNK_BYTES_MAX {
        out[start..start + 2].copy_from_slice(&(body as u16).to_be_bytes());
    } else {
        let tail = out.split_off(start + 2);
        out.truncate(start);
        for chunk in tail.chunks(CHUNK_BYTES_MAX) {
            out.extend_from_slice(&(chunk.len() as u16).to_be_bytes());
            out.extend_from_slice(chunk);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// Reassembles messages from chunks, bounded by `message_bytes_max`, and (with a
/// [`MessageBudget`]) by what all connections' large messages may hold together.
#[derive(Debug)]
pub struct Dechunker {
    message: Vec<u8>,
    message_bytes_max: usize,
    /// What the limit is, for the refusal (`frame_bytes_max`).
    limit: &'static str,
    budget: Option<Arc<MessageBudget>>,
    /// What this message holds of the budget.
    reserved: usize,
}

/// The bytes all connections' messages being read may hold beyond `free_below`
/// each: drivers send parameters of many megabytes, and one such message is fine,
/// but a thousand connections each part-way through one must not take the server's
/// memory. A message that would pass the budget is refused.
#[derive(Debug)]
pub struct MessageBudget {
    used: AtomicUsize,
    max: usize,
    free_below: usize,
    /// The budget's name, for the refusal.
    limit: &'static str,
}

impl MessageBudget {
    /// A budget of `max` bytes, shared by what each message holds past `free_below`.
    pub fn new(max: usize, free_below: usize, limit: &'static str) -> Arc<MessageBudget> {
        Arc::new(MessageBudget {
            used: AtomicUsize::new(0),
            max,
            free_below,
            limit,
        })
    }

    /// The bytes held now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    fn reserve(&self, bytes: usize) -> Result<(), String> {
        let before = self.used.fetch_add(bytes, Ordering::AcqRel);
        if before + bytes > self.max {
            self.used.fetch_sub(bytes, Ordering::AcqRel);
            return Err(format!(
                "the Bolt messages being read hold {before} bytes of the {} the server allows \
                 them together ({}): send it again later",
                self.max, self.limit
            ));
        }
        Ok(())
    }

    fn release(&self, bytes: usize) {
        let before = self.used.fetch_sub(bytes, Ordering::AcqRel);
        assert!(before >= bytes, "a message released more than it reserved");
    }
}

/// What a chunk header read means.
#[derive(Debug, PartialEq, Eq)]
pub enum Chunk {
    /// `n` bytes of the message follow: pass them to [`Dechunker::extend`].
    Data(usize),
    /// The message is complete: take it with [`Dechunker::take`].
    End,
    /// An empty chunk between messages: a keep-alive, nothing to do.
    Noop,
}

impl Dechunker {
    /// A dechunker refusing messages over `message_bytes_max`.
    pub fn new(message_bytes_max: usize) -> Dechunker {
        Dechunker::named(message_bytes_max, "frame_bytes_max")
    }

    /// A dechunker whose refusal names its limit `limit`.
    pub fn named(message_bytes_max: usize, limit: &'static str) -> Dechunker {
        Dechunker {
            message: Vec::new(),
            message_bytes_max,
            limit,
            budget: None,
            reserved: 0,
        }
    }

    /// The same, its large messages held within `budget`.
    pub fn with_budget(mut self, budget: Arc<MessageBudget>) -> Dechunker {
        self.budget = Some(budget);
        self
    }

    /// Interprets a chunk header; refuses a chunk that would take the message past
    /// its limit (the connection cannot recover its framing after that).
    pub fn header(&mut self, size: u16) -> Result<Chunk, String> {
        let size = usize::from(size);
        match (size, self.message.is_empty()) {
            (0, true) => Ok(Chunk::Noop),
            (0, false) => Ok(Chunk::End),
            (n, _) if self.message.len() + n > self.message_bytes_max => Err(format!(
                "a Bolt message over {} bytes ({})",
                self.message_bytes_max, self.limit
            )),
            (n, _) => {
                self.reserve(self.message.len() + n)?;
                Ok(Chunk::Data(n))
            }
        }
    }

    /// Holds what a message of `len` bytes needs of the budget.
    fn reserve(&mut self, len: usize) -> Result<(), String> {
        let Some(budget) = &self.budget else {
            return Ok(());
        };
        let needed = len.saturating_sub(budget.free_below);
        if needed > self.reserved {
            budget.reserve(needed - self.reserved)?;
            self.reserved = needed;
        }
        Ok(())
    }

    /// Gives back what the message held of the budget.
    fn release(&mut self) {
        if let Some(budget) = &self.budget {
            budget.release(self.reserved);
        }
        self.reserved = 0;
    }

    /// Adds a chunk's bytes to the message.
    pub fn extend(&mut self, bytes: &[u8]) {
        debug_assert!(self.message.len() + bytes.len() <= self.message_bytes_max);
        self.message.extend_from_slice(bytes);
    }

    /// Room for the `n` bytes of a chunk announced by [`Dechunker::header`], at the end
    /// of the message: read the chunk straight into it.
    pub fn room(&mut self, n: usize) -> &mut [u8] {
        assert!(
            self.message.len() + n <= self.message_bytes_max,
            "header() checked the size"
        );
        let start = self.message.len();
        self.message.resize(start + n, 0);
        &mut self.message[start..]
    }

    /// The bytes of the message so far.
    pub fn message(&self) -> &[u8] {
        &self.message
    }

    /// The completed message; the dechunker is ready for the next.
    pub fn take(&mut self) -> Vec<u8> {
        self.release();
        std::mem::take(&mut self.message)
    }
}

impl Drop for Dechunker {
    fn drop(&mut self) {
        self.release();
    }
}

/// How many whole messages `bytes` holds from its start (NOOPs are no messages): what
/// a server may answer IGNORED to without reading the socket again.
pub fn whole_messages(mut bytes: &[u8]) -> usize {
    let (mut whole, mut in_message) = (0, false);
    while let [a, b, rest @ ..] = bytes {
        let size = usize::from(u16::from_be_bytes([*a, *b]));
        match (size, in_message) {
            (0, true) => {
                whole += 1;
                in_message = false;
            }
            (0, false) => {}
            (n, _) if rest.len() < n => return whole,
            _ => in_message = true,
        }
        bytes = &rest[size..];
    }
    whole
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_messages_are_counted_up_to_the_first_incomplete_one() {
        let mut out = Vec::new();
        for body in [&b"ab"[..], &[7u8; 70_000][..]] {
            let start = begin_message(&mut out);
            out.extend_from_slice(body);
            end_message(&mut out, start);
        }
        assert_eq!(whole_messages(&out), 2);
        assert_eq!(
            whole_messages(&[&[0, 0][..], &out].concat()),
            2,
            "a NOOP first"
        );
        assert_eq!(
            whole_messages(&out[..out.len() - 1]),
            1,
            "the end marker half there"
        );
        assert_eq!(whole_messages(&out[..6]), 1);
        assert_eq!(whole_messages(&out[..5]), 0);
        assert_eq!(whole_messages(&[0, 0, 0]), 0);
        assert_eq!(whole_messages(&[0, 9, 1]), 0, "a chunk still arriving");
    }

    fn dechunk(mut bytes: &[u8], max: usize) -> Result<Vec<Vec<u8>>, String> {
        let mut d = Dechunker::new(max);
        let mut messages = Vec::new();
        while bytes.len() >= 2 {
            let size = u16::from_be_bytes([bytes[0], bytes[1]]);
            bytes = &bytes[2..];
            match d.header(size)? {
                Chunk::Data(n) => {
                    d.extend(&bytes[..n]);
                    bytes = &bytes[n..];
                }
                Chunk::End => messages.push(d.take()),
                Chunk::Noop => {}
            }
        }
        Ok(messages)
    }

    #[test]
    fn messages_of_every_size_survive_chunking() {
        for len in [0usize, 1, 65_535, 65_536, 200_000] {
            let message: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let mut out = vec![0xAA];
            let start = begin_message(&mut out);
            out.extend_from_slice(&message);
            end_message(&mut out, start);
            assert_eq!(out[0], 0xAA, "what came before is kept");
            let expected_chunks = len.div_ceil(CHUNK_BYTES_MAX).max(1);
            assert_eq!(out.len(), 1 + len + 2 * expected_chunks + 2, "{len}");
            let got = dechunk(&out[1..], usize::MAX).expect("dechunks");
            // An empty message reads as a NOOP: Bolt has no empty messages.
            let want: Vec<Vec<u8>> = if len == 0 { vec![] } else { vec![message] };
            assert_eq!(got, want, "{len}");
        }
    }

    #[test]
    fn noops_between_messages_are_skipped_and_oversized_messages_refused() {
        let bytes = [0, 0, 0, 1, 7, 0, 0, 0, 0];
        assert_eq!(dechunk(&bytes, 10).expect("reads"), vec![vec![7]]);
        let big = [0, 3, 1, 2, 3, 0, 3, 4, 5, 6, 0, 0];
        let err = dechunk(&big, 5).expect_err("over the limit");
        assert!(err.contains("over 5 bytes"), "{err}");
    }

    #[test]
    fn large_messages_share_one_budget_and_give_it_back() {
        let budget = MessageBudget::new(100, 10, "total");
        let dechunker = || Dechunker::new(1_000).with_budget(budget.clone());
        let (mut a, mut b) = (dechunker(), dechunker());
        // Below `free_below` a message costs nothing.
        assert_eq!(a.header(10), Ok(Chunk::Data(10)));
        a.extend(&[0; 10]);
        assert_eq!(budget.used(), 0);
        assert_eq!(a.header(60), Ok(Chunk::Data(60)));
        a.extend(&[0; 60]);
        assert_eq!(budget.used(), 60);
        // Another connection's message may take only what is left.
        assert_eq!(b.header(50), Ok(Chunk::Data(50)));
        b.extend(&[0; 50]);
        assert_eq!(budget.used(), 100);
        let err = b.header(1).expect_err("over the budget");
        assert!(err.contains("total"), "{err}");
        assert_eq!(budget.used(), 100, "a refusal holds nothing more");
        assert_eq!(a.header(0), Ok(Chunk::End));
        assert_eq!(a.take().len(), 70);
        assert_eq!(budget.used(), 40);
        drop(b);
        assert_eq!(
            budget.used(),
            0,
            "a connection closed mid-message gives back"
        );
    }
}
