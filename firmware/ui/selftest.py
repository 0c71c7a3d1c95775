# Self-test: what a maker runs after soldering. Every key and the encoder show
# as they are used, the display shows test patterns, the flash is write/read
# checked in a scratch file, and free RAM and flash are shown.
#
#   Selbsttest  7/19   inputs seen of 19: 16 keys, turns each way, push
#   1 · 3 A CW     3   the keypad as it lies: a key shows once pressed,
#   · 5 · · CCW    1   "·" until then; the encoder's turns each way and
#   · · · · Knopf  0   its pushes, counted
#   * · · ·     PUSH   the last input
#   Flash R/W     ok   scratch file written, read back, compared, deleted
#   RAM 87K FS 1956K   free heap (gc.mem_free) and free flash
#   3x * = Ende        (takes turns with "0 = Testbild")
#
# Every key is under test, so leaving takes a sequence: * three times in a
# row (any other input in between starts the count again). 0 steps through
# the display patterns (all pixels lit, a checkerboard, the other one) and
# back to this page; any other input ends a pattern too. Every input counts
# either way, so a test never needs a key twice.
#
# Opened from the settings, or by holding * while the device starts (see
# startup.py); a deep sleep never brings it back (the screen below it comes).
import gc

import framebuf
from micropython import const

from ui.screen import Screen

KEYS = "123A456B789C*0#D"  # the 4x4 keypad, row by row
ENCODER = ("CW", "CCW", "PUSH")
INPUTS = len(KEYS) + len(ENCODER)
_EXIT_STARS = const(3)
_PATTERNS = const(4)  # 0: this page, 1: every pixel lit, 2 and 3: the two checkerboards
_HINT_MS = const(3000)
_REFRESH_MS = const(2000)
_FLASH_ROW = const(5)
_RAM_ROW = const(6)
# A ".new" file is what a write-new-then-rename leaves when it is cut short,
# so the boot check removes a scratch file that a power cut left behind.
SCRATCH = "selftest.new"
_SCRATCH_BYTES = const(1024)

_tiles = {}


def _checker(odd):
    # An 8x8 checkerboard tile, made once.
    tile = _tiles.get(odd)
    if tile is None:
        rows = b"\x55\xaa" * 4 if odd else b"\xaa\x55" * 4
        tile = _tiles[odd] = framebuf.FrameBuffer(bytearray(rows), 8, 8, framebuf.MONO_HLSB)
    return tile


def check_flash(store):
    """Write a scratch file through the store, read it back, compare and
    delete it: "st_ok", "st_failed", or "st_full" when the flash has no room
    to spare (the running game's room is never used for a test). Never raises."""
    try:
        if not store.space().can_write_small():
            return "st_full"
        same = store.write_check(SCRATCH, bytes(range(256)) * (_SCRATCH_BYTES // 256))
    except Exception:  # OSError from the file system, or whatever a dying chip raises
        return "st_failed"
    return "st_ok" if same else "st_failed"


class SelfTest(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.seen = 0  # bit i: KEYS[i] was pressed
        self.counts = [0, 0, 0]  # CW, CCW, PUSH
        self.last = ""  # the last input's name
        self.stars = 0  # * in a row
        self.pattern = 0
        self.flash = "st_failed"
        self.free_kb = None
        self.ram = 0
        self.hint_turn = 0
        self.hint_at = self.ram_at = app.clock.ticks_ms()
        self.done = False  # everything was seen (said once)

    def on_open(self):
        store = self.app.store
        self.flash = check_flash(store)
        try:
            self.free_kb = store.space().free_kb
        except Exception:
            self.free_kb = None
        self.ram = gc.mem_free()
        super().on_open()

    def count(self):
        n = 0
        for i in range(len(KEYS)):
            if self.seen & (1 << i):
                n += 1
        for c in self.counts:
            if c:
                n += 1
        return n

    def key(self, k):
        i = KEYS.find(k) if len(k) == 1 else -1
        if i >= 0:
            self.seen |= 1 << i
            self.touch(1 + i // 4)
        elif k in ENCODER:
            i = ENCODER.index(k)
            self.counts[i] += 1
            self.touch(1 + i)
        else:
            return
        self.last = k
        self.touch(0)
        self.touch(4)
        if k == "*":
            self.stars += 1
            if self.stars >= _EXIT_STARS:
                self.app.pop()
                return
        else:
            self.stars = 0
        if k == "0":
            self.pattern = (self.pattern + 1) % _PATTERNS
            self.touch()
        elif self.pattern:
            self.pattern = 0
            self.touch()
        if not self.done and self.count() == INPUTS:
            self.done = True
            self.app.notify(self.app.t("st_all"))

    def tick(self, now):
        if now - self.hint_at >= _HINT_MS:
            self.hint_at = now
            self.hint_turn ^= 1
            self.touch(self.app.canvas.rows - 1)
        if now - self.ram_at >= _REFRESH_MS:
            self.ram_at = now
            ram = gc.mem_free()
            if ram // 1024 != self.ram // 1024:
                self.ram = ram
                self.touch(_RAM_ROW)

    def draw_row(self, canvas, row):
        if self.pattern:
            self._pattern(canvas.display, row)
            return
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            count = "%d/%d" % (self.count(), INPUTS)
            title = t("st_title")[:canvas.cols - len(count) - 1]
            canvas.bar(0, title + " " * (canvas.cols - len(title) - len(count)) + count)
        elif row == last:
            canvas.text(last, 0, t("st_pattern" if self.hint_turn else "st_exit"))
        elif row <= 4:
            r = row - 1
            for c in range(4):
                i = r * 4 + c
                canvas.text(row, c * 2, KEYS[i] if self.seen & (1 << i) else "·")
            if r < len(ENCODER):
                canvas.text(row, 8, ("CW", "CCW", t("st_push"))[r][:5])
                canvas.right(row, str(min(self.counts[r], 999)))
            elif self.last:
                canvas.right(row, self.last)
        elif row == _FLASH_ROW:
            value = t(self.flash)
            canvas.text(row, 0, t("st_flash")[:canvas.cols - len(value) - 1])
            canvas.right(row, value)
        elif row == _RAM_ROW:
            ram = "RAM %dK" % (self.ram // 1024)
            free = "FS %dK" % self.free_kb if self.free_kb is not None else "FS ?"
            if len(ram) + len(free) >= canvas.cols:
                free = free[3:]
            canvas.text(row, 0, ram)
            canvas.right(row, free)

    def _pattern(self, fb, row):
        # Straight onto the framebuffer: the canvas has cleared the row and sends it.
        y = row * 8
        if self.pattern == 1:
            fb.fill_rect(0, y, fb.width, 8, 1)
        else:
            tile = _checker(self.pattern == 3)
            for x in range(0, fb.width, 8):
                fb.blit(tile, x, y)
