//! Bearer tokens for HTTP and WebSocket clients that should not send a password with
//! every request (`POST /v1/auth/token` issues one). They live in memory: a restart
//! ends them all, and so does a change of the user's password or its removal (a
//! token remembers the hash it was issued under).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::{OsRng, RngCore};
use base64::Engine as _;

/// What a token stands for.
#[derive(Clone, Debug)]
pub(crate) struct Grant {
    pub(crate) user: String,
    /// The user's password hash when the token was issued.
    pub(crate) hash: String,
    expires: Instant,
}

/// The tokens issued and not expired, at most `max` of them.
pub(crate) struct Tokens {
    max: usize,
    lifetime: Duration,
    grants: Mutex<HashMap<String, Grant>>,
}

/// The prefix every token has, so one pasted into the wrong place is recognisable.
const PREFIX: &str = "kith_";

impl Tokens {
    pub(crate) fn new(max: usize, lifetime: Duration) -> Tokens {
        assert!(max > 0, "a token store holds at least one token");
        Tokens {
            max,
            lifetime,
            grants: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn lifetime(&self) -> Duration {
        self.lifetime
    }

    /// A new token for `user`. When the store is full the expired tokens go, then
    /// the one closest to expiring: the bound holds whatever clients do.
    pub(crate) fn issue(&self, user: &str, hash: &str) -> String {
        let mut bytes = [0u8; 32];
        OsRng.fill_bytes(&mut bytes);
        let token = format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
        );
        let now = Instant::now();
        let mut grants = self.grants.lock().unwrap_or_else(|e| e.into_inner());
        if grants.len() >= self.max {
            grants.retain(|_, g| g.expires > now);
        }
        if grants.len() >= self.max {
            let soonest = grants
                .iter()
                .min_by_key(|(_, g)| g.expires)
                .map(|(t, _)| t.clone());
            if let Some(t) = soonest {
                grants.remove(&t);
            }
        }
        let grant = Grant {
            user: user.to_owned(),
            hash: hash.to_owned(),
            expires: now + self.lifetime,
        };
        grants.insert(token.clone(), grant);
        debug_assert!(grants.len() <= self.max);
        token
    }

    /// The grant of a live token.
    pub(crate) fn grant(&self, token: &str) -> Option<Grant> {
        if !token.starts_with(PREFIX) {
            return None;
        }
        let mut grants = self.grants.lock().unwrap_or_else(|e| e.into_inner());
        match grants.get(token) {
            Some(g) if g.expires > Instant::now() => Some(g.clone()),
            Some(_) => {
                grants.remove(token);
                None
            }
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_bounded_and_expire() {
        let tokens = Tokens::new(2, Duration::from_secs(60));
        let a = tokens.issue("ann", "$h");
        let b = tokens.issue("bob", "$h");
        assert_ne!(a, b);
        assert!(a.starts_with(PREFIX) && a.len() > 40, "{a}");
        assert_eq!(tokens.grant(&a).expect("live").user, "ann");
        let c = tokens.issue("cy", "$h");
        assert!(tokens.grant(&a).is_none(), "the oldest made room");
        assert!(tokens.grant(&b).is_some() && tokens.grant(&c).is_some());
        assert!(tokens.grant("kith_forged").is_none());
        assert!(tokens.grant("").is_none());
        let short = Tokens::new(4, Duration::ZERO);
        let gone = short.issue("ann", "$h");
        assert!(short.grant(&gone).is_none(), "expired");
    }
}
