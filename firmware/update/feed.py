# Stager.feed() (update/stage.py): a whole bundle staged from one stream read from its start.
#
# For a bundle that comes in one piece (a file on a first install, an HTTP body): the head, then
# each body in order, kept where the Stager wants it, skipped where the device has that file
# already. Imported only when used; it works on the Stager's own state and helpers, as the
# method it was.
import hashlib

from tafel.bundle.errors import UpdateError


def feed(st, stream, step, head):
    """Stage the bundle `stream` holds through the Stager st, its head written to the file `head`
    (stage.HEAD, handed in: this module imports nothing of stage.py's); its manifest. Then
    st.finish()."""
    # Every read goes into one of the Stager's block pieces (a new bytes object per step would
    # need `step` bytes in one block each time, which the fragmented heap may not have); not into
    # its own buffer, which put() reads a stale file of the target slot into before it writes.
    piece = st.pieces()[0]
    view = memoryview(piece if step <= len(piece) else bytearray(step))
    n = _fill(stream, view[:20])
    size = n + 64 + ((view[10] << 8) | view[11] if n == 20 else 0)
    st._may_begin(size)
    # The head goes to flash a step at a time as it is hashed (its SHA-256 names the bundle,
    # as over USB), never whole in RAM; the id is written once it is known. A head staged
    # before is written again (files already unpacked in the target slot stay).
    st._fresh_stage()
    hasher = hashlib.sha256()
    f = st.disk.open(head, "wb")
    try:
        got = 0
        while n:  # the header's bytes first, then the rest of the head
            hasher.update(view[:n])
            f.write(view[:n])
            got += n
            n = _fill(stream, view[:min(step, size - got)])
        if got < size:
            raise UpdateError("truncated", "manifest")
    finally:
        f.close()
    st._name(hasher.digest()[:8], size)
    hasher = None
    st._open_head()
    todo = dict(st.status()[2])
    files = st.manifest.files
    for i in range(len(files)):
        entry = files[i]
        got = todo.get(i)
        pos = 0
        while pos < entry.stored:
            n = _fill(stream, view[:min(step, entry.stored - pos)])
            if not n:
                raise UpdateError("truncated", entry.path)
            if got is not None and pos + n > got:
                got = st.put(i + 1, got, view[got - pos if got > pos else 0:n])
            pos += n
    return st.manifest


def _fill(stream, view):
    # Bytes read into view: all of it, or fewer only at the stream's end (a socket hands out
    # what has come).
    got = 0
    while got < len(view):
        n = stream.readinto(view[got:])
        if not n:
            break
        got += n
    return got
