# The canvas: umlauts that tell capitals from lowercase, a text scale for large displays, and what it tells the driver.
import framebuf
import micropython

from ui import canvas as canvas_module
from ui.canvas import Canvas, _glyph


def rows_of(bitmap):
    return ["".join("#" if b & (0x80 >> x) else "." for x in range(8)) for b in bitmap]


def ascii_rows(ch):
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
    fb.text(ch, 0, 0, 1)
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(8)) for y in range(8)]


def glyph_rows(ch):
    fb = _glyph(ch)
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(8)) for y in range(8)]


def drawn_rows(text, scale=1):
    """The pixels of `text` drawn by a canvas at `scale`, one string a pixel row (8 x scale)."""
    fb = Display(8 * scale * len(text), 8 * scale, framebuf.MONO_HLSB)
    Canvas(fb, False, scale).text(0, 0, text)
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(fb.width)) for y in range(fb.height)]


def lit_rows(rows):
    return [y for y in range(len(rows)) if "#" in rows[y]]


class Display(framebuf.FrameBuffer):
    """A framebuf display as the canvas sees one; it records what it was asked to send."""

    def __init__(self, w, h, fmt=framebuf.MONO_VLSB):
        self.width, self.height = w, h
        self.buf = bytearray((w * h + 7) // 8 + w)
        super().__init__(self.buf, w, h, fmt)
        self.sent = []

    def show_pages(self, mask):
        self.sent.append(mask)

    def show(self):
        self.sent.append("all")


def test_each_umlaut_capital_and_its_lowercase_look_different():
    for big, small in (("Ä", "ä"), ("Ö", "ö"), ("Ü", "ü")):
        a, b = glyph_rows(big), glyph_rows(small)
        differ = sum(1 for y in range(8) for x in range(8) if a[y][x] != b[y][x])
        assert differ >= 8, (big, small, differ)


def test_lowercase_umlauts_keep_to_the_lowercase_letters_height():
    for small, plain in (("ä", "a"), ("ö", "o"), ("ü", "u")):
        rows = glyph_rows(small)
        dots, body = lit_rows(rows)[0], lit_rows(rows)[1:]
        assert dots <= 1 and rows[dots].count("#") == 4, small  # two dots of two pixels
        plain_body = lit_rows(ascii_rows(plain))
        assert body[-1] == plain_body[-1] == 6, small  # on the base line
        assert body[0] >= plain_body[0], small  # no taller than the letter without dots


def test_capital_umlauts_stand_as_tall_as_capitals_with_their_dots_on_top():
    for big, plain in (("Ä", "A"), ("Ö", "O"), ("Ü", "U")):
        rows = glyph_rows(big)
        assert rows[0].count("#") >= 2 and rows[0][0] == ".", big  # the dots, clear of column 0
        assert lit_rows(rows) == [0, 1, 2, 3, 4, 5, 6], big  # the body on rows 1-6, no gap
        assert rows[1][0] == "." and rows[6] == ascii_rows(plain)[6], big  # the same foot as the capital
        assert rows[5] == ascii_rows(plain)[5], big  # and its strokes above the foot
    # "Özlem" does not read "özlem": the Ö reaches above the lowercase letters beside it
    for scale in (1, 2):
        rows = drawn_rows("Özlem", scale)
        cell = 8 * scale
        lit = ["#" in rows[scale][i * cell:(i + 1) * cell] for i in range(5)]  # font row 1, above x-height
        assert lit == [True, False, True, False, False], (scale, lit)  # Ö and l reach it, z e m do not


def test_letters_without_a_glyph_are_drawn_in_their_plain_form():
    for scale in (1, 2):
        assert drawn_rows("Zoë", scale) == drawn_rows("Zoe", scale), scale
        assert drawn_rows("Łukasz", scale) == drawn_rows("Lukasz", scale), scale
        assert drawn_rows("Şükrü", scale) == drawn_rows("Sükrü", scale), scale
        assert drawn_rows("Næss", scale) == drawn_rows("N·ss", scale), scale  # no plain form: a dot
        assert drawn_rows("Næss", scale) != drawn_rows("N ss", scale), scale


def test_cols_and_rows_follow_the_text_scale():
    fb = Display(320, 240, framebuf.MONO_HLSB)
    assert (Canvas(fb).cols, Canvas(fb).rows, Canvas(fb).cell) == (40, 30, 8)
    big = Canvas(fb, False, 2)
    assert (big.cols, big.rows, big.cell) == (20, 15, 16)
    fb.text_scale = 2
    assert Canvas(fb).scale == 2  # the display's own text scale when none is given


def test_scaled_text_is_the_normal_text_twice_as_large():
    small, big = Display(128, 64), Display(256, 128)
    one, two = Canvas(small), Canvas(big, False, 2)
    for c in (one, two):
        c.text(1, 2, "Anna & Jörg 89")
        c.text(3, 0, "Ölß·►", True)
        c.bar(5, "Stand R12")
    for y in range(128):
        for x in range(256):
            assert big.pixel(x, y) == small.pixel(x // 2, y // 2), (x, y)


def test_the_scaled_glyphs_are_kept_within_bounds_and_reused_without_allocating():
    c = Canvas(Display(320, 240), False, 2)
    for i in range(0, 96, 16):
        c.text(i // 16, 0, "".join(chr(33 + i + k) for k in range(16)))  # 96 different characters
    glyphs = c._scaled
    assert len(glyphs.slot) == canvas_module.SLOTS < 96
    assert len(glyphs.sheet) == canvas_module.SLOTS * 32
    c.text(10, 0, "Stand R1")
    micropython.heap_lock()
    try:
        c.text(11, 0, "Stand R1")  # every glyph cached now
        c.text(12, 3, "Stand", True)
    finally:
        micropython.heap_unlock()


def test_flush_sends_the_pages_of_the_changed_rows():
    d = Display(128, 64)
    c = Canvas(d)
    c.text(1, 0, "x")
    c.text(3, 0, "y")
    assert c.flush() == 0b1010 and d.sent == [0b1010]
    d2 = Display(320, 240)
    c2 = Canvas(d2, False, 2)
    c2.text(1, 0, "x")
    c2.text(3, 0, "y")
    assert c2.flush() == 0b1010 and d2.sent == [0b11001100]  # rows of 16 pixels: two pages each
    assert c2.flush() == 0 and d2.sent == [0b11001100]
    d3 = Display(128, 60, framebuf.MONO_HLSB)  # not a whole number of rows: the whole picture
    c3 = Canvas(d3)
    c3.text(0, 0, "x")
    c3.flush()
    assert d3.sent == ["all"]


def test_remember_puts_text_drawn_otherwise_into_the_snapshot():
    c = Canvas(Display(128, 64), True)
    c.text(2, 0, "Anna")
    c.remember(2, 12, "89")
    assert c.screen_text()[2] == "Anna        89" and c.dirty == 1 << 2


class Marked(Display):
    marks_inverted = True


def test_unmark_clears_only_what_a_colour_driver_would_take_for_an_inverted_cell():
    d = Marked(128, 64)
    c = Canvas(d)
    c.text(1, 0, "Ben", True)  # a real inverted run: cells 0-2
    d.fill_rect(32, 8, 40, 16, 1)  # a big digit's block across cells 4-8 of rows 1 and 2
    c.unmark(1, 32, 72)
    c.unmark(2, 32, 72)
    for cell in range(3):
        assert d.pixel(8 * cell, 8) and d.pixel(8 * cell, 9)  # the inverted name keeps its mark
    for x in range(32, 72, 8):
        for y in (8, 16):
            assert not (d.pixel(x, y) and d.pixel(x, y + 1)), (x, y)
            assert d.pixel(x + 1, y) and d.pixel(x, y + 1)  # one pixel a cell, no more
    plain = Display(128, 64)
    Canvas(plain).unmark(1)  # a display that reads no marks: nothing happens
    plain.fill_rect(0, 8, 8, 8, 1)
    Canvas(plain).unmark(1)
    assert plain.pixel(0, 8)


def test_the_link_mark_at_a_text_scale():
    d = Display(320, 240)
    c = Canvas(d, False, 2)
    c.mark(0, 0, c.cols - 1)
    # The two-arrow glyph in the last cell, each of its pixels a 2 x 2 block.
    assert d.pixel(304 + 2 * 4, 2 * 1) and d.pixel(304 + 2 * 4 + 1, 2 * 1 + 1)
    assert not d.pixel(304, 0)


class Told(Display):
    def __init__(self, w, h):
        super().__init__(w, h)
        self.inverted_cells = [0] * (h // 8)


def test_a_display_that_is_told_learns_each_rows_inverted_cells():
    d = Told(128, 64)
    c = Canvas(d)
    c.bar(0, "Stand")
    c.text(2, 3, "Cleo", True)
    c.text(2, 9, "50")  # plain text beside it changes nothing
    c.right(3, "a much too long text", True)  # cut at the row's ends
    assert d.inverted_cells[:4] == [0xFFFF, 0, 0b1111 << 3, 0xFFFF]
    c.clear(2)
    assert d.inverted_cells[2] == 0
    c.unmark(0)  # such a display reads no marks: nothing to clear
    assert d.pixel(0, 0) and d.pixel(0, 1)
