//! Write requests' operation maps, as the server converts them.

use kith_core::Value;
use kith_protocol::{decode_document, Encoding};

/// Any MessagePack document's `write` list (or the document as one operation) converts to
/// operations or is refused with the operation's position; nothing panics.
pub fn write_ops(data: &[u8]) {
    let Ok(Value::Map(entries)) = decode_document(Encoding::MsgPack, data) else {
        return;
    };
    let ops = match entries.iter().find(|(k, _)| &**k == "write") {
        Some((_, Value::List(items))) => items.clone(),
        _ => vec![Value::Map(entries)],
    };
    if let Err(e) = kith_protocol::ops::decode(ops, 64) {
        // Every refusal names the operation (by position) or the request's count.
        assert!(
            e.contains("operation"),
            "an error that names no operation: {e}"
        );
    }
}
