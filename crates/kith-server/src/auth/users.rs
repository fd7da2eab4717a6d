//! The users file: `users.toml` in the data directory, one entry per user with its
//! role and a salted Argon2id hash of its password (PHC string), never the password.
//! `kith user` edits it; the server re-reads it when it changes, so a user added or
//! removed takes effect without a restart.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The file's name inside the data directory.
pub const USERS_FILE: &str = "users.toml";

/// What a user may do. Each role may do what the ones before it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Procedures and Cypher that only read.
    Reader,
    /// Also writes: write requests, update procedures, Cypher that writes.
    Writer,
    /// Also the schema (creating and dropping indexes).
    Admin,
}

impl Role {
    /// Whether the role may change the graph.
    pub fn may_write(self) -> bool {
        self >= Role::Writer
    }

    /// Whether the role may change the schema.
    pub fn may_administer(self) -> bool {
        self == Role::Admin
    }

    /// The role's name, as in the file and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Reader => "reader",
            Role::Writer => "writer",
            Role::Admin => "admin",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Role, String> {
        match s {
            "reader" => Ok(Role::Reader),
            "writer" => Ok(Role::Writer),
            "admin" => Ok(Role::Admin),
            other => Err(format!(
                "unknown role `{other}`: roles are reader, writer, admin"
            )),
        }
    }
}

/// One user as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct User {
    /// What the user may do.
    pub role: Role,
    /// The password's Argon2id hash as a PHC string (algorithm, parameters, salt, hash).
    pub hash: String,
}

/// The whole file: users by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserFile {
    /// Users by name (sorted, so the file diffs well).
    #[serde(default, rename = "user")]
    pub users: BTreeMap<String, User>,
}

/// Why the users file could not be read, written or changed.
#[derive(Debug)]
pub enum UsersError {
    /// The file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The file is not a valid users file.
    Invalid(PathBuf, String),
    /// `add` of a name that exists.
    Exists(String),
    /// `passwd` or `remove` of a name that does not.
    NoSuchUser(String),
    /// A user name that cannot be used.
    BadName(String),
    /// A password that cannot be used.
    BadPassword(&'static str),
}

impl fmt::Display for UsersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsersError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            UsersError::Invalid(path, why) => {
                write!(f, "{} is not a valid users file: {why}", path.display())
            }
            UsersError::Exists(name) => write!(
                f,
                "user `{name}` exists already (`kith user passwd` changes a password)"
            ),
            UsersError::NoSuchUser(name) => write!(f, "there is no user `{name}`"),
            UsersError::BadName(why) => write!(f, "bad user name: {why}"),
            UsersError::BadPassword(why) => write!(f, "bad password: {why}"),
        }
    }
}

impl std::error::Error for UsersError {}

impl UserFile {
    /// The users file of a data directory.
    pub fn path_in(data: &Path) -> PathBuf {
        data.join(USERS_FILE)
    }

