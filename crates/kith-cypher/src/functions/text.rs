//! String functions: trimming (whitespace, or given characters), case, Unicode
//! normalisation, lengths and `split`.

use unicode_normalization::UnicodeNormalization;

use super::scalar::arg_type;
use super::Function;
use crate::error::{CypherError, ErrorCode, Result};
use crate::value::Val;

/// Calls one of the string functions here (a null first argument already answered).
pub(super) fn call(f: Function, args: &[Val]) -> Result<Val> {
    use Function as F;
    if args[1..].iter().any(Val::is_null) {
        return Ok(Val::Null);
    }
    if f == F::Split {
        return split(&args[0], &args[1]);
    }
    let Val::Str(s) = &args[0] else {
        return Err(arg_type(f, "a string", &args[0]));
    };
    Ok(match f {
        F::Trim | F::LTrim | F::RTrim | F::BTrim => Val::str(trim(f, s, args.get(1))?),
        F::TrimFrom => Val::str(trim_from(s, &args[1], &args[2])?),
        F::ToUpper | F::Upper => Val::str(&s.to_uppercase()),
        F::ToLower | F::Lower => Val::str(&s.to_lowercase()),
        F::CharLength | F::CharacterLength => Val::Int(s.chars().count() as i64),
        _ => Val::str(&normalize(s, args.get(1))?),
    })
}

/// Whitespace off one end or both, or, given characters, any of them.
fn trim<'s>(f: Function, s: &'s str, characters: Option<&Val>) -> Result<&'s str> {
    let set: Option<Vec<char>> = match characters {
        None => None,
        Some(Val::Str(c)) => Some(c.chars().collect()),
        Some(other) => return Err(arg_type(f, "a string of characters to trim", other)),
    };
    let strip = |c: char| match &set {
        Some(set) => set.contains(&c),
        None => c.is_whitespace(),
    };
    Ok(match f {
        Function::LTrim => s.trim_start_matches(strip),
        Function::RTrim => s.trim_end_matches(strip),
        _ => s.trim_matches(strip),
    })
}

/// `trim(side c FROM s)`: as ltrim/rtrim/btrim, but `c` must be one character.
fn trim_from<'s>(s: &'s str, c: &Val, side: &Val) -> Result<&'s str> {
    if let Val::Str(c) = c {
        if c.chars().count() != 1 {
            return Err(CypherError::new(
                ErrorCode::ArgumentError,
                "trim(... FROM ...) takes one character to trim",
            ));
        }
    }
    let f = match side {
        Val::Str(side) if &**side == "LEADING" => Function::LTrim,
        Val::Str(side) if &**side == "TRAILING" => Function::RTrim,
        _ => Function::BTrim,
    };
    trim(f, s, Some(c))
}

fn normalize(s: &str, form: Option<&Val>) -> Result<String> {
    let form = match form {
        None => "NFC",
        Some(Val::Str(f)) => f,
        Some(other) => return Err(arg_type(Function::Normalize, "a normal form", other)),
    };
    Ok(match form {
        "NFC" => s.nfc().collect(),
        "NFD" => s.nfd().collect(),
        "NFKC" => s.nfkc().collect(),
        "NFKD" => s.nfkd().collect(),
        other => {
            return Err(CypherError::new(
                ErrorCode::ArgumentError,
                format!("unknown normal form {other}: NFC, NFD, NFKC or NFKD"),
            ))
        }
    })
}

/// `split(s, delimiter)` and `split(s, [delimiters])`: cut wherever a (non-empty)
/// delimiter starts; with an empty delimiter among them, between characters.
fn split(s: &Val, by: &Val) -> Result<Val> {
    let Val::Str(s) = s else {
        return Err(arg_type(Function::Split, "a string", s));
    };
    let delimiters: Vec<&str> = match by {
        Val::Str(d) => vec![&**d],
        Val::List(l) => l
            .iter()
            .map(|d| match d {
                Val::Str(d) => Ok(&**d),
                other => Err(arg_type(Function::Split, "a list of strings", other)),
            })
            .collect::<Result<_>>()?,
        other => Err(arg_type(
            Function::Split,
            "a string or a list of strings",
            other,
        ))?,
    };
    if s.is_empty() {
        return Ok(Val::list(vec![Val::str("")]));
    }
    // A delimiter that is the whole text leaves two empty pieces, whatever else the
    // list holds (`split('a', ['a', ''])` is `['', '']` on Neo4j).
    if delimiters.iter().any(|d| *d == &**s) {
        return Ok(Val::list(vec![Val::str(""), Val::str("")]));
    }
    let empty = delimiters.iter().any(|d| d.is_empty());
    // Neo4j tries the delimiters in the order given at each position, not the
    // longest first: `split('abab', ['a', 'ab'])` is `['', 'b', 'b']`.
    let cut: Vec<&str> = delimiters.into_iter().filter(|d| !d.is_empty()).collect();
    if empty {
        return Ok(between_characters(s, &cut));
    }
    let mut pieces = Vec::new();
    let (mut start, mut at) = (0, 0);
    while at < s.len() {
        match cut.iter().find(|d| s[at..].starts_with(**d)) {
            Some(d) => {
                pieces.push(Val::str(&s[start..at]));
                at += d.len();
                start = at;
            }
            None => at += s[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    pieces.push(Val::str(&s[start..]));
    Ok(Val::list(pieces))
}

/// An empty delimiter splits between characters, as Neo4j does: first every other
/// delimiter is removed from the text, one after the other in the list's order (so a
/// removal may make another delimiter appear: `split('aab', ['b', 'ab', ''])` is
/// `['a', 'a']`), then each character left is a piece (`split('xaay', ['', 'a'])` is
/// `['x', 'y']`).
fn between_characters(s: &str, cut: &[&str]) -> Val {
    let mut reduced = s.to_owned();
    for d in cut {
        reduced = reduced.replace(d, "");
    }
    let pieces = reduced
        .chars()
        .map(|c| Val::str(c.encode_utf8(&mut [0u8; 4])))
        .collect();
    Val::list(pieces)
}
