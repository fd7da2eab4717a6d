//! [`Str`]: an immutable string value, 16 bytes, cheap to clone, that may share its
//! bytes with other strings.
//!
//! A string property used to be an `Arc<str>` of its own: 16 bytes of pointer in its
//! column slot, 16 bytes of counters and the allocator's rounding beside the text,
//! about 40 bytes of overhead a string (three strings a message in LDBC). A column
//! page now keeps its strings back to back in one [`StrBuf`] with a 4-byte offset a
//! slot, and a read hands out a [`Str`] that points into that buffer: one
//! reference-count increment, no allocation, as before. A string made at run time
//! (a query literal, a function's result) owns a buffer of its own.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use triomphe::ThinArc;

/// Bytes that are valid UTF-8 as a whole, shared by reference count.
///
/// Invariant: only ever built from whole `&str`s (one, or several concatenated), so
/// the bytes are valid UTF-8; [`Str`] ranges are checked to fall on char boundaries.
#[derive(Clone)]
pub struct StrBuf {
    bytes: ThinArc<(), u8>,
}

impl StrBuf {
    /// A buffer holding `parts` back to back, and each part's end offset. `None` when
    /// the total does not fit the 32-bit offsets a [`Str`] keeps.
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a str>) -> Option<(StrBuf, Vec<u32>)> {
        let mut text = String::new();
        let mut ends = Vec::new();
        for part in parts {
            text.push_str(part);
            ends.push(u32::try_from(text.len()).ok()?);
        }
        Some((StrBuf::from_str(&text), ends))
    }

    fn from_str(text: &str) -> StrBuf {
        StrBuf {
            bytes: ThinArc::from_header_and_slice((), text.as_bytes()),
        }
    }

    /// The whole buffer as text.
    #[expect(unsafe_code, reason = "skips re-validating UTF-8 on every string read")]
    fn text(&self) -> &str {
        // Safety: a StrBuf is only built (`from_str`) from the bytes of a `&str`, and
        // its bytes are never changed afterwards, so they are valid UTF-8.
        unsafe { std::str::from_utf8_unchecked(&self.bytes.slice) }
    }

    /// The string at `start..end` of this buffer.
    ///
    /// # Panics
    /// If the range is out of bounds or not on char boundaries: a caller's offsets
    /// were corrupt (they come from [`StrBuf::concat`]).
    pub fn get(&self, start: u32, end: u32) -> Str {
        assert!(
            self.text().get(start as usize..end as usize).is_some(),
            "string range {start}..{end} is not inside a buffer of {} bytes on char boundaries",
            self.bytes.slice.len()
        );
        Str {
            buf: self.clone(),
            start,
            len: end - start,
        }
    }

    /// Heap bytes of the buffer (counters, length and text).
    pub fn heap_bytes(&self) -> usize {
        2 * std::mem::size_of::<usize>() + self.bytes.slice.len()
    }

    /// Whether two buffers are the same allocation.
    pub fn ptr_eq(&self, other: &StrBuf) -> bool {
        self.addr() == other.addr()
    }

    /// The allocation's address: equal for strings sharing this buffer.
    pub fn addr(&self) -> usize {
        self.bytes.ptr() as usize
    }
}

impl fmt::Debug for StrBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StrBuf({} bytes)", self.bytes.slice.len())
    }
}

/// Strings back to back in one buffer, read by position: a column page's strings.
///
/// The end offsets come from [`StrBuf::concat`] and never change, so each falls on a
/// char boundary and a read needs no check beyond the slot's bounds.
#[derive(Clone, Debug)]
pub struct PackedStrs {
    buf: StrBuf,
    ends: Box<[u32]>,
}

impl PackedStrs {
    /// `parts` packed; `None` when their total does not fit 32-bit offsets.
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a str>) -> Option<PackedStrs> {
        let (buf, ends) = StrBuf::concat(parts)?;
        Some(PackedStrs {
            buf,
            ends: ends.into_boxed_slice(),
        })
    }

    /// Strings `text[ends[i-1]..ends[i]]` (the first from 0) in one buffer: what a
    /// graph file stores of a page, built with one copy of the text. Refused with the
    /// reason when an end decreases, passes the text or splits a character.
    pub fn from_text(text: &str, ends: Box<[u32]>) -> Result<PackedStrs, &'static str> {
        let mut start = 0;
        for &end in ends.iter() {
            if end < start {
                return Err("string ends decrease");
            }
            if !text.is_char_boundary(end as usize) {
                return Err("a string end passes the text or splits a character");
            }
            start = end;
        }
        if start as usize != text.len() {
            return Err("text continues past the last string");
        }
        Ok(PackedStrs {
            buf: StrBuf::from_str(text),
            ends,
        })
    }

    /// Every string's end offset in [`PackedStrs::text`].
    pub fn ends(&self) -> &[u32] {
        &self.ends
    }

    /// The strings back to back.
    pub fn text(&self) -> &str {
        self.buf.text()
    }

    fn range(&self, i: usize) -> (u32, u32) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        (start, self.ends[i])
    }

    /// String `i` (sharing the buffer).
    #[inline]
    pub fn get(&self, i: usize) -> Str {
        let (start, end) = self.range(i);
        Str {
            buf: self.buf.clone(),
            start,
            len: end - start,
        }
    }

    /// The byte length of string `i`.
    pub fn len_of(&self, i: usize) -> usize {
        let (start, end) = self.range(i);
        (end - start) as usize
    }

    /// Heap bytes: the buffer and the offsets.
    pub fn heap_bytes(&self) -> usize {
        self.buf.heap_bytes() + self.ends.len() * std::mem::size_of::<u32>()
    }
}

