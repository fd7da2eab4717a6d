//! Password hashing: Argon2id with a random salt per password (the `argon2` crate's
//! defaults, OWASP's recommended minimum: 19 MiB, 2 passes). Verifying costs tens of
//! milliseconds on purpose, so [`Verified`] remembers, per user, a keyed digest of the
//! last password that verified: HTTP Basic sends the password with every request.

use std::collections::HashMap;
use std::sync::Mutex;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use blake2::digest::{FixedOutput, KeyInit, Update};
use blake2::Blake2bMac512;

use super::users::UsersError;

/// Longest password accepted: Argon2 takes any length, but a megabyte "password" in
/// a header is an attack on the CPU, not a credential.
pub(crate) const PASSWORD_BYTES_MAX: usize = 1024;

/// Hashes a new password.
pub(crate) fn hash(password: &str) -> Result<String, UsersError> {
    if password.is_empty() {
        return Err(UsersError::BadPassword("it is empty"));
    }
    if password.len() > PASSWORD_BYTES_MAX {
        return Err(UsersError::BadPassword("it is over 1,024 bytes"));
    }
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| UsersError::BadPassword("it cannot be hashed"))
}

/// Whether `password` is the one `hash` was made from. A malformed hash verifies
/// nothing.
pub(crate) fn verify(hash: &str, password: &str) -> bool {
    if password.len() > PASSWORD_BYTES_MAX {
        return false;
    }
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// Per user, the stored hash and a digest (keyed with a secret of this process) of
/// the password last verified against it. A hit skips Argon2; a changed hash (a new
/// password in the users file) misses. One entry per user, so it is bounded by the
/// users file.
pub(crate) struct Verified {
    key: [u8; 32],
    entries: Mutex<HashMap<String, (String, [u8; 64])>>,
}

impl Verified {
    pub(crate) fn new() -> Verified {
        let mut key = [0u8; 32];
        OsRng.fill_bytes(&mut key);
        Verified {
            key,
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn digest(&self, password: &str) -> [u8; 64] {
        let mut mac = <Blake2bMac512 as KeyInit>::new_from_slice(&self.key)
            .expect("32 bytes is a valid BLAKE2b key");
        mac.update(password.as_bytes());
        mac.finalize_fixed().into()
    }

    /// Whether this password verified against this hash before.
    pub(crate) fn hit(&self, user: &str, hash: &str, password: &str) -> bool {
        let digest = self.digest(password);
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        matches!(entries.get(user), Some((h, d)) if h == hash && *d == digest)
    }

    /// Remembers a password that verified.
    pub(crate) fn remember(&self, user: &str, hash: &str, password: &str) {
        let digest = self.digest(password);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.insert(user.to_owned(), (hash.to_owned(), digest));
    }

    /// Forgets users no longer in the file.
    pub(crate) fn retain(&self, keep: impl Fn(&str) -> bool) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|user, _| keep(user));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_salted_and_verify_only_their_password() {
        let a = hash("correct horse").expect("hash");
        let b = hash("correct horse").expect("hash");
        assert_ne!(a, b, "a random salt per hash");
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert!(verify(&a, "correct horse"));
        assert!(!verify(&a, "correct horsE"));
        assert!(!verify("not a hash", "correct horse"));
        assert!(!verify(&a, &"x".repeat(PASSWORD_BYTES_MAX + 1)));
    }

    #[test]
    fn the_cache_misses_on_another_password_or_a_new_hash() {
        let verified = Verified::new();
        verified.remember("ann", "$h1", "pw");
        assert!(verified.hit("ann", "$h1", "pw"));
        assert!(!verified.hit("ann", "$h1", "pW"));
        assert!(
            !verified.hit("ann", "$h2", "pw"),
            "the password was changed"
        );
        assert!(!verified.hit("bob", "$h1", "pw"));
        verified.retain(|u| u != "ann");
        assert!(!verified.hit("ann", "$h1", "pw"));
    }
}
