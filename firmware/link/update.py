# The update transfer on the link (docs/protocol.md, "Update transfer"): the requests
# UPDATE_BEGIN, UPDATE_CHUNK, UPDATE_STATUS, UPDATE_SEND and UPDATE_END, handed to
# update/stage.py.
#
# Bulk bytes come as a counted stream: UPDATE_SEND announces N bytes, its OK
# says the device is ready, then the host sends N raw bytes (no base64: the
# keyboard interrupt is off in a session) in blocks of part, offset, length,
# data and CRC32, never more than wire.UPDATE_WINDOW bytes beyond what the
# device said it took (the 260-byte UART ring). The Receiver takes them
# straight into one block buffer instead of the link's line reader, puts
# each good block on flash through the Stager and says how far it got in
# UPDATE_RX frames: bytes taken (the host's credit) and bytes on flash. A bad
# CRC, a header that makes no sense, or RAW_IDLE_MS without a byte (by the
# injected clock) ends the stream, and the host starts again from what the
# device holds. UPDATE_CHUNK (one base64 line, stop and wait) stays for small
# hosts. Refusals are ERR "update" with the UpdateError key (and its detail)
# as the detail text.
import struct
from binascii import crc32

from micropython import const

from tafel import wire
from tafel.bundle.errors import UpdateError
from tafel.records import put_text, put_varint, varints
from tafel.wire import WireError

RAW_IDLE_MS = const(1000)  # a stream that brings nothing for this long is over (the host went away)
RAW_MAX = const(1048576)  # the most bytes one UPDATE_SEND may announce
READ_MAX = const(512)  # stream bytes taken per step (115200 baud brings about 115 in 10 ms)
_HEAD = const(8)  # wire.UPDATE_BLOCK_HEAD


def run(link, kind, r):
    try:
        if kind == wire.UPDATE_BEGIN:
            bundle_id = bytes(r.data[r.pos:r.pos + 8])
            r.pos += 8
            head_len = r.varint()
            r.end()
            st = _stager(link)
            st.begin(bundle_id, head_len)
            return _status(st)
        if kind == wire.UPDATE_CHUNK:
            what = r.varint()
            offset = r.varint()
            data = r.rest()
            return varints(_stager(link).put(what, offset, data))
        if kind == wire.UPDATE_SEND:
            total = r.varint()
            r.end()
            st = _stager(link)
            if st._id is None:
                raise UpdateError("no_transfer")
            if not 0 < total <= RAW_MAX:
                raise WireError("bad_request", "length")
            link.raw = Receiver(link, st, link._last[1], total, link._now)
            return varints(wire.UPDATE_BLOCK)
        if kind == wire.UPDATE_STATUS:
            r.end()
            return _status(_stager(link))
        if kind == wire.UPDATE_END:
            r.end()
            version = _stager(link).finish()
            link.stager = None
            link.restart_after_reply()  # the new version runs on trial from the next boot
            out = bytearray()
            put_text(out, version)
            return out
    except UpdateError as err:
        raise WireError("update", _detail(err))
    raise WireError("unknown", "kind %d" % kind)


def _detail(err):
    detail = err.key
    if err.detail is not None:
        d = err.detail
        detail += ":" + (" ".join(str(x) for x in d) if isinstance(d, tuple) else str(d))
    return detail


class Receiver:
    """Takes an UPDATE_SEND's counted bytes; the link calls poll(now) in place of its line reader."""

    def __init__(self, link, stager, seq, total, now):
        self.link = link
        self.st = stager
        self.seq = seq
        self.left = total  # counted bytes still to come
        self.buf = bytearray(_HEAD + wire.UPDATE_BLOCK + 4)  # one block: header, data, CRC
        self.view = memoryview(self.buf)
        self.pos = 0  # bytes of the block in buf
        self.want = _HEAD  # bytes of the block to have before the next step of it
        self.taken = 0  # counted bytes read so far
        self.done = 0  # counted bytes whose blocks are on flash
        self.heard = now
        self.told = 0  # self.taken + self.done when UPDATE_RX last went out

    def take(self, data, now):
        """Bytes the link read already (behind the UPDATE_SEND line in the same read)."""
        i = 0
        while i < len(data) and self.link.raw is self:
            n = min(len(data) - i, self.want - self.pos)
            self.view[self.pos:self.pos + n] = data[i:i + n]
            i += n
            self._got(n, now)

    def poll(self, now):
        t = self.link.t
        got = 0
        # The transport fills the block straight from the serial (one C-level read a byte on
        # the device's stdin; a whole block's CRC is one C call), never more than the block wants.
        while got < READ_MAX and self.link.raw is self:
            n = t.readinto(self.view[self.pos:min(self.want, self.pos + self.left)])
            if not n:
                break
            got += n
            self._got(n, now)
        if self.link.raw is not self:
            return
        if got:
            self.heard = now
        elif now - self.heard >= RAW_IDLE_MS:
            self._end(wire.RX_STOPPED)
            return
        self._tell(wire.RX_GOING)

    def _got(self, n, now):
        self.pos += n
        self.taken += n
        self.left -= n
        if self.pos < self.want:
            if not self.left or self.left < 0:
                self._end(wire.RX_BAD)  # the count ends inside a block
            return
        buf = self.buf
        if self.want == _HEAD:
            length = buf[6] | buf[7] << 8
            if not 0 < length <= wire.UPDATE_BLOCK or length + 4 > self.left:
                self._end(wire.RX_BAD)
                return
            self.want = _HEAD + length + 4
            return
        end = self.want - 4
        if crc32(self.view[:end]) != struct.unpack_from("<I", buf, end)[0]:
            self._end(wire.RX_BAD)
            return
        part, offset = struct.unpack_from("<HI", buf)
        try:
            self.st.put(part, offset, self.view[_HEAD:end])  # returns once the bytes are on flash
        except UpdateError as err:
            self._fail("update", _detail(err))
            return
        except OSError as err:
            self._fail("store", "errno %s" % err.args[0])
            return
        self.done = self.taken
        self.pos = 0
        self.want = _HEAD
        self.heard = now
        self.link._seen = now  # a good block keeps the session
        if not self.left:
            self._end(wire.RX_DONE)

    def _tell(self, state):
        if state == wire.RX_GOING and self.taken + self.done == self.told:
            return
        self.told = self.taken + self.done
        out = bytearray()
        put_varint(out, self.taken)
        put_varint(out, self.done)
        out.append(state)
        self.link._send(wire.UPDATE_RX, self.seq, out)

    def _end(self, state):
        self._tell(state)
        self.link.raw = None  # back to lines; bytes still coming are garbage lines to it

    def _fail(self, code, detail):
        self.link.raw = None
        self.link._send(wire.ERR, self.seq, wire.error_body(code, detail))


def _stager(link):
    st = getattr(link, "stager", None)
    if st is None:
        from update.stage import Stager
        from update.trusted import TRUSTED_KEYS

        st = Stager(link.app.store.update_volume(), TRUSTED_KEYS)
        link.stager = st
    return st


def _status(st):
    state, head, wanted = st.status()
    out = bytearray((state,))
    put_varint(out, head)
    put_varint(out, len(wanted))
    for index, have in wanted:
        put_varint(out, index)
        put_varint(out, have)
    return out
