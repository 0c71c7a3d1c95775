# The update transfer on the link (docs/protocol.md, "Update transfer"): the requests
# UPDATE_BEGIN, UPDATE_CHUNK, UPDATE_STATUS and UPDATE_END, handed to update/stage.py.
#
# Every chunk is answered only once its bytes are on flash, with how many
# bytes of that part the device now holds: a repeated or stale chunk writes
# nothing, and the host goes on from what the answer says. A chunk's line is
# at most 254 bytes (wire.UPDATE_BODY): it fits the device's 256-byte line
# buffer and, since the host sends the next chunk only after the answer, the
# 260-byte UART ring. Refusals are ERR "update" with the UpdateError key
# (and its detail) as the detail text.
from tafel import wire
from tafel.records import put_text, put_varint
from tafel.wire import WireError

from update.errors import UpdateError


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
            return _numbers(_stager(link).put(what, offset, data))
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
        detail = err.key
        if err.detail is not None:
            d = err.detail
            detail += ":" + (" ".join(str(x) for x in d) if isinstance(d, tuple) else str(d))
        raise WireError("update", detail)
    raise WireError("unknown", "kind %d" % kind)


def _stager(link):
    st = getattr(link, "stager", None)
    if st is None:
        from update.stage import Stager
        from update.trusted import TRUSTED_KEYS

        st = Stager(link.app.store.disk.vol, TRUSTED_KEYS)
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


def _numbers(*numbers):
    out = bytearray()
    for n in numbers:
        put_varint(out, n)
    return out
