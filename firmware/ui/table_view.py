# The table view: every seat's total in large digits, for the players across the table to read.
#
# One line per seat in seat order, each line k text rows tall: the name (a
# short form that stays different from the others, ui/names.py) in the normal
# font, the total in ui/bigfont.py's digits as large as the line allows, the
# next dealer's name inverted (the accent colour on a colour board), an "x"
# under a seat that is out. The layout is chosen from the display's size and
# the canvas's cells, never fixed numbers: every line height k and 1 or 2 columns
# are tried, and the one that shows all seats at once with names of at least
# 4 letters (or as long as the longest name) and the largest digits wins; the
# 128x64 OLED shows 6 seats in 2 columns with 14-pixel digits, 2 seats in one
# column with 21-pixel ones; the 320x240 board 6 seats in one column. When no
# layout shows every seat (7-10 seats on the OLED), the one with most seats a
# page is taken and the pages take turns every PAGE_MS (tick), "1/2" in the
# title. The bottom row says who deals next and, in turns, the keys.
#
# It opens by itself when the standings have had no key for a while (the
# setting "table", 5 s by default: so a moment after each saved round, and
# whenever the table is idle). Every key leaves it and does on the standings
# what it does there (# the next round, A undo, ...); * only leaves. Big digits are drawn
# row by row, clipped to the row being redrawn, and the canvas is told the
# total's text (canvas.remember) so a snapshot's text shows it beside the name.
from micropython import const

from ui import bigfont
from ui.names import short_names
from ui.screen import Screen
from ui.standings import bar_with, title

PAGE_MS = const(4000)  # seats that do not fit one screen: a page each, in turns
_HINT_MS = const(3000)  # the bottom row: the dealer, then the keys
_MIN_NAME = const(3)  # letters a name needs at least beside its total (fewer cannot stay different)
_GOOD_NAME = const(4)  # letters that tell seats apart (or the longest name, if shorter)
_MIN_DIGITS = const(3)  # totals are laid out at least this wide, so the layout holds as they grow


class TableView(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.page = 0
        self.turn = 0
        self.page_at = self.hint_at = app.clock.ticks_ms()

    def on_open(self):
        self.game = self.app.session.game
        if self.game is not None:
            self._layout()
        super().on_open()

    def _layout(self):
        game, canvas = self.game, self.app.canvas
        n = len(game.players)
        totals = [str(game.total(s)) for s in range(n)]
        self.totals = totals
        digits = _MIN_DIGITS
        longest = 1
        for s in range(n):
            digits = max(digits, len(totals[s]))
            longest = max(longest, len(game.players[s]))
        good = min(_GOOD_NAME, longest)
        width, cell, body = self.app.display.width, canvas.cell, canvas.rows - 2
        best = None
        for k in range(2, body + 1):
            per_col = body // k
            scale = (k * cell - 2) // bigfont.HEIGHT  # a pixel above and below the digits at least
            if scale < 2:
                continue
            wide = bigfont.width("8" * digits, scale)
            for cols in (1, 2):
                # A font pixel between name and total; right of the total a font pixel, or half a
                # cell where another column follows.
                names = (width // cols - wide - _margin(canvas, cols) - canvas.scale) // cell
                if names < _MIN_NAME:
                    continue
                per_page = per_col * cols
                fits = per_page >= n
                named = min(names, longest)
                key = (fits, fits and named >= good, 0 if fits else per_page, scale, named, -cols)
                if best is None or key > best[0]:
                    best = (key, k, cols, per_col, scale, names)
        if best is None:  # a display too small for two-row lines: one-row lines, digits the font's size
            best = (None, 1, 1, body, 1, max(1, canvas.cols - digits - 1))
        _, self.k, self.cols, self.per_col, self.scale, names = best
        self.col_w = width // self.cols
        self.per_page = self.per_col * self.cols
        self.pages = (n + self.per_page - 1) // self.per_page
        self.page %= self.pages
        self.names = short_names(game.players, names)
        self.out = game.eliminated()

    # ---- keys and time -------------------------------------------------------------
    def key(self, k):
        # A picture of the standings: every key does what it does there (# the next round, A undo,
        # B the rounds, C/D scroll), and * only gives the standings back.
        app = self.app
        app.pop()
        if app.screen is self:  # nothing under it: the running game's screens
            app.show_game()
        elif k != "*":
            app.screen.key(k)

    def lit(self):
        return self.game is not None and not self.game.finished

    def tick(self, now):
        if self.game is None:
            return
        if self.pages > 1 and now - self.page_at >= PAGE_MS:
            self.page_at = now
            self.page = (self.page + 1) % self.pages
            self.touch()
        if now - self.hint_at >= _HINT_MS:
            self.hint_at = now
            self.turn ^= 1
            self.touch(self.app.canvas.rows - 1)

    # ---- drawing --------------------------------------------------------------------
    def draw_row(self, canvas, row):
        game = self.game
        if game is None:
            return
        app = self.app
        last = canvas.rows - 1
        if row == 0:
            right = "%d/%d" % (self.page + 1, self.pages) if self.pages > 1 else str(game.target)
            bar_with(canvas, title(app, game, right), right)
        elif row == last:
            if game.finished:
                text = app.t("game_ended")
            elif self.turn:
                text = app.t("tv_keys")
            else:
                text = "%s: %s" % (app.t("dealer"), game.dealer())
            canvas.text(last, 0, text[:canvas.cols])
        else:
            line, part = divmod(row - 1, self.k)
            if line < self.per_col:
                for c in range(self.cols):
                    seat = self.page * self.per_page + c * self.per_col + line
                    if seat < len(game.players):
                        self._draw_seat(canvas, row, part, c, seat)

    def _draw_seat(self, canvas, row, part, col, seat):
        # The share of one seat's line that text row `row` (row `part` of the line) holds.
        game, cell, scale = self.game, canvas.cell, self.scale
        x0 = col * self.col_w
        name_part = (self.k - 1) // 2  # the middle row of the line (its upper one of two)
        name_col = (x0 + cell - 1) // cell
        name = game.players[seat]
        if part == name_part:
            canvas.text(row, name_col, self.names[seat], not game.finished and name == game.dealer())
        elif part == name_part + 1 and name in self.out:
            canvas.text(row, name_col, "x")
        total = self.totals[seat]
        wide = bigfont.width(total, scale)
        x = x0 + self.col_w - wide - _margin(canvas, self.cols)
        top = (row - part) * cell + (self.k * cell - bigfont.height(scale) + 1) // 2
        y = row * cell
        bigfont.draw(canvas.display, x, top, total, scale, 1, y, y + cell)
        canvas.unmark(row, x, x + wide)
        if part == name_part:  # for a snapshot's text: a blank at least after the name
            canvas.remember(row, max(x // cell, name_col + len(self.names[seat]) + 1), total)


def _margin(canvas, cols):
    # Pixels right of a total: one font pixel, or half a cell between two columns.
    return canvas.scale if cols == 1 else canvas.cell // 2
