//! `=~`: a Cypher regular expression, compiled once when the query is bound (a
//! constant pattern) or as it runs (a computed one).

/// Compiles a Cypher regular expression: the whole string must match, as in Java.
pub(crate) fn compile_regex(pattern: &str) -> std::result::Result<regex::Regex, String> {
    regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
        .size_limit(1 << 20)
        .build()
        .map_err(|e| format!("invalid regular expression: {e}"))
}
