# A yes/no question: # confirms, * cancels; both close the question first.
from ui.screen import Screen


class Confirm(Screen):
    def __init__(self, app, question, on_yes, detail="", title=None, on_no=None):
        """title: a bar on the top row (who asks: the laptop); on_no: called on *."""
        super().__init__(app)
        self.question = question
        self.detail = detail
        self.on_yes = on_yes
        self.title = title
        self.on_no = on_no

    def key(self, k):
        if k == "#" or k == "PUSH":
            self.app.pop()
            self.on_yes()
        elif k == "*":
            self.app.pop()
            if self.on_no is not None:
                self.on_no()

    def draw_row(self, canvas, row):
        if row == 0 and self.title:
            canvas.bar(0, self.title)
        elif row == 2:
            canvas.centre(2, self.question[:canvas.cols])
        elif row == 4 and self.detail:
            canvas.centre(4, self.detail[:canvas.cols])
        elif row == canvas.rows - 1:
            canvas.centre(row, self.app.t("yes_no"))
