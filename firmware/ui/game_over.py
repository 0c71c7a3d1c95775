# Game over: the winner(s), one per line, and the final score; # goes home, * back to standings,
# A starts the same game again (same seats, variant, target and house values; the next seat deals first).
#
# Shown the moment the deciding round is saved (or the game is ended early),
# and again after a power cut until the table has seen it (session.py keeps
# the mark). Ties list every winner on a line of their own, so two winners
# "Anna" and "Ben" never look like a team called "Anna & Ben"; C/D scroll
# when they do not fit, with the position in the title.
from ui.screen import FLASH_ERRORS, Screen, title_bar


class GameOver(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.top = 0

    def on_open(self):
        game = self.app.session.game
        self.game = game
        self.winners = game.winners()
        super().on_open()

    def _lines(self):
        # The body: a blank, each winner, "wins!"/"win!", a blank, the points, the rounds.
        return len(self.winners) + 5

    def _line(self, i):
        t = self.app.t
        game = self.game
        n = len(self.winners)
        if i == 0:
            return ""
        if i <= n:
            return self.winners[i - 1]
        if i == n + 1:
            return t("wins") if n == 1 else t("win")
        if i == n + 2:
            return ""
        if i == n + 3:
            return t("final_points") % game.total(game.seat(self.winners[0]))
        return t("final_rounds") % len(game.rounds)

    def key(self, k):
        body = self.app.canvas.rows - 2
        if k == "#" or k == "PUSH":
            self.app.session.close()
            self.app.home()
        elif k == "*":
            self.app.pop()
        elif k == "A":
            self._again()
        elif (k == "D" or k == "CW") and self.top + body < self._lines():
            self.top += 1
            self.touch()
        elif (k == "C" or k == "CCW") and self.top > 0:
            self.top -= 1
            self.touch()

    def _again(self):
        if play_again(self.app, self.game):
            self.game = None

    def draw_row(self, canvas, row):
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            title_bar(canvas, t("game_over"), self.top, last - 1, self._lines())
        elif row == last:
            canvas.text(row, 0, t("keys_game_over")[:canvas.cols])
        else:
            i = self.top + row - 1
            if i < self._lines():
                canvas.centre(row, self._line(i)[:canvas.cols])


def play_again(app, game):
    """ "Same players again", the rematch phone score keepers offer in one press: a new game with
    `game`'s seats, variant, target and house values, the next seat dealing first; round 1 opens.
    False (and why, in the bottom row) if it could not start."""
    from tafel.cards import DEFAULT_VALUES, RANKS

    values = None
    if tuple(game.values) != DEFAULT_VALUES:
        values = {}
        for r in range(len(RANKS)):
            values[RANKS[r]] = game.values[r]
    dealer = (game.first_dealer + 1) % len(game.players)
    try:
        app.session.start(game.players, game.variant, game.target, values, dealer)
    except ValueError as err:  # a core refusal (cannot happen for a game that was played)
        app.notify(app.refusal(err))
        return False
    except FLASH_ERRORS as err:  # flash full or failing: say so; the finished game is kept
        app.notify(app.refused_save(err))
        return False
    app.show_game()
    app.open("entry")
    return True
