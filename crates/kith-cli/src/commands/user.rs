//! `kith user add|passwd|role|remove|list`: the users of a data directory
//! (`users.toml`, Argon2id hashes). A running server picks changes up at the next
//! login, without a restart.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use kith_server::auth::{Role, UserFile};

use crate::data_dir::DEFAULT_DIR;

/// What to do with a data directory's users.
#[derive(Subcommand)]
pub enum Action {
    /// Add a user (asks for the password, or reads it from stdin).
    Add {
        /// The user name (letters, digits, . _ - @).
        name: String,
        /// reader (reads), writer (reads and writes) or admin (also indexes).
        #[arg(long)]
        role: Role,
        #[command(flatten)]
        common: Common,
        /// Read the password as one line from stdin instead of asking.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set a user's password.
    Passwd {
        /// The user name.
        name: String,
        #[command(flatten)]
        common: Common,
        /// Read the password as one line from stdin instead of asking.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set a user's role.
    Role {
        /// The user name.
        name: String,
        /// reader, writer or admin.
        role: Role,
        #[command(flatten)]
        common: Common,
    },
    /// Remove a user.
    Remove {
        /// The user name.
        name: String,
        #[command(flatten)]
        common: Common,
    },
    /// List the users and their roles.
    List {
        #[command(flatten)]
        common: Common,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Options every action takes.
#[derive(clap::Args)]
pub struct Common {
    /// Data directory [default: ./kith-data].
    #[arg(long)]
    data: Option<PathBuf>,
}

impl Common {
    fn path(&self) -> PathBuf {
        let dir = self
            .data
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR));
        UserFile::path_in(&dir)
    }
}

pub fn run(action: Action) -> Result<()> {
    match action {
        Action::Add {
            name,
            role,
            common,
            password_stdin,
        } => edit(&common.path(), |file| {
            let password = read_password(&name, password_stdin)?;
            file.add(&name, role, &password)?;
            Ok(format!("added {name} ({role})"))
        }),
        Action::Passwd {
            name,
            common,
            password_stdin,
        } => edit(&common.path(), |file| {
            if !file.users.contains_key(&name) {
                bail!("there is no user `{name}`");
            }
            let password = read_password(&name, password_stdin)?;
            file.passwd(&name, &password)?;
            Ok(format!("changed the password of {name}"))
        }),
        Action::Role { name, role, common } => edit(&common.path(), |file| {
            file.set_role(&name, role)?;
            Ok(format!("{name} is now {role}"))
        }),
        Action::Remove { name, common } => edit(&common.path(), |file| {
            file.remove(&name)?;
            Ok(format!("removed {name}"))
        }),
        Action::List { common, json } => list(&common.path(), json),
    }
}

/// Loads the file, applies `change`, saves it, and prints what was done.
fn edit(path: &Path, change: impl FnOnce(&mut UserFile) -> Result<String>) -> Result<()> {
    let mut file = UserFile::load(path)?;
    let done = change(&mut file)?;
    file.save(path)
        .with_context(|| format!("saving {}", path.display()))?;
    println!("{done} in {}", path.display());
    Ok(())
}

fn list(path: &Path, json: bool) -> Result<()> {
    let file = UserFile::load(path)?;
    if json {
        let users: Vec<_> = file
            .users
            .iter()
            .map(|(name, u)| serde_json::json!({"name": name, "role": u.role.as_str()}))
            .collect();
        println!("{}", serde_json::Value::Array(users));
        return Ok(());
    }
    if file.users.is_empty() {
        println!(
            "no users in {} (a server on loopback is open to everyone)",
            path.display()
        );
    }
    for (name, user) in &file.users {
        println!("{name}\t{}", user.role);
    }
    Ok(())
}

/// The password: one line of stdin, or asked twice at the terminal without echo.
fn read_password(name: &str, from_stdin: bool) -> Result<String> {
    if from_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password")?;
        let password = line.trim_end_matches(['\n', '\r']).to_owned();
        if password.is_empty() {
            bail!("no password on stdin");
        }
        return Ok(password);
    }
    if !std::io::stdin().is_terminal() {
        bail!("stdin is not a terminal to ask for a password at: pass --password-stdin");
    }
    let first = rpassword::prompt_password(format!("password for {name}: "))?;
    let second = rpassword::prompt_password("again: ")?;
    if first != second {
        bail!("the two passwords differ; nothing was changed");
    }
    Ok(first)
}
