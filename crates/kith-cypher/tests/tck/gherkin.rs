//! Just enough Gherkin for the openCypher TCK: features with a background, scenarios,
//! scenario outlines with examples, tags, steps with a doc string or a table.
//!
//! The TCK uses a small, regular subset of the language, so a line-based reader is
//! simpler (and dependency-free) than a full Gherkin implementation. Anything outside
//! that subset is an error naming the file and line, never silently skipped.

/// A step: its keyword-less text and its argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The keyword as written (`Given`, `When`, `Then`, `And`, `But`).
    pub keyword: String,
    /// The text after the keyword.
    pub text: String,
    /// A doc string argument (the query text), indentation removed.
    pub doc: Option<String>,
    /// A table argument: rows of cells, unescaped and trimmed.
    pub table: Vec<Vec<String>>,
    /// 1-based line of the step in its file.
    pub line: usize,
}

/// One runnable scenario: an outline contributes one per example row.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The scenario's name as written (for an outline, with `<placeholders>`).
    pub name: String,
    /// For an outline: 1-based index of the example row over all its `Examples:`.
    pub example: Option<usize>,
    /// Tags of the feature, the scenario and (for outlines) the examples block.
    pub tags: Vec<String>,
    /// The background's steps, then the scenario's, placeholders substituted.
    pub steps: Vec<Step>,
    /// 1-based line of the `Scenario` keyword.
    pub line: usize,
}

/// A parsed feature file.
#[derive(Clone, Debug)]
pub struct Feature {
    /// Its scenarios, outlines expanded, in file order.
    pub scenarios: Vec<Scenario>,
}

/// A syntax error in a feature file.
#[derive(Debug)]
pub struct GherkinError {
    /// 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for GherkinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

struct RawScenario {
    name: String,
    outline: bool,
    tags: Vec<String>,
    steps: Vec<Step>,
    line: usize,
    examples: Vec<(Vec<String>, Vec<Vec<String>>)>,
}

enum Section {
    None,
    Background,
    Scenario,
    Examples,
}

const STEP_KEYWORDS: [&str; 6] = ["Given", "When", "Then", "And", "But", "*"];

/// Parses a feature file's text.
pub fn parse(text: &str) -> Result<Feature, GherkinError> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut seen_feature = false;
    let mut feature_tags: Vec<String> = Vec::new();
    let mut pending_tags: Vec<String> = Vec::new();
    let mut background: Vec<Step> = Vec::new();
    let mut raws: Vec<RawScenario> = Vec::new();
    let mut section = Section::None;
    let err = |line: usize, message: String| GherkinError { line, message };

    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('@') {
            pending_tags.extend(line.split_whitespace().map(str::to_owned));
            continue;
        }
        if line.starts_with("Feature:") {
            seen_feature = true;
            feature_tags = std::mem::take(&mut pending_tags);
            continue;
        }
        if line.starts_with("Background:") {
            section = Section::Background;
            continue;
        }
        let outline = ["Scenario Outline:", "Scenario Template:"]
            .iter()
            .find_map(|k| line.strip_prefix(k));
        let plain = line.strip_prefix("Scenario:");
        if let Some((rest, is_outline)) = outline.map(|r| (r, true)).or(plain.map(|r| (r, false))) {
            let mut tags = feature_tags.clone();
            tags.append(&mut pending_tags);
            raws.push(RawScenario {
                name: rest.trim().to_owned(),
                outline: is_outline,
                tags,
                steps: Vec::new(),
                line: line_no,
                examples: Vec::new(),
            });
            section = Section::Scenario;
            continue;
        }
        if line.starts_with("Examples:") || line.starts_with("Scenarios:") {
            let Some(raw) = raws.last_mut().filter(|r| r.outline) else {
                return Err(err(line_no, "Examples outside a scenario outline".into()));
            };
            let (table, next) = read_table(&lines, i);
            i = next;
            let mut rows = table.into_iter();
            let Some(header) = rows.next() else {
                return Err(err(line_no, "Examples without a table".into()));
            };
            raw.tags.append(&mut pending_tags);
            raw.examples.push((header, rows.collect()));
            section = Section::Examples;
            continue;
        }
        let Some(keyword) = STEP_KEYWORDS.iter().find(|k| {
            line.strip_prefix(**k)
                .is_some_and(|r| r.is_empty() || r.starts_with(' '))
        }) else {
            return Err(err(line_no, format!("unexpected line `{line}`")));
        };
        let text = line[keyword.len()..].trim().to_owned();
        let mut step = Step {
            keyword: (*keyword).to_owned(),
            text,
            doc: None,
            table: Vec::new(),
            line: line_no,
        };
        // The argument, if any: a doc string or a table on the following lines.
        let mut j = i;
        while j < lines.len() && lines[j].trim().is_empty() {
            j += 1;
        }
        if j < lines.len() {
            let next = lines[j].trim_start();
            if next.starts_with("\"\"\"") || next.starts_with("```") {
                let (doc, after) = read_doc(&lines, j).map_err(|m| err(j + 1, m))?;
                step.doc = Some(doc);
                i = after;
            } else if next.starts_with('|') {
                let (table, after) = read_table(&lines, j);
                step.table = table;
                i = after;
            }
        }
        match section {
            Section::Background => background.push(step),
            Section::Scenario => match raws.last_mut() {
                Some(raw) => raw.steps.push(step),
                None => return Err(err(line_no, "a step outside a scenario".into())),
            },
            Section::None | Section::Examples => {
                return Err(err(line_no, "a step outside a scenario".into()))
            }
        }
    }

    if !seen_feature {
        return Err(err(1, "no `Feature:` line".into()));
    }
    let mut scenarios = Vec::new();
    for raw in raws {
        if !raw.outline {
            let mut steps = background.clone();
            steps.extend(raw.steps);
            scenarios.push(Scenario {
                name: raw.name,
                example: None,
                tags: raw.tags,
                steps,
                line: raw.line,
            });
            continue;
        }
        if raw.examples.is_empty() {
            return Err(err(raw.line, "a scenario outline without examples".into()));
        }
        let mut index = 0;
        for (header, rows) in &raw.examples {
            for row in rows {
                index += 1;
                if row.len() != header.len() {
                    return Err(err(
                        raw.line,
                        format!(
                            "example {index} has {} cells, not {}",
                            row.len(),
                            header.len()
                        ),
                    ));
                }
                let subst = |s: &str| substitute(s, header, row);
                let steps = background
                    .iter()
                    .cloned()
                    .chain(raw.steps.iter().map(|s| {
                        Step {
                            keyword: s.keyword.clone(),
                            text: subst(&s.text),
                            doc: s.doc.as_deref().map(subst),
                            table: s
                                .table
                                .iter()
                                .map(|r| r.iter().map(|c| subst(c)).collect())
                                .collect(),
                            line: s.line,
                        }
                    }))
                    .collect();
                scenarios.push(Scenario {
                    name: raw.name.clone(),
                    example: Some(index),
                    tags: raw.tags.clone(),
                    steps,
                    line: raw.line,
                });
            }
        }
    }
    Ok(Feature { scenarios })
}

