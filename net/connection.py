"""Framed msgpack messages over an asyncio stream, hardened against hostile peers.

One ``FramedConnection`` wraps one socket for its whole life. The read side enforces
the frame cap before reading a body, a per-frame deadline (a peer that sends half a
frame and stalls is dropped: slowloris) and an optional token bucket. The write side
is one task draining a bounded queue, so ``send`` never blocks the game loop, writes
never interleave, and a peer that stops reading is disconnected instead of making
the server buffer without limit.

Schema checks are not done here: the server calls ``validate_client_message`` and
the client ``validate_server_message`` on what ``read_message`` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from net.protocol import (
    BAD_FRAME,
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
CLOSE_TIMEOUT = 2.0


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


class FramedConnection:
    """Length-prefixed msgpack messages over a StreamReader/StreamWriter pair.

    ``read_message`` must be awaited from one task at a time; ``send`` may be
    called from anywhere on the loop and never blocks.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame: int = MAX_FRAME,
        frame_timeout: float = DEFAULT_FRAME_TIMEOUT,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        max_queue_frames: int = DEFAULT_QUEUE_FRAMES,
        max_queue_bytes: int = DEFAULT_QUEUE_BYTES,
        limiter: RateLimiter | None = None,
        check_outbound: bool = True,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.max_frame = min(max_frame, MAX_FRAME)
        self.frame_timeout = frame_timeout
        self.write_timeout = write_timeout
        self.max_queue_frames = max_queue_frames
        self.max_queue_bytes = max_queue_bytes
        self.limiter = limiter
        #: Walk each outgoing message before packing it; the server turns this off for the
        #: frames it builds itself (``protocol.CHECK_OUTBOUND`` turns it back on).
        self.check_outbound = check_outbound
        self.peer: Any = writer.get_extra_info("peername")
        #: Why the connection ended, for logs; None while open.
        self.close_reason: str | None = None
        self._queue: deque[bytes] = deque()
        self._queued_bytes = 0
        self._wakeup = asyncio.Event()
        self._closing = False
        self._closed = asyncio.Event()
        self._writer_task = asyncio.create_task(self._write_loop(), name=f"writer {self.peer}")

    # ------------------------------------------------------------------ state

    @property
    def closing(self) -> bool:
        """True once no more messages will be sent or read."""
        return self._closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """Transport details (``"peername"``, ``"socket"``, ...), as asyncio names them."""
        return self._writer.get_extra_info(name, default)

    @property
    def queued_frames(self) -> int:
        return len(self._queue)

    @property
    def queued_bytes(self) -> int:
        return self._queued_bytes

    # ------------------------------------------------------------------ reading

    async def read_message(self, timeout: float | None = None) -> dict[str, Any]:
        """Return the next decoded message.

        ``timeout`` bounds the wait for a frame to start (idle time; TimeoutError,
        the connection stays open); once its first byte arrives the whole frame must
        arrive within ``frame_timeout`` or the connection is dropped. Raises
        ``ConnectionClosed`` at end of stream and ``ProtocolError`` for a bad frame:
        when ``exc.fatal`` the connection is already closing, otherwise only that
        frame was dropped.
        """
        if self._closing:
            raise ConnectionClosed(self.close_reason or "closed")
        try:
            if timeout is None:  # no idle limit: spare the timeout scope, one per frame
                first = await self._reader.readexactly(1)
            else:
                async with asyncio.timeout(timeout):
                    first = await self._reader.readexactly(1)
        except TimeoutError:  # idle, not broken; TimeoutError is an OSError, so catch it first
            raise
        except asyncio.IncompleteReadError:
            self._drop("peer closed the connection")
            raise ConnectionClosed(self.close_reason) from None
        except (ConnectionError, OSError) as exc:
            self._drop(f"read failed: {exc}")
            raise ConnectionClosed(self.close_reason) from None
        try:
            async with asyncio.timeout(self.frame_timeout):
                header = first + await self._reader.readexactly(HEADER_SIZE - 1)
                length = frame_length(header, self.max_frame)
                body = await self._reader.readexactly(length)
        except ProtocolError as exc:
            self._fail(exc)
            raise
        except TimeoutError:
            stalled = ProtocolError(
                BAD_FRAME, f"frame not completed within {self.frame_timeout:g} s", fatal=True
            )
            self._fail(stalled)
            raise stalled from None
        except asyncio.IncompleteReadError:
            self._drop("peer closed the connection mid-frame")
            raise ConnectionClosed(self.close_reason) from None
        except (ConnectionError, OSError) as exc:
            self._drop(f"read failed: {exc}")
            raise ConnectionClosed(self.close_reason) from None
        if self.limiter is not None and not self.limiter.allow():
            # Refused before decoding, so a flood costs no decoder time.
            raise ProtocolError(RATE_LIMITED, "too many messages; slow down")
        return decode(body)

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
        """Queue one already encoded frame (header included), e.g. one shared by several peers.

        When nothing is waiting and the socket has taken everything so far, the frame goes
        straight to the transport, saving a task switch per frame; otherwise it joins the
        bounded queue, whose writer waits for the peer to read (``write_timeout``).
        """
        if self._closing:
            return False
        if not self._queue and not self._writer.transport.get_write_buffer_size():
            self._writer.write(frame)
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
        self._wakeup.set()
        return True

    async def _write_loop(self) -> None:
        try:
            while True:
                while not self._queue:
                    if self._closing:
                        return
                    self._wakeup.clear()
                    await self._wakeup.wait()
                frame = self._queue.popleft()
                self._queued_bytes -= len(frame)
                self._writer.write(frame)
                async with asyncio.timeout(self.write_timeout):
                    await self._writer.drain()
        except TimeoutError:
            self._drop(f"peer did not read for {self.write_timeout:g} s")
        except (ConnectionError, OSError) as exc:
            self._drop(f"write failed: {exc}")
        finally:
            await self._finish()

    async def _finish(self) -> None:
        # Runs once, in the writer task, after a graceful drain or an abort.
        try:
            self._writer.close()
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self._writer.wait_closed()
        except (TimeoutError, ConnectionError, OSError):
            self._writer.transport.abort()
        except asyncio.CancelledError:
            self._writer.transport.abort()
            raise
        finally:
            self._closed.set()

    # ------------------------------------------------------------------ closing

    def _fail(self, exc: ProtocolError) -> None:
        """Tell the peer why, then close gracefully (bounded by CLOSE_TIMEOUT)."""
        if self._closing:
            return
        with contextlib.suppress(ProtocolError):
            self.send(exc.to_message())
        self._begin_close(exc.message)
        asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, self._abort_if_open)

    def _begin_close(self, reason: str) -> None:
        if not self._closing:
            self._closing = True
            self.close_reason = reason
            self._wakeup.set()

    def _drop(self, reason: str) -> None:
        """Abort at once, discarding queued frames: the peer is gone or hostile."""
        self._begin_close(reason)
        self._queue.clear()
        self._queued_bytes = 0
        self._writer.transport.abort()

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


async def open_connection(host: str, port: int, *, timeout: float = 10.0, **options: Any) -> FramedConnection:
    """Connect to a server; ``options`` are passed to ``FramedConnection``."""
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(host, port)
    return FramedConnection(reader, writer, **options)
