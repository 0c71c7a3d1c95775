# Stager.feed() (update/stage.py): a whole bundle staged from one stream read from its start.
#
# For a bundle that comes in one piece (a file on a first install, an HTTP body): the head, then
# each body in order, kept where the Stager wants it, skipped where the device has that file
# already. Imported only when used; it works on the Stager's own state and helpers, as the
# method it was.
import hashlib

from update.errors import UpdateError
from update.stage import HEAD


def feed(st, stream, step):
    """Stage the bundle `stream` holds through the Stager st; its manifest. Then st.finish()."""
    header = _read(stream, 20)
    size = len(header) + 64 + ((header[10] << 8) | header[11] if len(header) == 20 else 0)
    st._may_begin(size)
    # The head goes to flash a step at a time as it is hashed (its SHA-256 names the bundle,
    # as over USB), never whole in RAM; the id is written once it is known. A head staged
    # before is written again (files already unpacked in the target slot stay).
    st._fresh_stage()
    hasher = hashlib.sha256(header)
    f = st.disk.open(HEAD, "wb")
    try:
        f.write(header)
        got = len(header)
        while got < size:
            data = _read(stream, min(step, size - got))
            if not data:
                raise UpdateError("truncated", "manifest")
            hasher.update(data)
            f.write(data)
            got += len(data)
    finally:
        f.close()
    st._name(hasher.digest()[:8], size)
    hasher = header = data = None
    st._open_head()
    todo = dict(st.status()[2])
    files = st.manifest.files
    for i in range(len(files)):
        entry = files[i]
        got = todo.get(i)
        pos = 0
        while pos < entry.stored:
            data = _read(stream, min(step, entry.stored - pos))
            if not data:
                raise UpdateError("truncated", entry.path)
            if got is not None and pos + len(data) > got:
                cut = got - pos if got > pos else 0
                got = st.put(i + 1, got, data[cut:])
            pos += len(data)
    return st.manifest


def _read(stream, n):
    # n bytes, or fewer only at the stream's end (a socket hands out what has come).
    out = b""
    while len(out) < n:
        more = stream.read(n - len(out))
        if not more:
            break
        out += more
    return out
