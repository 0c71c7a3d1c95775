# Text-row drawing on a framebuf display: 8x8 cells at a text scale, umlauts, dirty-row flushing.
#
# Screens think in text rows (16 columns x 8 rows on the 128x64 SSD1306). The
# canvas clears and draws whole rows, remembers which rows changed and sends
# only those to the display. With capture (simulator, tests) it also says the
# text of every row: capture=True keeps the rows here (screen_text(), for the
# firmware tests); a probe object (the simulator's wire, sim/wire.py) is told
# each text as it is drawn (canvas(rows, cols), text(row, col, s), clear(row))
# and keeps nothing in the device's heap. A device has no capture.
#
# The text scale (Canvas(display, capture, scale), by default the display's
# own `text_scale`, else 1) draws each font pixel as scale x scale pixels: a
# cell is 8 * scale pixels, cols and rows follow from the display's size (a
# 320x240 picture at scale 2: 20 x 15). At scale 1 framebuf's own text() does
# the drawing; at a larger scale each glyph is drawn once into a bounded cache
# (SLOTS glyphs, the oldest given up first, made at the first scaled text) and
# blitted from there.
import framebuf

from tafel.compat import const

SLOTS = const(48)  # scaled glyphs kept: more than one screen's different letters

# 8x8 glyphs for what framebuf's ASCII font lacks (German names and texts), 8 bytes each in
# _CHARS' order (constants: they stay in flash). Capitals stand as tall as framebuf's (rows
# 1-6 under their dots on row 0, the top narrowed where the dots would touch it); lowercase
# ö and ü have their dots on row 1 over a shorter body on rows 3-6 (the classic PC font's
# way), ä is the a with dots. Rows 0 and 1 of column 0 stay dark in every glyph (a colour
# driver reads them lit as an inverted cell: drivers/lcd565.py). A letter with no glyph is
# drawn in its plain form when tafel.names has one (ë as e, Ł as L), else as a dot.
_CHARS = "ÄÖÜäöüßé·►"
_BITS = (b"\x66\x18\x3c\x66\x7e\x66\x66\x00"  # Ä
         b"\x42\x3c\x66\x66\x66\x66\x3c\x00"  # Ö
         b"\x24\x42\x66\x66\x66\x66\x3c\x00"  # Ü
         b"\x66\x00\x3c\x06\x3e\x66\x3e\x00"  # ä
         b"\x00\x66\x00\x3c\x66\x66\x3c\x00"  # ö
         b"\x00\x66\x00\x66\x66\x66\x3e\x00"  # ü
         b"\x3c\x66\x66\x6c\x66\x66\x6c\x60"  # ß
         b"\x0c\x18\x3c\x66\x7e\x60\x3c\x00"  # é
         b"\x00\x00\x00\x18\x18\x00\x00\x00"  # · (what has no glyph)
         b"\x40\x60\x70\x78\x70\x60\x40\x00")  # ►
_NONE = const(8)  # the glyph of what has no glyph: ·
# The marks at the title row's right end (Canvas.mark): the link's arrows both ways, then the club
# link's offline (a ring), catching up (an arrow up) and online (a disc); and the same as a pattern
# in a cell's last pixel column, for a cell with a letter in it (rows 1, 2, 5, 6 for the link).
# One bytes object (the four glyphs, then the four patterns, a row a bit): one name in the heap.
_MARKS = (b"\x00\x08\xfc\x08\x20\x7e\x20\x00"
          b"\x00\x38\x44\x44\x44\x38\x00\x00"
          b"\x10\x38\x7c\x10\x10\x10\x00\x00"
          b"\x00\x38\x7c\x7c\x7c\x38\x00\x00"
          b"\x66\x18\x54\x7e")
_glyph_cache = {}
# Palette for glyphs on inverted rows: glyph 0 -> lit, glyph 1 -> dark.
_DARK = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, framebuf.MONO_HLSB)


def _bits(ch, out, fb):
    # The 8 rows of `ch` into `out` (fb: a framebuf over `out`, for framebuf's own font).
    if ord(ch) >= 128 and _CHARS.find(ch) < 0:
        from tafel.fold import FOLD_FROM, FOLD_TO  # rare: the table only then

        i = FOLD_FROM.find(ch)
        ch = FOLD_TO[i] if i >= 0 else _CHARS[_NONE]
    if ord(ch) < 128:
        fb.fill(0)
        fb.text(ch, 0, 0, 1)
    else:
        i = 8 * _CHARS.find(ch)
        out[:] = _BITS[i:i + 8]


def _glyph(ch):
    # Row-major 1-bit bitmaps, turned into framebuf objects once and kept.
    fb = _glyph_cache.get(ch)
    if fb is None:
        rows = bytearray(8)
        fb = framebuf.FrameBuffer(rows, 8, 8, framebuf.MONO_HLSB)
        _bits(ch, rows, fb)
        _glyph_cache[ch] = fb
    return fb


