# About: firmware version, display, flash size and free space, games stored, free RAM.
# Free RAM is looked at again every few seconds; * or # goes back.
import gc

from micropython import const

from tafel.version import VERSION
from ui.screen import Screen

_REFRESH_MS = const(2000)
_RAM_ROW = const(6)


class About(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.at = app.clock.ticks_ms()
        self.ram = 0
        self.lines = ()

    def on_open(self):
        self.lines = self._lines()
        self.ram = gc.mem_free()
        super().on_open()

    def _lines(self):
        app = self.app
        t = app.t
        store = app.store
        display = app.display
        try:
            space = store.space()
            total = "%d KB" % space.total_kb
            free = "%d KB" % space.free_kb
        except Exception:
            total = free = "?"
        try:
            from ui.history import game_ids

            games = str(len(game_ids(store)))
        except Exception:
            games = "?"
        return ((t("ab_version"), VERSION),
                (t("ab_display"), "%dx%d" % (getattr(display, "panel_width", display.width),  # the glass,
                                             getattr(display, "panel_height", display.height))),  # not the picture
                (t("ab_flash"), total),
                (t("ab_free"), free),
                (t("ab_games"), games))

    def key(self, k):
        if k == "*" or k == "#" or k == "PUSH":
            self.app.pop()

    def tick(self, now):
        if now - self.at >= _REFRESH_MS:
            self.at = now
            ram = gc.mem_free()
            if ram // 1024 != self.ram // 1024:
                self.ram = ram
                self.touch(_RAM_ROW)

    def draw_row(self, canvas, row):
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            canvas.bar(0, t("about"))
        elif row == last:
            canvas.text(last, 0, t("ab_keys"))
        elif row == _RAM_ROW:
            _pair(canvas, row, t("ab_ram"), "%d KB" % (self.ram // 1024))
        elif row - 1 < len(self.lines):
            label, value = self.lines[row - 1]
            _pair(canvas, row, label, value)


def _pair(canvas, row, label, value):
    value = value[:canvas.cols - 2]
    canvas.text(row, 0, label[:canvas.cols - len(value) - 1])
    canvas.right(row, value)
