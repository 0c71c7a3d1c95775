# The link: lines from the serial, the session, answers, and exports streamed in a window.
#
# poll(now) is called from Runner.step every 10 ms. It never waits: it takes
# the bytes that arrived, answers whole lines, makes at most one stream frame
# and writes at most what the line can carry since the last step
# (transport.rate), so the UI stays responsive during a transfer. Everything
# on the wire is described in docs/protocol.md.
#
# Lines go into a preallocated buffer; a line longer than it is dropped whole.
# Nothing a host sends can change a game: the requests that write (roster,
# clock, exported marks) touch no journal, and delete and wipe happen only
# after the user pressed # on the device.
import sys

from micropython import const

from store.errors import StoreError
from tafel import wire
from tafel.version import VERSION

_LINE_MAX = const(256)  # the device's line buffer; requests are at most 198 bytes
READ_MAX = const(512)  # bytes taken per step (115200 baud brings about 115 in 10 ms)
_SESSION_MS = const(10000)  # a session ends after this long without a good frame
RESEND_MS = const(1500)  # unacknowledged stream frames go again after this long
ASK_MS = const(30000)  # how long a question on the screen waits for the user
_QUEUE_MAX = const(2)  # answers to garbage waiting to go out; more are dropped
_BURST = const(600)  # write credit kept while idle, in bytes
_MAKE = const(2)  # stream frames made in one step, at most
_RESTART_MS = const(300)  # after UPDATE_END's answer: time for the UART to send it before the reboot

_ALWAYS = (wire.ACK, wire.CANCEL, wire.BYE, wire.HELLO, wire.INFO)  # taken while busy