class _Scaled:
    """The glyphs of one text scale, drawn at that scale when first used (SLOTS at most)."""

    def __init__(self, scale):
        self.scale = scale
        self.size = 8 * scale * scale  # bytes a glyph: MONO_HLSB, 8*scale pixels square
        self.sheet = bytearray(SLOTS * self.size)
        self.views = [None] * SLOTS  # made with the slot's first glyph
        self.owner = [None] * SLOTS
        self.slot = {}  # character -> slot
        self.next = 0  # the slot given up next
        self.src = [None, 8 * scale, 8 * scale, framebuf.MONO_HLSB]  # what blit() takes, reused
        self.one = bytearray(8)
        self.fb1 = framebuf.FrameBuffer(self.one, 8, 8, framebuf.MONO_HLSB)

    def get(self, ch):
        i = self.slot.get(ch)
        if i is None:
            i = self.next
            self.next = (i + 1) % SLOTS
            old = self.owner[i]
            if old is not None:
                del self.slot[old]
            self.owner[i] = ch
            self.slot[ch] = i
            if self.views[i] is None:
                self.views[i] = memoryview(self.sheet)[i * self.size:(i + 1) * self.size]
            self._draw(ch, self.views[i])
        self.src[0] = self.views[i]
        return self.src

    def _draw(self, ch, out):
        one, s = self.one, self.scale
        _bits(ch, one, self.fb1)
        full = (1 << s) - 1
        o = 0
        for r in range(8):
            b, v = one[r], 0
            for x in range(8):
                v = v << s | (full if b & (0x80 >> x) else 0)
            for _ in range(s):
                for j in range(s):
                    out[o] = v >> (8 * (s - 1 - j)) & 0xFF
                    o += 1


