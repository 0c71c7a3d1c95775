# The running game's rounds, newest first: # edits one (with the result shown before
# saving), and the last entry ends the game early after a confirmation.
from session import NotLoaded
from ui.names import short_names
from ui.screen import FLASH_ERRORS, ListScreen


class Rounds(ListScreen):
    def on_open(self):
        game = self.app.session.game
        self.game = game
        self.short = None  # (width, short names) for names too long beside a round's number and points
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
        game = self.game
        rnd = game.rounds[i]
        number = "%d " % (i + 1)
        if game.variant == "standard":  # the Sieger scores the round: "12 Christina +150"
            best = game.seat(rnd.winner)
            points = " +%d" % rnd.scores[best]
            return number + self._name(best, len(number) + len(points)) + points
        # Penalty variants: every hand is a seat's own minus; the round is named by who went out
        if rnd.winner is None:
            return number + self.app.t("no_winner")
        return number + self._name(game.seat(rnd.winner), len(number))

    def _name(self, seat, taken):
        # The whole name where it fits beside the rest, else a short form no other seat shares.
        width = self.app.canvas.cols - 1 - taken
        name = self.game.players[seat]
        if len(name) <= width:
            return name
        if self.short is None or self.short[0] != width:
            self.short = (width, short_names(self.game.players, width))
        return self.short[1][seat]

    def pick(self, index):
        app = self.app
        i = self.items[index]
        if i < 0:
            app.open("confirm", app.t("end_game"), self._finish)
        elif self.game.ended_early:
            app.notify(app.t("game_ended"))
        else:
            app.open("entry", i)

    def _finish(self):
        app = self.app
        try:
            app.session.finish()
        except ValueError as err:
            app.notify(app.refusal(err))
            return
        except NotLoaded:  # on flash, but the heap would not hold the game again
            self.game = None
            app.reload_saved("saved")
            return
        except FLASH_ERRORS as err:  # the flash refused: the end is NOT saved
            app.notify("%s: %s" % (app.t("not_saved"), app.refused_save(err)))
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
