# What the inflater reads a compressed body from when the bundle comes from a stream that is no file
# (bundle/parts.py imports this only then: never for the device's Stager, whose head and bodies are files).
#
# A body of at most INLINE bytes is read into RAM (bytes: the inflater reads them in C); a longer
# one is handed out through a bounded reader, a Python call per byte: small but slow.
import io

from tafel.bundle import header
from tafel.bundle.errors import UpdateError

# A plain int, not const(): tests set it.
INLINE = 4096  # a compressed body up to this size is inflated from RAM


class Bounded(io.IOBase):
    # At most `left` bytes of `stream`, for an inflater that reads a byte at a time.
    def __init__(self, stream, left, path):
        self.stream = stream
        self.left = left
        self.path = path

    def readinto(self, buf):
        left = self.left
        if not left:
            return 0  # the body's end: the inflater wanted more than the body holds
        if len(buf) > left:
            buf = memoryview(buf)[:left]
        n = self.stream.readinto(buf)
        if not n:
            raise UpdateError("truncated", self.path)
        self.left = left - n
        return n


def source(stream, entry):
    # A body of `entry` from `stream`, for the inflater.
    if entry.stored <= INLINE:
        return io.BytesIO(header.read_exact(stream, entry.stored, entry.path))  # bytes: no copy
    return Bounded(stream, entry.stored, entry.path)  # a Python call per byte: slow, small


def unused(source):
    # The body's bytes the inflater left in a source().
    return source.left if isinstance(source, Bounded) else len(source.read())
