# The question the laptop's delete or wipe puts on the screen: # does it, * does not.
#
# Its texts live here rather than in ui/texts_*: only the link asks them.
from ui.confirm import Confirm

_TEXTS = {
    "de": ("Laptop fragt", "#%d löschen?", "Alles löschen?", "%d Spiele"),
    "en": ("Laptop asks", "Delete #%d?", "Delete all?", "%d games"),
}


class Ask(Confirm):
    def __init__(self, app, what, detail, answer):
        """what: ("delete", game id) or ("wipe", games); answer(yes) is called once."""
        texts = _TEXTS.get(app.settings.get("lang", "de"), _TEXTS["de"])
        if what[0] == "delete":
            question = texts[1] % what[1]
        else:
            question, detail = texts[2], texts[3] % what[1]
        super().__init__(app, question, None, detail)
        self.title = texts[0]
        self.answer = answer

    def key(self, k):
        if k == "#" or k == "PUSH" or k == "*":
            self.app.pop()
            self.answer(k != "*")

    def draw_row(self, canvas, row):
        if row == 0:
            canvas.bar(0, self.title)
        else:
            super().draw_row(canvas, row)
