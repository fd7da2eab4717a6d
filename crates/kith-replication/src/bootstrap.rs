//! A replica's first state: the primary's checkpoint, fetched over HTTP.
//!
//! `GET /v1/checkpoint` on the primary answers a graph file of its current version,
//! streamed, with the version, the topic, the Kafka offset from which every later
//! record can be read, and the file's CRC-32 in headers (docs/replication.md).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use base64::Engine;

use crate::ReplicationError;

/// The headers of a checkpoint answer.
pub mod header {
    /// The version the graph file holds.
    pub const VERSION: &str = "kith-version";
    /// The topic the primary publishes to.
    pub const TOPIC: &str = "kith-log-topic";
    /// Reading the topic from this offset yields every record after the version.
    pub const OFFSET: &str = "kith-log-offset";
    /// CRC-32 of the body, 8 hex digits.
    pub const CRC32: &str = "kith-crc32";
}

/// What a fetched checkpoint holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Its version.
    pub version: u64,
    /// The topic its primary publishes to.
    pub topic: String,
    /// Where in the topic the records after it start.
    pub offset: i64,
    /// Its size in bytes.
    pub bytes: u64,
}

fn failed(primary: &str, why: impl std::fmt::Display) -> ReplicationError {
    ReplicationError::Bootstrap {
        primary: primary.to_owned(),
        reason: why.to_string(),
    }
}

/// `http://user:password@host:port` without its credentials: what may be shown
/// (in logs, `/health`, error messages).
pub fn without_credentials(primary: &str) -> String {
    credentials(primary).0
}

/// Splits `http://user:password@host:port` into the address without credentials and
/// an `Authorization` header value. The credentials end at the last `@` (a host never
/// holds one), so a password with an unescaped `/` is still taken out, never shown;
/// `%XX` escapes in them are decoded (`p%40ss` is `p@ss`).
fn credentials(primary: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = primary.split_once("://") else {
        return (primary.to_owned(), None);
    };
    let Some((userinfo, host)) = rest.rsplit_once('@') else {
        return (primary.to_owned(), None);
    };
    let decoded: Vec<u8> = percent_encoding::percent_decode_str(userinfo).collect();
    let token = base64::engine::general_purpose::STANDARD.encode(decoded);
    (format!("{scheme}://{host}"), Some(format!("Basic {token}")))
}

/// Fetches the checkpoint of the primary at `primary` (its HTTP base address) into
/// `dest`, checking its CRC-32 as it streams. `dest` is synced before this returns.
/// `stop`, when set, ends the transfer (a replica shutting down).
pub fn fetch(
    primary: &str,
    dest: &Path,
    stop: Option<&AtomicBool>,
) -> Result<Checkpoint, ReplicationError> {
    let got = download(primary, "/v1/checkpoint", dest, stop)?;
    let base = without_credentials(primary);
    let text = |name: &str| -> Result<String, ReplicationError> {
        got.header(name).map(str::to_owned).ok_or_else(|| {
            failed(&base, format!("the answer has no {name} header (is it a kith primary started with --publish?)"))
        })
    };
    let offset = text(header::OFFSET)?
        .parse::<i64>()
        .map_err(|e| failed(&base, format!("header {}: {e}", header::OFFSET)))?;
    Ok(Checkpoint {
        version: got.version,
        topic: text(header::TOPIC)?,
        offset,
        bytes: got.bytes,
    })
}

/// A graph file a server answered.
#[derive(Clone, Debug)]
pub struct Downloaded {
    /// The version it holds.
    pub version: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its CRC-32, checked.
    pub crc32: u32,
    headers: Vec<(String, String)>,
}

