# The update transfer on the link (docs/protocol.md, "Update transfer"): the requests
# UPDATE_BEGIN, UPDATE_CHUNK, UPDATE_STATUS, UPDATE_SEND and UPDATE_END, handed to
# update/stage.py.
#
# Bulk bytes come as a counted stream: UPDATE_SEND announces N bytes, its OK
# says the device is ready, then the host sends N raw bytes (no base64: the
# keyboard interrupt is off in a session) in blocks of part, offset, length,
# data and CRC32, never more than wire.UPDATE_WINDOW bytes beyond what the
# device said it took (the 260-byte UART ring). The Receiver takes them
# straight into the Stager's block pieces instead of the link's line reader
# (four pieces of 256 bytes, not one 1 KB buffer: a long-running app's heap
# has holes that size, seldom a 1 KB one), puts each good block on flash
# through the Stager and says how far it got in
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
_RAW_MAX = const(1048576)  # the most bytes one UPDATE_SEND may announce
READ_MAX = const(512)  # stream bytes taken per step (115200 baud brings about 115 in 10 ms)
_HEAD = const(8)  # wire.UPDATE_BLOCK_HEAD


def run(link, kind, r):
    if kind in (wire.UPDATE_BEGIN, wire.UPDATE_CHUNK, wire.UPDATE_SEND):
        link.app.make_room()  # the screens and the game let go while the update is checked (ui/app.py)
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
            if not 0 < total <= _RAW_MAX:
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
    """Takes an UPDATE_SEND's counted bytes; the link calls poll(now) in place of its line reader.

    A block's bytes go into three places: its header and CRC into a 12-byte buffer, its data
    into the Stager's block pieces (Stager.pieces: wire.UPDATE_BLOCK bytes in pieces of
    stage.PIECE, never one 1 KB run of heap, which a long-running app's fragmented heap may not have).
    The CRC is taken piece by piece as they fill; only a block whose CRC holds goes to flash."""

    def __init__(self, link, stager, seq, total, now):
        self.link = link
        self.st = stager
        self.seq = seq
        self.left = total  # counted bytes still to come
        self.head = bytearray(_HEAD + 4)  # the block's header, then its CRC
        self.pieces = stager.pieces()  # wire.UPDATE_BLOCK bytes in all
        self.piece = len(self.pieces[0])
        self.length = 0  # the block's data bytes (0: its header is coming)
        self.got = 0  # of them in the pieces
        self.crc = 0
        self._aim(memoryview(self.head)[:_HEAD])
        self.taken = 0  # counted bytes read so far
        self.done = 0  # counted bytes whose blocks are on flash
        self.heard = now
        self.told = 0  # self.taken + self.done when UPDATE_RX last went out

    def _aim(self, view):
        # The next bytes of the stream go into view, until it is full.
        self.view = view
        self.pos = 0
        self.want = len(view)

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
        # the device's stdin; a piece's CRC is one C call), never more than the block wants.
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
        head = self.head
        if not self.length:  # the header is in
            length = head[6] | head[7] << 8
            if not 0 < length <= wire.UPDATE_BLOCK or length + 4 > self.left:
                self._end(wire.RX_BAD)
                return
            self.length = length
            self.got = 0
            self.crc = crc32(memoryview(head)[:_HEAD])
            self._aim(memoryview(self.pieces[0])[:min(length, self.piece)])
            return
        if self.got < self.length:  # a piece is full
            self.crc = crc32(self.view, self.crc)
            self.got += self.want
            left = self.length - self.got
            if left:
                self._aim(memoryview(self.pieces[self.got // self.piece])[:min(left, self.piece)])
            else:
                self._aim(memoryview(head)[_HEAD:])
            return
        # the CRC is in: the block is whole
        length = self.length
        self.length = 0
        self._aim(memoryview(head)[:_HEAD])
        if self.crc != struct.unpack_from("<I", head, _HEAD)[0]:
            self._end(wire.RX_BAD)
            return
        part, offset = struct.unpack_from("<HI", head)
        pieces, size = self.pieces, self.piece
        data = tuple(memoryview(pieces[i])[:min(size, length - i * size)] for i in range((length + size - 1) // size))
        try:
            self.st.put(part, offset, data)  # returns once the bytes are on flash
        except UpdateError as err:
            self._fail("update", _detail(err))
            return
        except OSError as err:
            self._fail("store", "errno %s" % err.args[0])
            return
        self.done = self.taken
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
        from update import stage  # (the name as written here: no new interned string when it is imported)

        st = stage.stager(link.app.store.update_volume())
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
