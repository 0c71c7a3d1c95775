# Typing a name with multi-tap letters: digits type, * deletes, # takes the name (a blank or bad one is refused).
from tafel.names import name_problem
from ui.screen import Screen
from ui.t9 import LETTERS, MultiTap


class NameEntry(Screen):
    def __init__(self, app, on_done, text=""):
        super().__init__(app)
        self.tap = MultiTap(text)
        self.on_done = on_done

    def key(self, k):
        now = self.app.clock.ticks_ms()
        if k == "#" or k == "PUSH":
            self.tap.commit()
            name = self.tap.text.strip()
            problem = name_problem(name)  # blank, too long, not printable: the game would refuse it
            if problem:
                self.app.notify(self.app.t("err_" + problem[0]))
            else:
                self.app.pop()
                self.on_done(name)
            return
        if k == "*" and not self.tap.shown():
            self.app.pop()
            return
        if self.tap.key(k, now):
            self.touch(3)
        elif k in LETTERS and self.tap.full():  # the same limit as the laptop's and the game's
            self.app.notify(self.app.t("name_full"))

    def tick(self, now):
        if self.tap.tick(now):
            self.touch(3)

    def draw_row(self, canvas, row):
        t = self.app.t
        if row == 0:
            canvas.bar(0, t("name"))
        elif row == 3:
            shown = self.tap.shown()[-(canvas.cols - 1):]
            canvas.text(3, 0, shown)
            canvas.text(3, len(shown), "_")
        elif row == 5:
            canvas.text(5, 0, t("t9_help"))
        elif row == canvas.rows - 1:
            canvas.text(row, 0, t("keys_name"))