impl Downloaded {
    /// A header of the answer.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Fetches the graph file a kith server answers at `path` (`/v1/checkpoint`,
/// `/v1/backup`) into `dest`, checking its CRC-32 as it streams; `dest` is synced
/// before this returns. Credentials in `server` (`http://user:password@host:port`)
/// go into an `Authorization` header.
pub fn download(
    server: &str,
    path: &str,
    dest: &Path,
    stop: Option<&AtomicBool>,
) -> Result<Downloaded, ReplicationError> {
    let (base, authorization) = credentials(server);
    let agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(10)))
        // The server writes the whole file before it answers.
        .timeout_recv_response(Some(Duration::from_secs(600)))
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut request = agent.get(format!("{}{path}", base.trim_end_matches('/')));
    if let Some(value) = &authorization {
        request = request.header("authorization", value);
    }
    let response = request.call().map_err(|e| failed(&base, e))?;
    let status = response.status();
    if !status.is_success() {
        let mut body = String::new();
        let _ = response
            .into_body()
            .into_with_config()
            .limit(64 * 1024)
            .reader()
            .read_to_string(&mut body);
        return Err(failed(&base, format!("HTTP {status}: {}", body.trim())));
    }
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect();
    let find = |name: &str| -> Result<&str, ReplicationError> {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                failed(
                    &base,
                    format!("the answer has no {name} header (is it a kith server?)"),
                )
            })
    };
    let version = find(header::VERSION)?
        .parse::<u64>()
        .map_err(|e| failed(&base, format!("header {}: {e}", header::VERSION)))?;
    let crc = u32::from_str_radix(find(header::CRC32)?, 16)
        .map_err(|e| failed(&base, format!("header {}: {e}", header::CRC32)))?;
    let body = response
        .into_body()
        .into_with_config()
        .limit(u64::MAX)
        .reader();
    let bytes = copy_checked(body, dest, crc, stop).map_err(|e| match e {
        Copy::Io(e) => e,
        Copy::Failed(why) => failed(&base, why),
    })?;
    Ok(Downloaded {
        version,
        bytes,
        crc32: crc,
        headers,
    })
}

/// Why a copy stopped.
enum Copy {
    Io(ReplicationError),
    Failed(String),
}

/// Streams `body` into `dest` (synced), checking it against `crc`.
fn copy_checked(
    mut body: impl Read,
    dest: &Path,
    crc: u32,
    stop: Option<&AtomicBool>,
) -> Result<u64, Copy> {
    let io = |doing: String| move |source| Copy::Io(ReplicationError::Io { doing, source });
    let file = File::create(dest).map_err(io(format!("creating {}", dest.display())))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        if stop.is_some_and(|s| s.load(Ordering::Acquire)) {
            return Err(Copy::Failed("stopped: shutting down".into()));
        }
        let n = body
            .read(&mut buf)
            .map_err(|e| Copy::Failed(format!("reading the graph file: {e}")))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(io(format!("writing {}", dest.display())))?;
        bytes += n as u64;
    }
    let file = out
        .into_inner()
        .map_err(|e| e.into_error())
        .map_err(io(format!("writing {}", dest.display())))?;
    file.sync_all()
        .map_err(io(format!("syncing {}", dest.display())))?;
    let got = hasher.finalize();
    if got != crc {
        return Err(Copy::Failed(format!(
            "the graph file's CRC-32 is {got:08x}, the server announced {crc:08x} (damaged in transit)"
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_move_from_the_address_to_a_header() {
        let (bare, auth) = credentials("http://ann:secret@127.0.0.1:7600");
        assert_eq!(bare, "http://127.0.0.1:7600");
        assert_eq!(auth.as_deref(), Some("Basic YW5uOnNlY3JldA=="));
        assert_eq!(credentials("http://h:1/x").0, "http://h:1/x");
        assert_eq!(credentials("http://h:1").1, None);
        // Escapes are decoded; an unescaped `/` in a password is still taken out.
        let (_, auth) = credentials("http://ann:p%40ss@h:1");
        assert_eq!(auth.as_deref(), Some("Basic YW5uOnBAc3M="));
        let (bare, auth) = credentials("http://ann:a/b@h:1");
        assert_eq!(bare, "http://h:1");
        assert_eq!(auth.as_deref(), Some("Basic YW5uOmEvYg=="));
    }
}
