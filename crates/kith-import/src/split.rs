//! Records and fields of the importer's CSV dialect: one delimiter byte, one quote byte
//! (doubled inside a quoted field), records ending at a line break (`\r\n` too), blank
//! lines skipped. A field remembers whether it was quoted, because `""` is an empty
//! string while an empty field is no value at all.

use crate::error::{ErrorKind, ImportError, Result};

/// The dialect.
#[derive(Clone, Copy, Debug)]
pub struct Dialect {
    /// Between fields.
    pub delimiter: u8,
    /// Around a field that holds delimiters, quotes or line breaks.
    pub quote: u8,
    /// A quoted field may hold line breaks.
    pub multiline: bool,
}

/// One record's fields, reused from record to record so parsing allocates nothing.
#[derive(Debug, Default)]
pub struct Record {
    bytes: Vec<u8>,
    /// (end of the field in `bytes`, was it quoted).
    fields: Vec<(usize, bool)>,
}

impl Record {
    /// The number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Field `i`'s bytes (quotes removed) and whether it was quoted.
    pub fn get(&self, i: usize) -> Option<(&[u8], bool)> {
        let &(end, quoted) = self.fields.get(i)?;
        let start = if i == 0 { 0 } else { self.fields[i - 1].0 };
        Some((&self.bytes[start..end], quoted))
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.fields.clear();
    }
}

/// The records of one chunk of text.
pub struct Records<'a> {
    text: &'a [u8],
    pos: usize,
    line: u64,
    dialect: Dialect,
}

impl<'a> Records<'a> {
    /// Reads `text`, whose first line is line `first_line` of its file.
    pub fn new(text: &'a [u8], first_line: u64, dialect: Dialect) -> Records<'a> {
        Records {
            text,
            pos: 0,
            line: first_line,
            dialect,
        }
    }

    /// Reads the next record into `record` and returns the line it starts on; `None`
    /// at the end of the text.
    pub fn next_into(&mut self, record: &mut Record) -> Option<Result<u64>> {
        self.skip_blank_lines();
        if self.pos >= self.text.len() {
            return None;
        }
        record.clear();
        let line = self.line;
        Some(
            self.fields(record)
                .map(|()| line)
                .map_err(|e| e.at_line(line)),
        )
    }

    fn skip_blank_lines(&mut self) {
        loop {
            match self.text.get(self.pos..self.pos + 2) {
                Some([b'\n', ..]) => self.pos += 1,
                Some(b"\r\n") => self.pos += 2,
                _ if self.text.get(self.pos) == Some(&b'\n') => self.pos += 1,
                _ => return,
            }
            self.line += 1;
        }
    }

    fn fields(&mut self, record: &mut Record) -> Result<()> {
        loop {
            let quoted = self.text.get(self.pos) == Some(&self.dialect.quote);
            if quoted {
                self.quoted_field(record)?;
            } else {
                self.plain_field(record);
            }
            record.fields.push((record.bytes.len(), quoted));
            match self.text.get(self.pos) {
                Some(&b) if b == self.dialect.delimiter => self.pos += 1,
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                    return Ok(());
                }
                Some(b'\r') if self.text.get(self.pos + 1) == Some(&b'\n') => {
                    self.pos += 2;
                    self.line += 1;
                    return Ok(());
                }
                None => return Ok(()),
                Some(_) => {
                    return Err(ImportError::new(
                        ErrorKind::Field,
                        format!(
                            "field {} has text after its closing quote",
                            record.fields.len()
                        ),
                    ))
                }
            }
        }
    }

    /// A field up to the next delimiter or line break (a `\r` before it is dropped).
    fn plain_field(&mut self, record: &mut Record) {
        let rest = &self.text[self.pos..];
        let len = memchr::memchr2(self.dialect.delimiter, b'\n', rest).unwrap_or(rest.len());
        let mut field = &rest[..len];
        if rest.get(len) == Some(&b'\n') {
            field = field.strip_suffix(b"\r").unwrap_or(field);
        }
        record.bytes.extend_from_slice(field);
        // A dropped `\r` stays in the text: the record's end reads `\r\n`.
        self.pos += field.len();
    }

    /// A field between quotes; a doubled quote inside is one quote.
    fn quoted_field(&mut self, record: &mut Record) -> Result<()> {
        let quote = self.dialect.quote;
        self.pos += 1;
        loop {
            let rest = &self.text[self.pos..];
            let Some(i) = memchr::memchr(quote, rest) else {
                return Err(self.unterminated(record));
            };
            let piece = &rest[..i];
            let breaks = memchr::memchr_iter(b'\n', piece).count() as u64;
            if breaks > 0 && !self.dialect.multiline {
                return Err(self.unterminated(record));
            }
            self.line += breaks;
            record.bytes.extend_from_slice(piece);
            self.pos += i + 1;
            if self.text.get(self.pos) != Some(&quote) {
                return Ok(());
            }
            record.bytes.push(quote);
            self.pos += 1;
        }
    }

