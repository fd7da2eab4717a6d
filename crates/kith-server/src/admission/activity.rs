//! The clock of a message that has begun to arrive and not yet ended. A WebSocket
//! connection's bytes go through tungstenite, which says when a message is whole but
//! not when one began, reads ahead, and hands control frames (pings) up between the
//! fragments of a message; so [`Watched`] sits under it, on the socket, and follows
//! the frames itself: the clock starts at the first byte of a frame, stops when a
//! frame ends outside a fragmented message (or the message's last fragment ends), and
//! a ping in the middle of a message does not stop it. While the server itself does
//! not read (its answers wait, its in-flight limit is reached) the clock is paused:
//! the client cannot be late then. An HTTP connection (before any upgrade) only
//! records whether bytes arrived since its last answer: a header timeout then tells a
//! kept-alive connection gone quiet from one trickling its request.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// When the message now arriving began, if one is.
pub(crate) struct Activity {
    clock: Mutex<Clock>,
    /// Told when a message begins, so a waiting connection sets its deadline.
    began: Notify,
}

#[derive(Default)]
struct Clock {
    /// When the message now arriving began.
    since: Option<Instant>,
    /// Time the server did not read since then, and when its current pause began.
    paused: Duration,
    paused_at: Option<Instant>,
    /// WebSocket frames being followed (after the upgrade).
    frames: Option<Frames>,
}

impl Clock {
    fn start(&mut self, now: Instant) -> bool {
        if self.since.is_some() {
            return false;
        }
        self.since = Some(now);
        self.paused = Duration::ZERO;
        self.paused_at = self.paused_at.map(|_| now);
        true
    }

    fn stop(&mut self) {
        self.since = None;
    }
}

impl Activity {
    pub(crate) fn new() -> Arc<Activity> {
        Arc::new(Activity {
            clock: Mutex::default(),
            began: Notify::new(),
        })
    }

    fn clock(&self) -> std::sync::MutexGuard<'_, Clock> {
        // A clock is a few fields set in one step each: sound after a panic too.
        self.clock.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// From now on the bytes are WebSocket frames (the upgrade is done).
    pub(crate) fn follow_frames(&self) {
        let mut clock = self.clock();
        clock.stop();
        clock.frames = Some(Frames::default());
    }

    /// An HTTP answer went out: whatever arrives next begins the next request.
    pub(crate) fn message_done(&self) {
        self.clock().stop();
    }

    /// Whether the server reads the socket now; the clock runs only while it does.
    pub(crate) fn set_reading(&self, reading: bool) {
        let mut clock = self.clock();
        let now = Instant::now();
        match (reading, clock.paused_at) {
            (false, None) => clock.paused_at = Some(now),
            (true, Some(at)) => {
                clock.paused += now.saturating_duration_since(at);
                clock.paused_at = None;
            }
            _ => {}
        }
    }

    fn arrived(&self, bytes: &[u8]) {
        let now = Instant::now();
        let started = {
            let mut clock = self.clock();
            match clock.frames.take() {
                None => clock.start(now),
                Some(mut frames) => {
                    let started = frames.feed(bytes, &mut clock, now);
                    clock.frames = Some(frames);
                    started
                }
            }
        };
        if started {
            self.began.notify_one();
        }
    }

    /// When the message now arriving must be whole: `None` if none is arriving, or
    /// the server is not reading.
    pub(crate) fn deadline(&self, timeout: Duration) -> Option<Instant> {
        let clock = self.clock();
        match (clock.since, clock.paused_at) {
            (Some(since), None) => Some(since + clock.paused + timeout),
            _ => None,
        }
    }

    /// Whether bytes arrived since the last answer (HTTP) or a frame is arriving.
    pub(crate) fn partial(&self) -> bool {
        self.clock().since.is_some()
    }

    /// Completes when a message begins to arrive (or began since the last call).
    pub(crate) async fn began(&self) {
        self.began.notified().await;
    }
}

/// Where the byte stream is in the client's WebSocket frames (RFC 6455 5.2).
#[derive(Default)]
struct Frames {
    /// Header bytes of the frame being read, until its payload starts.
    header: Vec<u8>,
    /// Payload bytes of the current frame still to come.
    payload_left: u64,
    /// The current frame's FIN bit and whether it is a control frame.
    fin: bool,
    control: bool,
    /// Inside a fragmented data message (a frame without FIN was read).
    fragmented: bool,
}

