//! JSON, BSON and MessagePack documents: the payload decoders of every request.

use kith_protocol::{decode_document, encode_document, Encoding, Request};

use crate::input::same;

/// A JSON document.
pub fn json(data: &[u8]) {
    document(Encoding::Json, data);
}

/// A BSON document.
pub fn bson(data: &[u8]) {
    document(Encoding::Bson, data);
}

/// A MessagePack document.
pub fn msgpack(data: &[u8]) {
    document(Encoding::MsgPack, data);
}

/// Decodes or refuses; what decodes encodes and decodes back to the same value; and
/// the request reader either reads a request or refuses the document.
fn document(encoding: Encoding, data: &[u8]) {
    if let Ok(value) = decode_document(encoding, data) {
        let bytes = encode_document(encoding, &value);
        let again = decode_document(encoding, &bytes)
            .unwrap_or_else(|e| panic!("{encoding:?}: an encoded value does not decode: {e}"));
        assert!(
            same(&value, &again),
            "{encoding:?}: {value:?} read back as {again:?}"
        );
    }
    if let Ok((request, min_version)) = Request::decode_at(encoding, data) {
        let bytes = request.encode_at(encoding, min_version);
        let again = Request::decode_at(encoding, &bytes)
            .unwrap_or_else(|e| panic!("{encoding:?}: an encoded request does not decode: {e}"));
        assert!(
            same(&(request, min_version), &again),
            "{encoding:?}: a request read back differently"
        );
    }
}
