# The screen contract: rows to draw, keys to handle, optional timers; redraw only dirty rows.
from micropython import const

from store.errors import StoreError

_ALL_ROWS = const(0xFFFF)  # every text row (a 128x64 display has 8, a scaled 320x240 one 15)
# What the flash says when it refuses a change: a screen's save path catches only these and shows
# why (App.refused_save); anything else is a bug and reaches App._guard, which logs it and recovers.
FLASH_ERRORS = (StoreError, OSError)


def title_bar(canvas, text, top, body, count, at=None):
    """The title bar; when `count` lines do not fit the `body` rows, its right end says
    where the view is: "3/12" for a cursor (`at`), else the lines shown, "1-6/10" (or
    the first of them, "1/10", where the range would cut the title)."""
    if count <= body:
        canvas.bar(0, text)
        return
    if at is not None:
        mark = "%d/%d" % (at + 1, count)
    else:
        mark = "%d-%d/%d" % (top + 1, min(top + body, count), count)
        if len(text) + 1 + len(mark) > canvas.cols:  # the title whole beats the range: its first line
            mark = "%d/%d" % (top + 1, count)
    room = canvas.cols - len(mark) - 1
    text = text[:room] if room > 0 else ""
    canvas.bar(0, text + " " * (canvas.cols - len(text) - len(mark)) + mark)


class Screen:
    """Base class. A screen draws text rows on request and reacts to keys.

    `dirty` is a bit mask of rows whose content changed; the app redraws only
    those. `key()` handles one key name ('0'-'9', 'A'-'D', '*', '#', 'CW',
    'CCW', 'PUSH'); unknown keys are ignored, never an error.
    """

    def __init__(self, app):
        self.app = app
        self.dirty = _ALL_ROWS

    def on_open(self):
        self.dirty = _ALL_ROWS

    def on_hide(self):
        pass

    def key(self, k):
        pass

    def tick(self, now_ms):
        pass

    def lit(self):
        """True while the table reads this screen during play (a running game's totals): the
        display dims after the sleep time but stays on (ui/app.py)."""
        return False

    def draw_row(self, canvas, row):
        pass

    def touch(self, row=None):
        """Mark one row (or all) for redraw."""
        self.dirty |= _ALL_ROWS if row is None else (1 << row)

    # ---- coming back after a deep sleep (ui/resume.py; ui/registry.py says which do) ----

    def resume_state(self):
        """A little JSON-able state to come back with (a cursor), or None."""
        return None

    def restore(self, state):
        """Take back what resume_state() gave; a state that does not fit is ignored."""

    @classmethod
    def resumed(cls, app, state):
        screen = cls(app)
        if state is not None:
            screen.restore(state)
        return screen


class ListScreen(Screen):
    """A titled, scrolling list with a cursor: C/D (or the rotary) move, # picks.

    Subclasses provide `items` (sequence of labels), `title()` and `pick(index)`;
    the last row shows a hint. An item may take `LINES` rows: then `line(index,
    part)` gives each row's text. The title shows the cursor's place ("3/12")
    when the items do not all fit.
    """

    LINES = 1
    DIGITS = False  # whether 1-9 pick the entries; a list that says True shows each entry's digit

    def __init__(self, app, items=()):
        super().__init__(app)
        self.items = items
        self.cursor = 0
        self.top = 0

    def title(self):
        return ""

    def hint(self):
        return ""

    def label(self, index):
        return self.items[index]

    def line(self, index, part):
        return self.label(index) if part == 0 else ""

    def body_items(self):
        return (self.app.canvas.rows - 2) // self.LINES

    def pick(self, index):
        pass

    def back(self):
        self.app.pop()

    def key(self, k):
        if k == "C" or k == "CCW":
            self.move(-1)
        elif k == "D" or k == "CW":
            self.move(1)
        elif k == "#" or k == "PUSH":
            if self.items:
                self.pick(self.cursor)
        elif k == "*":
            self.back()
        elif self.DIGITS and "1" <= k <= "9" and len(k) == 1:
            index = ord(k) - 49
            if index < len(self.items):
                self.cursor = index
                self.touch()
                self.pick(index)

    def resume_state(self):
        return self.cursor

    def restore(self, state):
        if type(state) is int and state >= 0:
            self.cursor = state
            self.top = max(0, state - (self.body_items() - 1))
            self.touch()

    def move(self, step):
        if not self.items:
            return
        self.cursor = (self.cursor + step) % len(self.items)
        body = self.body_items()
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + body:
            self.top = self.cursor - body + 1
        self.touch()

    def draw_row(self, canvas, row):
        last = canvas.rows - 1
        if row == 0:
            title_bar(canvas, self.title(), self.top, self.body_items(), len(self.items), self.cursor)
        elif row == last:
            canvas.text(last, 0, self.hint()[:canvas.cols])
        else:
            index = self.top + (row - 1) // self.LINES
            part = (row - 1) % self.LINES
            if index < len(self.items) and index < self.top + self.body_items():
                text = self.line(index, part)[:canvas.cols - 1]
                if index == self.cursor and part == 0:
                    canvas.text(row, 0, "►")
                canvas.text(row, 1, text, index == self.cursor and part == 0)