class Canvas:
    def __init__(self, display, capture=False, scale=None):
        self.display = display
        self.scale = scale or getattr(display, "text_scale", 1)
        self.cell = 8 * self.scale  # pixels a text cell is wide and high
        self.cols = display.width // self.cell
        self.rows = display.height // self.cell
        self.dirty = 0  # bit r set: text row r changed since the last flush
        self.capture = capture
        self.lines = [""] * self.rows if capture is True else None
        self._probe = capture if capture and capture is not True else None
        if self._probe is not None:
            self._probe.canvas(self.rows, self.cols)
        self._scaled = None  # the scaled glyphs, once a scaled text is drawn
        # A display that is told which cells are inverted (drivers/ili9341.py): one bit mask a row.
        self._inverted = getattr(display, "inverted_cells", None)

    def clear(self, row):
        c = self.cell
        self.display.fill_rect(0, row * c, self.display.width, c, 0)
        self.dirty |= 1 << row
        if self._inverted is not None:
            self._inverted[row] = 0
        if self.capture:
            if self._probe is not None:
                self._probe.clear(row)
            else:
                self.lines[row] = ""

    def text(self, row, col, s, invert=False):
        """Draw `s` at text column `col` of `row` (clipped to the row)."""
        if self.scale > 1:
            self._text_scaled(row, col, s, invert)
        else:
            self._text(row, col, s, invert)
        self.dirty |= 1 << row
        if invert and self._inverted is not None:
            self._mark_inverted(row, col, len(s))
        if self.capture:
            self._remember(row, col, s)

    def _mark_inverted(self, row, col, n):
        # Cells col..col+n-1 of the row, as far as they are on the screen.
        if col < 0:
            n += col
            col = 0
        n = min(n, self.cols - col)
        if n > 0:
            self._inverted[row] |= ((1 << n) - 1) << col

    def _text(self, row, col, s, invert):
        fb = self.display
        x = col * 8
        y = row * 8
        fg = 0 if invert else 1
        if invert:
            fb.fill_rect(x, y, len(s) * 8, 8, 1)
        # The characters framebuf's font lacks are found in the UTF-8 bytes, not by s[i]: each
        # character a str hands out that way becomes an interned string (a qstr) for good, and
        # the interned strings' table grows in blocks of hundreds of bytes.
        data = s.encode()
        start = i = at = 0  # characters drawn so far, this character, its first byte
        if len(data) == len(s):  # ASCII alone: framebuf's font has it all
            at = len(data)
        while at < len(data):
            b = data[at]
            if b < 0x80:
                at += 1
            else:
                size = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
                if i > start:
                    fb.text(s[start:i], x + start * 8, y, fg)
                glyph = _glyph(str(data[at:at + size], "utf-8"))
                # Glyph 0-bits stay transparent; inverted cells are drawn whole through a palette.
                if invert:
                    fb.blit(glyph, x + i * 8, y, -1, _DARK)
                else:
                    fb.blit(glyph, x + i * 8, y, 0)
                start = i + 1
                at += size
            i += 1
        if start < len(s):
            fb.text(s[start:] if start else s, x + start * 8, y, fg)

    def _text_scaled(self, row, col, s, invert):
        fb, c = self.display, self.cell
        x, y = col * c, row * c
        if invert:
            fb.fill_rect(x, y, len(s) * c, c, 1)
        glyphs = self._scaled
        if glyphs is None:
            glyphs = self._scaled = _Scaled(self.scale)
        for i in range(len(s)):
            ch = s[i]
            if ch == " ":
                continue
            if invert:
                fb.blit(glyphs.get(ch), x + i * c, y, -1, _DARK)
            else:
                fb.blit(glyphs.get(ch), x + i * c, y, 0)

    def right(self, row, s, invert=False):
        """Draw `s` flush with the right edge of the row."""
        self.text(row, self.cols - len(s), s, invert)

    def centre(self, row, s, invert=False):
        self.text(row, (self.cols - len(s)) // 2, s, invert)

    def bar(self, row, s):
        """A full-width inverted row: titles and headers."""
        s = s[:self.cols]
        self.text(row, 0, s + " " * (self.cols - len(s)), True)

    def mark(self, row, which, col):
        """A mark in cell `col` of the row (the last: cols - 1): `which` 0 the link's (two arrows),
        1 to 3 the club link's (offline, catching up, online: a ring, an arrow up, a disc). Its
        glyph when the cell is empty, else a pattern in the cell's last pixel column (which only a
        few glyphs touch); dark on a bar, lit on a plain row. (No defaults: a function's defaults
        are a tuple in the heap of every device.)"""
        fb, s = self.display, self.scale
        x = col * self.cell
        y = row * self.cell
        bg = fb.pixel(x + 7 * s, y)
        c = 1 - bg
        empty = True
        for dy in range(8):
            for dx in range(8):
                if fb.pixel(x + dx * s, y + dy * s) != bg:
                    empty = False
        if empty:
            for dy in range(8):
                bits = _MARKS[8 * which + dy]
                for dx in range(8):
                    if bits & (0x80 >> dx):
                        fb.fill_rect(x + dx * s, y + dy * s, s, s, c)
        else:
            bits = _MARKS[32 + which]
            for dy in range(8):
                if bits & (0x80 >> dy):
                    fb.fill_rect(x + 7 * s, y + dy * s, s, s, c)
        self.dirty |= 1 << row

    def remember(self, row, col, s):
        """Say that `s` stands at text column `col` of `row` when it was drawn some other way
        (the table view's big digits): the row goes out with the next flush and a
        snapshot's text has it."""
        self.dirty |= 1 << row
        if self.capture:
            self._remember(row, col, s)

    def unmark(self, row, x0=0, x1=None):
        """Clear what the ST7789 driver would read as an inverted cell's mark (rows 0 and 1
        of a cell's column 0 lit, drivers/lcd565.py) in the cells of `row` whose column 0
        lies in x0..x1-1: for pixels drawn there by other means than text. One font pixel
        (scale x scale) goes dark in each such cell; nothing happens on a display that reads
        no marks."""
        fb = self.display
        if not getattr(fb, "marks_inverted", False):
            return
        c, s = self.cell, self.scale
        y = row * c
        x = (x0 + c - 1) // c * c
        end = fb.width if x1 is None else min(x1, fb.width)
        while x < end:
            if fb.pixel(x, y) and fb.pixel(x, y + s):
                fb.fill_rect(x, y, s, s, 0)
            x += c
        self.dirty |= 1 << row

    def flush(self):
        """Send the changed rows to the glass; returns the row mask that was sent."""
        mask = self.dirty
        if mask:
            show_pages = getattr(self.display, "show_pages", None)
            if show_pages is not None and self.display.height == self.rows * self.cell:
                show_pages(mask if self.scale == 1 else self._pages(mask))
            else:
                self.display.show()
            self.dirty = 0
        return mask

    def _pages(self, mask):
        # Text rows to 8-pixel pages: row r covers pages r*scale .. r*scale+scale-1.
        s, pages, r = self.scale, 0, 0
        block = (1 << s) - 1
        while mask:
            if mask & 1:
                pages |= block << (r * s)
            mask >>= 1
            r += 1
        return pages

    def _remember(self, row, col, s):
        if self._probe is not None:
            self._probe.text(row, col, s)
            return
        line = self.lines[row]
        if len(line) < col:
            line += " " * (col - len(line))
        self.lines[row] = (line[:col] + s + line[col + len(s):])[:self.cols]

    def screen_text(self):
        """The text on screen, one line per text row, trailing blanks removed."""
        return [line.rstrip() for line in self.lines]
