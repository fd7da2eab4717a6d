//! Connections by transport and standing, and why each one ended: what `/metrics`
//! shows of the connection limits (docs/protocol.md 3, "Connections before
//! authentication").

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use super::Transport;

/// Where a connection is in its life: before its client proved who it is, or after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Accepted, not yet authenticated (TLS, Bolt's handshake, HELLO/LOGON; an HTTP
    /// connection until a request on it authenticated).
    Unauthenticated,
    /// Its client authenticated (on an open server: it said who it is, HELLO, a
    /// request or an upgrade).
    Authenticated,
    /// HTTP only: answered a request that needs no credentials (`/health`, the
    /// console's files), none that authenticated.
    Answered,
}

impl Standing {
    const ALL: [Standing; 3] = [
        Standing::Unauthenticated,
        Standing::Authenticated,
        Standing::Answered,
    ];

    fn name(self) -> &'static str {
        match self {
            Standing::Unauthenticated => "unauthenticated",
            Standing::Authenticated => "authenticated",
            Standing::Answered => "answered",
        }
    }
}

/// Why a connection ended, or was refused as it was accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The client closed it (or said GOODBYE).
    Client,
    /// An HTTP connection became a WebSocket connection (counted as one from then).
    Upgraded,
    /// Not authenticated within `auth_deadline_ms` of being accepted.
    AuthDeadline,
    /// A message began and did not arrive whole within `message_read_timeout_ms` (an
    /// HTTP request's headers: `http_header_timeout_ms`).
    ReadDeadline,
    /// A kept-alive HTTP connection sent nothing for `http_header_timeout_ms`.
    Idle,
    /// Bytes that are not a valid message of the protocol.
    Invalid,
    /// Its credentials were refused.
    AuthFailed,
    /// TLS's handshake or Bolt's failed: not TLS, not Bolt, no common version.
    Handshake,
    /// Refused at once: `unauthenticated_per_address_max` connections from its
    /// address were waiting to authenticate.
    AddressMax,
    /// Refused at once: `unauthenticated_connections_max` were waiting, none from an
    /// address busier than its own.
    UnauthenticatedMax,
    /// Closed unauthenticated to make room for a connection from a less busy address.
    Evicted,
    /// `connections_max` WebSocket and Bolt connections were open as it authenticated.
    ConnectionsMax,
    /// Refused at once: `http_connections_max` HTTP connections were open.
    HttpConnectionsMax,
    /// The client took none of its answers for `write_stall_timeout_ms`.
    WriteStall,
    /// The server shut down.
    Shutdown,
}

impl CloseReason {
    const ALL: [CloseReason; 15] = [
        CloseReason::Client,
        CloseReason::Upgraded,
        CloseReason::AuthDeadline,
        CloseReason::ReadDeadline,
        CloseReason::Idle,
        CloseReason::Invalid,
        CloseReason::AuthFailed,
        CloseReason::Handshake,
        CloseReason::AddressMax,
        CloseReason::UnauthenticatedMax,
        CloseReason::Evicted,
        CloseReason::ConnectionsMax,
        CloseReason::HttpConnectionsMax,
        CloseReason::WriteStall,
        CloseReason::Shutdown,
    ];

    /// Its label in `kith_connection_closes_total`.
    pub fn name(self) -> &'static str {
        match self {
            CloseReason::Client => "client",
            CloseReason::Upgraded => "upgraded",
            CloseReason::AuthDeadline => "auth_deadline",
            CloseReason::ReadDeadline => "read_deadline",
            CloseReason::Idle => "idle",
            CloseReason::Invalid => "invalid",
            CloseReason::AuthFailed => "auth_failed",
            CloseReason::Handshake => "handshake",
            CloseReason::AddressMax => "address_max",
            CloseReason::UnauthenticatedMax => "unauthenticated_max",
            CloseReason::Evicted => "evicted",
            CloseReason::ConnectionsMax => "connections_max",
            CloseReason::HttpConnectionsMax => "http_connections_max",
            CloseReason::WriteStall => "write_stall",
            CloseReason::Shutdown => "shutdown",
        }
    }

    fn index(self) -> usize {
        CloseReason::ALL
            .iter()
            .position(|r| *r == self)
            .expect("every reason is in ALL")
    }
}

