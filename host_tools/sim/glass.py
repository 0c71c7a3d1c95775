# What the simulated device's display shows, as the launcher gets it: mono and colour glass, PNG, parsing `snap`.
#
#   glass = parse_snap("snap 128 64 <hex>", text_rows)   # Glass (SSD1306) or ColourGlass (from "snap565 ...")
#   glass.pixel(x, y); glass.rows(); glass.png(scale); glass.text
# The PNG files are Pillow's (8-bit greyscale for the OLED, RGB for the LCDs).
import io

from PIL import Image

# Greyscale levels of a snapshot: a lit pixel's face, the thin seam between lit pixels, and the dark glass.
LIT, SEAM, DARK = 240, 185, 0


class SimError(Exception):
    """The simulated device failed: it exited, answered with an error, or did not answer (device.py)."""


class _Reset(Exception):
    """The device's watchdog fired (its own word, or a hang noticed here)."""


class _Snapshot:
    """A display's glass at one moment: width x height pixels as the chip holds them, and the text rows."""

    def __init__(self, width, height, data, text):
        self.width = width
        self.height = height
        self.data = bytes(data)
        self.text = list(text)

    def __eq__(self, other):
        return type(other) is type(self) and (self.width, self.height, self.data, self.text) == (
            other.width, other.height, other.data, other.text)


class Glass(_Snapshot):
    """What the emulated display shows: width x height pixels (MONO_VLSB bytes) and the text of each row."""

    colour = False

    def pixel(self, x, y):
        return (self.data[(y >> 3) * self.width + x] >> (y & 7)) & 1

    def rows(self):
        """The pixels as rows of 0 and 1, top to bottom."""
        return [[self.pixel(x, y) for x in range(self.width)] for y in range(self.height)]

    def png(self, scale=4):
        """PNG bytes at scale x: lit pixels light on black, with a faint seam between them as on an OLED."""
        if scale < 3:  # too small for seams: plain blocks
            face = bytes(LIT if on else DARK for row in self.rows() for on in row)
            return _png(Image.frombytes("L", (self.width, self.height), face), scale)
        lit = bytes(([LIT] * (scale - 1) + [SEAM]) * (scale - 1) + [SEAM] * scale)  # a lit pixel, row by row
        cell = Image.frombytes("L", (scale, scale), lit)
        picture = Image.new("L", (self.width * scale, self.height * scale), DARK)
        for y, row in enumerate(self.rows()):
            for x, on in enumerate(row):
                if on:
                    picture.paste(cell, (x * scale, y * scale))
        return _png(picture, 1)


def _png(picture, scale):
    """The PNG file of a Pillow image, each pixel drawn as scale x scale."""
    if scale < 1:
        raise ValueError("scale must be 1 or more, not %r" % (scale,))
    if scale > 1:
        picture = picture.resize((picture.width * scale, picture.height * scale), Image.NEAREST)
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()


def rgb888(colour):
    """(r, g, b) 0-255 of an RGB565 value, the low bits filled from the high ones (0x1F -> 255)."""
    r, g, b = colour >> 11 & 0x1F, colour >> 5 & 0x3F, colour & 0x1F
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


class ColourGlass(_Snapshot):
    """A colour display's glass: width x height RGB565 pixels (big-endian bytes, row by row) and the text rows."""

    colour = True

    def pixel(self, x, y):
        """The RGB565 value at x, y."""
        i = (y * self.width + x) * 2
        return self.data[i] << 8 | self.data[i + 1]

    def rows(self):
        """The pixels as rows of RGB565 values, top to bottom."""
        d, w = self.data, self.width
        return [[d[i] << 8 | d[i + 1] for i in range(y * w * 2, (y + 1) * w * 2, 2)] for y in range(self.height)]

    def png(self, scale=2):
        """PNG bytes (RGB, 8 bits a channel) at scale x, plain blocks: an LCD has no visible seams."""
        cache = {}
        rgb = bytearray()
        for row in self.rows():
            for colour in row:
                got = cache.get(colour)
                if got is None:
                    got = cache[colour] = bytes(rgb888(colour))
                rgb += got
        return _png(Image.frombytes("RGB", (self.width, self.height), bytes(rgb)), scale)


def parse_snap(header, text_lines):
    """A Glass from the "snap <w> <h> <hex>" line, or a ColourGlass from "snap565 <w> <h> <hex>", and the text rows."""
    words = header.split()
    if len(words) != 4 or words[0] not in ("snap", "snap565"):
        raise SimError("bad snap line from the simulator: %r" % header[:80])
    try:
        width, height, data = int(words[1]), int(words[2]), bytes.fromhex(words[3])
    except ValueError:
        raise SimError("bad snap line from the simulator: %r" % header[:80]) from None
    if words[0] == "snap565":
        if width < 1 or height < 1 or len(data) != width * height * 2:
            raise SimError("snap565 of %d x %d came with %d bytes, expected %d" % (width, height, len(data), width * height * 2))
        return ColourGlass(width, height, data, text_lines)
    if width < 1 or height < 1 or height % 8 or len(data) != width * height // 8:
        raise SimError("snap of %d x %d came with %d bytes, expected %d" % (width, height, len(data), width * height // 8))
    return Glass(width, height, data, text_lines)
