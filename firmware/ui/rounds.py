# The running game's rounds, newest first: # edits one (with the result shown before
# saving), and the last entry ends the game early after a confirmation.
from ui.screen import ListScreen


class Rounds(ListScreen):
    resume = "rounds"  # with its cursor (ui/resume.py)

    def on_open(self):
        game = self.app.session.game
        self.game = game
        count = len(game.rounds)
        self.items = _Newest(count, not game.finished and count)  # + "end the game now"
        if self.cursor >= len(self.items):
            self.cursor = 0
        super().on_open()

    def title(self):
        return self.app.t("rounds")

    def hint(self):
        return self.app.t("keys_rounds")

    def label(self, index):
        i = self.items[index]
        if i < 0:
            return self.app.t("end_game")
        rnd = self.game.rounds[i]
        if rnd.winner is not None:
            best = self.game.seat(rnd.winner)
        else:
            best = 0
            for s in range(len(rnd.scores)):
                if rnd.scores[s] > rnd.scores[best]:
                    best = s
        return "%d %s +%d" % (i + 1, self.game.players[best][:8], rnd.scores[best])

    def pick(self, index):
        app = self.app
        i = self.items[index]
        if i < 0:
            from ui.confirm import Confirm

            app.push(Confirm(app, app.t("end_game"), self._finish))
        elif self.game.ended_early:
            app.notify(app.t("game_ended"))
        else:
            from ui.round_entry import RoundEntry

            app.push(RoundEntry(app, i))

    def _finish(self):
        app = self.app
        try:
            app.session.finish()
        except ValueError as err:
            app.notify(str(err))
            return
        except Exception:
            app.notify(app.t("not_saved"))
            return
        app.show_game()


class _Newest:
    """The list's entries without a list: round indexes newest first, then -1 ("end the game")
    if `end`. A 300-round game would otherwise ask for a 2 KB block each time the list opens."""

    def __init__(self, count, end):
        self.count = count
        self.end = 1 if end else 0

    def __len__(self):
        return self.count + self.end

    def __getitem__(self, index):
        if not 0 <= index < self.count + self.end:
            raise IndexError(index)
        return self.count - 1 - index if index < self.count else -1
