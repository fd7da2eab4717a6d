//! Cutting typed lines into statements: a statement ends at a `;` that is not inside
//! a string literal, a quoted name or a comment, so input can run over many lines
//! and one line can hold several statements.

/// Where the scanner is in the text.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum State {
    #[default]
    Code,
    /// Inside a string literal opened by this quote (`'` or `"`); `escaped` after
    /// a backslash.
    Text {
        quote: char,
        escaped: bool,
    },
    /// Inside a `` `quoted name` `` (a doubled backtick closes and reopens it, which
    /// comes to the same).
    Name,
    LineComment,
    /// Inside `/* ... */`; `star` after a `*`.
    BlockComment {
        star: bool,
    },
}

/// Collects lines until they hold whole statements.
#[derive(Debug, Default)]
pub struct Splitter {
    /// The text of the statement begun but not ended.
    pending: String,
    state: State,
    /// Whether `pending` holds anything but blanks and comments.
    has_code: bool,
    /// The last character was a `/` in code: a comment's opening or a division,
    /// as the next character will tell.
    slash: bool,
}

impl Splitter {
    /// Adds a line; returns the statements it ended, in order, without their `;`.
    /// Statements holding only blanks and comments are dropped.
    pub fn push_line(&mut self, line: &str) -> Vec<String> {
        let mut done = Vec::new();
        for c in line.chars().chain(std::iter::once('\n')) {
            if self.step(c) {
                done.extend(self.take());
            } else {
                self.pending.push(c);
            }
        }
        if !self.in_statement() {
            // Blank lines and finished comments between statements start nothing.
            self.pending.clear();
        }
        done
    }

    /// Whether a statement has been begun and not ended (the shell then shows its
    /// continuation prompt).
    pub fn in_statement(&self) -> bool {
        self.has_code || self.state != State::Code
    }

    /// The unended statement, at the end of the input: it runs as if ended.
    pub fn finish(&mut self) -> Option<String> {
        let rest = self.take();
        self.state = State::Code;
        rest
    }

    /// Forgets the unended statement (Ctrl-C at a continuation prompt).
    pub fn clear(&mut self) {
        *self = Splitter::default();
    }

    fn take(&mut self) -> Option<String> {
        let text = std::mem::take(&mut self.pending);
        let had_code = std::mem::replace(&mut self.has_code, false);
        had_code.then(|| text.trim().to_owned())
    }

    /// Moves the state over `c`; true when `c` is a `;` that ends the statement.
    fn step(&mut self, c: char) -> bool {
        self.state = match self.state {
            State::Code => return self.step_code(c),
            State::Text { quote, escaped } => match c {
                _ if escaped => State::Text {
                    quote,
                    escaped: false,
                },
                '\\' => State::Text {
                    quote,
                    escaped: true,
                },
                _ if c == quote => State::Code,
                _ => State::Text { quote, escaped },
            },
            State::Name if c == '`' => State::Code,
            State::LineComment if c == '\n' => State::Code,
            State::BlockComment { star: true } if c == '/' => State::Code,
            State::BlockComment { .. } => State::BlockComment { star: c == '*' },
            state => state,
        };
        false
    }

    fn step_code(&mut self, c: char) -> bool {
        if std::mem::take(&mut self.slash) {
            match c {
                '/' => self.state = State::LineComment,
                '*' => self.state = State::BlockComment { star: false },
                // The slash was a division.
                _ => self.has_code = true,
            }
            if self.state != State::Code {
                return false;
            }
        }
        match c {
            ';' => return true,
            '/' => self.slash = true,
            '\'' | '"' => {
                self.state = State::Text {
                    quote: c,
                    escaped: false,
                }
            }
            '`' => self.state = State::Name,
            _ => {}
        }
        if !c.is_whitespace() && c != '/' {
            self.has_code = true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(lines: &[&str]) -> (Vec<String>, Splitter) {
        let mut splitter = Splitter::default();
        let statements = lines.iter().flat_map(|l| splitter.push_line(l)).collect();
        (statements, splitter)
    }

    #[test]
    fn a_statement_runs_over_lines_until_its_semicolon() {
        let (done, splitter) = split(&["MATCH (p:Person)", "  RETURN p.id"]);
        assert!(done.is_empty());
        assert!(splitter.in_statement());
        let (done, splitter) = split(&["MATCH (p:Person)", "  RETURN p.id;"]);
        assert_eq!(done, vec!["MATCH (p:Person)\n  RETURN p.id"]);
        assert!(!splitter.in_statement());
    }

    #[test]
    fn several_statements_on_one_line_come_in_order() {
        let (done, splitter) = split(&["RETURN 1; RETURN 2 ;RETURN", "3;  "]);
        assert_eq!(done, vec!["RETURN 1", "RETURN 2", "RETURN\n3"]);
        assert!(!splitter.in_statement());
    }

    #[test]
    fn semicolons_in_strings_names_and_comments_do_not_end_a_statement() {
        let (done, _) = split(&[r#"RETURN 'a;b' AS `x;y`, "c\";d" // e;f"#, "/* g; */ AS z;"]);
        assert_eq!(
            done,
            vec![concat!(
                r#"RETURN 'a;b' AS `x;y`, "c\";d" // e;f"#,
                "\n/* g; */ AS z"
            )]
        );
        let (done, splitter) = split(&["RETURN 'it''s", ";"]);
        assert!(done.is_empty(), "still inside the second string: {done:?}");
        assert!(splitter.in_statement());
    }

    #[test]
    fn blanks_and_comments_alone_start_no_statement() {
        let (done, splitter) = split(&["", "   ", "// a note", ";", "/* a */ ;"]);
        assert!(done.is_empty(), "{done:?}");
        assert!(!splitter.in_statement());
        let (_, splitter) = split(&["/* open"]);
        assert!(splitter.in_statement(), "inside a block comment");
        let (done, _) = split(&["RETURN 4/2;", "RETURN 1 /2;"]);
        assert_eq!(done, vec!["RETURN 4/2", "RETURN 1 /2"]);
    }

    #[test]
    fn the_unended_rest_runs_at_the_end_of_input() {
        let (_, mut splitter) = split(&["RETURN 1;", "RETURN", "2"]);
        assert_eq!(splitter.finish().as_deref(), Some("RETURN\n2"));
        assert_eq!(splitter.finish(), None);
        let (_, mut splitter) = split(&["RETURN 1", "MATCH"]);
        splitter.clear();
        assert!(!splitter.in_statement());
    }
}
