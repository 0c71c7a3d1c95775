# The stream's sending window: frames made from a generator, numbered, kept until acknowledged, sent again when lost.
#
# The base class of link/link.py's Link (and so of recovery/commands.py's RecoveryLink): an export
# (link/export.py) or a flash read (link/flashread.py) hands stream() a generator of (kind, body);
# the frames go out as numbers 0, 1, 2 ... at most the transport's window ahead of the host's ACK,
# and again from the first unacknowledged one when the ACK says one was missed or none comes for
# RESEND_MS. The Link writes them (its _take) after its own answers. docs/protocol.md section 5.
from micropython import const

from tafel import wire

RESEND_MS = const(1500)  # unacknowledged stream frames go again after this long
_MAKE = const(2)  # stream frames made in one step, at most


class StreamWindow:
    # Uses the Link's transport (self.t: its window) and the step's time (self._now).

    def __init__(self):
        self._stream = None  # the export's frame generator (export.py), None when none runs
        self._ring = []  # stream lines sent (or about to be) and not acknowledged yet
        self._base = 0  # the number of _ring[0]
        self._next = 0  # index in _ring of the next line to write
        self._high = 0  # lines of _ring handed to the writer at least once
        self._sseq = 0  # the number the next new stream frame gets
        self._ended = False  # DONE was made (or the generator is used up): no new frames
        self._moved = 0  # when the window last moved

    def stream(self, frames):
        """Starts sending the (kind, body) pairs of `frames` as stream frames 0, 1, 2 ..."""
        self._stream = frames
        self._ring = []
        self._base = self._sseq = self._next = self._high = 0
        self._ended = False
        self._moved = self._now

    def cancel(self):
        self._stream = None
        self._ring = []
        self._next = self._high = 0
        self._ended = False

    def _acked(self, seq, body, now):
        ring = self._ring
        done = (seq - self._base) & 0xFFFF
        if done > self._high:
            return  # not a number we have sent: an old ACK, or none of ours
        if done:
            del ring[:done]
            self._base = (self._base + done) & 0xFFFF
            self._next = max(0, self._next - done)
            self._high -= done
            self._moved = now
        if body and body[0] & 1:  # the host missed one: go back to it
            self._next = 0
            self._moved = now
        if self._ended and not ring:
            self._stream = None  # DONE arrived: the export is over

    def _make(self, now):
        # Frames again after a silence, and new ones while the window has room.
        ring = self._ring
        if ring and self._next >= len(ring) and now - self._moved >= RESEND_MS:
            self._next = 0  # no ACK for a while: the ACK or the frames got lost
            self._moved = now
        # New frames while the window has room, at most _MAKE a step and never
        # more than one waiting for the writer: the rest of the step is the UI's.
        made = 0
        while not self._ended and len(ring) < self.t.window and len(ring) - self._next < 2 and made < _MAKE:
            try:
                kind, body = next(self._stream)
            except StopIteration:
                self._ended = True
                if not ring:
                    self._stream = None
                return
            ring.append(wire.encode(kind, self._sseq, body))
            self._sseq = (self._sseq + 1) & 0xFFFF
            made += 1
            if kind == wire.DONE:
                # DONE is the last frame: its ACK ends the export at once, not a
                # step later when the generator says so. A request the host sends
                # right behind that ACK, read in the same step, is then no longer
                # answered "busy" (issue 13: 0.7 % of exports under load).
                self._ended = True
                return
