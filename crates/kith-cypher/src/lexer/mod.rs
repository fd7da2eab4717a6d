//! Tokens of Cypher, from a `logos` lexer.
//!
//! Keywords are not tokens of their own: Cypher lets most of them stand as names
//! (`n.count`, a label `:Order`), so they lex as identifiers and the parser compares
//! them case-insensitively where a keyword may stand. Arrows are not tokens either:
//! `<`, `-` and `>` compose into `<-`, `->` and `--` in the pattern parser, so
//! `a<-1` in an expression still means `a < -1`.

use logos::Logos;

use crate::error::{CypherError, ErrorCode, Result};

/// One token.
#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n\f\u{feff}]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Token {
    /// A name, or a keyword.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice().to_owned())]
    #[regex(r"`([^`]|``)*`", |lex| unquote_backtick(lex.slice()))]
    Ident(String),
    /// An integer literal (decimal, `0x` hex or `0o` octal).
    #[regex(r"[0-9]+", |lex| lex.slice().to_owned())]
    #[regex(r"0x[0-9A-Fa-f]+", |lex| lex.slice().to_owned())]
    #[regex(r"0o[0-7]+", |lex| lex.slice().to_owned())]
    Integer(String),
    /// A float literal.
    #[regex(r"[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?", |lex| lex.slice().to_owned())]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?", |lex| lex.slice().to_owned())]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+", |lex| lex.slice().to_owned())]
    Float(String),
    /// A string literal, with its escapes still in (see [`unescape`]).
    #[regex(r#"'([^'\\]|\\.)*'"#, |lex| lex.slice().to_owned())]
    #[regex(r#""([^"\\]|\\.)*""#, |lex| lex.slice().to_owned())]
    Str(String),
    /// `$name` or `$0`.
    #[regex(r"\$[A-Za-z_0-9]+", |lex| lex.slice()[1..].to_owned())]
    #[regex(r"\$`([^`]|``)*`", |lex| unquote_backtick(&lex.slice()[1..]))]
    Param(String),
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `,`
    #[token(",")]
    Comma,
    /// `..`
    #[token("..")]
    DotDot,
    /// `.`
    #[token(".")]
    Dot,
    /// `:`
    #[token(":")]
    Colon,
    /// `;`
    #[token(";")]
    Semicolon,
    /// `|`
    #[token("|")]
    Pipe,
    /// `+`
    #[token("+")]
    Plus,
    /// `+=`
    #[token("+=")]
    PlusEq,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `&` (label expressions)
    #[token("&")]
    Amp,
    /// `!` (label expressions; `!=` is [`Token::Ne`])
    #[token("!")]
    Bang,
    /// `^`
    #[token("^")]
    Caret,
    /// `=`
    #[token("=")]
    Eq,
    /// `<>` or `!=`
    #[token("<>")]
    #[token("!=")]
    Ne,
    /// `<`
    #[token("<")]
    Lt,
    /// `>`
    #[token(">")]
    Gt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `=~`
    #[token("=~")]
    RegexMatch,
    /// End of the text (added by [`tokenize`]).
    Eof,
}

fn unquote_backtick(s: &str) -> String {
    s[1..s.len() - 1].replace("``", "`")
}

/// A token and the byte range it came from.
#[derive(Clone, Debug)]
pub struct Spanned {
    /// The token.
    pub token: Token,
    /// Byte offset of its start.
    pub start: usize,
    /// Byte offset one past its end.
    pub end: usize,
}

/// The whole text as tokens, ending with [`Token::Eof`].
pub fn tokenize(text: &str) -> Result<Vec<Spanned>> {
    let mut out = Vec::new();
    let mut lexer = Token::lexer(text);
    while let Some(token) = lexer.next() {
        let span = lexer.span();
        match token {
            Ok(token) => out.push(Spanned {
                token,
                start: span.start,
                end: span.end,
            }),
            Err(()) => return Err(lex_error(text, span.start)),
        }
    }
    out.push(Spanned {
        token: Token::Eof,
        start: text.len(),
        end: text.len(),
    });
    Ok(out)
}

fn lex_error(text: &str, at: usize) -> CypherError {
    let rest = &text[at..];
    let message = if rest.starts_with('\'') || rest.starts_with('"') {
        "unclosed string literal".to_owned()
    } else if rest.starts_with("/*") {
        "unclosed comment".to_owned()
    } else if rest.starts_with('`') {
        "unclosed quoted name".to_owned()
    } else {
        let c = rest.chars().next().unwrap_or(' ');
        format!("unexpected character '{c}'")
    };
    CypherError::at(ErrorCode::SyntaxError, message, text, at)
}

/// The value of a string literal token (quotes removed, escapes resolved).
pub fn unescape(literal: &str) -> std::result::Result<String, String> {
    let body = &literal[1..literal.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('"') => out.push('"'),
            Some('u') => out.push(hex_char(&mut chars, 4)?),
            Some('U') => out.push(hex_char(&mut chars, 8)?),
            Some(other) => return Err(format!("unknown escape '\\{other}'")),
            None => return Err("a string ends in a lone backslash".to_owned()),
        }
    }
    Ok(out)
}

fn hex_char(chars: &mut std::str::Chars<'_>, digits: usize) -> std::result::Result<char, String> {
    let hex: String = chars.take(digits).collect();
    u32::from_str_radix(&hex, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| format!("bad unicode escape '\\u{hex}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Token> {
        tokenize(text)
            .expect("lexes")
            .into_iter()
            .map(|s| s.token)
            .collect()
    }

    #[test]
    fn comments_are_skipped_and_arrows_are_pieces() {
        let t = kinds("/* :param x */ MATCH (a)<-[:R]-(b) // tail\nRETURN a");
        assert_eq!(t[0], Token::Ident("MATCH".into()));
        assert!(t.contains(&Token::Lt));
        assert_eq!(t.last(), Some(&Token::Eof));
    }

    #[test]
    fn numbers_strings_and_params() {
        let t = kinds("1 1.5 .5 1e3 0x1F 'it\\'s' $p `we ird`");
        assert_eq!(t[0], Token::Integer("1".into()));
        assert_eq!(t[1], Token::Float("1.5".into()));
        assert_eq!(t[2], Token::Float(".5".into()));
        assert_eq!(t[3], Token::Float("1e3".into()));
        assert_eq!(t[4], Token::Integer("0x1F".into()));
        assert_eq!(unescape("'it\\'s'").as_deref(), Ok("it's"));
        assert_eq!(t[6], Token::Param("p".into()));
        assert_eq!(t[7], Token::Ident("we ird".into()));
    }

    #[test]
    fn range_dots_are_not_floats() {
        let t = kinds("*1..3");
        assert_eq!(t[1], Token::Integer("1".into()));
        assert_eq!(t[2], Token::DotDot);
    }

    #[test]
    fn unclosed_string_names_its_place() {
        let err = tokenize("RETURN 'abc").expect_err("must fail");
        assert_eq!(err.code, ErrorCode::SyntaxError);
        assert_eq!(err.position.map(|p| p.column), Some(8));
    }
}
