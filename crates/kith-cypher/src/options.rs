//! Query options: Neo4j's pre-parser prefix `CYPHER [5] [key=value ...]` before a
//! query (`CYPHER runtime=slotted MATCH ...`). Neo4j's runtime and planner choices do
//! not apply to kith's one engine and are accepted and ignored; `planner=naive` is
//! kith's own, the plainest correct plan (`PlanMode::Naive`), the oracle the
//! differential harness checks the optimised plans against over any transport.

use crate::error::{CypherError, ErrorCode, Result};
use crate::notices::{Notes, NoticeKind};
use crate::planner::PlanMode;

/// What a query's options ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// The plan mode `planner=naive` asks for.
    pub(crate) plan_mode: Option<PlanMode>,
    /// A `runtime=` value kith says something of: `pipelined` and `parallel` (not
    /// there), `interpreted` (deprecated).
    pub(crate) runtime: Option<&'static str>,
}

impl Options {
    /// Notes what the options warrant a notification for.
    pub(crate) fn note(&self, notes: &mut Notes) {
        match self.runtime {
            Some("interpreted") => notes.fix(
                NoticeKind::DeprecatedWithReplacement,
                None,
                "runtime=interpreted is deprecated. It is replaced by runtime=slotted.".into(),
                "The query used a deprecated runtime option. ('runtime=interpreted' is \
                 deprecated, please use 'runtime=slotted' instead)"
                    .into(),
            ),
            Some(runtime) => notes.fix(
                NoticeKind::RuntimeUnsupported,
                None,
                format!(
                    "The query cannot be executed with 'runtime={runtime}'; instead, kith's \
                     one runtime is used. Cause: kith has no `{runtime}` runtime."
                ),
                format!(
                    "Selected runtime is unsupported for this query, please use a different \
                     runtime instead or fallback to default. (kith has no `{runtime}` runtime)"
                ),
            ),
            None => {}
        }
    }
}

/// The options Neo4j 5 accepts, each with its values; a value kith does not change
/// anything for is still checked, so a typo is an error as it is in Neo4j.
const KNOWN: &[(&str, &[&str])] = &[
    (
        "runtime",
        &["slotted", "pipelined", "parallel", "interpreted", "legacy"],
    ),
    ("planner", &["cost", "idp", "dp", "naive"]),
    ("expressionengine", &["default", "interpreted", "compiled"]),
    ("operatorengine", &["default", "interpreted", "compiled"]),
    (
        "interpretedpipesfallback",
        &["default", "disabled", "whitelisted_plans_only", "all"],
    ),
    ("replan", &["default", "force", "skip"]),
    ("connectcomponentsplanner", &["greedy", "idp"]),
    ("updatestrategy", &["default", "eager"]),
    ("eageranalyzer", &["ir", "lp"]),
];

/// Reads a leading `CYPHER ...` and returns its options and the text with the prefix
/// blanked (same length, so error positions still point into the original).
pub(crate) fn split_options(text: &str) -> Result<(Options, std::borrow::Cow<'_, str>)> {
    let start = text.len() - text.trim_start().len();
    let rest = &text[start..];
    // `get`, not slicing: the sixth byte may fall inside a multi-byte character.
    let is_cypher = rest
        .get(..6)
        .is_some_and(|w| w.eq_ignore_ascii_case("cypher"))
        && rest[6..].starts_with(|c: char| c.is_whitespace());
    if !is_cypher {
        return Ok((Options::default(), text.into()));
    }
    let mut at = start + 6;
    let mut options = Options::default();
    loop {
        let word_start = at + text[at..].len() - text[at..].trim_start().len();
        let word: &str = text[word_start..]
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        if word.is_empty()
            || !(word.contains('=') || word.starts_with(|c: char| c.is_ascii_digit()))
        {
            // The statement (or EXPLAIN/PROFILE) begins here.
            let blanked = format!("{}{}", " ".repeat(word_start), &text[word_start..]);
            return Ok((options, blanked.into()));
        }
        option(text, word, word_start, &mut options)?;
        at = word_start + word.len();
    }
}

/// One `key=value` (or the language version) at byte `pos` of `text`.
fn option(text: &str, word: &str, pos: usize, options: &mut Options) -> Result<()> {
    let refuse = |message: String| CypherError::at(ErrorCode::SyntaxError, message, text, pos);
    let Some((key, value)) = word.split_once('=') else {
        return match word {
            "5" => Ok(()),
            other => Err(refuse(format!(
                "`CYPHER {other}`: this server runs Cypher 5 only"
            ))),
        };
    };
    let key = key.to_ascii_lowercase();
    let value = value.to_ascii_lowercase();
    let Some((_, values)) = KNOWN.iter().find(|(k, _)| *k == key) else {
        return Err(refuse(format!("`{key}` is not a valid query option")));
    };
    if !values.contains(&value.as_str()) {
        return Err(refuse(format!(
            "`{value}` is not a valid value of the query option `{key}` (one of: {})",
            values.join(", ")
        )));
    }
    if key == "planner" && value == "naive" {
        options.plan_mode = Some(PlanMode::Naive);
    }
    if key == "runtime" {
        options.runtime = ["pipelined", "parallel", "interpreted"]
            .into_iter()
            .find(|r| *r == value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_blanked_and_unknown_ones_refused() {
        let (o, rest) = split_options("CYPHER 5 runtime=slotted RETURN 1").expect("valid");
        assert_eq!(o, Options::default());
        assert_eq!(&*rest, "                         RETURN 1");
        let (o, rest) =
            split_options("cypher planner=naive EXPLAIN MATCH (n) RETURN n").expect("valid");
        assert_eq!(o.plan_mode, Some(PlanMode::Naive));
        assert!(rest.trim_start().starts_with("EXPLAIN"));
        let (o, rest) = split_options("MATCH (cypher) RETURN cypher").expect("no options");
        assert_eq!(
            (o, &*rest),
            (Options::default(), "MATCH (cypher) RETURN cypher")
        );
        let err = split_options("CYPHER runtime=fast RETURN 1").expect_err("bad value");
        assert!(
            err.message.contains("`fast` is not a valid value"),
            "{}",
            err.message
        );
        assert_eq!(err.position.map(|p| p.column), Some(8));
        let err = split_options("CYPHER colour=red RETURN 1").expect_err("bad key");
        assert!(err.message.contains("`colour` is not a valid query option"));
        let (_, rest) = split_options("/+\n*\u{0d9a}).51").expect("not an option prefix");
        assert_eq!(&*rest, "/+\n*\u{0d9a}).51");
        let err = split_options("CYPHER 4.4 RETURN 1").expect_err("old version");
        assert!(err.message.contains("Cypher 5 only"), "{}", err.message);
    }
}
