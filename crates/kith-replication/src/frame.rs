//! How a log record travels as Kafka messages.
//!
//! A commit group's log record can be far larger than a Kafka message may be (1 MB by
//! default), so it is cut into parts, each one message on the topic's partition 0:
//!
//! ```text
//! magic "KRL1" (4) | first version u64 | transactions u32 | part u32 | parts u32 |
//! record length u64 | record CRC-32 u32 | this part's bytes of the record
//! ```
//!
//! Little-endian, like the log. The record is the log record's payload unchanged
//! (docs/storage-format.md 2), so a replica decodes it with the same code as
//! recovery. Parts of one record are consecutive in the partition; a primary that
//! died between parts sends the whole record again, starting at part 0.

use kith_storage::LogRecord;

const MAGIC: &[u8; 4] = b"KRL1";
/// Bytes before a part's share of the record.
pub(crate) const HEADER_BYTES: usize = 36;
/// A part's share of the record: with the header, under Kafka's default
/// `message.max.bytes` (1,048,588) and librdkafka's (1,000,000).
pub(crate) const PART_BYTES_MAX: usize = 900 * 1024;

/// The largest record: the log's own limit on one record.
const RECORD_BYTES_MAX: u64 = 1 << 31;

/// One message's header and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part<'a> {
    /// The record's first version.
    pub first_version: u64,
    /// Transactions in the record.
    pub transactions: u32,
    /// This part's number, from 0.
    pub part: u32,
    /// How many parts the record has.
    pub parts: u32,
    /// The whole record's length.
    pub record_len: u64,
    /// The whole record's CRC-32.
    pub record_crc: u32,
    /// This part's bytes.
    pub bytes: &'a [u8],
}

impl Part<'_> {
    /// The last version of the record this part belongs to.
    pub fn last_version(&self) -> u64 {
        self.first_version + u64::from(self.transactions) - 1
    }

    /// Whether this is the record's last part.
    pub fn is_last(&self) -> bool {
        self.part + 1 == self.parts
    }
}

/// The messages a record travels as.
pub(crate) fn split(record: &LogRecord, part_max: usize) -> Vec<Vec<u8>> {
    assert!(record.transactions > 0, "a log record holds a transaction");
    let crc = crc32fast::hash(&record.payload);
    let chunks: Vec<&[u8]> = record.payload.chunks(part_max).collect();
    let parts = chunks.len() as u32;
    chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let mut m = Vec::with_capacity(HEADER_BYTES + chunk.len());
            m.extend_from_slice(MAGIC);
            m.extend_from_slice(&record.first_version.to_le_bytes());
            m.extend_from_slice(&record.transactions.to_le_bytes());
            m.extend_from_slice(&(i as u32).to_le_bytes());
            m.extend_from_slice(&parts.to_le_bytes());
            m.extend_from_slice(&(record.payload.len() as u64).to_le_bytes());
            m.extend_from_slice(&crc.to_le_bytes());
            m.extend_from_slice(chunk);
            m
        })
        .collect()
}

