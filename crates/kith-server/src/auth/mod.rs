//! Who a client is and what it may do, the same on every transport: users with
//! Argon2id password hashes in the data directory's `users.toml`, roles
//! `reader` < `writer` < `admin`, HTTP Basic / bearer tokens / Bolt HELLO-LOGON as
//! the ways to say who one is.
//!
//! The rule for when credentials are needed: `--auth none` never; otherwise whenever
//! the users file names a user. With no users a server listening only on loopback is
//! open (a developer's machine), and `kith serve` refuses any other address (checked
//! at start in [`Auth::new`]; if the last user is removed while such a server runs it
//! refuses everyone rather than open up).

mod credentials;
mod password;
mod tokens;
pub mod users;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use kith_protocol::ErrorCode as Code;

use crate::error::ExecError;
use crate::state::AppState;
pub(crate) use credentials::Credentials;
use password::Verified;
use tokens::Tokens;
pub use users::{Role, User, UserFile, UsersError, USERS_FILE};

/// Who a request runs as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Principal {
    /// `None` on an open server.
    pub(crate) user: Option<String>,
    pub(crate) role: Role,
}

impl Principal {
    /// Everyone, on an open server.
    pub(crate) const OPEN: Principal = Principal {
        user: None,
        role: Role::Admin,
    };
}

/// How the server decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// Users from the data directory (the default).
    Users,
    /// Nobody is asked (`--auth none`).
    None,
}

/// The users file as last read, and what identified that version of it.
struct Loaded {
    /// Whether the file was read (or found absent) at least once.
    read: bool,
    stamp: Option<Stamp>,
    users: Arc<BTreeMap<String, User>>,
}

/// Modification time, length and inode: `kith user` replaces the file by renaming
/// a new one over it, so the inode changes even when time and length do not.
type Stamp = (SystemTime, u64, u64);

/// The server's authenticator.
pub(crate) struct Auth {
    mode: AuthMode,
    /// The users file; `None` for a server without a data directory.
    path: Option<PathBuf>,
    /// Whether any listener is on a non-loopback address.
    exposed: bool,
    loaded: Mutex<Loaded>,
    verified: Verified,
    tokens: Tokens,
    /// Argon2 verifications at once. Each holds about 19 MiB while it runs: the
    /// pending pool's 256 connections sending wrong passwords together would otherwise
    /// hold ~5 GiB, and queue ahead of real clients' verifications without end.
    hashing: tokio::sync::Semaphore,
}

/// The `WWW-Authenticate` challenge of a 401 (RFC 7617: Basic, UTF-8 credentials).
pub(crate) const CHALLENGE: &str = "Basic realm=\"kith\", charset=\"UTF-8\"";

/// Bearer tokens alive at once, and how long each lives.
const TOKENS_MAX: usize = 10_000;
const TOKEN_LIFETIME: Duration = Duration::from_secs(3600);

