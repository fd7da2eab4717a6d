//! The shell at a terminal: prompts, line editing and history (rustyline), and
//! tables as wide as the terminal.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rustyline::error::ReadlineError;
use rustyline::{Config, DefaultEditor};

use super::split::Splitter;
use super::{Flow, Session, COLUMNS_DEFAULT};

/// The prompt where a statement can begin, and the one continuing a statement: as
/// wide as each other, so continued lines line up under the first.
const PROMPT: &str = "kith> ";
const CONTINUATION: &str = "  ..> ";
/// Entries the history keeps; older ones are dropped from the file too.
const HISTORY_ENTRIES_MAX: usize = 1000;

/// Reads and runs lines until `:exit`, `:quit` or Ctrl-D. Each statement (all its
/// lines together) and each command is one history entry.
pub fn run(session: &mut Session, target: &str) -> Result<()> {
    let mut terminal = Terminal::open()?;
    session.history = terminal.history.clone();
    session.interrupt = Some(super::interrupt::Interrupt::catch()?);
    println!("kith shell on {}", kith_client::redacted(target));
    println!("Statements end with ;  :help lists the commands; :exit or Ctrl-D leaves.\n");
    let mut splitter = Splitter::default();
    // The lines of the entry being typed.
    let mut typed: Vec<String> = Vec::new();
    loop {
        let prompt = if splitter.in_statement() {
            CONTINUATION
        } else {
            PROMPT
        };
        let line = match terminal.editor.readline(prompt) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => {
                splitter.clear();
                typed.clear();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(error) => return Err(error).context("reading the terminal"),
        };
        session.width = terminal.columns();
        typed.push(line.clone());
        let flow = session.input(&mut splitter, &line);
        if !splitter.in_statement() {
            terminal.remember(&typed.join("\n"));
            typed.clear();
        }
        if flow == Flow::Exit {
            break;
        }
    }
    Ok(())
}

/// The line editor and where its history is kept.
struct Terminal {
    editor: DefaultEditor,
    history: Option<PathBuf>,
    /// Set once saving the history failed and the user was told.
    history_failed: bool,
}

impl Terminal {
    fn open() -> Result<Terminal> {
        let config = Config::builder()
            .max_history_size(HISTORY_ENTRIES_MAX)
            .and_then(|c| c.history_ignore_dups(true))
            .context("configuring the line editor")?
            .auto_add_history(false)
            .build();
        let mut editor = DefaultEditor::with_config(config).context("opening the terminal")?;
        let history = history_path();
        if let Some(path) = &history {
            load_history(&mut editor, path);
        }
        Ok(Terminal {
            editor,
            history,
            history_failed: false,
        })
    }

    /// Adds an entry to the history, and to its file at once (a shell that is
    /// killed keeps what was typed).
    fn remember(&mut self, entry: &str) {
        if entry.trim().is_empty() || !matches!(self.editor.add_history_entry(entry), Ok(true)) {
            return;
        }
        let Some(path) = &self.history else { return };
        if let Err(error) = self.editor.append_history(path) {
            if !std::mem::replace(&mut self.history_failed, true) {
                eprintln!(
                    "warning: cannot save the history in {}: {error}",
                    path.display()
                );
            }
        }
    }

    /// The terminal's width now (it may have been resized).
    fn columns(&mut self) -> usize {
        columns(&mut self.editor)
    }
}

fn load_history(editor: &mut DefaultEditor, path: &Path) {
    match editor.load_history(path) {
        Ok(()) => {}
        // The first session has no history yet.
        Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => eprintln!(
            "warning: cannot read the history in {}: {error}",
            path.display()
        ),
    }
}

/// `$KITH_HISTORY`, else `~/.kith_history`; none without a home directory.
fn history_path() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    set("KITH_HISTORY")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".kith_history")))
}

/// The width of standard output when it is a terminal (input from a pipe, output
/// to the screen), else [`COLUMNS_DEFAULT`].
pub fn output_columns() -> usize {
    DefaultEditor::new().map_or(COLUMNS_DEFAULT, |mut editor| columns(&mut editor))
}

/// The width of standard output when it is a terminal, else [`COLUMNS_DEFAULT`].
fn columns(editor: &mut DefaultEditor) -> usize {
    editor
        .dimensions()
        .map_or(COLUMNS_DEFAULT, |(columns, _)| usize::from(columns))
}