impl Frames {
    /// Follows `bytes`; true if a message began.
    fn feed(&mut self, mut bytes: &[u8], clock: &mut Clock, now: Instant) -> bool {
        let mut started = false;
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let n = bytes
                    .len()
                    .min(usize::try_from(self.payload_left).unwrap_or(usize::MAX));
                self.payload_left -= n as u64;
                bytes = &bytes[n..];
                if self.payload_left == 0 {
                    self.frame_ended(clock);
                }
                continue;
            }
            if self.header.is_empty() {
                started |= clock.start(now);
            }
            self.header.push(bytes[0]);
            bytes = &bytes[1..];
            if let Some(length) = self.header_done() {
                self.fin = self.header[0] & 0x80 != 0;
                self.control = self.header[0] & 0x08 != 0;
                self.header.clear();
                self.payload_left = length;
                if length == 0 {
                    self.frame_ended(clock);
                }
            }
        }
        started
    }

    /// The payload length once the whole header (lengths and mask) is in.
    fn header_done(&self) -> Option<u64> {
        let h = &self.header;
        if h.len() < 2 {
            return None;
        }
        let mask = if h[1] & 0x80 != 0 { 4 } else { 0 };
        let (extra, length) = match h[1] & 0x7F {
            126 if h.len() >= 4 => (2, u64::from(u16::from_be_bytes([h[2], h[3]]))),
            127 if h.len() >= 10 => (8, u64::from_be_bytes(h[2..10].try_into().ok()?)),
            126 | 127 => return None,
            n => (0, u64::from(n)),
        };
        (h.len() == 2 + extra + mask).then_some(length)
    }

    fn frame_ended(&mut self, clock: &mut Clock) {
        if !self.control {
            self.fragmented = !self.fin;
        }
        if !self.fragmented {
            clock.stop();
        }
    }
}

/// A socket whose reads drive its [`Activity`].
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
            self.activity.arrived(&buf.filled()[before..]);
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

    const T: Duration = Duration::from_secs(10);

    /// A masked frame: FIN or not, opcode, payload.
    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![u8::from(fin) << 7 | opcode];
        match payload.len() {
            n @ 0..=125 => out.push(0x80 | n as u8),
            n if n <= 0xFFFF => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                out.push(0x80 | 127);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        out.extend_from_slice(&[1, 2, 3, 4]);
        out.extend_from_slice(payload);
        out
    }

    fn websocket() -> Arc<Activity> {
        let a = Activity::new();
        a.follow_frames();
        a
    }

    #[test]
    fn a_whole_frame_read_with_the_start_of_the_next_leaves_the_clock_running() {
        let a = websocket();
        let mut bytes = frame(true, 0x9, b"");
        bytes.extend_from_slice(&frame(true, 0x2, b"hello")[..3]);
        a.arrived(&bytes);
        assert!(a.deadline(T).is_some(), "the second frame began");
        a.arrived(&frame(true, 0x2, b"hello")[3..]);
        assert_eq!(a.deadline(T), None, "and ended");
    }

    #[test]
    fn pings_between_fragments_do_not_stop_the_clock() {
        let a = websocket();
        a.arrived(&frame(false, 0x2, b"part one"));
        let began = a.deadline(T).expect("a message began");
        a.arrived(&frame(true, 0x9, b"ping"));
        assert_eq!(a.deadline(T), Some(began), "a ping inside the message");
        a.arrived(&frame(true, 0x0, b"last part"));
        assert_eq!(a.deadline(T), None, "the last fragment ended it");
    }

    #[test]
    fn long_frames_and_split_headers_are_followed() {
        let a = websocket();
        let big = frame(true, 0x2, &vec![7u8; 70_000]);
        let pieces: Vec<&[u8]> = big.chunks(1000).collect();
        for (i, piece) in pieces.iter().enumerate() {
            a.arrived(piece);
            assert_eq!(a.deadline(T).is_some(), i + 1 < pieces.len(), "piece {i}");
        }
        let small = frame(true, 0x1, b"x");
        for byte in &small {
            a.arrived(std::slice::from_ref(byte));
        }
        assert_eq!(a.deadline(T), None, "a frame a byte at a time");
    }

    #[test]
    fn the_clock_pauses_while_the_server_does_not_read() {
        let a = websocket();
        a.arrived(&frame(true, 0x2, b"abc")[..2]);
        let began = a.deadline(T).expect("began");
        a.set_reading(false);
        assert_eq!(a.deadline(T), None, "paused");
        std::thread::sleep(Duration::from_millis(20));
        a.set_reading(true);
        let later = a.deadline(T).expect("runs again");
        assert!(
            later >= began + Duration::from_millis(20),
            "the pause is added"
        );
    }

    #[test]
    fn http_bytes_start_the_clock_until_the_answer() {
        let a = Activity::new();
        a.arrived(b"GET / HT");
        assert!(a.partial());
        a.message_done();
        assert!(!a.partial());
    }
}
