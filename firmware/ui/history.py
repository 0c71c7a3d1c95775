# The history: every stored game, newest first, with a mark for its state.
#
# Two rows a game: the date (or "ohne Datum" while the clock was never set)
# and the rounds played; then its number, the players abbreviated and a mark:
#   >  running        -  unfinished, put away      =  finished, not exported
#   ^  exported       !  damaged or unreadable (listed, never hidden)
# The hint row says in words what the mark of the selected game means.
# C/D or the rotary scroll, # (push) opens the game, * goes back.
#
# Only the rows in view are summarised, a page from one read of the index
# (the game on the table from memory), so a long history costs a list of ids
# and a handful of labels.
from micropython import const

from ui.screen import ListScreen

_LABEL = const(15)  # columns for a label (the cursor takes the first)
_CACHE = const(16)  # labels kept before the cache is dropped

LIVE, PAUSED, DONE, EXPORTED, DAMAGED, UNREADABLE = range(6)
MARKS = ">-=^!!"
STATES = ("h_live", "h_paused", "h_done", "h_exported", "h_damaged", "h_unreadable")


class Info:
    """What the list and the game view show of a game before it is opened."""

    def __init__(self, game_id, state, created=0, players=(), rounds=0, exported=False):
        self.id = game_id
        self.state = state
        self.created = created
        self.players = players
        self.rounds = rounds
        self.exported = exported


def info(app, game_id, e=None):
    """Info for one game, from its summary `e` if the caller has it; never
    raises (a game the store cannot describe is UNREADABLE)."""
    session = app.session
    game = session.game
    if game_id == session.game_id and game is not None and not game.finished:
        # The game on the table: from memory, not replayed from flash again (damaged: rounds
        # found missing at boot, store/watermark.py).
        state = DAMAGED if app.store.damaged(game_id) else LIVE
        return Info(game_id, state, game.created, game.players, len(game.rounds))
    if e is None:
        try:
            e = app.store.summary(game_id)
        except Exception:
            return Info(game_id, UNREADABLE)
    if not e.players:
        state = UNREADABLE  # an entry rebuilt from a journal that would not replay
    elif e.damaged:
        state = DAMAGED
    elif e.live:
        state = DONE if e.finished else LIVE
    elif e.exported:
        state = EXPORTED
    elif e.finished:
        state = DONE
    else:
        state = PAUSED
    return Info(game_id, state, e.created, e.players, e.rounds, e.exported)


def game_ids(store):
    """The ids to list, newest first: the store's history plus any game it
    found unreadable at boot (those have no history entry, but stay visible)."""
    ids = store.history()
    extra = [i for i in getattr(store, "unreadable", {}) if i not in ids]
    if extra:
        ids.extend(extra)
        ids.sort()
        ids.reverse()
    return ids


def civil(secs):
    """(year, month, day) of Unix seconds (UTC), without the port's epoch
    (the ESP32 counts from 2000, the unix port from 1970)."""
    days = secs // 86400 + 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def date_text(t, secs, long=False):
    """The date in the language's format ("12.03" / "03-12"), or "" when the clock was unset."""
    if not secs:
        return ""
    year, month, day = civil(secs)
    return t("h_date_long" if long else "h_date").format(d=day, m=month, y=year)


def abbreviate(players, width):
    """Names cut to one length so all of them fit: spaced while two letters
    each fit, else run together ("AnBeCl"), at worst initials."""
    n = len(players)
    if not n:
        return "?"
    for sep in (" ", ""):
        for k in range(width, 1 if sep else 0, -1):
            size = len(sep) * (n - 1)
            for name in players:
                size += min(len(name), k)
            if size <= width:
                return sep.join([name[:k] for name in players])
    return "".join([name[:1] for name in players])[:width]


def label(app, g, width=_LABEL):
    """The game's two rows: ("12.03        R14" or "ohne Datum   R14", "#7 An Be Cl   =")."""
    t = app.t
    head = date_text(t, g.created) or t("h_no_date")
    rounds = t("h_rounds") % g.rounds if g.state != UNREADABLE else ""
    head = head[:width - len(rounds) - 1]
    first = head + " " * (width - len(head) - len(rounds)) + rounds
    number = "#%d " % g.id
    names = number + abbreviate(g.players, width - 2 - len(number))
    return first, names + " " * (width - 1 - len(names)) + MARKS[g.state]


class History(ListScreen):
    LINES = 2

    def __init__(self, app):
        super().__init__(app, [])
        self.cache = {}  # game id -> (label, Info)

    def on_open(self):
        self.items = game_ids(self.app.store)
        self.cache = {}
        if self.cursor >= len(self.items):
            self.cursor = max(0, len(self.items) - 1)
        body = self.body_items()
        if self.top > self.cursor or self.top + body <= self.cursor:
            self.top = max(0, self.cursor - body + 1)
        super().on_open()

    def key(self, k):
        # The list's digit shortcuts would open a game by position: not here.
        if len(k) == 1 and "0" <= k <= "9":
            return
        super().key(k)

    def entry(self, index):
        game_id = self.items[index]
        got = self.cache.get(game_id)
        if got is None:
            self._fill()
            got = self.cache.get(game_id)
            if got is None:  # not in view (the hint asks for the cursor's game)
                got = self._keep(info(self.app, game_id))
        return got

    def _fill(self):
        # The rows in view, from one read of the index (store.summaries);
        # one game at a time if that fails (a game the store cannot describe).
        app = self.app
        if len(self.cache) >= _CACHE:
            self.cache = {}
        body = self.body_items()
        session = app.session
        want = [i for i in self.items[self.top:self.top + body]
                if i not in self.cache and i != session.game_id]
        entries = None
        if want:
            try:
                entries = app.store.summaries(want)
            except Exception:
                entries = None
        if entries is not None:
            for i in range(len(want)):
                self._keep(info(app, want[i], entries[i]))
        for i in self.items[self.top:self.top + body]:
            if i not in self.cache:
                self._keep(info(app, i))

    def _keep(self, g):
        got = (label(self.app, g, self.app.canvas.cols - 1), g)
        self.cache[g.id] = got
        return got

    def title(self):
        return self.app.t("history")

    def line(self, index, part):
        return self.entry(index)[0][part]

    def label(self, index):
        return self.entry(index)[0][0]

    def hint(self):
        t = self.app.t
        if not self.items:
            return t("h_keys_empty")
        return t(STATES[self.entry(self.cursor)[1].state])

    def draw_row(self, canvas, row):
        if row == 1 and not self.items:
            canvas.text(1, 1, self.app.t("h_none"))
        else:
            super().draw_row(canvas, row)

    def pick(self, index):
        self.app.open("hgame", self.items[index])
