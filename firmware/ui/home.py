# The home menu: new game, continue, history, settings, rules, about.
#
# Every entry keeps its place and its digit, a game running or not (the
# README's shortcuts hold): "continue" without a game says so when picked.
# A paired table offered a tournament round by the club's hub (club/offer.py) says so in
# the bottom row (the display woken for it), and 0 opens it (ui/tournament.py); nothing of
# that is imported before.
from ui.screen import ListScreen

ACTIONS = ("new_game", "continue", "history", "settings", "rules", "about")  # text keys, in menu order
# The screen each entry opens (ui/registry.py); "continue" shows the running game instead.
OPENS = ("setup", None, "history", "settings", "rules", "about")


class Home(ListScreen):
    offered = None  # the club link's offer the bottom row shows (its own only once one came)

    def on_open(self):
        self.actions = ACTIONS
        self.items = ACTIONS
        if self.cursor >= len(self.items):
            self.cursor = 0
        super().on_open()

    def _running(self):
        session = self.app.session
        game = session.game
        if game is None:  # let go while an update came over USB (App.make_room): still running
            return session.game_id is not None
        return not game.finished

    DIGITS = True  # each entry's label starts with its digit

    def title(self):
        return self.app.t("home")

    def label(self, index):
        text = "%d %s" % (index + 1, self.app.t(self.actions[index]))
        if self.actions[index] == "continue" and not self._running():
            text = "%d (%s)" % (index + 1, self.app.t("no_game"))
        return text

    def hint(self):
        got = self._offer()
        if got is not None:
            return self.app.t("tn_hint") % got[0]
        low = self.app.store.space_note()
        return self.app.t(low) if low else ""

    def back(self):
        pass  # home is the bottom of the stack

    def _offer(self):
        club = self.app.club
        return club.offer if club is not None else None

    def tick(self, now_ms):
        got = self._offer()
        if got is not self.offered:  # a round came, was answered, or the link went
            self.offered = got
            app = self.app
            self.touch(app.canvas.rows - 1)
            if got is not None:  # a new round lights the glass, as a key would
                app.last_key = now_ms
                if app.asleep:
                    app.wake()

    def key(self, k):
        if k == "0" and self._offer() is not None:
            self.app.open("tournament")
        else:
            super().key(k)

    def pick(self, index):
        app = self.app
        if OPENS[index] is not None:
            app.open(OPENS[index])
        elif self._running():
            app.show_game()
        else:
            app.notify(app.t("no_game_running"))