class Link:
    def __init__(self, transport, app, device_id, log=None, restart=None):
        self.t = transport
        self.app = app
        self.device_id = device_id
        self.firmware = VERSION
        self.log = log
        self.active = False
        self.names = None  # roster parts gathered by ROSTER_PUSH
        self.exported_at = None  # (epoch, changes) of this session's last export plan (MARK)
        self._buf = bytearray(_LINE_MAX)
        self._len = 0
        self._long = False
        self._rx = bytearray(64)
        self._replies = []  # whole lines to send before any stream frame
        self._cur = None  # the line being written, and how far
        self._pos = 0
        self._credit = 0
        self._tick = None
        self._now = 0
        self._seen = 0  # when the host last sent a good frame
        self._last = None  # (kind, seq, body) of the last request, and its answer line
        self._answer = None
        self._stream = None  # the export's frame generator (export.py), None when none runs
        self._ring = []  # stream lines sent (or about to be) and not acknowledged yet
        self._base = 0  # the number of _ring[0]
        self._next = 0  # index in _ring of the next line to write
        self._high = 0  # lines of _ring handed to the writer at least once
        self._sseq = 0  # the number the next new stream frame gets
        self._ended = False  # DONE was made (or the generator is used up): no new frames
        self._moved = 0  # when the window last moved
        self._ask = None  # the question on the screen, its request's seq, deadline, action
        self._ask_seq = 0
        self._ask_until = 0
        self._ask_do = None
        self.stager = None  # update/stage.py's Stager while an update is transferred (link/update.py)
        self.raw = None  # link/update.py's Receiver while counted bytes come in place of lines
        self.restart = restart  # called to reboot into a new version after UPDATE_END's answer went out
        self._restart_at = None
        self._usb_host = getattr(transport, "usb_host", False)  # the port tells when a host holds it

    # ---- the main loop's door ------------------------------------------------------

    def poll(self, now):
        self._now = now
        try:
            self._read(now)
            if self.active:
                self._pump(now)
            self._write(now)
            if self._restart_at is not None and self._cur is None and not self._replies \
                    and now - self._restart_at >= 0:
                self._restart_at = None
                if self.restart is not None:
                    self.restart()
        except Exception as err:  # a link bug must never stop the game
            self.end()
            self._replies = []
            self._cur = None
            if self.log is not None:
                self.log(err)

    def restart_after_reply(self):
        """Reboot (self.restart) once the answers queued now are written, and a moment more for the UART."""
        self._restart_at = self._now + _RESTART_MS

    def end(self):
        """Ends the session: Ctrl-C interrupts again, the mark goes, an export or a question stops,
        an update's staging code lets go of the heap (its state is on flash: the next session's
        requests take it up again, update/stage.py)."""
        self._reset()
        if self.stager is not None:
            self.stager = None
            from update.stage import forget

            forget()
        if "link.commands" in sys.modules:  # loaded again by the next session's first request
            from unload import forget

            forget(("link.commands",))
        if self.active:
            self.active = False
            self.t.guard(False)
            self.app.set_link(False)

    # ---- reading -------------------------------------------------------------------

    def _read(self, now):
        if self._usb_host:  # a USB host holds the port: no deep sleep (ui/app.py)
            self.app.usb_seen = now
        if self.raw is not None:
            self.raw.poll(now)
            return
        rx = self._rx
        buf = self._buf
        taken = 0
        while taken < READ_MAX:
            n = self.t.readinto(rx)
            if not n:
                return
            self.app.usb_seen = now  # a host is talking: no deep sleep while it does (ui/app.py)
            taken += n
            size = self._len
            for i in range(n):
                b = rx[i]
                if b == 10:
                    self._len = size
                    self._line(now)
                    size = 0
                    if self.raw is not None:  # the line was UPDATE_SEND: what follows is counted bytes
                        self.raw.take(memoryview(rx)[i + 1:n], now)
                        return
                elif size < _LINE_MAX:
                    buf[size] = b
                    size += 1
                else:
                    self._long = True
            self._len = size

    def _line(self, now):
        size = self._len
        self._len = 0
        if self._long:
            self._long = False
            if self.active:
                self._error(0, "too_long", "")
            return
        buf = self._buf
        while size and buf[size - 1] == 13:
            size -= 1
        if size == 6 and buf[:6] == wire.HANDSHAKE:
            self._handshake(now)
            return
        if not size or buf[0] != 0x7E:
            return  # not for us: a person typing, noise
        line = bytes(buf[:size])
        for b in line:
            if b < 32 or b > 126:
                return  # control bytes make a line garbage
        try:
            kind, seq, body = wire.decode(line)
        except ValueError:
            if self.active:
                self._error(0, "bad_frame", "")
            return
        if not self.active:
            self._error(seq, "no_session", "")
            return
        self._seen = now
        if kind == wire.ACK:
            self._acked(seq, body, now)
        else:
            self._request(kind, seq, body)

    # ---- session and requests -----------------------------------------------------------

    def _handshake(self, now):
        self._reset()
        self._replies = []
        if not self.active:
            self.active = True
            self.t.guard(True)
            self.app.set_link(True)
        self._seen = now
        self._replies.append(wire.hello_line(self.device_id, self.firmware, self.t.window, self.t.chunk))

    def _reset(self):
        self.cancel()
        self.raw = None
        self.names = None
        self.exported_at = None
        self._last = None
        self._answer = None
        if self._ask is not None:
            ask, self._ask, self._ask_do = self._ask, None, None
            if self.app.screen is ask:
                self.app.pop()

    def _request(self, kind, seq, body):
        last = self._last
        if last is not None and last[0] == kind and last[1] == seq and last[2] == body:
            # The host asked again (our answer got lost): the same answer, not the same deed.
            if self._answer is not None:
                self._replies.append(self._answer)
            return
        if self._stream is not None and kind not in _ALWAYS and self._ended and self._high >= len(self._ring):
            # DONE went out and a new request came: the host has the whole stream
            # (it asks nothing else before that), so its ACK of DONE was lost.
            self.cancel()
        if (self._ask is not None or self._stream is not None) and kind not in _ALWAYS:
            self._send(wire.ERR, seq, wire.error_body("busy"))
            return
        self._last = (kind, seq, body)
        self._answer = None
        try:
            got = self.run(kind, seq, body)
        except wire.WireError as err:
            self._reply(seq, wire.ERR, wire.error_body(err.code, err.detail))
        except ValueError:  # RecordError from a body that does not parse
            self._reply(seq, wire.ERR, wire.error_body("bad_request"))
        except OSError as err:
            self._reply(seq, wire.ERR, wire.error_body("store", "errno %s" % err.args[0]))
        except StoreError as err:  # flash full, save failed, no such game
            self._reply(seq, wire.ERR, wire.error_body("store", str(err.key)))
        else:
            if got is not None:  # None: the answer comes later (a question on the screen)
                self._reply(seq, wire.OK, got)
            if kind == wire.BYE:
                self.end()

    def run(self, kind, seq, body):
        """What a request does: commands.py (recovery/commands.py serves its own few)."""
        from . import commands

        return commands.run(self, kind, seq, body)

    def _reply(self, seq, kind, body):
        line = wire.encode(kind, seq, body)
        self._answer = line
        self._replies.append(line)

    def _send(self, kind, seq, body):
        self._replies.append(wire.encode(kind, seq, body))

    def _error(self, seq, code, detail):
        # An answer to garbage: dropped when a flood of it would pile up.
        if len(self._replies) < _QUEUE_MAX:
            self._replies.append(wire.encode(wire.ERR, seq, wire.error_body(code, detail)))

    # ---- questions on the screen (delete, wipe) --------------------------------------------

    def ask(self, seq, question, detail, action):
        """Shows the question on the app's confirmation screen, titled as the laptop's;
        action() runs and is answered OK when the user presses #, ERR refused on *,
        ERR timeout after ASK_MS."""
        app = self.app
        if app.asleep:
            app.wake()
        app.last_key = app.clock.ticks_ms()  # the display stays on while it waits
        self._ask_seq = seq
        self._ask_until = self._now + ASK_MS
        self._ask_do = action
        app.open("confirm", question, self._yes, detail, app.t("laptop_asks"), self._no)
        self._ask = app.screen

    def _yes(self):
        self._answered(True)

    def _no(self):
        self._answered(False)

    def _answered(self, yes):
        # From the screen's key handler: the user decided.
        if self._ask is None:
            return
        seq, action = self._ask_seq, self._ask_do
        self._ask = self._ask_do = None
        if not yes:
            self._reply(seq, wire.ERR, wire.error_body("refused"))
            return
        try:
            self._reply(seq, wire.OK, action())
        except OSError as err:
            self._reply(seq, wire.ERR, wire.error_body("store", "errno %s" % err.args[0]))
        except StoreError as err:
            self._reply(seq, wire.ERR, wire.error_body("store", str(err.key)))

    # ---- the export stream -----------------------------------------------------------------

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

    def _pump(self, now):
        if self._ask is not None:
            if now - self._ask_until >= 0:
                ask = self._ask
                self._ask = self._ask_do = None
                if self.app.screen is ask:
                    self.app.pop()
                self._reply(self._ask_seq, wire.ERR, wire.error_body("timeout"))
            return  # the session waits for the user, however long the host is quiet
        if now - self._seen >= _SESSION_MS:
            self.end()
            return
        if self._stream is None:
            return
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

    # ---- writing -------------------------------------------------------------------------

    def _take(self):
        if self._replies:
            return self._replies.pop(0)
        if self._next < len(self._ring):
            self._next += 1
            if self._next > self._high:
                self._high = self._next
            return self._ring[self._next - 1]
        return None

    def _write(self, now):
        rate = self.t.rate
        if self._tick is not None and rate:
            self._credit = min(_BURST, self._credit + (now - self._tick) * rate * 5 // 4000)  # 1.25 x the line
        self._tick = now
        while True:
            cur = self._cur
            if cur is None:
                cur = self._take()
                if cur is None:
                    return
                self._cur = cur
                self._pos = 0
            n = len(cur) - self._pos
            if rate:
                if self._credit <= 0:
                    return
                n = min(n, self._credit)
                self._credit -= n
            self.t.write(memoryview(cur)[self._pos:self._pos + n])
            self._pos += n
            if self._pos < len(cur):
                return
            self._cur = None
