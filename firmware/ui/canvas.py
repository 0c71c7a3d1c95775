# Text-row drawing on a framebuf display: 8-pixel rows, umlauts, dirty-row flushing.
#
# Screens think in text rows (16 columns x 8 rows on the 128x64 SSD1306). The
# canvas clears and draws whole rows, remembers which rows changed and sends
# only those to the display. With capture on (simulator, tests) it also keeps
# the text of every row, which is what a headless snapshot writes out.
import framebuf

# 8x8 glyphs for what framebuf's ASCII font lacks (German names and texts).
_GLYPHS = {
    "Ä": b"\x66\x00\x3c\x66\x66\x7e\x66\x00",
    "Ö": b"\x66\x00\x3c\x66\x66\x66\x3c\x00",
    "Ü": b"\x66\x00\x66\x66\x66\x66\x3c\x00",
    "ä": b"\x66\x00\x3c\x06\x3e\x66\x3e\x00",
    "ö": b"\x66\x00\x3c\x66\x66\x66\x3c\x00",
    "ü": b"\x66\x00\x66\x66\x66\x66\x3e\x00",
    "ß": b"\x3c\x66\x66\x6c\x66\x66\x6c\x60",
    "é": b"\x0c\x18\x3c\x66\x7e\x60\x3c\x00",
    "·": b"\x00\x00\x00\x18\x18\x00\x00\x00",
    "►": b"\x40\x60\x70\x78\x70\x60\x40\x00",
}
_LINK = b"\x00\x08\xfc\x08\x20\x7e\x20\x00"  # the link mark: arrows both ways
_glyph_cache = {}
# Palette for glyphs on inverted rows: glyph 0 -> lit, glyph 1 -> dark.
_DARK = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, framebuf.MONO_HLSB)


def _glyph(ch):
    # Row-major 1-bit bitmaps, turned into framebuf objects once and kept.
    fb = _glyph_cache.get(ch)
    if fb is None:
        fb = framebuf.FrameBuffer(bytearray(_GLYPHS.get(ch, _GLYPHS["·"])), 8, 8, framebuf.MONO_HLSB)
        _glyph_cache[ch] = fb
    return fb


class Canvas:
    def __init__(self, display, capture=False):
        self.display = display
        self.cols = display.width // 8
        self.rows = display.height // 8
        self.dirty = 0  # bit r set: text row r changed since the last flush
        self.capture = capture
        self.lines = [""] * self.rows if capture else None

    def clear(self, row):
        self.display.fill_rect(0, row * 8, self.display.width, 8, 0)
        self.dirty |= 1 << row
        if self.capture:
            self.lines[row] = ""

    def text(self, row, col, s, invert=False):
        """Draw `s` at text column `col` of `row` (clipped to the row)."""
        fb = self.display
        x = col * 8
        y = row * 8
        fg = 0 if invert else 1
        if invert:
            fb.fill_rect(x, y, len(s) * 8, 8, 1)
        start = 0
        for i in range(len(s)):
            if ord(s[i]) >= 128:
                if i > start:
                    fb.text(s[start:i], x + start * 8, y, fg)
                # Glyph 0-bits stay transparent; inverted cells are drawn whole through a palette.
                if invert:
                    fb.blit(_glyph(s[i]), x + i * 8, y, -1, _DARK)
                else:
                    fb.blit(_glyph(s[i]), x + i * 8, y, 0)
                start = i + 1
        if start < len(s):
            fb.text(s[start:] if start else s, x + start * 8, y, fg)
        self.dirty |= 1 << row
        if self.capture:
            self._remember(row, col, s)

    def right(self, row, s, invert=False):
        """Draw `s` flush with the right edge of the row."""
        self.text(row, self.cols - len(s), s, invert)

    def centre(self, row, s, invert=False):
        self.text(row, (self.cols - len(s)) // 2, s, invert)

    def bar(self, row, s):
        """A full-width inverted row: titles and headers."""
        s = s[:self.cols]
        self.text(row, 0, s + " " * (self.cols - len(s)), True)

    def mark(self, row):
        """The link mark at the row's right end: a two-arrow glyph in the last
        cell when that cell is empty, else a dotted line in its last pixel
        column (which only a few glyphs touch); dark on a bar, lit on a plain row."""
        fb = self.display
        x = fb.width - 8
        y = row * 8
        bg = fb.pixel(x + 7, y)
        c = 1 - bg
        empty = True
        for dy in range(8):
            for dx in range(8):
                if fb.pixel(x + dx, y + dy) != bg:
                    empty = False
        if empty:
            for dy in range(8):
                bits = _LINK[dy]
                for dx in range(8):
                    if bits & (0x80 >> dx):
                        fb.pixel(x + dx, y + dy, c)
        else:
            for dy in (1, 2, 5, 6):
                fb.pixel(x + 7, y + dy, c)
        self.dirty |= 1 << row

    def flush(self):
        """Send the changed rows to the glass; returns the row mask that was sent."""
        mask = self.dirty
        if mask:
            show_pages = getattr(self.display, "show_pages", None)
            if show_pages is not None and self.display.height == self.rows * 8:
                show_pages(mask)
            else:
                self.display.show()
            self.dirty = 0
        return mask

    def _remember(self, row, col, s):
        line = self.lines[row]
        if len(line) < col:
            line += " " * (col - len(line))
        self.lines[row] = (line[:col] + s + line[col + len(s):])[:self.cols]

    def screen_text(self):
        """The text on screen, one line per text row, trailing blanks removed."""
        return [line.rstrip() for line in self.lines]
