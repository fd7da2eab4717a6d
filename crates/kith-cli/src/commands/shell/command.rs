//! The shell's own commands: a line starting with `:` where a statement could begin.

use std::fmt;

/// One command.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// `:help`.
    Help,
    /// `:param NAME => VALUE`; the value's text, a Cypher expression.
    Param { name: String, value: String },
    /// `:params` (or `:param` alone): list the parameters.
    Params,
    /// `:params clear`.
    ClearParams,
    /// `:exit` or `:quit`.
    Exit,
}

/// A line that is not a command the shell knows.
#[derive(Debug, PartialEq)]
pub enum CommandError {
    /// No such command.
    Unknown(String),
    /// A cypher-shell command kith's shell does not have.
    Unsupported(String),
    /// `:param` not written `:param NAME => VALUE`.
    ParamSyntax,
    /// A parameter name that `$name` could not refer to.
    ParamName(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(c) => write!(f, "unknown command `{c}`; :help lists them"),
            CommandError::Unsupported(c) => write!(
                f,
                "`{c}` is not supported: each statement is its own transaction"
            ),
            CommandError::ParamSyntax => {
                f.write_str("write :param NAME => VALUE, e.g. :param ids => [1, 2, 3]")
            }
            CommandError::ParamName(n) => write!(
                f,
                "`{n}` cannot be a parameter's name: use letters, digits and _"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// Whether a line (where a statement could begin) is a command.
pub fn is_command(line: &str) -> bool {
    line.trim_start().starts_with(':')
}

/// Parses a command line. A trailing `;` is allowed, as habit types one.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let line = line.strip_suffix(';').unwrap_or(line).trim_end();
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    match (word, rest) {
        (":help" | ":h" | ":?", _) => Ok(Command::Help),
        (":exit" | ":quit" | ":q", "") => Ok(Command::Exit),
        (":params", "") | (":param", "") => Ok(Command::Params),
        (":params", "clear") => Ok(Command::ClearParams),
        (":param", _) => param(rest),
        (":begin" | ":commit" | ":rollback", _) => Err(CommandError::Unsupported(word.to_owned())),
        _ => Err(CommandError::Unknown(line.to_owned())),
    }
}

fn param(rest: &str) -> Result<Command, CommandError> {
    let (name, value) = rest.split_once("=>").ok_or(CommandError::ParamSyntax)?;
    let (name, value) = (name.trim(), value.trim());
    // `$id` is how the name is used; accept it written so.
    let name = name.strip_prefix('$').unwrap_or(name);
    if value.is_empty() || name.is_empty() {
        return Err(CommandError::ParamSyntax);
    }
    if !super::params::is_name(name) {
        return Err(CommandError::ParamName(name.to_owned()));
    }
    Ok(Command::Param {
        name: name.to_owned(),
        value: value.to_owned(),
    })
}

/// What `:help` prints; `history` is where the history is kept, if anywhere.
pub fn help(history: Option<&str>) -> String {
    let kept = history.map_or(String::new(), |path| format!(" (kept in {path})"));
    format!(
        "\
Statements end with ; and may run over several lines; one line may hold several.
Each statement is its own transaction: :begin, :commit and :rollback are not supported.

  :help                  this text
  :param NAME => VALUE   set $NAME; VALUE is a Cypher expression, e.g.
                           :param ids => [1, 2, 3]
                           :param ann => {{name: 'Ann', born: 1990}}
  :params                list the parameters
  :params clear          forget them all
  :exit, :quit, Ctrl-D   leave

Up and Down recall earlier statements{kept}.
Ctrl-C drops the statement being typed, or stops the one running.

"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse(":help"), Ok(Command::Help));
        assert_eq!(parse("  :exit ; "), Ok(Command::Exit));
        assert_eq!(parse(":quit"), Ok(Command::Exit));
        assert_eq!(parse(":params"), Ok(Command::Params));
        assert_eq!(parse(":params clear"), Ok(Command::ClearParams));
        assert_eq!(
            parse(":param ids => [1, 2, 3]"),
            Ok(Command::Param {
                name: "ids".into(),
                value: "[1, 2, 3]".into()
            })
        );
        assert_eq!(
            parse(":param $who=>{name: 'a=>b'};"),
            Ok(Command::Param {
                name: "who".into(),
                value: "{name: 'a=>b'}".into()
            })
        );
    }

    #[test]
    fn bad_commands_say_why() {
        assert_eq!(
            parse(":bogus 1"),
            Err(CommandError::Unknown(":bogus 1".into()))
        );
        assert_eq!(
            parse(":begin"),
            Err(CommandError::Unsupported(":begin".into()))
        );
        assert_eq!(parse(":param x 1"), Err(CommandError::ParamSyntax));
        assert_eq!(parse(":param x =>"), Err(CommandError::ParamSyntax));
        assert_eq!(
            parse(":param a b => 1"),
            Err(CommandError::ParamName("a b".into()))
        );
        assert!(help(Some("/h/.kith_history")).contains("(kept in /h/.kith_history)"));
    }
}
