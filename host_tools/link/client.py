# The laptop's end of the serial link (docs/protocol.md): handshake, stop-and-wait requests, the export stream.
#
#   link = Link.open("/dev/ttyUSB0")         # or a pyserial URL; does the handshake
#   link.hello                               # {"proto": 1, "id": "esp32-...", "fw": "0.1.0", "window": 4, ...}
#   info = link.info()
#   result = link.export(wire.ALL, on_game=keep)   # keep(id, flags, game dict or None, size) per game
#   link.mark([(1, 812), (2, 50)]); link.bye(); link.close()   # (id, journal size) of games stored
#
# Every line on the port is read; lines that are not frames (an echo, the
# REPL's boot text) are skipped. A handshake answered by MicroPython's REPL
# raises AtRepl (every command exits 4); a garbled answer is asked again. A request gets no answer within
# reply_timeout: sent again with the same seq (the device answers a repeat
# without doing it twice); after `tries`, a new handshake and once more;
# then DeviceGone. The export stream (stream.py) acks every frame, asks
# for a resend (ACK 01, go-back-N) at a gap or a damaged line, and gives up
# with DeviceGone after stream_timeout of silence, NoisyLine (a DeviceGone)
# when only damaged frames came that long; a stream that begins noisy is asked
# again with smaller DATA frames (EXPORT's chunk). A request answered "busy"
# right after an export (a device that had not yet taken the ACK of DONE) is
# asked again after acking DONE once more, BUSY_TRIES times at most. Errors
# are never OSError subclasses, so ports.find can tell "cannot open" from
# "no Tafel here".
import time

from tafel import wire

from ..lang import say
from .errors import CTRL_B, AtRepl, DeviceError, DeviceGone, LinkError, NoAnswer, at_repl

BAUD = 115200
HANDSHAKE_TIMEOUT = 1.0  # seconds for "TAFEL!" after "TAFEL?" (protocol: about 1 s, a few tries)
REPLY_TIMEOUT = 2.0
CONFIRM_TIMEOUT = 35.0  # DELETE and WIPE wait for a person at the device
STREAM_TIMEOUT = 10.0  # silence in an export stream before the device counts as gone
STREAM_NUDGE = 2.0  # silence after which the host acks again (its ACK may have been lost)
TRIES = 3
DAMAGED_TRIES = 8  # a request asked again at once because its answer (or itself) came damaged: this often more
GARBLED_TRIES = 8  # handshakes asked in all while the answers come garbled (a noisy line: the device is there)
BUSY_TRIES = 3  # a request answered "busy" just after an export: asked again this often
BUSY_WAIT = 0.2  # seconds between those tries (a device step is 10 ms)
MARK_MAX = 20  # games in one MARK request (docs/protocol.md)


def _damaged(kind, seq, body):
    # A line that came damaged, or the device's word that ours did (ERR bad_frame to seq 0).
    if kind == "bad":
        return True
    if kind == wire.ERR and seq == 0:
        try:
            return wire.parse_error(body)[0] == "bad_frame"
        except wire.WireError:
            return True
    return False



