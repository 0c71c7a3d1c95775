# Standings: every seat's total, the next dealer marked, the card values, and the way into
# the next round (#), undo (A), the round list for edits (B) and home (*).
#
# The columns come from the display: a mark column (the dealer's ►, an "x" for
# a seat that is out), the names as wide as the totals leave room for (short
# forms that stay different, cut names running past slowly), the totals as wide
# as the largest. The card values stand beside the totals when there is room,
# else in rows below the seats. C/D scroll a list longer than the screen; the
# title says which lines show.
from micropython import const

from session import NotLoaded
from tafel.cards import RANKS
from ui.names import short_names, window
from ui.screen import FLASH_ERRORS, Screen

_HINT_MS = const(3000)  # the bottom row takes turns: the dealer, then the keys
_TABLE_S = const(5)  # seconds without a key before the table view (ui/table_view.py) opens; setting "table"
_RUN_MS = const(600)  # a cut name moves on one letter
_VALUE_W = const(5)  # "Ak 20", "+4 50", "W 100"
_MIN_NAME = const(7)
_SHORT_TURNS = const(5)  # ticks of RUN_MS a cut name shows its short form before it runs past


class Standings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.top = 0
        self.hint_turn = 0
        self.hint_at = app.clock.ticks_ms()
        self.step = 0
        self.run_at = self.hint_at

    def on_open(self):
        game = self.app.session.game
        self.game = game
        self.out = game.eliminated()
        self.order = self._ranking()
        self.value_lines = value_lines(game.values, self.app.t)
        self._layout(self.app.canvas.cols)
        super().on_open()

    def _layout(self, cols):
        game = self.game
        width = len(str(game.target))  # a column that keeps its place all game
        for s in range(len(game.players)):
            width = max(width, len(str(game.total(s))))
        self.total_w = width
        name_w = cols - 2 - width
        self.beside = name_w - 1 - _VALUE_W >= _MIN_NAME
        if self.beside:
            name_w -= 1 + _VALUE_W
            self.value_rows = []
        else:  # as many values a row as fit, a blank column between them
            per = max(1, (cols + 1) // (_VALUE_W + 1))
            lines = self.value_lines
            self.value_rows = [" ".join(lines[i:i + per]) for i in range(0, len(lines), per)]
        self.name_w = name_w
        self.short = short_names(game.players, name_w)

    def _ranking(self):
        # Best first: highest total in standard, lowest in the penalty variants; out last.
        game = self.game
        out = self.out
        high = game.variant == "standard"
        seats = list(range(len(game.players)))
        seats.sort(key=lambda s: (game.players[s] in out, -game.total(s) if high else game.total(s), s))
        return seats

    def _count(self):
        return len(self.order) + len(self.value_rows)

    def key(self, k):
        app = self.app
        game = self.game
        body = app.canvas.rows - 2
        if k == "#" or k == "PUSH":
            if game.finished:
                app.open("over")
            else:
                app.open("entry")
        elif k == "A":
            if len(game.rounds) and not game.finished:
                app.open("confirm", app.t("undo_last") % len(game.rounds), self._undo, app.t("undo_detail"))
            elif game.finished:
                app.notify(app.t("err_game_ended"))
        elif k == "B":
            app.open("rounds")
        elif k == "*":
            if game.finished:
                app.session.close()  # its end has been seen; it is in the history
            app.home()
        elif (k == "D" or k == "CW") and self.top + body < self._count():
            self.top += 1
            self.touch()
        elif (k == "C" or k == "CCW") and self.top > 0:
            self.top -= 1
            self.touch()

    def _undo(self):
        app = self.app
        try:
            app.session.undo_round()
        except ValueError as err:
            app.notify(app.refusal(err))
            return
        except NotLoaded:  # on flash, but the heap would not hold the game again
            self.game = None
            app.reload_saved("undone")
            return
        except FLASH_ERRORS as err:  # the flash refused: the undo is NOT saved
            app.notify("%s: %s" % (app.t("not_saved"), app.refused_save(err)))
            return
        app.notify(app.t("undone"))
        self.on_open()

    def lit(self):
        return self.game is not None and not self.game.finished

    def tick(self, now):
        app = self.app
        wait = app.settings.get("table", _TABLE_S)
        if (type(wait) is int and wait > 0 and not self.game.finished and app.screen is self
                and now - app.last_key >= wait * 1000):
            app.open("table_view")  # the whole table reads the scores; any key gives them back
            return
        last = app.canvas.rows - 1
        if now - self.hint_at >= _HINT_MS:
            self.hint_at = now
            self.hint_turn = (self.hint_turn + 1) % 3
            self.touch(last)
        if now - self.run_at >= _RUN_MS:
            self.run_at = now
            self.step += 1
            players = self.game.players
            for i in range(len(self.order)):
                if len(players[self.order[i]]) > self.name_w and self.top <= i < self.top + last - 1:
                    self.touch(1 + i - self.top)

    def draw_row(self, canvas, row):
        app = self.app
        game = self.game
        last = canvas.rows - 1
        if row == 0:
            # The target always; where the lines do not all fit, which of them show too, if there is room
            right = str(game.target)
            count = self._count()
            if count > last - 1:
                mark = "%d-%d/%d " % (self.top + 1, min(self.top + last - 1, count), count)
                if len(mark) + len(right) + 2 + len(str(len(game.rounds))) <= canvas.cols:  # "R12" stays whole
                    right = mark + right
            bar_with(canvas, title(app, game, right), right)
        elif row == last:
            turn = self.hint_turn
            if game.finished:  # what the keys do now: # the result, B the rounds, * home
                text = app.t("keys_finished" if turn != 2 else "keys_finished2")
            elif turn == 0:
                text = "%s: %s" % (app.t("dealer"), game.dealer())
            else:
                text = app.t("keys_standings" if turn == 1 else "keys_standings2")
            canvas.text(last, 0, text[:canvas.cols])
        else:
            i = self.top + row - 1
            if i < len(self.order):
                self._draw_seat(canvas, row, self.order[i])
            elif i < self._count():
                canvas.text(row, 0, self.value_rows[i - len(self.order)][:canvas.cols])
            if self.beside and row - 1 < len(self.value_lines):
                canvas.text(row, canvas.cols - self.total_w - 1 - _VALUE_W, self.value_lines[row - 1])

    def _draw_seat(self, canvas, row, s):
        game = self.game
        name = game.players[s]
        if name in self.out:
            canvas.text(row, 0, "x")
        elif not game.finished and name == game.dealer():
            canvas.text(row, 0, "►")
        if len(name) > self.name_w:
            # the short form for a while, then the whole name running past once, and again
            turn = self.step % (len(name) + 3 + _SHORT_TURNS)
            name = self.short[s] if turn < _SHORT_TURNS else window(name, self.name_w, turn - _SHORT_TURNS)
        canvas.text(row, 1, name)
        total = str(game.total(s))
        canvas.text(row, canvas.cols - len(total), total)


def title(app, game, right):
    """ "Stand R12", or only "R12" where the word would not leave room for `right` beside it."""
    rounds = "R%d" % len(game.rounds)
    text = "%s %s" % (app.t("standings"), rounds)
    return text if len(text) + 1 + len(right) <= app.canvas.cols else rounds


def bar_with(canvas, left, right):
    """A title bar with `right` flush at its end."""
    left = left[:max(0, canvas.cols - len(right) - 1)]
    canvas.bar(0, left + " " * (canvas.cols - len(left) - len(right)) + right)


def value_lines(values, t):
    """Five-character texts of the card values, equal neighbours merged ("Ak 20", "Fw 50", ...)."""
    lines = []
    for ranks, label in _GROUPS:
        first = values[RANKS.index(ranks[0])]
        same = True
        for rank in ranks:
            same = same and values[RANKS.index(rank)] == first
        if same:
            lines.append(_line(t(label), first))
        else:
            for rank in ranks:
                lines.append(_line(t("v_" + rank), values[RANKS.index(rank)]))
    for rank in _NUMBERS:  # house values for the number cards, only where they differ from the face
        points = values[RANKS.index(rank)]
        if points != int(rank):
            lines.append(_line(rank, points))
    return lines


# Ranks whose values are shown as one when they are equal: the coloured actions, then each black card.
_GROUPS = ((("skip", "reverse", "draw2"), "v_actions"), (("wild",), "v_wild"), (("wild4",), "v_wild4"),
           (("swap",), "v_swap"), (("blank",), "v_blank"))
_NUMBERS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")  # the number cards' ranks, named by their face


def _line(label, points):
    # Label, a space and the points in five columns: "Ak 20", "+4 50", "W 100".
    text = str(points)
    width = max(0, _VALUE_W - 1 - len(text))
    return (label + "    ")[:width] + " " + text
