# Round entry: one row per seat, typed hands, the Sieger key and the live hint line.
#
# Keys: digits type a hand, B (+) starts another addend (a team mate's hand,
# or card by card), A marks the Sieger (on a typed hand it asks first: A again),
# C/D move, * deletes within the seat (on an empty one: leave the round),
# # moves on to the next seat without a hand, and to the round's result once
# every seat has one (the one seat left without a hand is the Sieger, if none
# is marked); a second # saves.
from micropython import const

from tafel.game import MAX_HAND
from ui.names import short_names, window
from ui.screen import Screen, title_bar

_BODY_TOP = const(1)  # the seats from row 1, row 0 is the header, the last row the hint line
_MAX_DIGITS = const(4)
_MAX_PARTS = const(8)
_FIELD_W = const(4)  # the typed hand's column ("36+53" shows its last four characters)
_MIN_NAME = const(5)  # narrower than this, the totals give way (the hint line shows the seat's)
_MIN_CHECK_NAME = const(3)  # the check keeps the totals: its names may be as short as this
_RUN_MS = const(500)  # the cursor's name, when cut, runs past one letter at a time


class _Unchanged(Screen):
    # Round entry is made for every round: what most rounds leave as it was is a default here,
    # not in each instance's dict, and is set only when it changes, so that dict keeps to 17
    # entries (136 bytes in one piece; 18 take 184, a run late in an evening's heap may not
    # have). A class of their own: in RoundEntry's class dict they would take it from 29 slots
    # to 37, 296 bytes in one piece when the module is loaded.
    edit_index = None
    replaced = None  # an edit's round: its scores, taken out of the totals when the edit is shown
    winner = None
    top = 0
    result = None  # per seat: what this round adds, shown on the check (which shows while it is set)
    step = 0  # the marquee of the cursor's name
    deck_ok = True
    reopen_ok = False  # an edit that takes a finished game's end back: asked once on the check
    note = None  # a message shown in the hint row until the next key
    asked = None  # the seat whose typed hand A would clear: a second A makes it the Sieger


