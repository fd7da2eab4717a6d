//! `SHOW USERS` and `SHOW CURRENT USER`, in Neo4j 5's columns (`user`, `roles`,
//! `passwordChangeRequired`, `suspended`, `home`): the users of the data directory's
//! users file (`kith user`, docs/security.md), each with its one role. Listing every
//! user takes the admin role; anyone sees themself. An open server (no users) lists
//! none, as Neo4j's current user is none with authentication off.

use std::sync::Arc;

use kith_core::Value;
use kith_protocol::ErrorCode as Code;

use crate::auth::Role;
use crate::error::ExecError;
use crate::running::Origin;
use crate::state::AppState;

/// The columns, as Neo4j 5 gives them.
pub(super) const COLUMNS: &[&str] = &[
    "user",
    "roles",
    "passwordChangeRequired",
    "suspended",
    "home",
];

/// Whether `noun` (and the word after it, `rest`) names a users listing: `Some(true)`
/// for `CURRENT USER`, `Some(false)` for `USERS`.
pub(super) fn noun(noun: &str, rest: &str) -> Option<bool> {
    if noun.eq_ignore_ascii_case("USERS") {
        return Some(false);
    }
    let next = rest.split_whitespace().next().unwrap_or("");
    (noun.eq_ignore_ascii_case("CURRENT") && next.eq_ignore_ascii_case("USER")).then_some(true)
}

/// The rows: every user, or (`current`) the one asking.
pub(super) fn rows(
    state: &AppState,
    current: bool,
    role: Role,
    origin: &Origin,
) -> Result<Vec<Value>, ExecError> {
    if !current && origin.user.is_some() && !role.may_administer() {
        return Err(ExecError::new(
            Code::Forbidden,
            format!(
                "SHOW USERS needs the admin role, and `{}` is {}: SHOW CURRENT USER shows your own",
                origin.user.as_deref().unwrap_or_default(),
                role.as_str()
            ),
        ));
    }
    let users = state.auth.listed()?;
    let wanted = |name: &str| !current || origin.user.as_deref() == Some(name);
    Ok(users
        .into_iter()
        .filter(|(name, _)| wanted(name))
        .map(|(n, r)| row(&n, r))
        .collect())
}

fn row(name: &str, role: Role) -> Value {
    let fields = [
        ("user", Value::string(name)),
        ("roles", Value::List(vec![Value::string(role.as_str())])),
        ("passwordChangeRequired", Value::Bool(false)),
        ("suspended", Value::Bool(false)),
        ("home", Value::Null),
    ];
    Value::Map(fields.into_iter().map(|(k, v)| (Arc::from(k), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_and_current_user_are_recognised() {
        assert_eq!(noun("USERS", ""), Some(false));
        assert_eq!(noun("users", " YIELD user"), Some(false));
        assert_eq!(noun("CURRENT", " USER"), Some(true));
        assert_eq!(noun("CURRENT", " USERS"), None);
        assert_eq!(noun("TRANSACTIONS", ""), None);
    }

    #[test]
    fn a_row_has_every_column() {
        let Value::Map(entries) = row("ada", Role::Admin) else {
            panic!("a map");
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| &**k).collect();
        assert_eq!(keys, COLUMNS);
    }
}
