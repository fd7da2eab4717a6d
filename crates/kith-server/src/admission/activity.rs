//! The clock of a message that has begun to arrive and not yet ended. A WebSocket
//! connection's bytes go through tungstenite, which says when a message is whole but
//! not when one began; [`Watched`] sits under it, on the socket, and starts the clock
//! at the first bytes read after the last whole message, so a client that trickles a
//! frame a byte at a time is closed `message_read_timeout_ms` after it began, while
//! an idle connection (nothing arriving) is left alone.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// When the message now arriving began, if one is.
pub(crate) struct Activity {
    epoch: Instant,
    /// Milliseconds after `epoch` plus one when the first bytes after the last whole
    /// message arrived; 0 while none have.
    partial_since: AtomicU64,
    /// Told when a message begins, so a waiting connection sets its deadline.
    began: Notify,
}

impl Activity {
    pub(crate) fn new() -> Arc<Activity> {
        Arc::new(Activity {
            epoch: Instant::now(),
            partial_since: AtomicU64::new(0),
            began: Notify::new(),
        })
    }

    fn bytes_arrived(&self) {
        let now = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX - 1) + 1;
        let started = self
            .partial_since
            .compare_exchange(0, now, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if started {
            self.began.notify_one();
        }
    }

    /// A whole message was read: whatever arrives next begins the next one.
    pub(crate) fn message_done(&self) {
        self.partial_since.store(0, Ordering::Release);
    }

    /// When the message now arriving must be whole, if one is arriving.
    pub(crate) fn deadline(&self, timeout: Duration) -> Option<Instant> {
        match self.partial_since.load(Ordering::Acquire) {
            0 => None,
            since => Some(self.epoch + Duration::from_millis(since - 1) + timeout),
        }
    }

    /// Completes when a message begins to arrive (or began since the last call).
    pub(crate) async fn began(&self) {
        self.began.notified().await;
    }
}

/// A socket whose reads start its [`Activity`]'s clock.
pub(crate) struct Watched<I> {
    inner: I,
    activity: Arc<Activity>,
}

impl<I> Watched<I> {
    pub(crate) fn new(inner: I, activity: Arc<Activity>) -> Watched<I> {
        Watched { inner, activity }
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Watched<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        read
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Watched<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn the_clock_runs_from_the_first_bytes_until_the_message_is_done() {
        let (client, server) = tokio::io::duplex(64);
        let activity = Activity::new();
        let mut watched = Watched::new(server, activity.clone());
        let (mut client, timeout) = (client, Duration::from_secs(10));
        assert_eq!(activity.deadline(timeout), None, "nothing arrived yet");
        client.write_all(b"ab").await.expect("writes");
        let mut byte = [0u8; 1];
        watched.read_exact(&mut byte).await.expect("reads");
        let first = activity.deadline(timeout).expect("a message began");
        activity.began().await; // told once
                                // More bytes of the same message do not move the deadline.
        tokio::time::sleep(Duration::from_millis(5)).await;
        watched.read_exact(&mut byte).await.expect("reads");
        assert_eq!(activity.deadline(timeout), Some(first));
        activity.message_done();
        assert_eq!(activity.deadline(timeout), None, "the message ended");
    }
}