impl Auth {
    /// The authenticator of a server with `data` as its data directory, listening on
    /// non-loopback addresses if `exposed`. Refuses (the error says what to do) an
    /// exposed server without users unless `mode` is `None`.
    pub(crate) fn new(
        mode: AuthMode,
        data: Option<PathBuf>,
        exposed: bool,
    ) -> Result<Auth, String> {
        let path = data.map(|d| UserFile::path_in(&d));
        let auth = Auth {
            mode,
            path,
            exposed,
            loaded: Mutex::new(Loaded {
                read: false,
                stamp: None,
                users: Arc::new(BTreeMap::new()),
            }),
            verified: Verified::new(),
            tokens: Tokens::new(TOKENS_MAX, TOKEN_LIFETIME),
            hashing: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, usize::from),
            ),
        };
        if mode == AuthMode::None {
            return Ok(auth);
        }
        let users = auth.users().map_err(|e| e.message)?;
        if users.is_empty() && exposed {
            return Err(
                "kith serve listens on a non-loopback address but no users are defined: \
                 add one with `kith user add NAME --role admin --data DIR`, or pass \
                 `--auth none` to serve everyone without credentials"
                    .into(),
            );
        }
        Ok(auth)
    }

    /// The users, re-read if the file changed. An unreadable file refuses everyone
    /// (it is logged), rather than letting anyone in.
    fn users(&self) -> Result<Arc<BTreeMap<String, User>>, ExecError> {
        let Some(path) = &self.path else {
            return Ok(Arc::new(BTreeMap::new()));
        };
        let stamp = stamp_of(path);
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        // One `stat` per check; the file is read again only when it changed (an
        // absent file stays "no users" until one appears).
        if loaded.read && loaded.stamp == stamp {
            return Ok(loaded.users.clone());
        }
        match UserFile::load(path) {
            Ok(file) => {
                self.verified.retain(|u| file.users.contains_key(u));
                *loaded = Loaded {
                    read: true,
                    stamp,
                    users: Arc::new(file.users),
                };
                Ok(loaded.users.clone())
            }
            Err(e) => {
                tracing::error!(error = %e, "the users file cannot be read; refusing logins");
                Err(ExecError::new(
                    Code::Unauthorized,
                    format!("the server cannot read its users file: {e}"),
                ))
            }
        }
    }

    /// The users by name with their roles (SHOW USERS).
    pub(crate) fn listed(&self) -> Result<Vec<(String, Role)>, ExecError> {
        let users = self.users()?;
        Ok(users
            .iter()
            .map(|(name, u)| (name.clone(), u.role))
            .collect())
    }

    /// Whether a client must authenticate now (an unreadable users file: yes).
    pub(crate) fn asks_credentials(&self) -> bool {
        !matches!(self.required(), Ok(None))
    }

    /// The users when credentials are needed, `None` when the server is open.
    fn required(&self) -> Result<Option<Arc<BTreeMap<String, User>>>, ExecError> {
        if self.mode == AuthMode::None {
            return Ok(None);
        }
        let users = self.users()?;
        match (users.is_empty(), self.exposed) {
            (true, false) => Ok(None),
            (true, true) => Err(ExecError::new(
                Code::Unauthorized,
                "no users are defined and this server listens beyond loopback: \
                 add one with `kith user add`",
            )),
            (false, _) => Ok(Some(users)),
        }
    }

    /// Who `credentials` are, without Argon2: `None` when a password must be
    /// verified the slow way ([`Auth::authenticate`], off the I/O threads).
    pub(crate) fn authenticate_fast(
        &self,
        credentials: &Credentials,
    ) -> Option<Result<Principal, ExecError>> {
        let users = match self.required() {
            Ok(None) => return Some(Ok(Principal::OPEN)),
            Ok(Some(users)) => users,
            Err(e) => return Some(Err(e)),
        };
        match credentials {
            Credentials::None => Some(Err(ExecError::new(
                Code::Unauthorized,
                "this server requires authentication: a user name and password \
                 (HTTP Basic, Bolt basic) or a bearer token from POST /v1/auth/token",
            ))),
            Credentials::Bearer(token) => Some(self.bearer(&users, token)),
            Credentials::Basic { user, password } => match users.get(user) {
                Some(u) if self.verified.hit(user, &u.hash, password) => {
                    Some(Ok(principal(user, u)))
                }
                _ => None,
            },
        }
    }

    /// Who `credentials` are. May verify a password with Argon2 (tens of ms of CPU):
    /// call it where blocking is fine.
    pub(crate) fn authenticate(&self, credentials: &Credentials) -> Result<Principal, ExecError> {
        if let Some(done) = self.authenticate_fast(credentials) {
            return done;
        }
        let Credentials::Basic { user, password } = credentials else {
            unreachable!("only passwords take the slow path");
        };
        let users = self.users()?;
        match users.get(user) {
            Some(u) if password::verify(&u.hash, password) => {
                self.verified.remember(user, &u.hash, password);
                Ok(principal(user, u))
            }
            Some(_) => Err(wrong()),
            None => {
                // As long as for a known user, so timing does not tell names apart.
                password::verify(dummy_hash(), password);
                Err(wrong())
            }
        }
    }

    fn bearer(&self, users: &BTreeMap<String, User>, token: &str) -> Result<Principal, ExecError> {
        let expired = || {
            ExecError::new(
                Code::Unauthorized,
                "the bearer token is unknown, expired, or its user's password changed: \
                 get a new one from POST /v1/auth/token",
            )
        };
        let grant = self.tokens.grant(token).ok_or_else(expired)?;
        match users.get(&grant.user) {
            Some(u) if u.hash == grant.hash => Ok(principal(&grant.user, u)),
            _ => Err(expired()),
        }
    }

    /// A bearer token for an authenticated user, and its lifetime.
    pub(crate) fn issue_token(&self, who: &Principal) -> Result<(String, Duration), ExecError> {
        let refuse = |why: &str| ExecError::new(Code::BadRequest, why.to_owned());
        let Some(name) = &who.user else {
            return Err(refuse(
                "this server is open: there are no users to issue a token for",
            ));
        };
        let users = self.users()?;
        let user = users.get(name).ok_or_else(|| refuse("the user is gone"))?;
        Ok((self.tokens.issue(name, &user.hash), self.tokens.lifetime()))
    }
}

