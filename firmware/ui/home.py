# The home menu: new game, continue, history, settings, rules, about.
#
# Every entry keeps its place and its digit, a game running or not (the
# README's shortcuts hold): "continue" without a game says so when picked.
from ui.screen import ListScreen

ACTIONS = ("new_game", "continue", "history", "settings", "rules", "about")  # text keys, in menu order
# The screen each entry opens (ui/registry.py); "continue" shows the running game instead.
OPENS = ("setup", None, "history", "settings", "rules", "about")


class Home(ListScreen):
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
        low = self.app.store.space_note()
        return self.app.t(low) if low else ""

    def back(self):
        pass  # home is the bottom of the stack

    def pick(self, index):
        app = self.app
        if OPENS[index] is not None:
            app.open(OPENS[index])
        elif self._running():
            app.show_game()
        else:
            app.notify(app.t("no_game_running"))
