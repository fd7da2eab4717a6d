//! The Bolt handshake: the client sends the magic preamble and four version offers;
//! the server answers with the one version it picked, or, when the client offered
//! handshake manifest v1 (`00 00 01 FF`, Bolt 5.7+ drivers), with the manifest: every
//! version range it speaks, for the client to choose from.

use std::fmt;

/// The four bytes every Bolt connection starts with.
pub const MAGIC: [u8; 4] = [0x60, 0x60, 0xB0, 0x17];

/// The offer that means "I speak handshake manifest v1".
pub const MANIFEST_V1: [u8; 4] = [0x00, 0x00, 0x01, 0xFF];

/// A Bolt protocol version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The major version (4 or 5).
    pub major: u8,
    /// The minor version.
    pub minor: u8,
}

impl Version {
    /// A version.
    pub const fn new(major: u8, minor: u8) -> Version {
        Version { major, minor }
    }

    /// The four bytes of the server's answer naming this version.
    pub fn to_bytes(self) -> [u8; 4] {
        [0, 0, self.minor, self.major]
    }

    /// Whether this version has at least `major.minor`'s features.
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        self >= Version::new(major, minor)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The versions kith speaks, highest first.
pub const SUPPORTED: &[Version] = &[
    Version::new(5, 8),
    Version::new(5, 7),
    Version::new(5, 6),
    Version::new(5, 5),
    Version::new(5, 4),
    Version::new(5, 3),
    Version::new(5, 2),
    Version::new(5, 1),
    Version::new(5, 0),
    Version::new(4, 4),
];

/// What the server answers the client's four offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// This version: send [`Version::to_bytes`].
    Version(Version),
    /// Send [`manifest`], then read the client's choice with [`read_choice`].
    Manifest,
    /// None of the offers is a version kith speaks: send four zero bytes and close.
    None,
}

/// Picks the answer to the 16 bytes after the magic: the manifest when offered (it
/// lets the client pick from everything), else the highest supported version in the
/// first offer (the client lists its preferences first) that holds one.
pub fn choose(offers: &[u8; 16]) -> Answer {
    let offers: Vec<[u8; 4]> = offers
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    if offers.contains(&MANIFEST_V1) {
        return Answer::Manifest;
    }
    for [_, range, minor, major] in offers {
        let lowest = minor.saturating_sub(range);
        let found = SUPPORTED
            .iter()
            .find(|v| v.major == major && (lowest..=minor).contains(&v.minor));
        if let Some(v) = found {
            return Answer::Version(*v);
        }
    }
    Answer::None
}

/// The manifest: its marker, the count of version ranges, each range as an offer's
/// four bytes, and the capability mask (none), counts as varints.
pub fn manifest() -> Vec<u8> {
    let ranges: [[u8; 4]; 2] = [[0, 8, 8, 5], [0, 0, 4, 4]];
    let mut out = MANIFEST_V1.to_vec();
    write_varint(&mut out, ranges.len() as u64);
    ranges.iter().for_each(|r| out.extend_from_slice(r));
    write_varint(&mut out, 0);
    out
}

/// Reads the client's answer to the manifest from `bytes`: the version it chose and
/// its capability varint. `Ok(None)` asks for more bytes; an unsupported choice is an
/// error naming it.
pub fn read_choice(bytes: &[u8]) -> Result<Option<(Version, usize)>, String> {
    let Some(&[_, _, minor, major]) = bytes.get(..4) else {
        return Ok(None);
    };
    let Some((_capabilities, used)) = read_varint(&bytes[4..])? else {
        return Ok(None);
    };
    let version = Version::new(major, minor);
    if !SUPPORTED.contains(&version) {
        return Err(format!(
            "the client chose Bolt {version}, which the manifest did not offer"
        ));
    }
    Ok(Some((version, 4 + used)))
}

/// An unsigned LEB128 varint: seven bits a byte, least significant first, the high
/// bit set on every byte but the last.
fn write_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A varint and the bytes it took; `Ok(None)` when `bytes` ends inside it.
fn read_varint(bytes: &[u8]) -> Result<Option<(u64, usize)>, String> {
    let mut n: u64 = 0;
    for (i, byte) in bytes.iter().enumerate() {
        if i >= 10 {
            return Err("a handshake varint longer than 10 bytes".into());
        }
        n |= u64::from(byte & 0x7F) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok(Some((n, i + 1)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers(list: [[u8; 4]; 4]) -> [u8; 16] {
        let mut out = [0; 16];
        for (i, o) in list.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(o);
        }
        out
    }

    #[test]
    fn the_highest_supported_version_of_the_first_matching_offer_wins() {
        // The Python driver 5.x: 5.0-5.8, 4.2-4.4, 4.1, 3.0.
        let python = offers([[0, 8, 8, 5], [0, 2, 4, 4], [0, 0, 1, 4], [0, 0, 0, 3]]);
        assert_eq!(choose(&python), Answer::Version(Version::new(5, 8)));
        // The Java driver 4.4: 4.4-4.2, 4.1, 4.0, 3.0.
        let java44 = offers([[0, 2, 4, 4], [0, 0, 1, 4], [0, 0, 0, 4], [0, 0, 0, 3]]);
        assert_eq!(choose(&java44), Answer::Version(Version::new(4, 4)));
        // A future 5.12-5.9 range holds nothing kith speaks; 5.3 alone does.
        let future = offers([[0, 3, 12, 5], [0, 0, 3, 5], [0; 4], [0; 4]]);
        assert_eq!(choose(&future), Answer::Version(Version::new(5, 3)));
        let old = offers([[0, 0, 0, 3], [0, 0, 1, 4], [0; 4], [0; 4]]);
        assert_eq!(choose(&old), Answer::None);
        let six = offers([MANIFEST_V1, [0, 8, 8, 5], [0, 2, 4, 4], [0, 0, 0, 3]]);
        assert_eq!(choose(&six), Answer::Manifest);
    }

    #[test]
    fn the_manifest_offers_5_0_to_5_8_and_4_4_and_reads_the_choice() {
        assert_eq!(
            manifest(),
            vec![0, 0, 1, 0xFF, 2, 0, 8, 8, 5, 0, 0, 4, 4, 0]
        );
        assert_eq!(
            read_choice(&[0, 0, 6, 5]),
            Ok(None),
            "needs the capabilities"
        );
        assert_eq!(
            read_choice(&[0, 0, 6, 5, 0]),
            Ok(Some((Version::new(5, 6), 5)))
        );
        assert_eq!(
            read_choice(&[0, 0, 4, 4, 0x81, 0x01]),
            Ok(Some((Version::new(4, 4), 6)))
        );
        let err = read_choice(&[0, 0, 9, 5, 0]).expect_err("not offered");
        assert!(err.contains("Bolt 5.9"), "{err}");
    }

    #[test]
    fn varints_round_trip() {
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            write_varint(&mut out, n);
            assert_eq!(read_varint(&out), Ok(Some((n, out.len()))), "{n}");
        }
    }
}
