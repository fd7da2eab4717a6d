//! What a client presents: nothing, a user name and password, or a bearer token,
//! read from an HTTP `Authorization` header (HTTP and the WebSocket handshake), the
//! `access_token` query parameter (browsers cannot set headers on a WebSocket,
//! RFC 6750 2.3), or Bolt's HELLO/LOGON map.

use base64::Engine as _;
use kith_protocol::bolt::Pack;
use kith_protocol::ErrorCode as Code;

use crate::error::ExecError;

/// A client's credentials.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Credentials {
    None,
    Basic { user: String, password: String },
    Bearer(String),
}

/// Passwords never reach a log through `{:?}`.
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::None => f.write_str("None"),
            Credentials::Basic { user, .. } => write!(f, "Basic({user}, ***)"),
            Credentials::Bearer(_) => f.write_str("Bearer(***)"),
        }
    }
}

fn unauthorized(message: impl Into<String>) -> ExecError {
    ExecError::new(Code::Unauthorized, message)
}

impl Credentials {
    /// From an `Authorization` header's value (`None`: no header).
    pub(crate) fn from_header(value: Option<&[u8]>) -> Result<Credentials, ExecError> {
        let Some(value) = value else {
            return Ok(Credentials::None);
        };
        let value = std::str::from_utf8(value)
            .map_err(|_| unauthorized("the Authorization header is not UTF-8"))?;
        let (scheme, rest) = value.trim().split_once(' ').unwrap_or((value, ""));
        match scheme.to_ascii_lowercase().as_str() {
            "basic" => basic(rest.trim()),
            "bearer" if !rest.trim().is_empty() => Ok(Credentials::Bearer(rest.trim().to_owned())),
            _ => Err(unauthorized(format!(
                "the Authorization header must be `Basic <base64 user:password>` or \
                 `Bearer <token>`, not `{}`",
                scheme.chars().take(20).collect::<String>()
            ))),
        }
    }

    /// From a request's query string: its `access_token`, if any.
    pub(crate) fn from_query(query: Option<&str>) -> Option<Credentials> {
        query?
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == "access_token")
            .map(|(_, token)| Credentials::Bearer(token.to_owned()))
    }

    /// From Bolt's authentication map: schemes `none`, `basic` (principal and
    /// credentials) and `bearer` (credentials).
    pub(crate) fn from_bolt(auth: &Pack) -> Result<Credentials, ExecError> {
        let text = |key: &str| auth.get(key).and_then(Pack::as_str).map(str::to_owned);
        match auth.get("scheme").and_then(Pack::as_str) {
            None | Some("none") => Ok(Credentials::None),
            Some("basic") => match (text("principal"), text("credentials")) {
                (Some(user), Some(password)) => Ok(Credentials::Basic { user, password }),
                _ => Err(unauthorized(
                    "basic authentication needs a principal and credentials",
                )),
            },
            Some("bearer") => text("credentials")
                .map(Credentials::Bearer)
                .ok_or_else(|| unauthorized("bearer authentication needs credentials")),
            Some(other) => Err(unauthorized(format!(
                "unsupported authentication scheme `{other}`: kith takes basic, bearer or none"
            ))),
        }
    }
}

/// `base64(user:password)`.
fn basic(encoded: &str) -> Result<Credentials, ExecError> {
    let bad = || unauthorized("the Basic credentials are not base64 of `user:password`");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| bad())?;
    let text = String::from_utf8(decoded).map_err(|_| bad())?;
    let (user, password) = text.split_once(':').ok_or_else(bad)?;
    Ok(Credentials::Basic {
        user: user.to_owned(),
        password: password.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(v: &str) -> Result<Credentials, ExecError> {
        Credentials::from_header(Some(v.as_bytes()))
    }

    #[test]
    fn headers_parse_or_say_what_is_wrong() {
        // "ann:pa:ss" — the password may hold a colon.
        assert_eq!(
            header("Basic YW5uOnBhOnNz").expect("basic"),
            Credentials::Basic {
                user: "ann".into(),
                password: "pa:ss".into()
            }
        );
        assert_eq!(
            header("bearer kith_x").expect("bearer"),
            Credentials::Bearer("kith_x".into())
        );
        assert_eq!(
            Credentials::from_header(None).expect("none"),
            Credentials::None
        );
        for bad in ["Basic !!!", "Basic YW5u", "Digest x", "Bearer ", "Basic"] {
            let e = header(bad).expect_err(bad);
            assert_eq!(e.code, Code::Unauthorized, "{bad}");
        }
        assert!(!format!("{:?}", header("Basic YW5uOnBhOnNz").expect("basic")).contains("pa:ss"));
    }

    #[test]
    fn query_tokens_and_bolt_maps() {
        assert_eq!(
            Credentials::from_query(Some("a=1&access_token=kith_t")),
            Some(Credentials::Bearer("kith_t".into()))
        );
        assert_eq!(Credentials::from_query(Some("a=1")), None);
        let s = |v: &str| Pack::String(v.into());
        let map = |pairs: Vec<(&str, Pack)>| {
            Pack::Map(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
        };
        let basic = map(vec![
            ("scheme", s("basic")),
            ("principal", s("u")),
            ("credentials", s("p")),
        ]);
        assert_eq!(
            Credentials::from_bolt(&basic).expect("basic"),
            Credentials::Basic {
                user: "u".into(),
                password: "p".into()
            }
        );
        assert_eq!(
            Credentials::from_bolt(&map(vec![])).expect("none"),
            Credentials::None
        );
        assert!(Credentials::from_bolt(&map(vec![("scheme", s("basic"))])).is_err());
        assert!(Credentials::from_bolt(&map(vec![("scheme", s("kerberos"))])).is_err());
    }
}
