//! `kith shell [DIR|URL]`: an interactive Cypher shell, like Neo4j's cypher-shell.
//! Statements run where `kith query` runs them (in-process on a data directory the
//! shell holds for the session, or on a server through the Rust client); lines are
//! read with line editing and history from a terminal, or plainly from a pipe.

mod command;
mod interactive;
mod interrupt;
mod params;
mod split;

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use kith_core::Value;
use kith_cypher::Engine;

use super::query::{Answer, Target};
use crate::{data_dir, output};
use command::Command;
use split::Splitter;

/// How wide tables are when the output is not a terminal.
const COLUMNS_DEFAULT: usize = 120;

/// Runs the shell on `target` (a data directory or a `ws://` URL; the default
/// directory when absent). Reading from a pipe, it fails when any statement did.
pub fn run(target: Option<&str>) -> Result<()> {
    let target = match target {
        Some(target) => target.to_owned(),
        None => data_dir::resolve(None)?.display().to_string(),
    };
    let mut session = Session::new(Target::open(&target)?);
    let outcome = if std::io::stdin().is_terminal() {
        interactive::run(&mut session, &target)
    } else {
        session.width = interactive::output_columns();
        piped(&mut session, std::io::stdin().lock())
    };
    session.target.close()?;
    outcome
}

/// Statements from a pipe or file: run in order, on through failures, which are
/// counted.
fn piped(session: &mut Session, input: impl BufRead) -> Result<()> {
    let mut splitter = Splitter::default();
    for line in input.lines() {
        let line = line.context("reading standard input")?;
        if session.input(&mut splitter, &line) == Flow::Exit {
            break;
        }
    }
    // A last statement without its `;` runs all the same.
    if let Some(rest) = splitter.finish() {
        session.statement(&rest);
    }
    if session.failed > 0 {
        bail!(
            "{} of {} statements and commands failed",
            session.failed,
            session.ran
        );
    }
    Ok(())
}

/// Whether the shell goes on after a line.
#[derive(Debug, PartialEq)]
enum Flow {
    Continue,
    Exit,
}

/// What lives for the whole session.
struct Session {
    target: Target,
    /// `:param`s, in the order they were first set.
    params: Vec<(String, Value)>,
    /// Evaluates `:param` values.
    engine: Engine,
    /// The width tables fit in.
    width: usize,
    /// Statements and commands run, and how many of them failed.
    ran: usize,
    failed: usize,
    /// Where history is kept, for `:help` to say.
    history: Option<PathBuf>,
    /// Ctrl-C, caught at a terminal to cancel the running statement.
    interrupt: Option<interrupt::Interrupt>,
}

impl Session {
    fn new(target: Target) -> Session {
        Session {
            target,
            params: Vec::new(),
            engine: Engine::new(64),
            width: COLUMNS_DEFAULT,
            ran: 0,
            failed: 0,
            history: None,
            interrupt: None,
        }
    }

    /// One line of input: a command where a statement could begin, else text for
    /// the statement(s) it continues, begins or ends.
    fn input(&mut self, splitter: &mut Splitter, line: &str) -> Flow {
        if !splitter.in_statement() && command::is_command(line) {
            return self.command(line);
        }
        for statement in splitter.push_line(line) {
            self.statement(&statement);
        }
        Flow::Continue
    }

    fn statement(&mut self, text: &str) {
        self.ran += 1;
        let started = Instant::now();
        let cancel = self.interrupt.as_ref().map(interrupt::Interrupt::arm);
        match self.target.query(text, &self.params, cancel) {
            Ok(answer) => println!("{}", self.show(&answer, started.elapsed())),
            Err(error) => {
                if self
                    .interrupt
                    .as_ref()
                    .is_some_and(interrupt::Interrupt::fired)
                {
                    // The terminal echoed ^C where the cursor was.
                    eprintln!();
                }
                self.fail(&format!("{error:#}"));
            }
        }
    }

    /// A result as a table fitting the width, then its count and time, then what it
    /// committed.
    fn show(&self, answer: &Answer, elapsed: Duration) -> String {
        let mut out = String::new();
        if !answer.columns.is_empty() {
            let rows = answer.rows.iter().map(Vec::as_slice);
            out.push_str(&output::table_within(&answer.columns, rows, self.width));
        }
        let count = answer.rows.len();
        let noun = if count == 1 { "row" } else { "rows" };
        let ms = elapsed.as_secs_f64() * 1e3;
        out.push_str(&format!("{count} {noun}, {ms:.1} ms\n"));
        if let Some(commit) = answer.commit {
            out.push_str(&format!("{commit}\n"));
        }
        if let Some(plan) = &answer.plan {
            out.push_str(&output::plan_text(plan));
        }
        out.push_str(&output::notifications_text(&answer.notifications));
        out
    }

    fn command(&mut self, line: &str) -> Flow {
        self.ran += 1;
        match command::parse(line) {
            Ok(Command::Exit) => return Flow::Exit,
            Ok(Command::Help) => {
                let history = self.history.as_ref().map(|p| p.display().to_string());
                print!("{}", command::help(history.as_deref()));
            }
            Ok(Command::Params) => println!("{}", self.list_params()),
            Ok(Command::ClearParams) => self.params.clear(),
            Ok(Command::Param { name, value }) => self.set_param(name, &value),
            Err(error) => self.fail(&error.to_string()),
        }
        Flow::Continue
    }

    fn set_param(&mut self, name: String, text: &str) {
        match params::evaluate(&self.engine, text, &self.params) {
            Ok(value) => {
                println!("${name} => {}", params::literal(&value));
                match self.params.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) => slot.1 = value,
                    None => self.params.push((name, value)),
                }
            }
            Err(error) => self.fail(&error.render(text)),
        }
    }

    /// The parameters, one a line, their `=>`s aligned.
    fn list_params(&self) -> String {
        if self.params.is_empty() {
            return "no parameters; set one with :param NAME => VALUE\n".to_owned();
        }
        let width = self.params.iter().map(|(n, _)| n.chars().count()).max();
        let width = width.unwrap_or(0);
        let lines: Vec<String> = self
            .params
            .iter()
            .map(|(name, value)| format!("${name:<width$} => {}\n", params::literal(value)))
            .collect();
        lines.concat()
    }

    fn fail(&mut self, message: &str) {
        self.failed += 1;
        eprintln!("error: {message}\n");
    }
}
