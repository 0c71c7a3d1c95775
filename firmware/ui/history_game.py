# One game from the history: its state, winners and totals, then every round
# (the winner in the round's header, each seat's hand and score below).
#
# C/D or the rotary scroll a row, A/B jump to the previous/next round, #
# opens a menu (continue an unfinished game, delete), * goes back to the list.
# Deleting asks first and says plainly when the game was never exported.
from micropython import const

from ui import history as hi
from ui.confirm import Confirm
from ui.names import short_names
from ui.screen import FLASH_ERRORS, ListScreen, Screen

_HINT_MS = const(3000)  # the bottom row takes turns: menu keys, then round keys

# kinds of summary lines
_TEXT, _PAIR, _BAR = range(3)


class HistoryGame(Screen):
    def __init__(self, app, game_id):
        super().__init__(app)
        self.game_id = game_id
        self.game = None
        self.info = None
        self.head = ()  # summary lines above the rounds: (kind, left, right)
        self.top = 0
        self.hint_turn = 0
        self.hint_at = app.clock.ticks_ms()
        self.round = None  # the Round last drawn: its seats' rows come one after another
        self.short = None  # (width, the seats' short names at that width)

    def on_open(self):
        if self.info is None:
            self._load()
        super().on_open()

    def resume_state(self):
        return [self.game_id, self.top]

    @classmethod
    def resumed(cls, app, state):
        screen = cls(app, int(state[0]))
        if type(state[1]) is int and state[1] > 0:
            screen.top = state[1]
        return screen

    def _load(self):
        app = self.app
        t = app.t
        session = app.session
        g = self.info = hi.info(app, self.game_id)
        damaged = g.state == hi.DAMAGED or g.state == hi.UNREADABLE
        if self.game_id == session.game_id and session.game is not None:
            self.game = session.game
        else:
            try:
                self.game, problems = app.store.read_game(self.game_id)
                damaged = damaged or bool(problems)
            except Exception:
                self.game = None
        game = self.game
        if game is None:
            self.head = ((_TEXT, t("game_unreadable"), ""),)
            return
        # The list's mark is one of several facts; here each gets its own line.
        state = hi.LIVE if g.state == hi.LIVE else hi.DONE if game.finished else hi.PAUSED
        head = [(_PAIR, t(game.variant), "%s %d" % (t("to_target"), game.target)),
                (_PAIR, t(hi.STATES[state]), "R%d" % len(game.rounds)),
                (_TEXT, t("h_exported") if g.exported else t("h_not_exported"), "")]
        if damaged:
            head.append((_TEXT, t("h_damaged"), ""))
        for name in game.winners():
            head.append((_PAIR, t("winner"), name))
        head.append((_BAR, t("total"), ""))
        for s in range(len(game.players)):
            head.append((_PAIR, game.players[s], str(game.total(s))))
        self.head = head

    # ---- lines -------------------------------------------------------------------
    def _lines(self):
        game = self.game
        if game is None:
            return len(self.head)
        return len(self.head) + len(game.rounds) * (len(game.players) + 1)

    def _max_top(self):
        return max(0, self._lines() - (self.app.canvas.rows - 2))

    def _scroll(self, top, jump=False):
        # Row by row stops when the last row is in view; a jump may go further,
        # so a round's header is always the first row after A/B.
        high = self._max_top()
        top = max(0, min(top, max(high, top if jump else self.top)))
        if top != self.top:
            self.top = top
            self.touch()

    # ---- keys ----------------------------------------------------------------------
    def key(self, k):
        app = self.app
        if k == "C" or k == "CCW":
            self._scroll(self.top - 1)
        elif k == "D" or k == "CW":
            self._scroll(self.top + 1)
        elif k == "A" or k == "B":
            if self.game is not None:
                self._jump(-1 if k == "A" else 1)
        elif k == "#" or k == "PUSH":
            app.push(GameMenu(app, self))
        elif k == "*":
            app.pop()

    def _jump(self, step):
        # To the header of the previous/next round (the summary counts as round 0).
        first = len(self.head)
        size = len(self.game.players) + 1
        top = self.top
        if step > 0:
            target = first if top < first else first + ((top - first) // size + 1) * size
            if target >= self._lines():
                return
        elif top > first:
            target = first + (top - first - 1) // size * size
        else:
            target = 0
        self._scroll(target, True)

    def tick(self, now):
        if now - self.hint_at >= _HINT_MS:
            self.hint_at = now
            if self.game is not None and len(self.game.rounds):
                self.hint_turn ^= 1
                self.touch(self.app.canvas.rows - 1)

    # ---- actions (from the menu) -------------------------------------------------------
    def can_continue(self):
        game = self.game
        return game is not None and not game.finished

    def continue_game(self):
        app = self.app
        session = app.session
        if session.game_id != self.game_id or session.game is None:
            try:
                session.open(self.game_id)
            except Exception as err:
                app.notify(app.t(getattr(err, "key", "game_unreadable")))
                return
        app.show_game()

    def ask_delete(self):
        """The delete question, with a warning for a game never exported or still running."""
        app = self.app
        t = app.t
        g = self.info
        running = g.state == hi.LIVE
        detail = more = ""
        if running:
            detail = t("h_del_running")
        if g.state == hi.UNREADABLE:
            detail = detail or t("h_unreadable")
        elif not g.exported:
            if detail:
                more = t("h_del_unexported")
            else:
                detail, more = t("h_del_unexported"), t("h_del_lost")
        return DeleteConfirm(app, t("h_del_ask") % self.game_id, self._delete, detail, more)

    def _delete(self):
        app = self.app
        try:
            app.store.delete_game(self.game_id)
        except FLASH_ERRORS as err:
            app.notify(app.refused_save(err))
            return
        # The store keeps a list of games it could not read at boot; this one is gone now.
        unreadable = getattr(app.store, "unreadable", None)
        if unreadable is not None:
            unreadable.pop(self.game_id, None)
        if app.session.game_id == self.game_id:
            # The game on the table is gone: the table goes back to the one the
            # store runs (another game, when an older one had been continued), if any.
            try:
                app.session.resume()
            except Exception:
                app.session.close()
        app.pop()
        app.notify(app.t("h_deleted"))

    # ---- drawing -------------------------------------------------------------------------
    def draw_row(self, canvas, row):
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            created = self.game.created if self.game is not None else self.info.created
            date = hi.date_text(t, created, True)
            head = "#%d" % self.game_id
            canvas.bar(0, head + " " * max(1, canvas.cols - len(head) - len(date)) + date)
        elif row == last:
            canvas.text(last, 0, t("h_keys_game2" if self.hint_turn else "h_keys_game"))
        else:
            i = self.top + row - 1
            if i < len(self.head):
                self._draw_head(canvas, row, self.head[i])
            elif i < self._lines():
                self._draw_round(canvas, row, i - len(self.head))

    def _draw_head(self, canvas, row, line):
        kind, left, right = line
        if kind == _BAR:
            canvas.bar(row, left)
            return
        room = canvas.cols - len(right) - 1 if right else canvas.cols
        canvas.text(row, 0, left[:room])
        if right:
            canvas.right(row, right[:canvas.cols - 4])

    def _draw_round(self, canvas, row, j):
        game = self.game
        size = len(game.players) + 1
        r = j // size
        k = j - r * size
        rnd = self.round
        if rnd is None or rnd.index != r:
            rnd = self.round = game.rounds[r]
        t = self.app.t
        if k == 0:
            title = "%s %d" % (t("round"), r + 1)
            if rnd.winner is not None:
                title += "  " + rnd.winner
            canvas.bar(row, title)
            return
        s = k - 1
        hand = rnd.hands[s]
        if game.players[s] == rnd.winner:
            hand_text = t("winner_short")
        elif hand is None:
            hand_text = "-"
        else:
            hand_text = str(hand)
        score_text = _score(rnd, s)
        # columns from this round's widest hand and score; the names get the rest, short forms
        # that stay different where a name is longer
        hand_w = len(t("winner_short"))
        score_w = 1
        for i in range(len(game.players)):
            if rnd.hands[i] is not None:
                hand_w = max(hand_w, len(str(rnd.hands[i])))
            score_w = max(score_w, len(_score(rnd, i)))
        width = canvas.cols - hand_w - score_w - 2
        if self.short is None or self.short[0] != width:
            self.short = (width, short_names(game.players, width))
        canvas.text(row, 0, self.short[1][s])
        canvas.text(row, canvas.cols - score_w - 1 - len(hand_text), hand_text)
        if score_text:
            canvas.right(row, score_text)


class GameMenu(ListScreen):
    """What can be done with a stored game: continue it (if unfinished), delete it."""

    def __init__(self, app, view):
        items = ["continue"] if view.can_continue() else []
        items.append("h_delete")
        if view.game is not None:
            items.append("again")  # the same players again (ui/game_over.py)
        super().__init__(app, items)
        self.view = view

    def title(self):
        return "#%d" % self.view.game_id

    DIGITS = True

    def label(self, index):
        return "%d %s" % (index + 1, self.app.t(self.items[index]))

    def hint(self):
        return self.app.t("h_keys_menu")

    def pick(self, index):
        item = self.items[index]
        if item == "continue":
            self.view.continue_game()
        elif item == "again":
            self._again(self.view.game)
        else:
            # In place of the menu: "no" goes back to the game, "yes" to the list.
            self.app.replace(self.view.ask_delete())


    def _again(self, game):
        from ui.game_over import play_again

        app = self.app
        running = app.session.game
        if running is not None and not running.finished:  # it stays on flash, as setup says
            app.open("confirm", app.t("pause_q"), lambda: play_again(app, game), app.t("pause_detail"))
        else:
            play_again(app, game)


class DeleteConfirm(Confirm):
    """The confirmation with room for a second warning line."""

    def __init__(self, app, question, on_yes, detail="", more=""):
        super().__init__(app, question, on_yes, detail)
        self.more = more

    def draw_row(self, canvas, row):
        if row == 5:
            if self.more:
                canvas.centre(5, self.more[:canvas.cols])
        else:
            super().draw_row(canvas, row)


def _score(rnd, s):
    # What seat s scored in the round: "+89", "0", or nothing for a seat that was out.
    if rnd.hands[s] is None:
        return ""
    score = rnd.scores[s]
    return "+%d" % score if score > 0 else str(score)
