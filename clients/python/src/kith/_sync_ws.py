"""A WebSocket connection the calling thread drives: a socket plus websockets'
sans-I/O client protocol (framing, masking, pings and the closing handshake), and no
thread of its own.

The synchronous client reads it from whichever thread is waiting for an answer
(client.py), so a call made from one thread costs no hand-off between threads; the
``websockets.sync`` connection it replaces read every message on a background thread
and handed it over twice (about 40 µs of a 150 µs round trip on a 2-core machine).
"""

from __future__ import annotations

import collections
import math
import select
import socket
import ssl as _ssl
import threading
import time

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from ._ws import WsConnectionClosed

# One recv() takes at most this much; a larger message arrives over several.
RECV_BYTES = 256 * 1024


class SocketWebSocket:
    """One client WebSocket over a blocking socket. ``send`` may be called from any
    thread; ``receive`` from one thread at a time (the client's reading role)."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol) -> None:
        self._sock = sock
        self._poll = select.poll()
        self._poll.register(sock, select.POLLIN)
        self._tls = isinstance(sock, _ssl.SSLSocket)
        self.protocol = protocol
        self._lock = threading.Lock()  # the protocol's state and the outbox (never held while writing)
        self._write_lock = threading.Lock()  # the socket's writes
        self._outbox: collections.deque[bytes] = collections.deque()
        self._partial: list[bytes] = []  # a fragmented message's frames so far
        self._partial_text = False
        self.subprotocol: str | None = protocol.subprotocol

    @classmethod
    def open(
        cls,
        url: str,
        offer: str,
        timeout: float | None,
        max_size: int,
        ssl: _ssl.SSLContext | None,
    ) -> "SocketWebSocket":
        """Connects and completes the opening handshake within ``timeout`` seconds;
        raises what websockets' own client raises for the same failures (InvalidURI,
        InvalidStatus with the refusing response, OSError), which
        ``_ws.handshake_failure`` turns into kith errors."""
        uri = parse_uri(url)
        if ssl is not None and not uri.secure:
            raise ValueError(f"a TLS context was given for {url}, which is not a wss:// URL")
        # One deadline for the TCP connect, the TLS handshake and the WebSocket one.
        deadline = None if timeout is None else time.monotonic() + timeout
        sock = socket.create_connection((uri.host, uri.port), timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if uri.secure:
                sock.settimeout(_left(deadline))
                context = ssl or _ssl.create_default_context()
                sock = context.wrap_socket(sock, server_hostname=uri.host)
            protocol = ClientProtocol(uri, subprotocols=[offer], max_size=max_size)
            handshake(sock, protocol, deadline)
            sock.settimeout(None)
            return cls(sock, protocol)
        except BaseException:
            sock.close()
            raise

    @property
    def close_code(self) -> int | None:
        """The code of the server's close frame, once one came. (The protocol's own
        ``close_code`` waits for the TCP connection to end as well.)"""
        received = self.protocol.close_rcvd
        return None if received is None else int(received.code)

    @property
    def close_reason(self) -> str | None:
        received = self.protocol.close_rcvd
        return None if received is None else received.reason

    def readable(self) -> bool:
        """Whether a read would not wait."""
        return bool(self._tls and self._sock.pending()) or bool(self._poll.poll(0))

    def send(self, data: bytes) -> None:
        """Sends one binary message; raises WsConnectionClosed once the connection is
        closing or closed."""
        with self._lock:
            try:
                self.protocol.send_binary(data)
            except Exception as exc:  # websockets refuses to send in CLOSING/CLOSED
                raise WsConnectionClosed(None, None) from exc
            self._outbox.extend(self.protocol.data_to_send())
        self._drain(block=True)

    def receive(self, timeout: float | None) -> list[bytes | str] | None:
        """The messages that one read of the socket completes (possibly none), or
        None when ``timeout`` seconds passed first. Raises WsConnectionClosed when
        the connection has ended."""
        try:
            # The socket stays blocking (no settimeout: a timeout would also apply to
            # another thread's sendall); the deadline is a poll() for readability.
            if timeout is not None and not (self._tls and self._sock.pending()):
                # poll() takes at most INT_MAX ms; a longer wait polls again.
                if not self._poll.poll(min(math.ceil(max(timeout, 0) * 1000), 2**31 - 1)):
                    return None
            data = self._sock.recv(RECV_BYTES)
        except (OSError, ValueError) as exc:  # ValueError: an SSLSocket closed meanwhile
            self._abort()
            raise WsConnectionClosed(None, None) from exc
        with self._lock:
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
            events = self.protocol.events_received()
            self._outbox.extend(self.protocol.data_to_send())  # pongs, the reply to a close
            closed = self.protocol.close_expected() or not data
        try:
            self._drain(block=False)  # a thread that is writing sends them otherwise
        except OSError:
            closed = True
        messages = self._messages(events)
        if closed and not messages:
            self._abort()
            raise WsConnectionClosed(None, None)
        return messages

    def _messages(self, events: list) -> list[bytes | str]:
        out: list[bytes | str] = []
        for frame in events:
            if not isinstance(frame, Frame):
                continue
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                self._partial, self._partial_text = [frame.data], frame.opcode is Opcode.TEXT
            elif frame.opcode is Opcode.CONT:
                self._partial.append(frame.data)
            else:
                continue  # ping, pong, close: the protocol answered them
            if frame.fin:
                message = b"".join(self._partial)
                self._partial = []
                out.append(message.decode("utf-8") if self._partial_text else message)
        return out

    def close(self) -> None:
        """Starts the closing handshake and shuts the socket down, which also wakes a
        thread blocked in ``receive``."""
        with self._lock:
            try:
                self.protocol.send_close()
                self._outbox.extend(self.protocol.data_to_send())
            except Exception:  # already closing
                pass
        try:
            self._drain(block=False)  # not behind a writer the server does not read
        except OSError:
            pass
        self._abort()

    def _abort(self) -> None:
        try:
            # socket.socket's own shutdown: SSLSocket.shutdown() first drops its SSL
            # object, after which another thread's send() would go out in plaintext.
            socket.socket.shutdown(self._sock, socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _drain(self, block: bool) -> None:
        """Writes the outbox in order. Without ``block``, returns at once when another
        thread is writing: that thread looks at the outbox again after letting go."""
        while self._write_lock.acquire(blocking=block):
            try:
                while True:
                    with self._lock:
                        if not self._outbox:
                            break
                        chunk = self._outbox.popleft()
                    if chunk:
                        self._sock.sendall(chunk)
            finally:
                self._write_lock.release()
            with self._lock:
                if not self._outbox:
                    return
            block = False


def _left(deadline: float | None) -> float | None:
    """Seconds to ``deadline``, at least a millisecond (``settimeout`` takes no 0 here:
    it would mean non-blocking); None without one."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)


def handshake(sock: socket.socket, protocol: ClientProtocol, deadline: float | None) -> None:
    """Sends the upgrade request and reads until the server's response."""
    sock.settimeout(_left(deadline))
    protocol.send_request(protocol.connect())
    for chunk in protocol.data_to_send():
        sock.sendall(chunk)
    while True:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out during the WebSocket opening handshake")
            sock.settimeout(left)
        data = sock.recv(RECV_BYTES)
        if data:
            protocol.receive_data(data)
        else:
            protocol.receive_eof()
        for event in protocol.events_received():
            if isinstance(event, Response):
                if protocol.handshake_exc is not None:
                    raise protocol.handshake_exc
                return
        if not data:
            raise ConnectionError("the server closed the connection during the WebSocket handshake")