/// Reads a message's header; the error says what is wrong.
pub fn parse(message: &[u8]) -> Result<Part<'_>, String> {
    if message.len() < HEADER_BYTES {
        return Err(format!("{} bytes, shorter than a header", message.len()));
    }
    if &message[..4] != MAGIC {
        return Err("it does not start with KRL1".into());
    }
    let u32_at = |at: usize| u32::from_le_bytes(message[at..at + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |at: usize| u64::from_le_bytes(message[at..at + 8].try_into().unwrap_or([0; 8]));
    let part = Part {
        first_version: u64_at(4),
        transactions: u32_at(12),
        part: u32_at(16),
        parts: u32_at(20),
        record_len: u64_at(24),
        record_crc: u32_at(32),
        bytes: &message[HEADER_BYTES..],
    };
    if part.first_version == 0 || part.transactions == 0 {
        return Err("it holds no version".into());
    }
    if part
        .first_version
        .checked_add(u64::from(part.transactions))
        .is_none()
    {
        return Err(format!("version {} is out of range", part.first_version));
    }
    if part.record_len > RECORD_BYTES_MAX || part.bytes.len() as u64 > part.record_len {
        return Err(format!(
            "a record of {} bytes (at most {RECORD_BYTES_MAX}) with a part of {}",
            part.record_len,
            part.bytes.len()
        ));
    }
    if part.part >= part.parts {
        return Err(format!("part {} of {}", part.part, part.parts));
    }
    Ok(part)
}

/// Puts records back together from their parts, in partition order.
#[derive(Default)]
pub struct Reassembly {
    pending: Option<Pending>,
}

/// A record whose first parts arrived.
struct Pending {
    /// The header its part 0 carried (with `part` the next one expected).
    head: (u64, u32, u32, u64, u32),
    next_part: u32,
    bytes: Vec<u8>,
}

fn head(part: &Part<'_>) -> (u64, u32, u32, u64, u32) {
    (
        part.first_version,
        part.transactions,
        part.parts,
        part.record_len,
        part.record_crc,
    )
}

impl Reassembly {
    /// Takes the next message's part; answers the record when it was the last part.
    /// A part 0 drops an unfinished record (its primary died mid-record and sends
    /// it again); any other part out of sequence, or a record whose length or CRC
    /// does not match, is an error.
    pub fn push(&mut self, part: &Part<'_>) -> Result<Option<LogRecord>, String> {
        if part.part == 0 {
            // A header is not trusted with memory: grow as parts arrive.
            let capacity = usize::try_from(part.record_len)
                .unwrap_or(0)
                .min(PART_BYTES_MAX);
            self.pending = Some(Pending {
                head: head(part),
                next_part: 0,
                bytes: Vec::with_capacity(capacity),
            });
        }
        let Some(pending) = self.pending.as_mut() else {
            return Err(format!(
                "part {} of the record at version {} without its part 0",
                part.part, part.first_version
            ));
        };
        let fits = pending.bytes.len() as u64 + part.bytes.len() as u64 <= part.record_len;
        if pending.head != head(part) || pending.next_part != part.part || !fits {
            let expected = pending.head.0;
            self.pending = None;
            return Err(format!(
                "part {} of the record at version {} does not continue the record at version {expected}",
                part.part, part.first_version
            ));
        }
        pending.bytes.extend_from_slice(part.bytes);
        pending.next_part += 1;
        if !part.is_last() {
            return Ok(None);
        }
        let Pending { head, bytes, .. } = self.pending.take().expect("checked above");
        let (first_version, transactions, _, len, crc) = head;
        if bytes.len() as u64 != len || crc32fast::hash(&bytes) != crc {
            return Err(format!(
                "the record at version {first_version} does not match its length or checksum"
            ));
        }
        Ok(Some(LogRecord {
            first_version,
            transactions,
            payload: bytes,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(len: usize) -> LogRecord {
        LogRecord {
            first_version: 7,
            transactions: 3,
            payload: (0..len).map(|i| (i % 251) as u8).collect(),
        }
    }

    #[test]
    fn a_record_survives_being_cut_into_parts() {
        for (len, max, parts) in [(10, 100, 1), (100, 100, 1), (101, 100, 2), (1000, 64, 16)] {
            let r = record(len);
            let messages = split(&r, max);
            assert_eq!(messages.len(), parts);
            let mut re = Reassembly::default();
            let mut out = None;
            for (i, m) in messages.iter().enumerate() {
                let p = parse(m).expect("parses");
                assert_eq!(
                    (p.part, p.parts, p.last_version()),
                    (i as u32, parts as u32, 9)
                );
                out = re.push(&p).expect("continues");
                assert_eq!(out.is_some(), i + 1 == parts);
            }
            assert_eq!(out, Some(r));
        }
    }

    #[test]
    fn a_record_sent_again_from_part_0_replaces_the_unfinished_one() {
        let messages = split(&record(300), 100);
        let mut re = Reassembly::default();
        assert_eq!(re.push(&parse(&messages[0]).expect("p")), Ok(None));
        assert_eq!(re.push(&parse(&messages[1]).expect("p")), Ok(None));
        let mut out = None;
        for m in &messages {
            out = re.push(&parse(m).expect("p")).expect("continues");
        }
        assert_eq!(out, Some(record(300)));
    }

    #[test]
    fn damage_and_gaps_are_named() {
        let mut huge = split(&record(10), 100).remove(0);
        huge[24..32].copy_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(parse(&huge).expect_err("refused").contains("at most"));
        let mut wrap = split(&record(10), 100).remove(0);
        wrap[4..12].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(parse(&wrap).expect_err("refused").contains("out of range"));
        assert!(parse(b"short")
            .expect_err("refused")
            .contains("shorter than a header"));
        let mut m = split(&record(10), 100).remove(0);
        m[0] = b'X';
        assert!(parse(&m).expect_err("refused").contains("KRL1"));
        let messages = split(&record(300), 100);
        let mut re = Reassembly::default();
        let err = re
            .push(&parse(&messages[1]).expect("p"))
            .expect_err("refused");
        assert!(err.contains("without its part 0"), "{err}");
        re.push(&parse(&messages[0]).expect("p")).expect("starts");
        let err = re
            .push(&parse(&messages[2]).expect("p"))
            .expect_err("refused");
        assert!(err.contains("does not continue"), "{err}");
        let mut bad = messages.clone();
        let last = bad[2].len() - 1;
        bad[2][last] ^= 1;
        let mut re = Reassembly::default();
        for m in &bad[..2] {
            re.push(&parse(m).expect("p")).expect("continues");
        }
        let err = re.push(&parse(&bad[2]).expect("p")).expect_err("refused");
        assert!(err.contains("checksum"), "{err}");
    }
}
