# Pick a seat's name: "new name" (typed with multi-tap) or a name used before.
from ui.screen import ListScreen


class RosterPick(ListScreen):
    DIGITS = True  # "1 new name", "2 Anna", ...: the digit picks the entry
    def __init__(self, app, taken, on_pick):
        super().__init__(app)
        lowered = [n.lower() for n in taken]
        self.items = [None] + [n for n in app.store.roster if n.lower() not in lowered]
        self.on_pick = on_pick

    def title(self):
        return self.app.t("add_seat")

    def hint(self):
        return self.app.t("keys_pick")

    def label(self, index):
        name = self.items[index]
        name = self.app.t("new_name") if name is None else name
        return "%d %s" % (index + 1, name) if index < 9 else "  " + name

    def pick(self, index):
        name = self.items[index]
        app = self.app
        app.pop()
        if name is None:
            app.open("name_entry", self.on_pick)
        else:
            self.on_pick(name)
