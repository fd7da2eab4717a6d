//! Writing PackStream: each value in its smallest encoding, as Neo4j writes them.

use super::marker as m;
use super::Pack;

/// Writes PackStream values to the end of a buffer.
pub struct Packer<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> Packer<'a> {
    /// A packer appending to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Packer<'a> {
        Packer { out }
    }

    /// `null`.
    pub fn null(&mut self) {
        self.out.push(m::NULL);
    }

    /// A boolean.
    pub fn bool(&mut self, b: bool) {
        self.out.push(if b { m::TRUE } else { m::FALSE });
    }

    /// An integer, in the fewest bytes that hold it.
    pub fn int(&mut self, i: i64) {
        if (-16..=127).contains(&i) {
            // TINY_INT: the byte is the value.
            self.out.push(i as i8 as u8);
        } else if let Ok(v) = i8::try_from(i) {
            self.out.extend_from_slice(&[m::INT_8, v as u8]);
        } else if let Ok(v) = i16::try_from(i) {
            self.out.push(m::INT_16);
            self.out.extend_from_slice(&v.to_be_bytes());
        } else if let Ok(v) = i32::try_from(i) {
            self.out.push(m::INT_32);
            self.out.extend_from_slice(&v.to_be_bytes());
        } else {
            self.out.push(m::INT_64);
            self.out.extend_from_slice(&i.to_be_bytes());
        }
    }

    /// A 64-bit float.
    pub fn float(&mut self, f: f64) {
        self.out.push(m::FLOAT_64);
        self.out.extend_from_slice(&f.to_be_bytes());
    }

    /// A byte array.
    pub fn bytes(&mut self, b: &[u8]) {
        self.size(b.len(), None, [m::BYTES_8, m::BYTES_16, m::BYTES_32]);
        self.out.extend_from_slice(b);
    }

    /// A string.
    pub fn string(&mut self, s: &str) {
        self.size(
            s.len(),
            Some(m::TINY_STRING),
            [m::STRING_8, m::STRING_16, m::STRING_32],
        );
        self.out.extend_from_slice(s.as_bytes());
    }

    /// The header of a list of `len` items; the items follow.
    pub fn list_header(&mut self, len: usize) {
        self.size(len, Some(m::TINY_LIST), [m::LIST_8, m::LIST_16, m::LIST_32]);
    }

    /// The header of a map of `len` entries; key, value, key, value... follow.
    pub fn map_header(&mut self, len: usize) {
        self.size(len, Some(m::TINY_MAP), [m::MAP_8, m::MAP_16, m::MAP_32]);
    }

    /// The header of a structure with tag `tag` and `fields` fields (at most 15).
    pub fn struct_header(&mut self, tag: u8, fields: usize) {
        assert!(fields < 16, "a structure has at most 15 fields");
        self.out
            .extend_from_slice(&[m::TINY_STRUCT | fields as u8, tag]);
    }

    /// A whole decoded value.
    pub fn pack(&mut self, v: &Pack) {
        match v {
            Pack::Null => self.null(),
            Pack::Bool(b) => self.bool(*b),
            Pack::Int(i) => self.int(*i),
            Pack::Float(f) => self.float(*f),
            Pack::Bytes(b) => self.bytes(b),
            Pack::String(s) => self.string(s),
            Pack::List(items) => {
                self.list_header(items.len());
                items.iter().for_each(|i| self.pack(i));
            }
            Pack::Map(entries) => {
                self.map_header(entries.len());
                for (k, v) in entries {
                    self.string(k);
                    self.pack(v);
                }
            }
            Pack::Struct(tag, fields) => {
                self.struct_header(*tag, fields.len());
                fields.iter().for_each(|f| self.pack(f));
            }
        }
    }

    /// A size marker: the tiny form when there is one and `len` < 16, else the 8-,
    /// 16- or 32-bit form. Nothing kith sends approaches 4 GiB (frames are bounded far
    /// below it), so a larger size is a bug.
    fn size(&mut self, len: usize, tiny: Option<u8>, sized: [u8; 3]) {
        match (tiny, len) {
            (Some(t), 0..=15) => self.out.push(t | len as u8),
            (_, 0..=0xFF) => self.out.extend_from_slice(&[sized[0], len as u8]),
            (_, 0x100..=0xFFFF) => {
                self.out.push(sized[1]);
                self.out.extend_from_slice(&(len as u16).to_be_bytes());
            }
            _ => {
                let len = u32::try_from(len).expect("PackStream sizes fit 32 bits");
                self.out.push(sized[2]);
                self.out.extend_from_slice(&len.to_be_bytes());
            }
        }
    }
}
