# Game over: the winner(s) by name and the final totals; # goes home, * back to standings.
from ui.screen import Screen


class GameOver(Screen):
    resume = "over"  # ui/resume.py

    def on_open(self):
        game = self.app.session.game
        self.game = game
        self.winners = game.winners()
        super().on_open()

    def key(self, k):
        if k == "#" or k == "PUSH":
            self.app.session.close()
            self.app.home()
        elif k == "*":
            self.app.pop()

    def draw_row(self, canvas, row):
        t = self.app.t
        game = self.game
        if row == 0:
            canvas.bar(0, t("game_over"))
        elif row == 2:
            canvas.centre(2, " & ".join(self.winners)[:canvas.cols])
        elif row == 3:
            canvas.centre(3, t("wins") if len(self.winners) == 1 else t("win"))
        elif row == 5:
            best = game.seat(self.winners[0])
            canvas.centre(5, "%d %s / %d R" % (game.total(best), t("points"), len(game.rounds)))
        elif row == canvas.rows - 1:
            canvas.text(row, 0, t("keys_game_over"))
