# The home menu: new game, continue, history, settings, about.
from ui.screen import ListScreen


class Home(ListScreen):
    resume = "home"  # with its cursor (ui/resume.py)

    def on_open(self):
        self.actions = ["new_game"]
        if self.app.session.game is not None and not self.app.session.game.finished:
            self.actions.append("continue")
        self.actions.extend(("history", "settings", "about"))
        self.items = self.actions
        if self.cursor >= len(self.items):
            self.cursor = 0
        super().on_open()

    def title(self):
        return self.app.t("home")

    def label(self, index):
        return self.app.t(self.actions[index])

    def hint(self):
        low = self.app.store.space_note()
        return self.app.t(low) if low else ""

    def back(self):
        pass  # home is the bottom of the stack

    def pick(self, index):
        action = self.actions[index]
        app = self.app
        if action == "new_game":
            from ui.setup import Setup

            app.push(Setup(app))
        elif action == "continue":
            app.show_game()
        elif action == "history":
            from ui.history import History

            app.push(History(app))
        elif action == "settings":
            from ui.settings import Settings

            app.push(Settings(app))
        else:
            from ui.about import About

            app.push(About(app))