class Link:
    def __init__(self, port, hello, timeouts=None):
        self.port = port
        self.hello = hello
        self.seq = 0
        self.rx_buf = bytearray()
        t = timeouts or {}
        self.reply_timeout = t.get("reply", REPLY_TIMEOUT)
        self.stream_timeout = t.get("stream", STREAM_TIMEOUT)
        self.stream_nudge = t.get("nudge", STREAM_NUDGE)
        self.handshake_timeout = t.get("handshake", HANDSHAKE_TIMEOUT)
        self.busy_wait = t.get("busy", BUSY_WAIT)
        self.stream_end = None  # the ACK that ends the last export stream, until a request after it succeeds
        self.wire_out = 0  # bytes written to the port, and read from it (for the benchmark)
        self.wire_in = 0

    @classmethod
    def open(cls, url, baud=BAUD, timeouts=None):
        """Open a device path or pyserial URL and do the handshake (NoAnswer if no Tafel answers)."""
        import serial

        from . import ports

        release = ports.lock(url)  # ports.PortBusy while another tafel command uses the port
        # and pyserial's exclusive mode (a flock on the port itself) against other programs that take it
        exclusive = {"exclusive": True} if ports.first_holder(url) else {}
        try:
            port = serial.serial_for_url(url, baudrate=baud, timeout=0.05, write_timeout=5, **exclusive)
        except BaseException as err:
            release()
            if "exclusively lock" in str(err):
                raise ports.PortBusy(say("port_other_program", url)) from None
            raise
        link = cls(port, None, timeouts)
        link._release = release
        try:
            link.handshake()
        except BaseException:
            link.close()
            raise
        return link

    _release = None  # the port lock's release, for a link that Link.open made

    def close(self):
        try:
            self.port.close()
        finally:
            if self._release is not None:
                self._release()

    # ---- lines -------------------------------------------------------------------

    def write_raw(self, data):
        """Bytes to the device as they are (frames, or a line end), flushed; DeviceGone if the port fails."""
        try:
            self.port.write(data)
            self.port.flush()
        except OSError as err:  # pyserial's SerialException is one
            raise DeviceGone(say("port_write", err)) from None
        self.wire_out += len(data)

    def _line(self, deadline):
        """The next whole line (without its end), or None when the deadline passes."""
        while True:
            end = self.rx_buf.find(b"\n")
            if end >= 0:
                line = bytes(self.rx_buf[:end]).rstrip(b"\r")
                del self.rx_buf[:end + 1]
                return line
            if len(self.rx_buf) > wire.MAX_LINE:
                del self.rx_buf[:]  # garbage without an end: drop it
            if time.monotonic() >= deadline:
                return None
            try:
                waiting = self.port.in_waiting
                got = self.port.read(max(1, min(waiting, 4096)))
            except (OSError, TypeError, AttributeError) as err:  # unplugged: pyserial raises or its fd is gone
                raise DeviceGone(say("port_gone", err or type(err).__name__)) from None
            self.rx_buf += got
            self.wire_in += len(got)

    def read_frame(self, deadline, stream=False):
        """(kind, seq, body, wire bytes) of the next good frame; None at the deadline. A damaged
        frame (a line starting with "~") is ("bad", 0, b"", size); in a stream (where the device
        sends nothing else) any line that is not a frame is; other lines are skipped."""
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            try:
                kind, seq, body = wire.decode(line)
            except wire.WireError:
                if line.startswith(b"~") or (stream and line):
                    return "bad", 0, b"", len(line) + 1
                continue  # not for us: an echo, the REPL, noise
            return kind, seq, body, len(line) + 1

    # ---- handshake and requests ------------------------------------------------------

    def handshake(self, tries=TRIES):
        """Start (or restart) a session; sets self.hello. Asked `tries` times, GARBLED_TRIES
        while the answers come garbled; a REPL that answers instead raises AtRepl, silence NoAnswer."""
        seen, garbled, repl, silent = [], None, False, False
        asked = 0
        # A garbled answer means the device is there on a noisy line: it is asked more often.
        while asked < (max(tries, GARBLED_TRIES) if garbled is not None else tries):
            asked += 1
            # "\r\n": the app strips the "\r"; MicroPython's friendly prompt takes the "\r" as Enter,
            # runs "TAFEL?" and answers with a traceback and ">>> ", so a REPL always shows itself.
            # The raw REPL (Ctrl-A: mpremote's, left behind by a killed mpremote) echoes nothing:
            # after a silent try Ctrl-B goes first, which takes it back to the friendly prompt (its
            # banner answers) and is a stray byte outside any line to the app.
            self.write_raw((CTRL_B if silent else b"") + b"\n" + wire.HANDSHAKE + b"\r\n")
            deadline = time.monotonic() + self.handshake_timeout
            heard = False
            while True:
                line = self._line(deadline)
                if line is None:
                    repl = repl or at_repl(bytes(self.rx_buf))  # a prompt without a line end (">>> ")
                    silent = not heard and not self.rx_buf
                    break
                heard = True
                if line.startswith(wire.HANDSHAKE_REPLY):
                    try:
                        hello = wire.parse_hello(line)
                    except wire.WireError as err:
                        garbled = str(err)  # a damaged byte on the line: ask again
                        break
                    if hello["proto"] != wire.PROTOCOL:
                        raise NoAnswer(say("other_protocol", hello["proto"], wire.PROTOCOL))
                    self.hello = hello
                    self.seq = 0
                    self.stream_end = None
                    return hello
                if b"proto=" in line or b"AFEL!" in line:  # the hello with its start damaged
                    garbled = say("damaged_hello")
                    break
                repl = repl or at_repl(line)
                if line.strip():
                    seen.append(line.strip()[:60].decode("ascii", "replace"))
        if repl:
            raise AtRepl(say("at_repl"))
        if garbled is not None:
            raise NoAnswer(say("garbled_hello", asked, garbled))
        raise NoAnswer(say("no_hello") + (say("it_said", seen[-1]) if seen else ""))

    def request(self, kind, body=b"", timeout=None):
        """Send one request; the OK body, or DeviceError for ERR, DeviceGone if nothing answers."""
        for attempt in range(BUSY_TRIES + 1):
            try:
                got = self._request(kind, body, timeout)
                self.stream_end = None
                return got
            except DeviceError as err:
                if err.code != "busy" or self.stream_end is None or attempt == BUSY_TRIES:
                    raise
            # A device from before the fix of issue 13 ends an export only a step after
            # the ACK of DONE (or never, if that ACK was lost): ack again, wait, ask again.
            self.ack(self.stream_end)
            deadline = time.monotonic() + self.busy_wait
            while self.read_frame(deadline) is not None:
                pass  # a resent stream frame, or nothing: the wait itself

    def _request(self, kind, body, timeout):
        timeout = self.reply_timeout if timeout is None else timeout
        for attempt in range(2):
            self.seq = self.seq % 0xFFFF + 1
            line = wire.encode(kind, self.seq, body)
            tries = damaged = 0
            while tries < TRIES:
                self.write_raw(line)
                deadline = time.monotonic() + timeout
                tries += 1
                while True:
                    got = self.read_frame(deadline)
                    if got is None:
                        break
                    rkind, rseq, rbody, _ = got
                    if _damaged(rkind, rseq, rbody) and damaged < DAMAGED_TRIES:
                        # the reply, or the request on its way, came damaged: ask again now (the
                        # device answers a seq it has seen with the same answer), not at the timeout
                        damaged += 1
                        tries -= 1
                        break
                    if rseq != self.seq or rkind not in (wire.OK, wire.ERR):
                        continue  # a stale reply or stream frame
                    if rkind == wire.ERR:
                        raise DeviceError(*wire.parse_error(rbody))
                    return rbody
            if attempt == 0:
                try:
                    self.handshake()
                except AtRepl:
                    raise  # the app stopped in the session: it says so, not "stopped answering"
                except NoAnswer:
                    break
        raise DeviceGone(say("stopped_answering", wire.NAMES.get(kind, kind)))

    def info(self):
        return wire.parse_info(self.request(wire.INFO))

    def games(self):
        """Every stored game's summary (LIST, page by page)."""
        out, after = [], 0
        while True:
            body = bytearray()
            wire.put_varint(body, after)
            more, page = wire.parse_list(self.request(wire.LIST, bytes(body)))
            out += page
            if not more or not page:
                return out
            after = page[-1]["id"]

    def set_clock(self, epoch):
        """Set the device clock (epoch seconds, UTC); returns what it was (0 = not set)."""
        body = bytearray()
        wire.put_varint(body, int(epoch))
        return wire.parse_numbers(self.request(wire.CLOCK, bytes(body)), 1)[0]

    def roster_pull(self):
        names, start = [], 0
        while True:
            body = bytearray()
            wire.put_varint(body, start)
            r = wire.Body(self.request(wire.ROSTER_PULL, bytes(body)))
            more = r.byte()
            page = r.texts()
            names += page
            start += len(page)
            if not more or not page:
                return names

    def roster_push(self, names):
        """Store `names` as the roster (sent in parts that fit a request); returns the count stored."""
        parts, part, size = [], [], 2
        for name in names:
            raw = name.encode()
            need = len(raw) + (1 if len(raw) < 128 else 2)
            if part and (size + need > wire.MAX_REQUEST or len(part) == 255):
                parts.append(part)
                part, size = [], 2
            part.append(name)
            size += need
        parts.append(part)
        stored = 0
        for i, part in enumerate(parts):
            body = bytearray([(wire.FIRST if i == 0 else 0) | (wire.LAST if i == len(parts) - 1 else 0), len(part)])
            for name in part:
                wire.put_text(body, name)
            stored = wire.parse_numbers(self.request(wire.ROSTER_PUSH, bytes(body)), 1)[0]
        return stored

    def mark(self, games):
        """Flag games as exported on the device: `games` are (id, journal size) pairs,
        the size the game's GAME frame announced, so a game played on since stays
        unmarked. Live games are never marked. Returns how many the device marked."""
        games = list(games)
        marked = 0
        for start in range(0, len(games), MARK_MAX):
            part = games[start:start + MARK_MAX]
            body = bytearray()
            wire.put_varint(body, len(part))
            for number in [gid for gid, _ in part] + [size for _, size in part]:
                wire.put_varint(body, number)
            marked += wire.parse_numbers(self.request(wire.MARK, bytes(body)), 1)[0]
        return marked

    def bye(self, wait=True):
        """End the session. wait=False (after a failure): BYE is sent once and not waited for;
        if it is lost the device ends the session on its own after 10 s."""
        if not wait:
            self.seq = self.seq % 0xFFFF + 1
            try:
                self.write_raw(wire.encode(wire.BYE, self.seq))
            except LinkError:
                pass
            return
        try:
            self.request(wire.BYE)
        except LinkError:
            pass  # the session times out on its own

    # ---- export --------------------------------------------------------------------------

    def export(self, mode=wire.ALL, arg=None, on_game=None, progress=None):
        """Run one export (stream.run_export): mode ONE (arg: game id), ALL, or SINCE (arg: a
        cursor, "G:S/N@E" or "G:S"); on_game(game id, flags, game dict or None, journal size) per
        game, progress(journal bytes received, announced total). An ExportResult."""
        from .stream import run_export

        return run_export(self, mode, arg, on_game, progress)

    def ack(self, expected, resend=False):
        self.write_raw(wire.encode(wire.ACK, expected, b"\x01" if resend else b""))
