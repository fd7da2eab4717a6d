//! Temporal text (a Cypher string given to `date()`, a `{"$date": ...}` parameter).

use kith_core::temporal::{parse, Kind};
use kith_core::Temporal;

use crate::input::choose;

const KINDS: [Option<Kind>; 6] = [
    Some(Kind::Date),
    Some(Kind::LocalTime),
    Some(Kind::Time),
    Some(Kind::LocalDateTime),
    Some(Kind::DateTime),
    None, // a duration
];

/// Text parses as the chosen kind or is refused; a value's text (how every encoding
/// sends it) parses back to the same value.
pub fn temporal(data: &[u8]) {
    let Some((i, rest)) = choose(data, KINDS.len()) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let kind = KINDS[i];
    let Some(value) = read(kind, text) else {
        return;
    };
    let shown = value.to_string();
    let again = read(kind, &shown).unwrap_or_else(|| {
        panic!("{text:?} read as {value:?}, whose text {shown:?} does not read")
    });
    assert_eq!(value, again, "{text:?} -> {shown:?} read back differently");
}

fn read(kind: Option<Kind>, text: &str) -> Option<Temporal> {
    match kind {
        Some(kind) => parse::parse(kind, text).ok(),
        None => parse::duration(text).ok().map(Temporal::Duration),
    }
}
