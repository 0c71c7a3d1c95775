# The rules screen: card values, cards, the +4 challenge with a bluff check, two players, UNO, scoring, deal, teams.
#
# A menu, then pages of tafel.rulebook's texts in the app's language, wrapped to
# the display's width when a page opens. C/D or the knob scroll (the title shows
# the last line in view / all lines), # picks, * goes back, 1-9 open an entry.
# The bluff check asks the colour in play, then whether the hand held before the
# +4 had a card of it, and shows tafel.referee.judge_wild4's verdict: who draws
# how many. Closing the screen lets the rulebook and the referee go again.
import sys

from micropython import const

from ui.screen import Screen, title_bar

_MENU = const(0)  # views: the menu, a page of text, the colour, the question, the verdict
_PAGE = const(1)
_COLOUR = const(2)
_ASK = const(3)
_VERDICT = const(4)
_CHECK = const(3)  # the menu's bluff check; the other entries are the sections in order
_DROP = ("tafel.rulebook", "tafel.rulebook_de", "tafel.rulebook_en", "tafel.referee")


class Rules(Screen):
    def __init__(self, app):
        super().__init__(app)
        from tafel import rulebook

        self.rb = rulebook
        self.lang = "en" if app.settings.get("lang", "de") == "en" else "de"
        self.book = rulebook.book(self.lang)
        self.view = _MENU
        self.title = ""
        self.lines = ()  # text rows, each at most the display's width
        self.options = ()  # choices below the text, one has the cursor
        self.cursor = 0
        self.top = 0  # first body row in view (text rows, then options)
        self.entry = 0  # the menu entry last opened
        self.section = 0
        self.colour = 0
        self._menu()

    # ---- views -------------------------------------------------------------------------
    def _show(self, view, title, lines, options=(), cursor=0):
        self.view = view
        self.title = title
        self.lines = lines
        self.options = options
        self.cursor = cursor
        self.top = 0
        self._keep()
        self.touch()

    def _menu(self):
        self._show(_MENU, self.app.t("rules"), (), self.book.MENU, self.entry)

    def _page(self, section):
        rb = self.rb
        cols = self.app.canvas.cols
        name = rb.SECTIONS[section]
        title, text = rb.section(self.lang, name)
        lines = []
        if name == "values":
            table = self._house()
            if table is not None:
                lines.extend(rb.wrap(self.book.HOUSE, cols))
            for label, points in rb.value_lines(self.lang, table):
                lines.append(rb.pair(label, points, cols))
        lines.extend(rb.wrap(text, cols))
        if name == "challenge":
            lines.append(self.book.TRY)
        self.section = section
        self._show(_PAGE, title, lines)

    def _house(self):
        # The running game's own card values, if it has any (else None: the standard table).
        game = self.app.session.game
        if game is None:
            return None
        from tafel.cards import DEFAULT_VALUES

        return None if tuple(game.values) == DEFAULT_VALUES else game.values

    def _pick_colour(self):
        book = self.book
        self._show(_COLOUR, book.CHECK, self.rb.wrap(book.PICK, self.app.canvas.cols), book.COLOURS, self.colour)

    def _ask(self, colour):
        book = self.book
        self.colour = colour
        lines = self.rb.wrap(book.ASK % book.COLOURS[colour], self.app.canvas.cols)
        self._show(_ASK, book.CHECK, lines, book.YES_NO)

    def _verdict(self, held):
        # The hand before the +4 as the answer describes it: a card of the colour, or only the +4.
        from tafel.cards import COLOURS
        from tafel.referee import judge_wild4

        word = COLOURS[self.colour]
        hand = (word + " 1", "wild4") if held else ("wild4",)
        title, text = self.rb.verdict(self.lang, judge_wild4(hand, word), self.colour)
        lines = self.rb.wrap(text, self.app.canvas.cols)
        lines.append(self.book.AGAIN)
        self._show(_VERDICT, title, lines)

    # ---- keys ----------------------------------------------------------------------------
    def key(self, k):
        if k == "C" or k == "CCW":
            self._move(-1)
        elif k == "D" or k == "CW":
            self._move(1)
        elif k == "#" or k == "PUSH":
            self._pick()
        elif k == "*":
            self._back()
        elif len(k) == 1 and "1" <= k <= "9":
            index = ord(k) - 49
            if index < len(self.options):
                self.cursor = index
                self._pick()

    def _pick(self):
        view = self.view
        if view == _MENU:
            self.entry = self.cursor
            if self.cursor == _CHECK:
                self._pick_colour()
            else:
                self._page(self.cursor if self.cursor < _CHECK else self.cursor - 1)
        elif view == _PAGE:
            if self.rb.SECTIONS[self.section] == "challenge":
                self._pick_colour()
        elif view == _COLOUR:
            self._ask(self.cursor)
        elif view == _ASK:
            self._verdict(self.cursor == 0)
        else:  # the verdict: another check
            self._pick_colour()

    def _back(self):
        if self.view == _MENU:
            self.app.pop()
        elif self.view == _ASK:
            self._pick_colour()
        else:
            self._menu()

    def _move(self, step):
        if self.options:
            self.cursor = (self.cursor + step) % len(self.options)
            self._keep()
            self.touch()
            return
        top = max(0, min(self.top + step, len(self.lines) - self._body()))
        if top != self.top:
            self.top = top
            self.touch()

    def _keep(self):
        # With choices, as much of the text as fits above the cursor's row stays in view.
        if self.options:
            self.top = max(0, len(self.lines) + self.cursor - self._body() + 1)

    def _body(self):
        # Body rows: all but the title; the menu keeps its last row for the keys.
        rows = self.app.canvas.rows
        return rows - 2 if self.view == _MENU else rows - 1

    # ---- drawing ---------------------------------------------------------------------------
    def on_hide(self):
        if self not in self.app.stack:
            _drop()

    def draw_row(self, canvas, row):
        cols = canvas.cols
        if row == 0:
            # The mark says the last row in view: "7/19", and "19/19" at the end.
            total = len(self.lines) + len(self.options)
            body = self._body()
            title_bar(canvas, self.title, self.top, body, total, min(self.top + body, total) - 1)
        elif self.view == _MENU and row == canvas.rows - 1:
            canvas.text(row, 0, self.app.t("ru_keys")[:cols])
        else:
            index = self.top + row - 1
            count = len(self.lines)
            if index < count:
                canvas.text(row, 0, self.lines[index])
            elif index - count < len(self.options):
                index -= count
                chosen = index == self.cursor
                if chosen:
                    canvas.text(row, 0, "►")
                canvas.text(row, 1, self.options[index][:cols - 1], chosen)


def _drop():
    # The rulebook's texts and the referee are needed by this screen only: out of the module table.
    modules = sys.modules
    tafel = modules.get("tafel")
    for name in _DROP:
        if name in modules:
            del modules[name]
        short = name[6:]
        if tafel is not None and short in tafel.__dict__:
            delattr(tafel, short)