    fn unterminated(&self, record: &Record) -> ImportError {
        let hint = if self.dialect.multiline {
            ""
        } else {
            " (a quoted field ends on its own line unless --multiline-fields=true)"
        };
        ImportError::new(
            ErrorKind::Field,
            format!(
                "field {} opens a quote that is never closed{hint}",
                record.fields.len() + 1
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: Dialect = Dialect {
        delimiter: b',',
        quote: b'"',
        multiline: false,
    };

    /// (line, [(field, quoted)]) per record.
    type Lines = Vec<(u64, Vec<(String, bool)>)>;

    fn records(text: &str, dialect: Dialect) -> Result<Lines> {
        let mut r = Records::new(text.as_bytes(), 1, dialect);
        let mut rec = Record::default();
        let mut out = Vec::new();
        while let Some(line) = r.next_into(&mut rec) {
            let line = line?;
            let fields = (0..rec.len())
                .map(|i| {
                    let (b, q) = rec.get(i).expect("field");
                    (String::from_utf8(b.to_vec()).expect("utf8"), q)
                })
                .collect();
            out.push((line, fields));
        }
        Ok(out)
    }

    fn f(s: &str, q: bool) -> (String, bool) {
        (s.to_owned(), q)
    }

    #[test]
    fn plain_quoted_and_empty_fields() {
        let got = records("a,\"b,\"\"c\"\"\",,\"\"\r\n\n\nx\n", CSV).expect("parses");
        assert_eq!(
            got,
            [
                (
                    1,
                    vec![f("a", false), f("b,\"c\"", true), f("", false), f("", true)]
                ),
                (4, vec![f("x", false)]),
            ]
        );
    }

    #[test]
    fn a_trailing_delimiter_is_an_empty_last_field() {
        let got = records(
            "a|b|\n",
            Dialect {
                delimiter: b'|',
                ..CSV
            },
        )
        .expect("parses");
        assert_eq!(got, [(1, vec![f("a", false), f("b", false), f("", false)])]);
    }

    #[test]
    fn line_breaks_in_quotes_need_multiline() {
        let text = "1,\"two\nlines\"\n2,x\n";
        let err = records(text, CSV).expect_err("refused");
        assert_eq!(err.line, 1);
        assert!(
            err.message.contains("--multiline-fields"),
            "{}",
            err.message
        );
        let got = records(
            text,
            Dialect {
                multiline: true,
                ..CSV
            },
        )
        .expect("parses");
        assert_eq!(got[0].1[1], f("two\nlines", true));
        assert_eq!(
            got[1].0, 3,
            "the next record's line counts the break inside quotes"
        );
    }

    #[test]
    fn text_after_a_closing_quote_is_refused() {
        let err = records("\"a\"b,c\n", CSV).expect_err("refused");
        assert!(
            err.message.contains("after its closing quote"),
            "{}",
            err.message
        );
        assert!(records("\"open,c\n", CSV).is_err());
    }

    /// A reference writer: quotes a field when it must (delimiter, quote, line break,
    /// a leading quote, or empty-and-quoted), doubling quotes inside.
    fn write(rows: &[Vec<(String, bool)>], d: Dialect) -> String {
        let (delim, quote) = (char::from(d.delimiter), char::from(d.quote));
        let mut out = String::new();
        for row in rows {
            let fields: Vec<String> = row
                .iter()
                .map(|(f, quoted)| {
                    let must = f.contains([delim, quote, '\n', '\r']) || *quoted;
                    if must {
                        let doubled = f.replace(quote, &format!("{quote}{quote}"));
                        format!("{quote}{doubled}{quote}")
                    } else {
                        f.clone()
                    }
                })
                .collect();
            out.push_str(&fields.join(&delim.to_string()));
            out.push('\n');
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Any bytes at all: records or an error, never a panic, lines only forward.
        #[test]
        fn any_bytes_split_or_fail_cleanly(text in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600), multiline in proptest::prelude::any::<bool>()) {
            let dialect = Dialect { multiline, ..CSV };
            let mut r = Records::new(&text, 1, dialect);
            let mut rec = Record::default();
            let mut last = 0;
            let lines = text.iter().filter(|b| **b == b'\n').count() as u64 + 1;
            while let Some(line) = r.next_into(&mut rec) {
                let Ok(line) = line else { break };
                proptest::prop_assert!(line > last && line <= lines, "line {line} after {last} of {lines}");
                last = line;
            }
        }

        /// What the reference writer writes reads back field for field (differential
        /// against the writer: quoting, doubled quotes, line breaks in quotes).
        #[test]
        fn written_rows_read_back(rows in proptest::collection::vec(
            proptest::collection::vec(("[a-c,\"|\n\r ]{0,6}", proptest::prelude::any::<bool>()), 1..5), 1..6)) {
            let dialect = Dialect { multiline: true, ..CSV };
            // A row of one empty unquoted field is a blank line, which the reader skips.
            let rows: Vec<Vec<(String, bool)>> = rows
                .into_iter()
                .map(|mut row| {
                    if row.len() == 1 && row[0].0.is_empty() {
                        row[0].1 = true;
                    }
                    row
                })
                .collect();
            let text = write(&rows, dialect);
            let mut r = Records::new(text.as_bytes(), 1, dialect);
            let mut rec = Record::default();
            for row in &rows {
                let line = r.next_into(&mut rec);
                proptest::prop_assert!(matches!(line, Some(Ok(_))), "{text:?}: {line:?}");
                let got: Vec<String> = (0..rec.len())
                    .map(|i| String::from_utf8(rec.get(i).expect("field").0.to_vec()).expect("utf8"))
                    .collect();
                let want: Vec<String> = row.iter().map(|(f, _)| f.clone()).collect();
                proptest::prop_assert_eq!(got, want, "{:?}", text);
            }
            proptest::prop_assert!(r.next_into(&mut rec).is_none());
        }
    }

    #[test]
    fn a_quote_inside_a_plain_field_is_text() {
        let got = records("say \"hi\",x\n", CSV).expect("parses");
        assert_eq!(got[0].1[0], f("say \"hi\"", false));
    }
}
