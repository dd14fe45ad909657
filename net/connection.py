"""Framed msgpack messages over one TCP connection, hardened against hostile peers.

``FramedConnection`` is an ``asyncio.Protocol``: the transport hands it bytes in
``data_received``, where whole frames are cut out of one buffer by their length prefix,
so a frame costs no StreamReader calls and no task switch of its own; a reader awaiting
``read_message`` is woken once per batch of frames. The read side enforces the frame cap
from the header alone (the body is never waited for), a per-frame deadline (a peer that
sends half a frame and stalls is dropped: slowloris), an optional token bucket, and stops
reading the socket while too many decoded-but-unread frames wait. The write side writes
straight to the socket while it keeps up; when the transport's buffer is full, frames
wait in a bounded queue, and a peer that reads nothing for ``write_timeout`` or lets the
queue overflow is disconnected instead of making the server buffer without limit.

Schema checks are not done here: the server calls ``validate_client_message`` and
the client ``validate_server_message`` on what ``read_message`` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from net.protocol import (
    BAD_FRAME,
    HEADER,
    HEADER_SIZE,
    MAX_FRAME,
    RATE_LIMITED,
    ProtocolError,
    decode,
    encode_frame,
    frame_length,
)

DEFAULT_FRAME_TIMEOUT = 10.0
DEFAULT_WRITE_TIMEOUT = 30.0
DEFAULT_QUEUE_FRAMES = 256
DEFAULT_QUEUE_BYTES = 2 * 1024 * 1024
#: Received frames waiting for ``read_message`` before the socket stops being read.
DEFAULT_INBOX_FRAMES = 256
DEFAULT_INBOX_BYTES = 2 * MAX_FRAME
CLOSE_TIMEOUT = 2.0

_unpack_header = HEADER.unpack_from


class ConnectionClosed(ConnectionError):
    """The connection is gone: closed by the peer, by us, or dropped for misbehaving."""


class RateLimiter:
    """Token bucket: ``burst`` tokens, refilled at ``rate`` tokens per second.

    A flood spends the burst, then is held to ``rate``; honest clients, which send
    a frame per human action, never notice.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()

    def allow(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens if available; False means refuse the request."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    def full(self) -> bool:
        """Refilled to the whole burst: nothing is remembered that a fresh limiter would not."""
        return self._tokens + (self._clock() - self._stamp) * self.rate >= self.burst


class _Ended:
    """The end of the inbound stream, queued behind the frames that came before it."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class FramedConnection(asyncio.Protocol):
    """Length-prefixed msgpack messages over one transport.

    Made by a protocol factory (``loop.create_server``/``create_connection``; see
    ``open_connection``), or around a StreamReader/StreamWriter pair, whose transport it
    then takes over. ``read_message`` must be awaited from one task at a time; ``send``
    may be called from anywhere on the loop and never blocks. ``on_connect`` is called
    once the transport is attached (the server starts its handler there).
    """

    def __init__(
        self,
        reader: asyncio.StreamReader | None = None,
        writer: asyncio.StreamWriter | None = None,
        *,
        max_frame: int = MAX_FRAME,
        frame_timeout: float = DEFAULT_FRAME_TIMEOUT,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        max_queue_frames: int = DEFAULT_QUEUE_FRAMES,
        max_queue_bytes: int = DEFAULT_QUEUE_BYTES,
        limiter: RateLimiter | None = None,
        byte_limiter: RateLimiter | None = None,
        check_outbound: bool = True,
        on_connect: Callable[[FramedConnection], None] | None = None,
    ) -> None:
        self.max_frame = min(max_frame, MAX_FRAME)
        self.frame_timeout = frame_timeout
        self.write_timeout = write_timeout
        self.max_queue_frames = max_queue_frames
        self.max_queue_bytes = max_queue_bytes
        self.limiter = limiter
        #: A budget of inbound bytes (tokens are bytes), so many large frames within the frame
        #: rate still cannot keep the decoder busy.
        self.byte_limiter = byte_limiter
        #: Walk each outgoing message before packing it; the server turns this off for the
        #: frames it builds itself (``protocol.CHECK_OUTBOUND`` turns it back on).
        self.check_outbound = check_outbound
        self.peer: Any = None
        #: Why the connection ended, for logs; None while open.
        self.close_reason: str | None = None
        self._on_connect = on_connect
        self._transport: asyncio.Transport | None = None
        # Read side: bytes of an unfinished frame, then frame bodies (or the end) not yet read.
        self._buffer = bytearray()
        self._inbox: deque[bytes | ProtocolError | _Ended] = deque()
        self._inbox_bytes = 0
        self._ended = False  # nothing more will be parsed: end of stream or a fatal frame
        self._reading_paused = False
        self._waiter: asyncio.Future[None] | None = None
        self._listener: Callable[[], None] | None = None
        self._listening = False
        self._stall: asyncio.TimerHandle | None = None
        # Write side: frames waiting while the transport is over its high-water mark.
        self._queue: deque[bytes] = deque()
        self._queued_bytes = 0
        self._writing_paused = False
        self._write_stall: asyncio.TimerHandle | None = None
        self._closing = False
        self._lost = False
        #: `time.monotonic()` when bytes last arrived (or the connection was made).
        self.last_received = time.monotonic()
        self._closed = asyncio.Event()
        if writer is not None:
            self._adopt(reader, writer)

    def _adopt(self, reader: asyncio.StreamReader | None, writer: asyncio.StreamWriter) -> None:
        """Take over a stream pair's transport, with whatever its reader had already buffered."""
        transport = writer.transport
        assert isinstance(transport, asyncio.Transport)
        buffered = bytes(getattr(reader, "_buffer", b""))
        transport.set_protocol(self)
        self.connection_made(transport)
        if buffered:
            self.data_received(buffered)
        if getattr(reader, "_eof", False):
            self.eof_received()
        if getattr(reader, "_paused", False):
            transport.resume_reading()

    # ------------------------------------------------------------------ state

    @property
    def closing(self) -> bool:
        """True once no more messages will be sent or read."""
        return self._closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """Transport details (``"peername"``, ``"socket"``, ...), as asyncio names them."""
        if self._transport is None:
            return default
        return self._transport.get_extra_info(name, default)

    @property
    def receiving_frame(self) -> bool:
        """A frame has begun arriving and is not complete yet (its own deadline runs)."""
        return self._stall is not None

    @property
    def queued_frames(self) -> int:
        return len(self._queue)

    @property
    def queued_bytes(self) -> int:
        return self._queued_bytes

    @property
    def received_frames(self) -> int:
        """Frames received whole but not read yet; bounded, as the socket is not read past the bound."""
        return sum(1 for item in self._inbox if type(item) is bytes)

    # ------------------------------------------------------------------ asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self.peer = transport.get_extra_info("peername")
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # asyncio sets it too; a frame must never wait for Nagle's delayed ACK.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self._on_connect is not None:
            self._on_connect(self)

    def data_received(self, data: bytes) -> None:
        if self._ended:
            return
        self.last_received = time.monotonic()
        if self._buffer:
            self._buffer += data
            self._cut(self._buffer)
        else:
            self._cut(data)  # the usual case, whole frames: sliced straight out of what arrived

    def _cut(self, source: bytes | bytearray) -> None:
        """Cut whole frames out of ``source`` into the inbox, up to its bound; keep the rest.

        Past the bound the socket is no longer read, so a peer that sends faster than the
        application reads is held back by TCP instead of filling memory.
        """
        buffer = self._buffer
        inbox = self._inbox
        size = len(source)
        pos = 0
        while size - pos >= HEADER_SIZE and len(inbox) < DEFAULT_INBOX_FRAMES and self._inbox_bytes < DEFAULT_INBOX_BYTES:
            (length,) = _unpack_header(source, pos)
            if length > self.max_frame:
                try:  # the canonical too_large error, raised before any body byte is waited for
                    frame_length(bytes(source[pos : pos + HEADER_SIZE]), self.max_frame)
                except ProtocolError as exc:
                    self._end(exc)
                return
            end = pos + HEADER_SIZE + length
            if end > size:
                break
            inbox.append(bytes(source[pos + HEADER_SIZE : end]))
            self._inbox_bytes += length
            pos = end
        if source is buffer:
            del buffer[:pos]
        elif pos < size:
            buffer += source[pos:]
        full = len(inbox) >= DEFAULT_INBOX_FRAMES or self._inbox_bytes >= DEFAULT_INBOX_BYTES
        if buffer and not full:
            if pos or self._stall is None:  # a new frame has begun: its own deadline
                if self._stall is not None:
                    self._stall.cancel()
                self._stall = asyncio.get_running_loop().call_later(self.frame_timeout, self._stalled)
        elif self._stall is not None:  # no frame begun, or we are the ones not reading
            self._stall.cancel()
            self._stall = None
        if full and not self._reading_paused and self._transport is not None and not self._lost:
            self._reading_paused = True
            self._transport.pause_reading()
        if pos:
            self._wake()

    def eof_received(self) -> bool:
        if not self._ended:
            self._end(_Ended("peer closed the connection mid-frame" if self._buffer else "peer closed the connection"))
        return True  # half-open until the reader reaches the end, as with a StreamReader

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        if not self._ended:
            reason = f"read failed: {exc}" if exc is not None else "peer closed the connection"
            self._end(_Ended(reason))
        self._cancel_timers()
        self._queue.clear()
        self._queued_bytes = 0
        self._closed.set()

    def pause_writing(self) -> None:
        self._writing_paused = True
        if self._write_stall is None:
            loop = asyncio.get_running_loop()
            self._write_stall = loop.call_later(self.write_timeout, self._write_stalled)

    def resume_writing(self) -> None:
        self._writing_paused = False
        if self._write_stall is not None:
            self._write_stall.cancel()
            self._write_stall = None
        self._flush_queue()

    # ------------------------------------------------------------------ reading

    def _end(self, last: ProtocolError | _Ended) -> None:
        """Queue the end of the stream behind the frames already received; parse nothing more."""
        self._ended = True
        self._buffer.clear()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._inbox.append(last)
        self._wake()

    def _stalled(self) -> None:
        self._stall = None
        if not self._ended:
            self._end(ProtocolError(BAD_FRAME, f"frame not completed within {self.frame_timeout:g} s", fatal=True))
            if self._transport is not None and not self._lost:
                self._transport.pause_reading()

    def _resume_reading(self) -> None:
        """The reader has caught up: cut what was held back, then read the socket again."""
        self._cut(self._buffer)
        full = len(self._inbox) >= DEFAULT_INBOX_FRAMES or self._inbox_bytes >= DEFAULT_INBOX_BYTES
        if not full and not self._ended:
            self._reading_paused = False
            if self._transport is not None and not self._lost:
                self._transport.resume_reading()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if self._listener is not None and not self._listening:
            self._listening = True
            try:
                self._listener()
            finally:
                self._listening = False

    def set_listener(self, listener: Callable[[], None] | None) -> None:
        """Call ``listener`` from the transport's own callback whenever messages (or the end of the
        stream) are ready, instead of waking a task that awaits ``read_message``.

        The listener takes them with ``next_message`` until it returns None. It saves the task
        switch per batch of frames that a reader task costs; it is called at once if something
        is already waiting, never re-entered, and must not raise.
        """
        self._listener = listener
        if listener is not None and (self._inbox or self._closing):
            self._wake()

    async def _wait(self, timeout: float | None) -> None:
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._inbox and not self._closing:
            waiter = self._waiter = loop.create_future()
            try:
                if deadline is None or self._stall is not None:
                    await waiter
                else:
                    async with asyncio.timeout_at(deadline):
                        await waiter
            except TimeoutError:
                # A frame has begun meanwhile: it gets its own frame_timeout, not the idle one.
                if self._stall is None and not self._inbox and not self._closing:
                    raise
            finally:
                self._waiter = None

    async def read_message(self, timeout: float | None = None) -> dict[str, Any]:
        """Return the next decoded message.

        ``timeout`` bounds the wait for a frame to start (idle time; TimeoutError,
        the connection stays open); once its first byte arrives the whole frame must
        arrive within ``frame_timeout`` or the connection is dropped. Raises
        ``ConnectionClosed`` at end of stream and ``ProtocolError`` for a bad frame:
        when ``exc.fatal`` the connection is already closing, otherwise only that
        frame was dropped.
        """
        if not self._inbox and not self._closing:
            await self._wait(timeout)
        msg = self.next_message()
        assert msg is not None
        return msg

    def next_message(self) -> dict[str, Any] | None:
        """The next decoded message if one has arrived, else None; raises as ``read_message``."""
        if self._closing:
            raise ConnectionClosed(self.close_reason or "closed")
        if not self._inbox:
            return None
        item = self._inbox.popleft()
        if type(item) is not bytes:
            if isinstance(item, ProtocolError):
                self._fail(item)
                raise item
            assert isinstance(item, _Ended)
            self._drop(item.reason)
            raise ConnectionClosed(self.close_reason)
        self._inbox_bytes -= len(item)
        if self._reading_paused and len(self._inbox) < DEFAULT_INBOX_FRAMES // 2 and not self._ended:
            self._resume_reading()
        if self.limiter is not None and not self.limiter.allow():
            # Refused before decoding, so a flood costs no decoder time.
            raise ProtocolError(RATE_LIMITED, "too many messages; slow down")
        if self.byte_limiter is not None and not self.byte_limiter.allow(HEADER_SIZE + len(item)):
            raise ProtocolError(RATE_LIMITED, "too many bytes; slow down")
        return decode(item)

    # ------------------------------------------------------------------ writing

    def send(self, msg: Mapping[str, Any]) -> bool:
        """Queue one message; False if the connection is closed or was just dropped.

        Encoding errors (a bug on our side) raise ``ProtocolError`` to the caller.
        Overflowing the queue drops the connection: the peer is not reading.
        """
        if self._closing:
            return False
        return self.send_frame(encode_frame(msg, check=self.check_outbound))

    def send_frame(self, frame: bytes) -> bool:
        """Send one already encoded frame (header included), e.g. one shared by several peers.

        While the transport keeps up, the frame is written at once (one ``send`` system call,
        no task switch); once the transport's buffer passes its high-water mark, frames wait
        in the bounded queue, which drains as the peer reads.
        """
        transport = self._transport
        # A transport that failed a send is closing before `connection_lost` reaches us: writing
        # to it would only make asyncio log "socket.send() raised exception."
        if self._closing or self._lost or transport is None or transport.is_closing():
            return False
        if not self._writing_paused and not self._queue:
            transport.write(frame)
            return True
        if (
            len(self._queue) >= self.max_queue_frames
            or self._queued_bytes + len(frame) > self.max_queue_bytes
        ):
            self._drop(
                f"outbound queue full ({len(self._queue)} frames, {self._queued_bytes} bytes): peer is not reading"
            )
            return False
        self._queue.append(frame)
        self._queued_bytes += len(frame)
        return True

    def _flush_queue(self) -> None:
        transport = self._transport
        if transport is None or self._lost:
            return
        queue = self._queue
        while queue and not self._writing_paused:
            frame = queue.popleft()
            self._queued_bytes -= len(frame)
            transport.write(frame)
        if self._closing and not queue:
            transport.close()  # flushes the transport's own buffer, then connection_lost

    def _write_stalled(self) -> None:
        self._write_stall = None
        self._drop(f"peer did not read for {self.write_timeout:g} s")

    # ------------------------------------------------------------------ closing

    def _cancel_timers(self) -> None:
        for timer in (self._stall, self._write_stall):
            if timer is not None:
                timer.cancel()
        self._stall = self._write_stall = None

    def _fail(self, exc: ProtocolError) -> None:
        """Tell the peer why, then close gracefully (bounded by CLOSE_TIMEOUT)."""
        if self._closing:
            return
        with contextlib.suppress(ProtocolError):
            self.send(exc.to_message())
        self._begin_close(exc.message)
        asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, self._abort_if_open)

    def _begin_close(self, reason: str) -> None:
        if self._closing:
            return
        self._closing = True
        self.close_reason = reason
        self._wake()
        if self._transport is None:
            self._closed.set()
        elif not self._writing_paused:
            self._flush_queue()

    def _drop(self, reason: str) -> None:
        """Abort at once, discarding queued frames: the peer is gone or hostile."""
        self._begin_close(reason)
        self._queue.clear()
        self._queued_bytes = 0
        if self._transport is not None:
            self._transport.abort()

    def _abort_if_open(self) -> None:
        if not self._closed.is_set():
            self._drop(self.close_reason or "close timed out")

    async def close(self, reason: str = "closed", timeout: float = CLOSE_TIMEOUT) -> None:
        """Flush what is queued (at most ``timeout`` seconds), then close the socket."""
        self._begin_close(reason)
        try:
            async with asyncio.timeout(timeout):
                await self._closed.wait()
        except TimeoutError:
            self._drop(self.close_reason or reason)
            await self._closed.wait()

    def abort(self, reason: str = "aborted") -> None:
        """Close immediately without flushing."""
        self._drop(reason)

    async def wait_closed(self) -> None:
        await self._closed.wait()


async def open_connection(host: str, port: int, *, timeout: float = 10.0, source: str | None = None,
                          **options: Any) -> FramedConnection:
    """Connect to a server, from the local address `source` if given; ``options`` are passed to
    ``FramedConnection``."""
    loop = asyncio.get_running_loop()
    local_addr = (source, 0) if source else None
    async with asyncio.timeout(timeout):
        _, conn = await loop.create_connection(lambda: FramedConnection(**options), host, port,
                                               local_addr=local_addr)
    return conn