const TRANSPORTS: [Transport; 3] = [Transport::Http, Transport::Ws, Transport::Bolt];

fn transport_index(t: Transport) -> usize {
    TRANSPORTS
        .iter()
        .position(|x| *x == t)
        .expect("every transport is in TRANSPORTS")
}

/// The gauges and counters.
#[derive(Default)]
pub(crate) struct Connections {
    open: [[AtomicI64; 3]; 3],
    closes: [[AtomicU64; CloseReason::ALL.len()]; 3],
}

impl Connections {
    fn gauge(&self, transport: Transport, standing: Standing) -> &AtomicI64 {
        let s = Standing::ALL
            .iter()
            .position(|x| *x == standing)
            .expect("every standing is in ALL");
        &self.open[transport_index(transport)][s]
    }

    /// A connection of `transport` entered `standing`.
    pub(crate) fn enter(&self, transport: Transport, standing: Standing) {
        self.gauge(transport, standing)
            .fetch_add(1, Ordering::Relaxed);
    }

    /// A connection of `transport` left `standing`.
    pub(crate) fn leave(&self, transport: Transport, standing: Standing) {
        let before = self
            .gauge(transport, standing)
            .fetch_sub(1, Ordering::Relaxed);
        debug_assert!(before > 0, "a connection left a standing it never entered");
    }

    /// How many connections of `transport` are in `standing` now.
    pub(crate) fn open(&self, transport: Transport, standing: Standing) -> i64 {
        self.gauge(transport, standing).load(Ordering::Relaxed)
    }

    /// A connection of `transport` ended (or was refused) for `reason`.
    pub(crate) fn closed(&self, transport: Transport, reason: CloseReason) {
        self.closes[transport_index(transport)][reason.index()].fetch_add(1, Ordering::Relaxed);
    }

    /// How many connections of `transport` ended for `reason`.
    pub(crate) fn closes(&self, transport: Transport, reason: CloseReason) -> u64 {
        self.closes[transport_index(transport)][reason.index()].load(Ordering::Relaxed)
    }

    /// `kith_connections` and `kith_connection_closes_total`; a counter that is still
    /// 0 is left out, as the error counters are.
    pub(crate) fn render(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "# HELP kith_connections Open connections by transport and standing.\n\
             # TYPE kith_connections gauge"
        );
        for t in TRANSPORTS {
            for s in Standing::ALL {
                let _ = writeln!(
                    out,
                    "kith_connections{{transport=\"{}\",state=\"{}\"}} {}",
                    t.name(),
                    s.name(),
                    self.open(t, s)
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP kith_connection_closes_total Connections ended or refused, by reason.\n\
             # TYPE kith_connection_closes_total counter"
        );
        for t in TRANSPORTS {
            for r in CloseReason::ALL {
                let n = self.closes(t, r);
                if n > 0 {
                    let _ = writeln!(
                        out,
                        "kith_connection_closes_total{{transport=\"{}\",reason=\"{}\"}} {n}",
                        t.name(),
                        r.name()
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauges_and_closes_render_by_label() {
        let c = Connections::default();
        c.enter(Transport::Bolt, Standing::Unauthenticated);
        c.enter(Transport::Bolt, Standing::Unauthenticated);
        c.leave(Transport::Bolt, Standing::Unauthenticated);
        c.enter(Transport::Ws, Standing::Authenticated);
        c.closed(Transport::Bolt, CloseReason::AuthDeadline);
        c.closed(Transport::Bolt, CloseReason::AuthDeadline);
        let mut text = String::new();
        c.render(&mut text);
        assert!(text.contains("kith_connections{transport=\"bolt\",state=\"unauthenticated\"} 1\n"));
        assert!(text.contains("kith_connections{transport=\"ws\",state=\"authenticated\"} 1\n"));
        assert!(text.contains("kith_connections{transport=\"http\",state=\"authenticated\"} 0\n"));
        assert!(text.contains(
            "kith_connection_closes_total{transport=\"bolt\",reason=\"auth_deadline\"} 2\n"
        ));
        assert!(!text.contains("reason=\"evicted\""), "{text}");
    }

    #[test]
    fn every_reason_has_its_own_label() {
        let names: std::collections::HashSet<_> =
            CloseReason::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(names.len(), CloseReason::ALL.len());
    }
}
