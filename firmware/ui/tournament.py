# The hub's tournament round offered (club/offer.py): round, table, variant, target, the names in seat order.
#
# Opened from home by 0 while the club link holds an offer. # starts a new game with exactly those
# seats, variant and target the way the setup does (session.start: journalled, so it goes to the
# hub like any game; a running game is paused after asking, as the setup asks); B declines after
# asking; * goes back and the offer stays. Either answer is kept on flash: the same round is not
# offered again. C/D scroll what does not fit. A newer round arriving meanwhile is shown instead.
from ui.screen import FLASH_ERRORS, Screen, title_bar

VARIANTS = ("standard", "penalty", "challenge")  # tafel/variants.py NAMES: their text keys


class Offer(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.shown = None  # the TABLE the lines are of
        self.lines = ()
        self.names = ()
        self.top = 0

    def on_open(self):
        super().on_open()
        if self._held() is not self.shown:
            self._build()

    def _held(self):
        club = self.app.club
        return club.offer if club is not None else None

    def _build(self):
        # The rows, once per offer (never per key): a part wider than the screen goes on below.
        got = self.shown = self._held()
        self.top = 0
        self.touch()
        if got is None:
            self.lines = ()
            return
        from club.offer import seats

        t = self.app.t
        cols = self.app.canvas.cols
        self.names = seats(got[4], t("tn_seat"))
        lines = []
        _wrap(lines, (t("tn_round") % got[0], t("tn_table") % got[1]), cols)
        _wrap(lines, (t(VARIANTS[got[2]]), "%s %d" % (t("to_target"), got[3])), cols)
        _wrap(lines, self.names, cols)
        lines.append(t("tn_start_q"))
        self.lines = lines

    def tick(self, now_ms):
        got = self._held()
        if got is not self.shown:
            if got is None:  # answered meanwhile, or the link gone (unpaired)
                self.app.pop()
            else:  # a newer round
                self._build()

    def key(self, k):
        app = self.app
        if k == "#" or k == "PUSH":
            running = app.session.game
            if running is not None and not running.finished:
                # The running game stays on flash; the history can continue it (as the setup asks).
                app.open("confirm", app.t("pause_q"), self._begin, app.t("pause_detail"))
            else:
                self._begin()
        elif k == "B":
            app.open("confirm", app.t("tn_decline_q"), self._decline)
        elif k == "*":
            app.pop()
        elif k == "C" or k == "CCW":
            self._scroll(-1)
        elif k == "D" or k == "CW":
            self._scroll(1)

    def _scroll(self, step):
        top = min(max(0, self.top + step), max(0, len(self.lines) - (self.app.canvas.rows - 2)))
        if top != self.top:
            self.top = top
            self.touch()

    def _begin(self):
        app = self.app
        got = self.shown
        if got is None or self._held() is not got:
            return  # gone or replaced while the question was asked: tick() shows what is now
        try:
            app.session.start(self.names, VARIANTS[got[2]], got[3])
        except ValueError as err:  # a core refusal, in the table's language
            app.notify(app.refusal(err))
            return
        except FLASH_ERRORS as err:  # flash full or failing: say so, the offer stays
            app.notify(app.refused_save(err))
            return
        self._answered()
        self._remember()
        app.show_game()
        app.open("entry")

    def _decline(self):
        app = self.app
        if self.shown is None or self._held() is not self.shown:
            return  # as in _begin
        self._answered()
        app.pop()
        app.notify(app.t("tn_declined"))

    def _answered(self):
        from club.offer import answered

        try:
            answered(self.app.club)
        except FLASH_ERRORS as err:  # not offered again until a reboot: only logged
            if self.app.log is not None:
                self.app.log(err)

    def _remember(self):
        # The round's names go to the front of the roster, as a game set up by hand does (ui/setup.py).
        app = self.app
        lowered = [n.lower() for n in self.names]
        try:
            app.store.save_roster(list(self.names) + [n for n in app.store.roster if n.lower() not in lowered])
        except FLASH_ERRORS as err:  # a roster the flash refused never blocks play
            if app.log is not None:
                app.log(err)

    def draw_row(self, canvas, row):
        last = canvas.rows - 1
        if row == 0:
            title_bar(canvas, self.app.t("tournament"), self.top, last - 1, len(self.lines))
        elif row == last:
            canvas.text(last, 0, self.app.t("tn_keys")[:canvas.cols])
        else:
            i = self.top + row - 1
            if i < len(self.lines):
                canvas.text(row, 0, self.lines[i])


def _wrap(out, parts, cols):
    # The parts, joined by ", ", over as few rows of `cols` as they take; a row breaks between
    # parts, and inside one only where it is wider than a row.
    line = ""
    last = len(parts) - 1
    for i in range(len(parts)):
        part = parts[i] + ("," if i < last else "")
        if line and len(line) + 1 + len(part) > cols:
            out.append(line)
            line = part
        else:
            line = line + " " + part if line else part
        while len(line) > cols:
            out.append(line[:cols])
            line = line[cols:]
    if line:
        out.append(line)
