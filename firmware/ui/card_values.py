# House card values for one game: every rank's points in a scrolling list, the deck's total below.
#
# C/D (or the knob) pick a card; digits type its points (the first digit on a
# card replaces its value, up to cards.MAX_CARD_POINTS); * deletes a typed
# digit, else leaves (asking first if something changed); A puts back the
# standard table; # (push) hands the table to on_done and closes. Transient
# (ui/registry.py): setup opens it now and then.
from tafel.cards import DEFAULT_VALUES, MAX_CARD_POINTS, RANKS, deck_total
from ui.screen import Screen


class CardValues(Screen):
    def __init__(self, app, values, on_done):
        """values: the game's table so far (17 points by rank code) or None for the standard."""
        super().__init__(app)
        self.start = tuple(values) if values is not None else DEFAULT_VALUES
        self.values = list(self.start)
        self.on_done = on_done
        self.cursor = 0
        self.top = 0
        self.typing = False  # a digit was typed on this card since the cursor came here
        self.total = deck_total(self.start)

    def _body(self):
        return self.app.canvas.rows - 3  # title, deck total and hint rows around the list

    def key(self, k):
        app = self.app
        if k == "C" or k == "CCW":
            self._move(-1)
        elif k == "D" or k == "CW":
            self._move(1)
        elif len(k) == 1 and "0" <= k <= "9":
            self._digit(ord(k) - 48)
        elif k == "*":
            if self.typing and self.values[self.cursor]:
                self._set(self.values[self.cursor] // 10)
            elif tuple(self.values) != self.start:
                app.open("confirm", app.t("cv_discard"), app.pop)
            else:
                app.pop()
        elif k == "A":
            for r in range(len(self.values)):
                self.values[r] = DEFAULT_VALUES[r]
            self.typing = False
            self.total = deck_total(DEFAULT_VALUES)
            self.touch()
            app.notify(app.t("cv_standard"))
        elif k == "#" or k == "PUSH":
            app.pop()
            self.on_done(tuple(self.values))

    def _digit(self, d):
        value = self.values[self.cursor] * 10 + d if self.typing else d
        if value <= MAX_CARD_POINTS:
            self.typing = True
            self._set(value)

    def _set(self, value):
        self.values[self.cursor] = value
        self.total = deck_total(tuple(self.values))
        self.touch(1 + self.cursor - self.top)
        self.touch(self.app.canvas.rows - 2)

    def _move(self, step):
        self.cursor = (self.cursor + step) % len(self.values)
        self.typing = False
        body = self._body()
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + body:
            self.top = self.cursor - body + 1
        self.touch()

    def label(self, rank):
        # A number card by its face, any other by its rank's name: "cv_" + name (texts_*.py).
        name = RANKS[rank]
        t = self.app.t
        return t("cv_number") % int(name) if name.isdigit() else t("cv_" + name)

    def draw_row(self, canvas, row):
        t = self.app.t
        cols = canvas.cols
        last = canvas.rows - 1
        if row == 0:
            canvas.bar(0, t("cv_title"))
        elif row == last:
            canvas.text(last, 0, t("cv_keys")[:cols])
        elif row == last - 1:
            # the deck's total and, where it fits, the position in the list
            total = t("cv_deck") % self.total
            where = "%d/%d" % (self.cursor + 1, len(self.values))
            canvas.text(row, 0, total[:cols])
            if len(total) + 1 + len(where) <= cols:
                canvas.right(row, where)
        else:
            rank = self.top + row - 1
            if rank >= len(self.values):
                return
            value = str(self.values[rank])
            name = self.label(rank)[:cols - 2 - len(value)]
            line = name + " " * (cols - 1 - len(name) - len(value)) + value
            here = rank == self.cursor
            if here:
                canvas.text(row, 0, "►")
            canvas.text(row, 1, line, here)