/// An immutable UTF-8 string, 16 bytes: a range of a shared [`StrBuf`].
#[derive(Clone)]
pub struct Str {
    buf: StrBuf,
    start: u32,
    len: u32,
}

impl Str {
    /// A string with a buffer of its own.
    ///
    /// # Panics
    /// If `s` is 4 GiB or longer (the transports' frame limits keep values far
    /// below that).
    pub fn new(s: &str) -> Str {
        let len = u32::try_from(s.len()).expect("a string value is shorter than 4 GiB");
        Str {
            buf: StrBuf::from_str(s),
            start: 0,
            len,
        }
    }

    /// The text.
    #[inline]
    #[expect(unsafe_code, reason = "string reads are on every hot path")]
    pub fn as_str(&self) -> &str {
        let start = self.start as usize;
        let bytes = &self.buf.bytes.slice[start..start + self.len as usize];
        // Safety: the buffer is valid UTF-8 (see `StrBuf`), and this range was
        // checked to fall on its char boundaries when this Str was made (`Str::new`
        // takes a whole buffer, `StrBuf::get` checks, `PackedStrs` ends come from
        // `StrBuf::concat`); none of them changes afterwards.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// The buffer this string's bytes live in (shared with other strings when it
    /// came from a column page).
    pub fn buffer(&self) -> &StrBuf {
        &self.buf
    }
}

impl Deref for Str {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as the text does, so maps keyed by `Str` can be looked up by `&str`.
impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::new("")
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::new(&s)
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::new(s)
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str::new(&s)
    }
}

impl From<Arc<str>> for Str {
    fn from(s: Arc<str>) -> Str {
        Str::new(&s)
    }
}

impl From<&Arc<str>> for Str {
    fn from(s: &Arc<str>) -> Str {
        Str::new(s)
    }
}

impl From<Str> for Arc<str> {
    fn from(s: Str) -> Arc<str> {
        Arc::from(s.as_str())
    }
}

impl From<&Str> for String {
    fn from(s: &Str) -> String {
        s.as_str().to_owned()
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.as_str().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_str_is_sixteen_bytes_and_an_option_of_it_too() {
        assert_eq!(std::mem::size_of::<Str>(), 16);
        assert_eq!(std::mem::size_of::<Option<Str>>(), 16);
    }

    #[test]
    fn packed_strings_from_text_check_every_end() {
        let strs = PackedStrs::from_text("héllowörld", vec![6, 6, 12].into()).expect("valid");
        assert_eq!(strs.get(0).as_str(), "héllo");
        assert_eq!(strs.get(1).as_str(), "");
        assert_eq!(strs.get(2).as_str(), "wörld");
        assert_eq!((strs.text(), strs.ends()), ("héllowörld", &[6, 6, 12][..]));
        for (ends, why) in [
            (vec![6, 5, 12], "decrease"),
            (vec![2, 6, 12], "splits"),
            (vec![6, 6, 13], "passes"),
            (vec![6, 6, 8], "splits"),
            (vec![6, 6, 11], "continues"),
        ] {
            let err = PackedStrs::from_text("héllowörld", ends.into()).expect_err("refused");
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn strings_of_one_buffer_share_it_and_compare_by_text() {
        let (buf, ends) = StrBuf::concat(["héllo", "", "wörld"]).expect("fits");
        assert_eq!(ends, vec![6, 6, 12]);
        let a = buf.get(0, 6);
        let empty = buf.get(6, 6);
        let b = buf.get(6, 12);
        assert_eq!(
            (a.as_str(), empty.as_str(), b.as_str()),
            ("héllo", "", "wörld")
        );
        assert!(a.buffer().ptr_eq(b.buffer()));
        assert_eq!(a, Str::new("héllo"));
        assert!(!a.buffer().ptr_eq(Str::new("héllo").buffer()));
        assert!(a < b);
        let packed = PackedStrs::concat(["héllo", "", "wörld"]).expect("fits");
        assert_eq!(
            (packed.get(0), packed.get(1), packed.get(2)),
            (a.clone(), empty, b.clone())
        );
        assert_eq!(packed.len_of(2), 6);
        let mut set = std::collections::HashSet::new();
        set.insert(b.clone());
        assert!(set.contains("wörld"));
    }

    #[test]
    #[should_panic(expected = "char boundaries")]
    fn a_range_inside_a_char_is_refused() {
        let (buf, _) = StrBuf::concat(["é"]).expect("fits");
        buf.get(0, 1);
    }
}