    /// Reads the file; a missing file is no users.
    pub fn load(path: &Path) -> Result<UserFile, UsersError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(UserFile::default()),
            Err(e) => return Err(UsersError::Io(path.to_owned(), e)),
        };
        let file: UserFile = toml::from_str(&text)
            .map_err(|e| UsersError::Invalid(path.to_owned(), e.to_string()))?;
        for (name, user) in &file.users {
            check_name(name).map_err(|e| UsersError::Invalid(path.to_owned(), e.to_string()))?;
            if !user.hash.starts_with("$argon2") {
                let why = format!("user `{name}`: the hash is not an Argon2 PHC string");
                return Err(UsersError::Invalid(path.to_owned(), why));
            }
        }
        Ok(file)
    }

    /// Writes the file whole: to a temporary file, synced, then renamed over the old
    /// one, so a reader (the server) sees the old or the new file, never half of one.
    /// Only its owner may read it (hashes are still worth guessing at).
    pub fn save(&self, path: &Path) -> Result<(), UsersError> {
        let io = |e| UsersError::Io(path.to_owned(), e);
        let text = toml::to_string(self)
            .map_err(|e| UsersError::Invalid(path.to_owned(), e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io)?;
        let temporary = path.with_extension("toml.tmp");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temporary).map_err(io)?;
        file.write_all(HEADER.as_bytes()).map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)?;
        if let Ok(dir) = std::fs::File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Adds a user.
    pub fn add(&mut self, name: &str, role: Role, password: &str) -> Result<(), UsersError> {
        check_name(name)?;
        if self.users.contains_key(name) {
            return Err(UsersError::Exists(name.to_owned()));
        }
        let hash = super::password::hash(password)?;
        self.users.insert(name.to_owned(), User { role, hash });
        Ok(())
    }

    /// Sets a user's password.
    pub fn passwd(&mut self, name: &str, password: &str) -> Result<(), UsersError> {
        let hash = super::password::hash(password)?;
        let user = self
            .users
            .get_mut(name)
            .ok_or_else(|| UsersError::NoSuchUser(name.to_owned()))?;
        user.hash = hash;
        Ok(())
    }

    /// Sets a user's role.
    pub fn set_role(&mut self, name: &str, role: Role) -> Result<(), UsersError> {
        let user = self
            .users
            .get_mut(name)
            .ok_or_else(|| UsersError::NoSuchUser(name.to_owned()))?;
        user.role = role;
        Ok(())
    }

    /// Removes a user.
    pub fn remove(&mut self, name: &str) -> Result<(), UsersError> {
        self.users
            .remove(name)
            .map(|_| ())
            .ok_or_else(|| UsersError::NoSuchUser(name.to_owned()))
    }
}

const HEADER: &str = "# kith users: edit with `kith user add|passwd|remove|list`.\n\
                      # Hashes are Argon2id; the passwords are not stored.\n\n";

/// User names: what fits in an HTTP Basic header and a log line unambiguously.
fn check_name(name: &str) -> Result<(), UsersError> {
    if name.is_empty() || name.len() > 64 {
        return Err(UsersError::BadName(format!(
            "`{name}`: a name has 1 to 64 characters"
        )));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || "._-@".contains(c);
    if !name.chars().all(allowed) {
        return Err(UsersError::BadName(format!(
            "`{name}`: a name holds letters, digits and . _ - @ only"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_file_loads_back_and_holds_no_password() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = UserFile::path_in(dir.path());
        let mut file = UserFile::default();
        file.add("ann", Role::Writer, "s3cret-pass").expect("add");
        file.add("bob", Role::Reader, "another-one").expect("add");
        file.save(&path).expect("save");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains("s3cret-pass"), "{text}");
        assert!(text.contains("$argon2id$"), "{text}");
        assert_eq!(UserFile::load(&path).expect("load"), file);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o077, 0, "only the owner reads the users file");
        }
    }

    #[test]
    fn bad_names_roles_files_and_duplicates_are_refused() {
        let mut file = UserFile::default();
        assert!(matches!(
            file.add("", Role::Admin, "password1"),
            Err(UsersError::BadName(_))
        ));
        assert!(matches!(
            file.add("a b", Role::Admin, "password1"),
            Err(UsersError::BadName(_))
        ));
        assert!(matches!(
            file.add("a", Role::Admin, ""),
            Err(UsersError::BadPassword(_))
        ));
        file.add("a", Role::Admin, "password1").expect("add");
        assert!(matches!(
            file.add("a", Role::Reader, "password2"),
            Err(UsersError::Exists(_))
        ));
        assert!(matches!(file.remove("zed"), Err(UsersError::NoSuchUser(_))));
        let unknown = "owner".parse::<Role>().expect_err("no such role");
        assert!(unknown.contains("reader, writer, admin"), "{unknown}");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(USERS_FILE);
        std::fs::write(&path, "[user.x]\nrole = \"reader\"\nhash = \"plain\"\n").expect("write");
        let error = UserFile::load(&path).expect_err("not a hash").to_string();
        assert!(error.contains("not an Argon2 PHC string"), "{error}");
        std::fs::write(&path, "[user.x]\nrole = \"king\"\nhash = \"$argon2id$\"\n").expect("write");
        assert!(matches!(
            UserFile::load(&path),
            Err(UsersError::Invalid(..))
        ));
    }
}