class RoundEntry(_Unchanged):
    def __init__(self, app, edit_index=None):
        super().__init__(app)
        game = app.session.game
        self.game = game
        n = len(game.players)
        self.entry = [""] * n  # what was typed per seat, e.g. "36+53"
        if edit_index is None:
            out = game.eliminated()
            self.seats = [s for s in range(n) if game.players[s] not in out]
        else:
            self.edit_index = edit_index
            past = game.rounds[edit_index]
            self.replaced = past.scores
            self.seats = [s for s in range(n) if past.hands[s] is not None]
            self.winner = game.seat(past.winner) if past.winner is not None else None
            for s in self.seats:
                if s != self.winner:
                    self.entry[s] = str(past.hands[s])
        self.cursor = 0
        self.fresh = True  # the cursor just came to this seat: a digit replaces what it shows
        self.run_at = app.clock.ticks_ms()
        self._layout()

    def _layout(self):
        # Columns from the display: cursor, name, typed hand (or this round's points), total.
        game = self.game
        cols = self.app.canvas.cols
        width = len(str(game.target))  # a column that keeps its place all game
        for s in range(len(game.players)):
            total = game.total(s)
            if self.result is not None:  # the check shows the totals as they will be
                total += self.result[s] - (self.replaced[s] if self.replaced else 0)
            width = max(width, len(str(total)))
        field = _FIELD_W
        if self.result is not None:  # "+1500": the round's points, as wide as the widest
            for score in self.result:
                field = max(field, len(str(score)) + 1)
        self.total_w = width
        self.field_w = field
        name_w = cols - 3 - field - width
        if name_w < (_MIN_CHECK_NAME if self.result is not None else _MIN_NAME):
            self.total_w = 0
            name_w = cols - 2 - field
        self.name_w = name_w
        self.short = short_names(game.players, name_w)

    def tick(self, now):
        if now - self.run_at >= _RUN_MS:
            self.run_at = now
            s = self.seats[self.cursor]
            if len(self.game.players[s]) > self.name_w:
                self.step += 1
                self._touch_seat(s)

    # ---- coming back after a deep sleep (ui/resume.py) --------------------------
    # What was typed comes back with the screen (a few bytes a seat), and it is
    # still not saved: only # on the result saves a round. The result view is
    # not kept; the table lands on the seat it was on and # shows it again.

    def resume_state(self):
        return [self.edit_index, self.entry, self.winner, self.cursor, self.fresh]

    @classmethod
    def resumed(cls, app, state):
        if state is None:
            state = [None]
        edit_index = state[0]
        game = app.session.game
        if edit_index is None:
            if game.finished:
                raise ValueError("no round to enter")
        elif type(edit_index) is not int or not 0 <= edit_index < len(game.rounds):
            raise ValueError("no round %r" % (edit_index,))
        screen = cls(app, edit_index)
        if len(state) >= 4:
            screen._take_back(state[1], state[2], state[3])
            screen.fresh = len(state) < 5 or state[4] is not False
        return screen

    def _take_back(self, entry, winner, cursor):
        # Typed values that do not fit this game (cannot happen unless the
        # record is damaged) are dropped: the seats come back empty.
        if type(entry) is not list or len(entry) != len(self.entry):
            return
        for text in entry:
            if type(text) is not str or len(text) > _MAX_PARTS * (_MAX_DIGITS + 1):
                return
            for ch in text:
                if not ("0" <= ch <= "9" or ch == "+"):
                    return
        if winner is not None and winner not in self.seats:
            return
        if type(cursor) is not int or not 0 <= cursor < len(self.seats):
            return
        self.entry = entry
        self.winner = winner
        self.cursor = cursor
        self.top = max(0, cursor - (self.app.canvas.rows - 3))

    # ---- what was typed -----------------------------------------------------
    def hands(self):
        """Typed hands as the core takes them: {name: [addends]} for the seats typed so far."""
        hands = {}
        for s in self.seats:
            text = self.entry[s]
            if s != self.winner and text:
                hands[self.game.players[s]] = [int(p) for p in text.split("+") if p]
        return hands

    def _missing(self):
        for i in range(len(self.seats)):
            s = self.seats[i]
            if s != self.winner and not self.entry[s].replace("+", ""):
                return i
        return None

    # ---- keys ------------------------------------------------------------------
    def key(self, k):
        if self.note is not None:  # (set only when it changes: see the defaults above)
            self.note = None
        self.touch(self.app.canvas.rows - 1)
        if self.result is not None:  # the check
            from ui.round_check import review_key

            review_key(self, k)
            return
        s = self.seats[self.cursor]
        asked = self.asked
        if asked is not None:
            self.asked = None
        if len(k) == 1 and "0" <= k <= "9":
            self._digit(s, k)
        elif k == "B":
            self.fresh = False
            text = self.entry[s]
            if text and text[-1] != "+" and text.count("+") < _MAX_PARTS - 1:
                self.entry[s] = text + "+"
        elif k == "A":
            if self.entry[s] and asked != s:  # a typed number is never dropped without a word
                self.asked = s
                self.note = self.app.t("winner_ask")
            else:
                self._mark(s)
        elif k == "*":
            self._delete(s)
        elif k == "C" or k == "CCW":
            self._move(self.cursor - 1)
        elif k == "D" or k == "CW":
            self._move(self.cursor + 1)
        elif k == "#" or k == "PUSH":
            self._next()
        self._touch_seat(s)

    def _mark(self, s):
        # A toggles the Sieger mark; the Sieger has no hand.
        old = self.winner
        self.winner = None if old == s else s
        if self.winner is not None:
            self.entry[s] = ""
        if old is not None:
            self._touch_seat(old)

    def _next(self):
        # On to the next seat (after this one, round the table) still without a hand; with none left,
        # the result. The one seat left without a hand, no Sieger marked: that seat went out.
        n = len(self.seats)
        gaps = []
        for step in range(1, n + 1):
            i = (self.cursor + step) % n
            s = self.seats[i]
            if s != self.winner and not self.entry[s].replace("+", ""):
                gaps.append(i)
        if len(gaps) == 1 and self.winner is None:
            self._mark(self.seats[gaps[0]])
            gaps = []
        if gaps and gaps[0] != self.cursor:
            self._move(gaps[0])
        else:
            from ui.round_check import check

            check(self)

    def _digit(self, s, d):
        if s == self.winner:
            self.winner = None
        if self.fresh:  # typing on a filled hand starts it afresh (53, then 6: 6, not 536)
            self.fresh = False
            self.entry[s] = ""
        text = self.entry[s]
        part = text[text.rfind("+") + 1:]
        if part == "0":
            text = text[:-1]
        elif len(part) >= _MAX_DIGITS:  # a fifth digit: said, not swallowed (B adds another part)
            self.note = self.app.t("hand_digits")
            return
        if _sum(text + d) > MAX_HAND:  # more than one hand can hold: said, and the key does nothing
            self.note = self.app.t("hand_max") % MAX_HAND
            return
        self.entry[s] = text + d

    def _delete(self, s):
        # Within this seat only: its digits one by one; never another seat's, never the Sieger mark
        # (A takes that back). On a seat with nothing typed, * leaves the round (asking first).
        self.fresh = False
        if self.entry[s]:
            self.entry[s] = self.entry[s][:-1]
        else:
            self._leave()

    def _leave(self):
        typed = self.winner is not None
        for s in self.seats:
            typed = typed or bool(self.entry[s])
        if not typed or self.edit_index is not None:
            self.app.pop()
            return
        self.app.open("confirm", self.app.t("discard_round"), self._discard)

    def _discard(self):
        self.app.pop()

    def _move(self, i):
        if i < 0 or i >= len(self.seats):
            return
        self._touch_seat(self.seats[self.cursor])
        self.fresh = True
        if self.step:  # a marquee ran: from the start for the next name (else left to the default)
            self.step = 0
        self.cursor = i
        body = self.app.canvas.rows - 2
        if i < self.top:
            self.top = i
            self.touch()
        elif i >= self.top + body:
            self.top = i - body + 1
            self.touch()
        self._touch_seat(self.seats[i])

    def _touch_seat(self, s):
        for i in range(len(self.seats)):
            if self.seats[i] == s and self.top <= i < self.top + self.app.canvas.rows - 2:
                self.touch(_BODY_TOP + i - self.top)
        self.touch(0)
        self.touch(self.app.canvas.rows - 1)

    # ---- drawing -------------------------------------------------------------------
    def draw_row(self, canvas, row):
        last = canvas.rows - 1
        game = self.game
        if row == 0:
            t = self.app.t
            if self.result is not None:
                title = t("check") % ((self.edit_index + 1) if self.edit_index is not None else len(game.rounds) + 1)
            elif self.edit_index is None:
                title = "%s%d %s: %s" % (t("round")[0], len(game.rounds) + 1, t("dealer"), game.dealer())
                if len(self.seats) > last - _BODY_TOP or len(title) > canvas.cols:
                    title = "%s %d" % (t("round"), len(game.rounds) + 1)  # the position mark needs the room
            else:
                title = "%s %d" % (t("edit_round"), self.edit_index + 1)
            title_bar(canvas, title, self.top, last - _BODY_TOP, len(self.seats), self.cursor)
        elif row == last:
            canvas.text(last, 0, self._hint()[:canvas.cols])
        else:
            i = self.top + row - _BODY_TOP
            if i < len(self.seats):
                self._draw_seat(canvas, row, self.seats[i], i == self.cursor)

    def _draw_seat(self, canvas, row, s, here):
        game = self.game
        if here:
            canvas.text(row, 0, "►")
        name = game.players[s]
        if len(name) > self.name_w:
            name = window(name, self.name_w, self.step) if here and self.step else self.short[s]
        canvas.text(row, 1, name, here and self.result is None)
        total = game.total(s)
        if self.result is not None:
            score = self.result[s]
            field = "+%d" % score if score else ""
            total += score - (self.replaced[s] if self.replaced else 0)
        elif s == self.winner:
            field = self.app.t("winner_short")[:self.field_w]
        else:
            field = self.entry[s]
            if len(field) > self.field_w:  # "12+34" in four columns: what it adds up to, "=46"
                field = "=%d" % _sum(field)
                if len(field) > self.field_w:
                    field = field[1:]
        end = canvas.cols - (self.total_w + 1 if self.total_w else 0)
        canvas.text(row, end - len(field), field)
        if self.total_w:
            total_text = str(total)
            canvas.text(row, canvas.cols - len(total_text), total_text)

    def _hint(self):
        t = self.app.t
        if self.note:
            return self.note
        if self.result is not None:
            return t("check_save") if self.deck_ok else t("deck_confirm")
        if self.game.variant == "standard":
            who = self.winner
            points = "+%d" % self.game.preview(self.hands(), None)
        else:
            who = self.seats[self.cursor]
            points = ": %d" % (self.game.total(who) + _sum(self.entry[who]))
        if who is None:
            name = t("winner")
        else:  # the whole name where it fits beside the points, else its short form
            name = self.game.players[who]
            if len(name) + 1 + len(points) > self.app.canvas.cols:
                name = self.short[who]
        return name + (" " if points[0] == "+" else "") + points


def _sum(text):
    # What a typed field such as "36+53" adds up to.
    total = 0
    for part in text.split("+"):
        if part:
            total += int(part)
    return total
