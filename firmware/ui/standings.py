# Standings: every seat's total with the card values beside them, the next dealer, and
# the way into the next round (#), undo (A), the round list for edits (B) and home (*).
from ui.screen import Screen

HINT_MS = 3000  # the bottom row takes turns: dealer, then the keys


class Standings(Screen):
    resume = "standings"  # the running game's, from flash (ui/resume.py)

    def __init__(self, app):
        super().__init__(app)
        self.top = 0
        self.hint_turn = 0
        self.hint_at = app.clock.ticks_ms()

    def on_open(self):
        game = self.app.session.game
        self.game = game
        self.out = game.eliminated()
        self.order = self._ranking()
        self.value_lines = value_lines(game.values, self.app.t)
        super().on_open()

    def _ranking(self):
        # Best first: highest total in standard, lowest in the penalty variants; out last.
        game = self.game
        out = self.out
        high = game.variant == "standard"
        seats = list(range(len(game.players)))
        seats.sort(key=lambda s: (game.players[s] in out, -game.total(s) if high else game.total(s), s))
        return seats

    def key(self, k):
        app = self.app
        game = self.game
        body = app.canvas.rows - 2
        if k == "#" or k == "PUSH":
            if game.finished:
                from ui.game_over import GameOver

                app.push(GameOver(app))
            else:
                from ui.round_entry import RoundEntry

                app.push(RoundEntry(app))
        elif k == "A":
            if len(game.rounds):
                from ui.confirm import Confirm

                app.push(Confirm(app, app.t("undo_last") % len(game.rounds), self._undo))
        elif k == "B":
            from ui.rounds import Rounds

            app.push(Rounds(app))
        elif k == "*":
            app.home()
        elif (k == "D" or k == "CW") and self.top + body < len(self.order):
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
            app.notify(str(err))
            return
        except Exception as err:
            app.notify(app.t("not_saved"))
            return
        app.notify(app.t("undone"))
        self.on_open()

    def tick(self, now):
        if now - self.hint_at >= HINT_MS:
            self.hint_at = now
            self.hint_turn ^= 1
            self.touch(self.app.canvas.rows - 1)

    def draw_row(self, canvas, row):
        app = self.app
        game = self.game
        last = canvas.rows - 1
        if row == 0:
            title = "%s R%d" % (app.t("standings"), len(game.rounds))
            canvas.bar(0, title + " " * (canvas.cols - len(title) - 4) + "%4d" % game.target)
        elif row == last:
            if self.hint_turn:
                canvas.text(last, 0, app.t("keys_standings"))
            else:
                canvas.text(last, 0, ("%s: %s" % (app.t("dealer"), game.dealer()))[:canvas.cols])
        else:
            i = self.top + row - 1
            if i < len(self.order):
                s = self.order[i]
                total = "%4d" % game.total(s)
                canvas.text(row, 0, game.players[s][:6])
                canvas.text(row, 6, total)
                if game.players[s] in self.out:
                    canvas.text(row, 10, "x")
            if row - 1 < len(self.value_lines):
                canvas.text(row, 11, self.value_lines[row - 1])


def value_lines(values, t):
    """Five-character lines of the card values, equal neighbours merged (shown beside the totals)."""
    groups = ((10, 12, "v_actions"), (13, 13, "v_wild"), (14, 14, "v_wild4"),
              (15, 15, "v_swap"), (16, 16, "v_blank"))
    lines = []
    for first, last, label in groups:
        same = True
        for r in range(first, last + 1):
            same = same and values[r] == values[first]
        if same:
            lines.append(_line(t(label), values[first]))
        else:
            for r in range(first, last + 1):
                lines.append(_line(t("v_%d" % r), values[r]))
    return lines[:6]


def _line(label, points):
    # Label, a space and the points in five columns: "Ak 20", "+4 50", "W 100".
    text = str(points)
    width = max(0, 4 - len(text))
    return (label + "    ")[:width] + " " + text
