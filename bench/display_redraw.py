"""Frame redraw cost of both displays, and the heap the colour driver adds: prints tables, not a test.

    .venv/bin/python bench/display_redraw.py      (or: make bench)

(1) Instructions per redraw, counted with valgrind --tool=callgrind on the
    MicroPython unix port, for the SSD1306 (128x64 mono, I2C) and the ST7789
    (240x135 colour, SPI) drivers with the bus writes dropped (what the
    ESP32's CPU does, less the bus hardware):
      - send: show() for a full frame, show_pages() of one text row;
      - draw + send: the canvas draws every row of a standings screen (or one
        row) and flushes, as a screen's render does.
    Each figure is (segment of 2n redraws - segment of n) / n, taken between
    callgrind dumps at a marker call (micropython.opt_level), so the set-up
    and the marker cost nothing.
(2) Bytes on the bus per redraw and their time on the wire at the board
    profiles' rates (I2C: 9 clocks a byte; SPI: 8).
(3) Heap: what importing each driver (compiled with mpy-cross, as deployed)
    and making one display cost, gc.mem_alloc() after gc.collect(), and the
    ST7789's buffers by design. The unix port is 64-bit: its objects are up
    to twice the ESP32's, the buffers are the same.

Tools are looked up next to this Python first (.venv/bin), then on PATH.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from benchlib import (
    NothingMeasured,
    callgrind_segments,
    find_tool,
    micropython_named,
    run_recorded,
    table,
    tool_version,
)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = os.path.join(REPO, "hardware", "boards")
MONO = "esp32-devkitc-ssd1306"
COLOUR = "lilygo-tdisplay-st7789"
N = 4  # redraws in the short segment; the long one has 2 * N
TIMEOUT = 600

# Runs under MicroPython: argv = firmware path, lib path, palette json, n.
CG_SCRIPT = r"""
import gc
import json
import sys
import micropython

sys.path[:0] = [sys.argv[1], sys.argv[2]]
from drivers.ssd1306 import SSD1306_I2C
from drivers.st7789 import ST7789_SPI
from ui.canvas import Canvas

palette = json.loads(sys.argv[3])
N = int(sys.argv[4])


class NullI2C:
    def writevto(self, addr, vector, stop=True):
        return 0


class NullSPI:
    def write(self, buf):
        pass


def pin(v=None):
    return 0


def no_sleep(ms):
    pass


SCREEN = ("Stand R1     500", "Anna    89 Ak 20", "Ben      0 Fw 50", "Cleo     0 +4 50",
          "           HT 40", "           Bl 40", "", "Gespeichert")

displays = (
    ("ssd1306", SSD1306_I2C(128, 64, NullI2C())),
    ("st7789", ST7789_SPI(240, 135, NullSPI(), pin, pin, pin, rotation=1, x_offset=40, y_offset=53,
                          palette=palette, sleep_ms=no_sleep)),
)
marker = micropython.opt_level  # its C function is the dump point
segments = []


def draw_all(canvas):
    canvas.bar(0, SCREEN[0])
    for row in range(1, 8):
        canvas.clear(row)
        canvas.text(row, 0, SCREEN[row])
    canvas.flush()


def draw_row(canvas):
    canvas.clear(3)
    canvas.text(3, 0, "Cleo     3 +4 50")
    canvas.flush()


for name, d in displays:
    canvas = Canvas(d)
    draw_all(canvas)  # warm up: glyph cache
    jobs = (("send/full", d.show), ("send/row", lambda: d.show_pages(1 << 3)),
            ("draw/full", lambda: draw_all(canvas)), ("draw/row", lambda: draw_row(canvas)))
    for what, job in jobs:
        job()
        for n in (N, 2 * N):
            gc.collect()
            marker()
            for _ in range(n):
                job()
            marker()
            segments.append("%s/%s/%d" % (name, what, n))
print("segments", " ".join(segments))
print("ok")
"""

# Runs under MicroPython: argv = folder with the compiled drivers (and tafel/compat.mpy), palette json.
HEAP_SCRIPT = r"""
import gc
import json
import sys

sys.path[:] = [sys.argv[1]]
palette = json.loads(sys.argv[2])


class NullI2C:
    def writevto(self, addr, vector, stop=True):
        return 0


class NullSPI:
    def write(self, buf):
        pass


def pin(v=None):
    return 0


def no_sleep(ms):
    pass


