# Inflating a bundle's compressed file on CPython, for bundle/reader.py (`tafel bundle show`,
# the tests): zlib with the same window limit and the same strictness about the body's end
# as the device's deflate module. Never imported on a device (its bundle.py uses deflate), so
# it costs the device no heap.
import zlib

from tafel.bundle.errors import UpdateError
from tafel.bundle.header import read_exact as _read_exact


def inflate(stream, entry, window, hasher, out):
    """Inflate entry's body from stream into hasher (and out); its size. UpdateError as bundle.verify_file."""
    inflater = zlib.decompressobj(window)
    left = entry.stored
    size = 0
    try:
        while left:
            data = _read_exact(stream, min(left, 4096), entry.path)
            left -= len(data)
            if inflater.eof:
                raise UpdateError("bad_file", (entry.path, "length"))
            chunk = inflater.decompress(data)
            size += len(chunk)
            if size > entry.size:
                raise UpdateError("bad_file", (entry.path, "size"))
            hasher.update(chunk)
            if out is not None:
                out.write(chunk)
    except zlib.error:
        raise UpdateError("bad_file", (entry.path, "inflate"))
    if not inflater.eof:
        raise UpdateError("bad_file", (entry.path, "inflate"))
    if inflater.unused_data:
        raise UpdateError("bad_file", (entry.path, "length"))
    return size
