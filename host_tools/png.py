# A small PNG writer without dependencies (zlib and struct only): greyscale (1 or 8 bits) or RGB (8 bits), scaled up by whole pixels.
#
#   rows = [[0, 255, 0], [255, 0, 255]]          # one list of pixel values per row, top to bottom
#   png.write("out.png", 3, 2, rows, scale=4)     # 12 x 8 pixels, 8-bit greyscale
#   data = png.encode(3, 2, [[0, 1, 0], [1, 0, 1]], depth=1)
#   data = png.encode_rgb(2, 1, [[(255, 0, 0), (0, 0, 255)]], scale=2)   # colour: (r, g, b) per pixel
#
# Depth 8 takes values 0 (black) to 255 (white); depth 1 takes 0 and 1; RGB
# takes three 0-255 values a pixel. Every row is stored with filter type 0
# (none), which is all a display of a few thousand pixels needs.
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_GREYSCALE = 0  # PNG colour types
_RGB = 2


def _chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def _pack_bits(row):
    # Eight pixels a byte, the leftmost in the high bit; the last byte padded with zeros.
    out = bytearray((len(row) + 7) // 8)
    for x, value in enumerate(row):
        if value:
            out[x >> 3] |= 0x80 >> (x & 7)
    return bytes(out)


def encode(width, height, rows, depth=8, scale=1):
    """The PNG file for a width x height greyscale image, each pixel drawn as scale x scale."""
    if depth not in (1, 8):
        raise ValueError("depth must be 1 or 8, not %r" % (depth,))
    top = 255 if depth == 8 else 1
    raw = bytearray()
    for y, row in _checked_rows(width, height, rows, scale):
        for value in row:
            if not (isinstance(value, int) and 0 <= value <= top):
                raise ValueError("row %d: pixel value %r is not in 0..%d" % (y, value, top))
        wide = [value for value in row for _ in range(scale)]
        line = b"\x00" + (_pack_bits(wide) if depth == 1 else bytes(wide))  # filter type 0
        for _ in range(scale):
            raw += line
    return _file(width * scale, height * scale, depth, _GREYSCALE, raw)


def encode_rgb(width, height, rows, scale=1):
    """The PNG file for a width x height colour image (8 bits a channel), rows of (r, g, b), each pixel scale x scale."""
    raw = bytearray()
    for y, row in _checked_rows(width, height, rows, scale):
        line = bytearray(b"\x00")  # filter type 0
        for pixel in row:
            if not (isinstance(pixel, tuple) and len(pixel) == 3
                    and all(isinstance(v, int) and 0 <= v <= 255 for v in pixel)):
                raise ValueError("row %d: pixel %r is not an (r, g, b) of 0..255" % (y, pixel))
            line += bytes(pixel) * scale
        raw += bytes(line) * scale
    return _file(width * scale, height * scale, 8, _RGB, raw)


def _checked_rows(width, height, rows, scale):
    """(y, row as a list) for each of `rows`, once the size, the scale and each row's length are right."""
    if not (isinstance(scale, int) and scale >= 1):
        raise ValueError("scale must be a whole number >= 1, not %r" % (scale,))
    if width < 1 or height < 1:
        raise ValueError("an image needs at least one pixel, not %d x %d" % (width, height))
    rows = list(rows)
    if len(rows) != height:
        raise ValueError("expected %d rows, got %d" % (height, len(rows)))
    for y, row in enumerate(rows):
        row = list(row)
        if len(row) != width:
            raise ValueError("row %d has %d pixels, expected %d" % (y, len(row), width))
        yield y, row


def _file(width, height, depth, colour_type, raw):
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b"")


def write(path, width, height, rows, depth=8, scale=1):
    """Write encode(...) to path (a file name or a path object)."""
    data = encode(width, height, rows, depth, scale)
    with open(path, "wb") as out:
        out.write(data)
    return len(data)
