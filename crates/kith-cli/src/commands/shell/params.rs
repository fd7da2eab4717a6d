//! `:param` values: Cypher expressions, evaluated by the engine itself (so they mean
//! what they mean in a query), and shown back as Cypher literals.

use std::fmt::Write as _;

use kith_core::{format_epoch_millis, Value};
use kith_cypher::{CypherError, Engine, ErrorCode, Limits, Position};
use kith_storage::Snapshot;

/// What the value is wrapped in: `RETURN <value>` (no alias, whose `AS` would turn
/// up in the errors about an unfinished value).
const PREFIX: &str = "RETURN ";

/// Evaluates `text` (one line) as `RETURN <text>` on an empty graph; `$name`s
/// in it are the parameters set so far. An error's position is moved into `text`,
/// so rendering it against `text` puts the caret under the value's own column.
pub fn evaluate(
    engine: &Engine,
    text: &str,
    params: &[(String, Value)],
) -> Result<Value, CypherError> {
    let query = format!("{PREFIX}{text}");
    let single = || {
        CypherError::new(
            ErrorCode::SyntaxError,
            "a parameter's value is one expression, e.g. [1, 2] or {name: 'Ann'}",
        )
    };
    let prepared = engine
        .prepare(&query)
        .map_err(|e| into_value_text(e, text))?;
    if prepared.writes() {
        return Err(single());
    }
    let result = kith_cypher::run(&Snapshot::empty(), &prepared, params, &Limits::default())
        .map_err(|e| into_value_text(e, text))?;
    match <[Vec<Value>; 1]>::try_from(result.rows) {
        Ok([row]) => match <[Value; 1]>::try_from(row) {
            Ok([value]) => Ok(value),
            Err(_) => Err(single()),
        },
        Err(_) => Err(single()),
    }
}

/// Moves an error's position from the wrapped query into the value's text (past
/// its end when the error is in the wrapping, e.g. an unclosed list).
fn into_value_text(mut error: CypherError, text: &str) -> CypherError {
    if let Some(position) = &mut error.position {
        let chars = text.chars().count();
        let column = position
            .column
            .saturating_sub(PREFIX.len())
            .clamp(1, chars + 1);
        *position = Position {
            offset: text
                .char_indices()
                .nth(column - 1)
                .map_or(text.len(), |(i, _)| i),
            line: 1,
            column,
        };
    }
    error
}

/// A value written as a Cypher literal, as `:params` shows it.
pub fn literal(value: &Value) -> String {
    let mut out = String::new();
    write_literal(&mut out, value);
    out
}

fn write_literal(out: &mut String, value: &Value) {
    match value {
        // `{:?}` keeps a float's point (`1.0`, not `1`), so it reads back as a float.
        Value::Float(x) => {
            let _ = write!(out, "{x:?}");
        }
        Value::String(s) => quote(out, s),
        Value::DateTime(t) => {
            out.push_str("datetime(");
            quote(out, &format_epoch_millis(*t));
            out.push(')');
        }
        Value::Temporal(t) => {
            // `date('1984-10-11')`: the function of the value's kind over its text.
            out.push_str(&t.type_name().to_ascii_lowercase());
            out.push('(');
            quote(out, &t.to_string());
            out.push(')');
        }
        // `point({x: 1.0, y: 2.0, crs: 'cartesian'})` is itself a Cypher call.
        Value::Point(p) => out.push_str(&p.to_string()),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_literal(out, item);
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (i, (key, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                name(out, key);
                out.push_str(": ");
                write_literal(out, item);
            }
            out.push('}');
        }
        // Cypher has no byte literal: a byte array shows as the list it reads as.
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Bytes(_) => {
            let _ = write!(out, "{value}");
        }
    }
}

/// A string in single quotes, with backslash escapes.
fn quote(out: &mut String, s: &str) {
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
    out.push('\'');
}

/// A map key, in backticks unless it is a plain identifier.
fn name(out: &mut String, key: &str) {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        out.push_str(key);
    } else {
        let _ = write!(out, "`{}`", key.replace('`', "``"));
    }
}

/// Whether `name` may be a parameter's name (`$name` in a query).
pub fn is_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str) -> Result<Value, CypherError> {
        evaluate(
            &Engine::default(),
            text,
            &[("id".to_owned(), Value::Int(7))],
        )
    }

    #[test]
    fn values_are_cypher_literals() {
        assert_eq!(eval("42"), Ok(Value::Int(42)));
        assert_eq!(eval("-2.5"), Ok(Value::Float(-2.5)));
        assert_eq!(eval("'Ann'"), Ok(Value::string("Ann")));
        assert_eq!(eval("true"), Ok(Value::Bool(true)));
        assert_eq!(eval("null"), Ok(Value::Null));
        assert_eq!(
            eval("[1, 'a', $id]"),
            Ok(Value::List(vec![
                Value::Int(1),
                Value::string("a"),
                Value::Int(7)
            ]))
        );
        let map = eval("{name: 'Ann', ids: [1, 2]}").expect("a map");
        assert_eq!(literal(&map), "{name: 'Ann', ids: [1, 2]}");
    }

    #[test]
    fn literals_read_back_as_the_same_value() {
        for text in [
            "1.0",
            "'it\\'s'",
            "[1, [2.5, null], {`a b`: false}]",
            "'a\\nb'",
        ] {
            let value = eval(text).expect(text);
            assert_eq!(literal(&value), text);
            assert_eq!(eval(&literal(&value)), Ok(value));
        }
    }

    #[test]
    fn errors_point_into_the_value() {
        let error = eval("[1, 2").expect_err("unclosed");
        let position = error.position.expect("a position");
        assert_eq!((position.line, position.column), (1, 6), "{error}");
        let error = eval("1 +* 2").expect_err("syntax");
        assert_eq!(error.position.map(|p| p.column), Some(4), "{error}");
        assert!(error.render("1 +* 2").ends_with("\n  1 +* 2\n     ^"));
        assert!(eval("1 AS a, 2").is_err());
        assert!(eval("$nope").is_err());
    }

    #[test]
    fn parameter_names_are_plain() {
        assert!(is_name("id") && is_name("person_ids2") && is_name("1"));
        assert!(!is_name("") && !is_name("a b") && !is_name("$a"));
    }
}
