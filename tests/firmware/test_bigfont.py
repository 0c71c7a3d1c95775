# The table view's large digits: each glyph is its drawing below, at any whole scale, clipped to a band of rows.
import framebuf
import micropython

from ui import bigfont

DRAWINGS = {
    "0": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": (".###.", "#...#", "....#", "..##.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    "-": (".....", ".....", ".....", "#####", ".....", ".....", "....."),
    "+": (".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."),
    " ": (".....",) * 7,
}


def screen(w=96, h=32):
    return framebuf.FrameBuffer(bytearray(w * h // 8), w, h, framebuf.MONO_VLSB)


def picture(fb, x0, y0, w, h):
    return tuple("".join("#" if fb.pixel(x, y) else "." for x in range(x0, x0 + w)) for y in range(y0, y0 + h))


def test_every_glyph_is_its_drawing():
    for ch, drawing in DRAWINGS.items():
        fb = screen()
        bigfont.draw(fb, 1, 1, ch, 1)
        assert picture(fb, 1, 1, 5, 7) == drawing, ch
        assert picture(fb, 0, 0, 7, 1) == picture(fb, 0, 8, 7, 1) == (".......",), ch  # nothing outside


def test_a_scale_draws_each_grid_cell_as_a_square_block():
    fb = screen()
    bigfont.draw(fb, 2, 3, "4", 3)
    rows = DRAWINGS["4"]
    for y in range(21):
        for x in range(15):
            assert fb.pixel(2 + x, 3 + y) == (rows[y // 3][x // 3] == "#"), (x, y)


def test_characters_advance_six_columns_and_width_leaves_the_last_gap_off():
    fb = screen()
    bigfont.draw(fb, 0, 0, "-1+", 2)
    assert picture(fb, 0, 6, 34, 1)[0] == "##########.." + "....##......" + "##########"
    assert bigfont.width("-1+", 2) == 34 and bigfont.width("", 2) == 0 and bigfont.height(2) == 14
    assert bigfont.width("1000", 3) == 4 * 18 - 3


def test_a_character_the_font_lacks_is_blank_but_takes_its_place():
    fb = screen()
    bigfont.draw(fb, 0, 0, "1x1", 1)
    assert picture(fb, 0, 0, 17, 1)[0] == "..#..." + "......" + "..#.."


def test_a_band_of_rows_gets_exactly_its_share():
    whole = screen()
    bigfont.draw(whole, 0, 3, "2580", 2)
    pieces = screen()
    for top in range(0, 32, 8):  # text rows of 8 pixels, drawn one by one as a screen redraws them
        bigfont.draw(pieces, 0, 3, "2580", 2, 1, top, top + 8)
        assert picture(pieces, 0, 0, 96, top + 8) == picture(whole, 0, 0, 96, top + 8)
        assert picture(pieces, 0, top + 8, 96, 32 - top - 8) == ("." * 96,) * (32 - top - 8)


def test_dark_digits_on_a_lit_ground():
    fb = screen()
    fb.fill(1)
    bigfont.draw(fb, 0, 0, "7", 1, 0)
    assert picture(fb, 0, 0, 5, 2) == (".....", "####.")


def test_drawing_allocates_nothing():
    fb = screen()
    bigfont.draw(fb, 0, 0, "123", 2)
    micropython.heap_lock()
    try:
        bigfont.draw(fb, 0, 0, "9876", 2, 1, 4, 12)
        bigfont.draw(fb, 0, 0, "-45", 3)
    finally:
        micropython.heap_unlock()