def used():
    gc.collect()
    return gc.mem_alloc()


import framebuf  # noqa: F401  (built in: costs nothing to measure)
from tafel import compat  # noqa: F401

a = used()
from drivers.ssd1306 import SSD1306_I2C
b = used()
oled = SSD1306_I2C(128, 64, NullI2C())
c = used()
from drivers.st7789 import ST7789_SPI
d = used()
lcd = ST7789_SPI(240, 135, NullSPI(), pin, pin, pin, rotation=1, x_offset=40, y_offset=53, palette=palette,
                 sleep_ms=no_sleep)
e = used()
print("heap", b - a, c - b, d - c, e - d)
"""


def profile(name):
    with open(os.path.join(BOARDS, name + ".json")) as f:
        return json.load(f)


# ---- (1) instructions -----------------------------------------------------------------------
def callgrind(micropython, valgrind, palette):
    work = tempfile.mkdtemp(prefix="tafel-redraw-")
    try:
        script = os.path.join(work, "redraw.py")
        with open(script, "w") as f:
            f.write(CG_SCRIPT)
        base = os.path.join(work, "cg.out")
        cmd = [valgrind, "--tool=callgrind", "--dump-before=mp_micropython_opt_level",
               "--callgrind-out-file=" + base, micropython, script,
               os.path.join(REPO, "firmware"), os.path.join(REPO, "lib"), json.dumps(palette), str(N)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=REPO)
        if out.returncode != 0 or "ok" not in out.stdout.split():
            return "callgrind run failed:\n" + (out.stdout + out.stderr)[-2000:]
        seg = callgrind_segments(out.stdout, base)
        names = list(seg)
        result = {}
        for name in names:
            display, stage, what, n = name.split("/")
            if int(n) == 2 * N:
                result[display, stage, what] = (seg[name] - seg["%s/%s/%s/%d" % (display, stage, what, N)]) / N
        return result
    except subprocess.TimeoutExpired:
        return "callgrind timed out"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def instructions_table(result, valgrind):
    if isinstance(result, str):
        print("Redraw cost: " + result)
        return
    print("Redraw cost: instructions per redraw (valgrind --tool=callgrind, %s), bus writes dropped"
          % tool_version(valgrind, "--version"))
    rows = []
    for display, title in (("ssd1306", "SSD1306 128x64 mono, I2C"), ("st7789", "ST7789 240x135 colour, SPI")):
        for stage, what in (("send", "send: show() / show_pages(one row)"),
                            ("draw", "draw + send: canvas rows + flush")):
            full, row = result[display, stage, "full"], result[display, stage, "row"]
            rows.append((title if stage == "send" else "", what, "%.3f M" % (full / 1e6), "%.3f M" % (row / 1e6)))
    print(table(("display", "what", "full frame", "one text row"), rows, "llrr"))
    ratio = result["st7789", "send", "full"] / result["ssd1306", "send", "full"]
    print("The colour driver converts each page to 240x16 pixels (the 15/8 column spread in Python, two palette"
          " blits of 240x4 in C, rows doubled by slice copies): %.0fx the SSD1306's send, which only hands its"
          " 1 KB to the bus. Per full frame that is %.2f M against the canvas's own drawing of about %.2f M."
          % (ratio, result["st7789", "send", "full"] / 1e6,
             (result["ssd1306", "draw", "full"] - result["ssd1306", "send", "full"]) / 1e6))


# ---- (2) bytes on the bus ---------------------------------------------------------------------
def bus_table(mono, colour):
    freq = mono["display"]["i2c"]["freq"]
    baud = colour["display"]["spi"]["baudrate"]
    # SSD1306 (drivers/ssd1306.py): a window command of 7 bytes (control byte + 6) and, per page, a control
    # byte + 128 data bytes; the address byte of each I2C transaction counts on the wire too.
    oled_full = (1 + 7) + (1 + 1 + 1024)  # show(): window, one data write
    oled_row = (1 + 7) + (1 + 1 + 128)
    # ST7789 (drivers/st7789.py): CASET + 4, RASET + 4, RAMWR, then 240 x 16 pixels x 2 bytes a page.
    lcd_full = 11 + 8 * 240 * 16 * 2
    lcd_row = 11 + 240 * 16 * 2
    rows = [
        ("SSD1306, I2C %d kHz" % (freq // 1000), oled_full, "%.1f ms" % (oled_full * 9 * 1e3 / freq),
         oled_row, "%.2f ms" % (oled_row * 9 * 1e3 / freq)),
        ("ST7789, SPI %d MHz" % (baud // 1000000), lcd_full, "%.1f ms" % (lcd_full * 8 * 1e3 / baud),
         lcd_row, "%.2f ms" % (lcd_row * 8 * 1e3 / baud)),
    ]
    print("Bytes on the bus per redraw, and their time on the wire (no gaps between transfers counted)")
    print(table(("display, bus", "full frame", "wire", "one text row", "wire"), rows, "lrrrr"))


# ---- (3) heap -----------------------------------------------------------------------------------
def heap(micropython, mpy_cross, palette):
    work = tempfile.mkdtemp(prefix="tafel-redraw-heap-")
    try:
        for src, dst in (("firmware/drivers/ssd1306.py", "drivers/ssd1306.mpy"),
                         ("firmware/drivers/lcd565.py", "drivers/lcd565.mpy"),
                         ("firmware/drivers/st7789.py", "drivers/st7789.mpy"),
                         ("lib/tafel/compat.py", "tafel/compat.mpy"),
                         ("lib/tafel/__init__.py", None)):
            if dst is None:
                os.makedirs(os.path.join(work, "tafel"), exist_ok=True)
                open(os.path.join(work, "tafel", "__init__.py"), "w").close()  # the package, without the core
                continue
            out = os.path.join(work, dst)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            subprocess.run([mpy_cross, "-o", out, os.path.join(REPO, src)], check=True, capture_output=True)
        script = os.path.join(work, "heap.py")
        with open(script, "w") as f:
            f.write(HEAP_SCRIPT)
        out = subprocess.run([micropython, script, work, json.dumps(palette)], capture_output=True, text=True,
                             timeout=TIMEOUT)
        for line in out.stdout.splitlines():
            if line.startswith("heap "):
                return [int(v) for v in line.split()[1:]]
        return "heap run failed:\n" + (out.stdout + out.stderr)[-2000:]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def heap_table(result):
    if isinstance(result, str):
        print("Heap: " + result)
        return
    oled_import, oled, lcd_import, lcd = result
    print("Heap: gc.mem_alloc() after gc.collect() on the unix port (64-bit), drivers imported from .mpy")
    rows = [("SSD1306", oled_import, oled), ("ST7789", lcd_import, lcd),
            ("ST7789 over the SSD1306", lcd_import - oled_import, lcd - oled)]
    print(table(("driver", "import", "one display"), rows, "lrr"))
    print()
    buffers = (("framebuffer, MONO_VLSB 128x64 (as the SSD1306's)", 1024),
               ("band and mask: two mono pages of 240 columns", 480),
               ("strip: RGB565 240x8", 3840),
               ("column map and widths (128 + 128), cell starts (16)", 272),
               ("palettes (2 x 2 pixels), command buffers (1+1+4+4)", 18))
    print(table(("ST7789 buffers by design", "bytes"), list(buffers) + [("total", sum(b for _, b in buffers))], "lr"))
    print("The rest of 'one display' is objects: 8 row views of the strip, 8 page views, 6 framebufs and"
          " the driver's own;"
          " on the ESP32 (32-bit) they take about half. A full RGB565 frame would be 240 x 135 x 2 = 64800 B.")


def main():
    micropython = find_tool("micropython")
    mpy_cross = find_tool("mpy-cross")
    valgrind = shutil.which("valgrind")
    if not micropython:
        print("display_redraw: the MicroPython unix port was not found; nothing measured")
        raise NothingMeasured()
    mono, colour = profile(MONO), profile(COLOUR)
    palette = colour["display"]["palette"]
    print("Tafel display redraw (docs/design.md section 8: key to screen; issue 5: both displays)")
    print("micropython: %s" % tool_version(micropython, "-c", "import sys; print(sys.version)"))
    print()
    if valgrind:
        instructions_table(callgrind(micropython, valgrind, palette), valgrind)
    else:
        print("Redraw cost: valgrind not found (apt-get install valgrind); skipped")
    print()
    bus_table(mono, colour)
    print()
    if mpy_cross:
        heap_table(heap(micropython, mpy_cross, palette))
    else:
        print("Heap: mpy-cross not found; skipped")
    return 0


if __name__ == "__main__":
    sys.exit(run_recorded(main, "display_redraw", measured_on=lambda: micropython_named(find_tool("micropython"))))
