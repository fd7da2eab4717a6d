//! Reading PackStream. Every size is checked against the bytes left before anything
//! is allocated, and nesting is bounded, so a hostile message costs at most its own
//! length in memory and a fixed stack depth.

use super::marker as m;
use super::Pack;
use crate::ProtocolError;

/// How deeply lists, maps and structures may nest in one message.
pub const DEPTH_MAX: usize = 64;

/// Reads one value that must fill `bytes` exactly (a Bolt message is one structure).
pub fn unpack(bytes: &[u8]) -> Result<Pack, ProtocolError> {
    let mut reader = Reader { bytes, at: 0 };
    let value = reader.value(0)?;
    if reader.at != bytes.len() {
        return Err(bad(format!(
            "{} bytes follow the message's value",
            bytes.len() - reader.at
        )));
    }
    Ok(value)
}

fn bad(reason: impl Into<String>) -> ProtocolError {
    ProtocolError::payload("PackStream", reason)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ProtocolError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len())
            .ok_or_else(|| bad(format!("truncated at byte {}: {n} more expected", self.at)))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn byte(&mut self) -> Result<u8, ProtocolError> {
        Ok(self.take(1)?[0])
    }

    fn be<const N: usize>(&mut self) -> Result<[u8; N], ProtocolError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A size of 1, 2 or 4 bytes, unsigned.
    fn size(&mut self, width: u8) -> Result<usize, ProtocolError> {
        Ok(match width {
            1 => usize::from(self.byte()?),
            2 => usize::from(u16::from_be_bytes(self.be()?)),
            _ => u32::from_be_bytes(self.be()?) as usize,
        })
    }

    /// `n` items of at least `item_bytes` each must still fit in what is left.
    fn check_count(&self, n: usize, item_bytes: usize) -> Result<(), ProtocolError> {
        let left = self.bytes.len() - self.at;
        if n.saturating_mul(item_bytes) > left {
            return Err(bad(format!(
                "a container of {n} items at byte {} is longer than the message",
                self.at
            )));
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Pack, ProtocolError> {
        let at = self.at;
        let marker = self.byte()?;
        let high = marker & 0xF0;
        let low = usize::from(marker & 0x0F);
        Ok(match marker {
            0x00..=0x7F | 0xF0..=0xFF => Pack::Int(i64::from(marker as i8)),
            m::NULL => Pack::Null,
            m::FALSE => Pack::Bool(false),
            m::TRUE => Pack::Bool(true),
            m::FLOAT_64 => Pack::Float(f64::from_be_bytes(self.be()?)),
            m::INT_8 => Pack::Int(i64::from(self.byte()? as i8)),
            m::INT_16 => Pack::Int(i64::from(i16::from_be_bytes(self.be()?))),
            m::INT_32 => Pack::Int(i64::from(i32::from_be_bytes(self.be()?))),
            m::INT_64 => Pack::Int(i64::from_be_bytes(self.be()?)),
            m::BYTES_8 | m::BYTES_16 | m::BYTES_32 => {
                let n = self.size(1 << (marker - m::BYTES_8))?;
                Pack::Bytes(self.take(n)?.to_vec())
            }
            _ if high == m::TINY_STRING => self.string(low)?,
            m::STRING_8 | m::STRING_16 | m::STRING_32 => {
                let n = self.size(1 << (marker - m::STRING_8))?;
                self.string(n)?
            }
            _ if high == m::TINY_LIST => self.list(low, depth)?,
            m::LIST_8 | m::LIST_16 | m::LIST_32 => {
                let n = self.size(1 << (marker - m::LIST_8))?;
                self.list(n, depth)?
            }
            _ if high == m::TINY_MAP => self.map(low, depth)?,
            m::MAP_8 | m::MAP_16 | m::MAP_32 => {
                let n = self.size(1 << (marker - m::MAP_8))?;
                self.map(n, depth)?
            }
            _ if high == m::TINY_STRUCT => {
                let tag = self.byte()?;
                Pack::Struct(tag, self.items(low, depth)?)
            }
            _ => return Err(bad(format!("unknown marker 0x{marker:02X} at byte {at}"))),
        })
    }

    fn string(&mut self, n: usize) -> Result<Pack, ProtocolError> {
        let at = self.at;
        let bytes = self.take(n)?;
        let s = std::str::from_utf8(bytes)
            .map_err(|e| bad(format!("the string at byte {at} is not UTF-8: {e}")))?;
        Ok(Pack::String(s.to_owned()))
    }

    fn items(&mut self, n: usize, depth: usize) -> Result<Vec<Pack>, ProtocolError> {
        if depth >= DEPTH_MAX {
            return Err(bad(format!("values nest deeper than {DEPTH_MAX} levels")));
        }
        self.check_count(n, 1)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.value(depth + 1)?);
        }
        Ok(items)
    }

    fn list(&mut self, n: usize, depth: usize) -> Result<Pack, ProtocolError> {
        Ok(Pack::List(self.items(n, depth)?))
    }

    fn map(&mut self, n: usize, depth: usize) -> Result<Pack, ProtocolError> {
        if depth >= DEPTH_MAX {
            return Err(bad(format!("values nest deeper than {DEPTH_MAX} levels")));
        }
        // A key is at least one byte (an empty tiny string), a value one more.
        self.check_count(n, 2)?;
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.at;
            let Pack::String(key) = self.value(depth + 1)? else {
                return Err(bad(format!("the map key at byte {at} is not a string")));
            };
            entries.push((key, self.value(depth + 1)?));
        }
        Ok(Pack::Map(entries))
    }
}