/// Replaces every `<name>` of the header with the row's cell.
fn substitute(text: &str, header: &[String], row: &[String]) -> String {
    let mut out = text.to_owned();
    for (h, v) in header.iter().zip(row) {
        out = out.replace(&format!("<{h}>"), v);
    }
    out
}

/// Reads a doc string starting at line `start` (the opening delimiter); returns the
/// text and the index of the line after the closing delimiter.
fn read_doc(lines: &[&str], start: usize) -> Result<(String, usize), String> {
    let open = lines[start];
    let indent = open.len() - open.trim_start().len();
    let delim = if open.trim_start().starts_with("```") {
        "```"
    } else {
        "\"\"\""
    };
    let mut body = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() == delim {
            let text = body.join("\n").replace("\\\"\\\"\\\"", "\"\"\"");
            return Ok((text, i + 1));
        }
        let strip = line
            .char_indices()
            .take_while(|(n, c)| *n < indent && *c == ' ')
            .count();
        body.push(&line[strip..]);
        i += 1;
    }
    Err("an unclosed doc string".into())
}

/// Reads table rows from line `start` on; returns them and the next line's index.
fn read_table(lines: &[&str], start: usize) -> (Vec<Vec<String>>, usize) {
    let mut rows = Vec::new();
    let mut i = start;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.starts_with('#') {
            i += 1;
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        rows.push(split_row(line));
        i += 1;
    }
    (rows, i)
}

/// Splits `| a | b |` into trimmed, unescaped cells. Gherkin's cell escapes are `\|`,
/// `\\` and `\n`; any other backslash stays as written (the TCK's value syntax has its
/// own escapes inside strings).
pub fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().strip_prefix('|').unwrap_or(line);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('|') => cell.push('|'),
                Some('\\') => cell.push('\\'),
                Some('n') => cell.push('\n'),
                Some(other) => {
                    cell.push('\\');
                    cell.push(other);
                }
                None => cell.push('\\'),
            },
            '|' => cells.push(std::mem::take(&mut cell).trim().to_owned()),
            c => cell.push(c),
        }
    }
    // Text after the last `|` is not a cell (normally it is empty).
    cells
}
