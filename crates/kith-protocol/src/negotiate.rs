//! Subprotocol names: `kith.v1.<encoding>.<compression>`.

use std::fmt;
use std::str::FromStr;

use crate::ProtocolError;

/// How documents are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 JSON.
    Json,
    /// BSON documents.
    Bson,
    /// MessagePack.
    MsgPack,
}

/// How payloads are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not at all.
    None,
    /// Raw DEFLATE, level 1.
    DeflateFast,
    /// Raw DEFLATE, level 9.
    DeflateBest,
    /// Zstandard, level 3.
    Zstd,
    /// LZ4 block with its size prepended.
    Lz4,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 3] = [Encoding::Json, Encoding::Bson, Encoding::MsgPack];

    /// Its name in subprotocols.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Json => "json",
            Encoding::Bson => "bson",
            Encoding::MsgPack => "msgpack",
        }
    }
}

impl Compression {
    /// Every compression.
    pub const ALL: [Compression; 5] = [
        Compression::None,
        Compression::DeflateFast,
        Compression::DeflateBest,
        Compression::Zstd,
        Compression::Lz4,
    ];

    /// Its name in subprotocols.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::DeflateFast => "deflate-fast",
            Compression::DeflateBest => "deflate-best",
            Compression::Zstd => "zstd",
            Compression::Lz4 => "lz4",
        }
    }
}

impl FromStr for Encoding {
    type Err = ProtocolError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| ProtocolError::UnsupportedSubprotocol(format!("encoding {s}")))
    }
}

impl FromStr for Compression {
    type Err = ProtocolError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Compression::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| ProtocolError::UnsupportedSubprotocol(format!("compression {s}")))
    }
}

/// A negotiated pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subprotocol {
    /// Document encoding.
    pub encoding: Encoding,
    /// Payload compression.
    pub compression: Compression,
}

impl Subprotocol {
    /// What a connection that offers no subprotocol gets.
    pub const DEFAULT: Subprotocol = Subprotocol {
        encoding: Encoding::Json,
        compression: Compression::None,
    };

    /// Every subprotocol the server accepts (15 names).
    pub fn all() -> impl Iterator<Item = Subprotocol> {
        Encoding::ALL.into_iter().flat_map(|encoding| {
            Compression::ALL
                .into_iter()
                .map(move |compression| Subprotocol {
                    encoding,
                    compression,
                })
        })
    }

    /// The first supported entry of a `Sec-WebSocket-Protocol` header value
    /// (comma-separated offers, in the client's order of preference).
    pub fn choose(offers: &str) -> Option<Subprotocol> {
        offers
            .split(',')
            .map(str::trim)
            .find_map(|o| o.parse().ok())
    }
}

impl fmt::Display for Subprotocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kith.v1.{}.{}",
            self.encoding.name(),
            self.compression.name()
        )
    }
}

impl FromStr for Subprotocol {
    type Err = ProtocolError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unsupported = || ProtocolError::UnsupportedSubprotocol(s.to_owned());
        let rest = s.strip_prefix("kith.v1.").ok_or_else(unsupported)?;
        let (encoding, compression) = rest.split_once('.').ok_or_else(unsupported)?;
        Ok(Subprotocol {
            encoding: encoding.parse().map_err(|_| unsupported())?,
            compression: compression.parse().map_err(|_| unsupported())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_first_supported_offer_wins() {
        for p in Subprotocol::all() {
            assert_eq!(p.to_string().parse::<Subprotocol>(), Ok(p));
        }
        assert_eq!(Subprotocol::all().count(), 15);
        let chosen = Subprotocol::choose(
            "graphql-ws, kith.v2.bson.none, kith.v1.bson.zstd, kith.v1.json.none",
        );
        assert_eq!(
            chosen.map(|p| p.to_string()).as_deref(),
            Some("kith.v1.bson.zstd")
        );
        assert_eq!(Subprotocol::choose("kith.v1.xml.none"), None);
    }
}