/// Who `credentials` are, from an async handler: a password that must be verified
/// with Argon2 is verified on tokio's blocking threads, not the I/O threads.
pub(crate) async fn who(
    state: &Arc<AppState>,
    credentials: Credentials,
) -> Result<Principal, ExecError> {
    let who = match state.auth.authenticate_fast(&credentials) {
        Some(done) => done,
        None => {
            // Bounded like every queue: a connection waits here within its own
            // auth deadline.
            let _permit = state.auth.hashing.acquire().await;
            let state = state.clone();
            tokio::task::spawn_blocking(move || state.auth.authenticate(&credentials))
                .await
                .unwrap_or_else(|_| Err(ExecError::new(Code::Internal, "authentication panicked")))
        }
    };
    if who.is_ok() {
        // On an HTTP connection: it leaves the pending pool (a no-op elsewhere).
        crate::admission::http::authenticated();
    }
    who
}

/// Who sends an HTTP request or a WebSocket handshake: its `Authorization` header.
pub(crate) async fn of_headers(
    state: &Arc<AppState>,
    headers: &axum::http::HeaderMap,
) -> Result<Principal, ExecError> {
    let header = headers
        .get(axum::http::header::AUTHORIZATION)
        .map(|v| v.as_bytes());
    who(state, Credentials::from_header(header)?).await
}

fn principal(name: &str, user: &User) -> Principal {
    Principal {
        user: Some(name.to_owned()),
        role: user.role,
    }
}

/// One message for an unknown user and a wrong password: which it was is not told.
fn wrong() -> ExecError {
    ExecError::new(
        Code::Unauthorized,
        "authentication failed: unknown user or wrong password",
    )
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| password::hash("kith-dummy-password").unwrap_or_default())
}

fn stamp_of(path: &std::path::Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some((meta.modified().ok()?, meta.len(), inode))
}

/// Whether a transaction changes the schema: an index, a constraint, a stored
/// procedure.
pub(crate) fn touches_schema(ops: &[kith_core::write_op::WriteOp]) -> bool {
    ops.iter().any(is_schema)
}

/// Whether an operation changes the schema.
pub(crate) fn is_schema(op: &kith_core::write_op::WriteOp) -> bool {
    matches!(
        op,
        kith_core::write_op::WriteOp::CreateIndex { .. }
            | kith_core::write_op::WriteOp::DropIndex { .. }
            | kith_core::write_op::WriteOp::Schema(_)
    )
}

/// Refuses what the role may not do. `writes`: the request changes the graph;
/// `schema`: it creates or drops an index.
pub(crate) fn permit(role: Role, writes: bool, schema: bool) -> Result<(), ExecError> {
    let (allowed, what) = if schema {
        (role.may_administer(), "change the schema (an admin may)")
    } else {
        (
            !writes || role.may_write(),
            "write (a writer or an admin may)",
        )
    };
    if allowed {
        Ok(())
    } else {
        Err(ExecError::new(
            Code::Forbidden,
            format!("the role `{role}` may not {what}"),
        ))
    }
}

#[cfg(test)]
mod tests;
