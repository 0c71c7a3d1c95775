# Recovery mode's link: docs/protocol.md with a reduced set (HELLO, INFO, FLASH_READ, CANCEL, BYE), all else ERR recovery.
#
# The session, the window and ACKs of the stream, pacing and the repeat of a
# lost answer are link/link.py's own; this says what each request does and
# adds "mode=recovery" to the handshake, so a laptop knows before it asks.
from link import flashread
from link.link import Link
from tafel import wire
from tafel.records import put_text, put_varint, varints
from tafel.wire import Body, WireError


class RecoveryLink(Link):
    """Link(transport, recovery, device_id): `recovery` is recovery/app.py's Recovery."""

    def __init__(self, transport, app, device_id, log=None):
        Link.__init__(self, transport, app, device_id, log)
        self.reading = False  # a FLASH_READ stream is on
        self._done_made = False  # its FLASH_DONE is in the ring

    def _handshake(self, now):
        Link._handshake(self, now)
        self._replies[-1] = self._replies[-1][:-1] + b" mode=" + wire.RECOVERY.encode() + b"\n"

    def run(self, kind, seq, body):
        r = Body(body)
        app = self.app
        if kind == wire.HELLO:
            r.end()
            out = varints(wire.PROTOCOL)
            put_text(out, self.device_id)
            put_text(out, self.firmware)
            for n in (self.t.window, self.t.chunk, wire.MAX_REQUEST):
                put_varint(out, n)
            return out
        if kind == wire.INFO:
            r.end()
            out = bytearray()
            put_text(out, wire.RECOVERY)
            put_text(out, app.why)
            dev = app.dev
            for n in (app.games or 0, dev.ioctl(4, 0), dev.ioctl(5, 0), 1 if app.read_done else 0):
                put_varint(out, n)
            put_text(out, self.firmware)
            return out
        if kind == wire.FLASH_READ:
            got = flashread.start(self, r, app.dev, app.read_at)
            self._stream = self._watched(self._stream)
            self.reading = True
            return got
        if kind == wire.CANCEL or kind == wire.BYE:
            r.end()
            self.cancel()
            return b""
        raise WireError(wire.RECOVERY, app.why)

    def cancel(self):
        Link.cancel(self)
        self.reading = self._done_made = False

    def _watched(self, frames):
        for kind, body in frames:
            if kind == wire.FLASH_DONE:
                self._done_made = True
            yield kind, body

    def _acked(self, seq, body, now):
        # The read is over once the laptop acknowledged FLASH_DONE: everything made is acked. A
        # CANCEL, a new handshake or the session's end (BYE too) stops it; what was acked stays.
        Link._acked(self, seq, body, now)
        if self.reading and self._done_made and not self._ring:
            self.reading = False
            self.app.read_complete()
