# New game setup: variant above the name list, target, seats from the roster or typed,
# and below "start" the first dealer and the house card values (ui/card_values.py).
# Every confirmed change of the seats is kept on flash (store.save_setup) until the game
# starts or the table leaves the setup: after a power cut it opens again as it was.
from micropython import const

from ui.screen import FLASH_ERRORS, Screen

VARIANTS = ("standard", "penalty", "challenge")
MAX_SEATS = const(10)
VARIANT, TARGET = 0, 1  # item numbers of the first two rows; seats follow
# Rows after "start" (so the name list's keys, D # to start, stay as they were).
DEALER, VALUES = "dealer", "values"


class Setup(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.variant = 0
        self.target = 500
        self.typing = False  # digits replace the target until the cursor leaves
        self.names = []
        self.dealer = 0  # the seat that deals round 1
        self.values = None  # house card values (17 points by rank code), None = the standard table
        self.cursor = 0
        self.top = 0
        draft = app.store.setup_draft()
        if draft is not None:
            self.restore(draft)

    # ---- kept through a power cut and a deep sleep -------------------------------------
    def resume_state(self):
        return [self.variant, self.target, self.names, self.dealer, self.values] if self.names else None

    def restore(self, state):
        # A draft that does not fit (a damaged file, another version's) is a fresh setup.
        if type(state) is not list or len(state) != 5:
            return
        variant, target, names, dealer, values = state
        if type(variant) is not int or not 0 <= variant < len(VARIANTS) or type(target) is not int:
            return
        if type(names) is not list or len(names) > MAX_SEATS or type(dealer) is not int:
            return
        for name in names:
            if type(name) is not str:
                return
        if not 0 <= dealer < max(1, len(names)) or not (values is None or type(values) is list):
            return
        if values is not None:  # house values: one whole number per rank, as ui/card_values.py keeps them
            from tafel.cards import RANKS

            if len(values) != len(RANKS):
                return
            for v in values:
                if type(v) is not int or v < 0:
                    return
        self.variant, self.target, self.names, self.dealer, self.values = variant, target, names, dealer, values
        self._go(2 + len(names))  # on "+ add player", as after the last name

    def _keep(self):
        try:
            self.app.store.save_setup(self.resume_state())
        except FLASH_ERRORS as err:  # never blocks the setup: only logged
            if self.app.log is not None:
                self.app.log(err)

    def _leave(self):
        self.names = []
        self._keep()
        self.app.pop()

    # items: variant, target, each name, "add" ("at most 10" once every seat is taken, so the habitual
    # # for one more never starts the game), "start", dealer, values
    def _items(self):
        return 2 + len(self.names) + 1 + 3

    def _item(self, i):
        if i < 2:
            return i
        if i - 2 < len(self.names):
            return "name"
        return ("start", DEALER, VALUES)[i - self._items() + 3] if i >= self._items() - 3 else "add"

    def key(self, k):
        item = self._item(self.cursor)
        if k == "C" or k == "CCW":
            self._move(-1)
        elif k == "D" or k == "CW":
            self._move(1)
        elif item == VARIANT and k in ("#", "PUSH", "A", "B"):
            self.variant = (self.variant + (len(VARIANTS) - 1 if k == "B" else 1)) % len(VARIANTS)
        elif item == DEALER and k in ("#", "PUSH", "A", "B"):
            if self.names:
                self.dealer = (self.dealer + (len(self.names) - 1 if k == "B" else 1)) % len(self.names)
        elif item == TARGET:
            self._target_key(k)
        elif k == "#" or k == "PUSH":
            if item == "add":
                if len(self.names) < MAX_SEATS:
                    self._add()
                else:
                    self.app.notify(self.app.t("seats_full"))
            elif item == "start":
                self._start()
            elif item == "name":
                self._rename(self.cursor - 2)
            elif item == VALUES:
                self.app.open("card_values", self.values, self._values_set)
        elif k == "*":
            if item == "name":
                self._ask_remove(self.cursor - 2)
            elif self.names:  # the names typed so far are kept in the roster, but ask before leaving
                self.app.open("confirm", self.app.t("setup_leave"), self._leave, self.app.t("setup_leave_detail"))
            else:
                self._leave()
        self.touch()

    def _ask_remove(self, index):
        app = self.app
        name = self.names[index]
        question = app.t("seat_remove") % name
        detail = ""
        if len(question) > app.canvas.cols:  # a long name: the name above, the question below
            question, detail = name, app.t("seat_remove_long")
        app.open("confirm", question, lambda: self._remove(index), detail)

    def _remove(self, index):
        self.names.pop(index)
        if self.dealer > index:
            self.dealer -= 1  # the same player keeps the deal
        elif self.dealer == index:
            self.dealer = 0  # the dealer left: seat 1 deals
        self._move(0)
        self._keep()

    def _values_set(self, values):
        from tafel.cards import DEFAULT_VALUES

        self.values = None if values == DEFAULT_VALUES else values
        self._keep()

    def _target_key(self, k):
        if k == "A":
            self.target, self.typing = 200, False
        elif k == "B":
            self.target, self.typing = 1000, False
        elif len(k) == 1 and "0" <= k <= "9":
            digit = ord(k) - 48
            self.target = digit if not self.typing else min(self.target * 10 + digit, 99999)
            self.typing = True
        elif k == "*":
            self.target //= 10
            self.typing = True
        elif k == "#" or k == "PUSH":
            self._move(1)

    def _move(self, step):
        self._go((self.cursor + step) % self._items())

    def _go(self, i):
        # The cursor to item i, the list scrolled so that it shows.
        self.cursor = i
        self.typing = False
        body = self.app.canvas.rows - 2
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + body:
            self.top = self.cursor - body + 1

    def _add(self):
        self.app.open("roster_pick", self.names, self._added)

    def _added(self, name):
        if self._taken(name, -1):
            self.app.notify(self.app.t("name_twice"))
            return
        self.names.append(name)
        self._into_roster(name)
        self._keep()
        self._move(1)

    def _rename(self, index):
        def done(name):
            if self._taken(name, index):
                self.app.notify(self.app.t("name_twice"))
            else:
                self.names[index] = name
                self._into_roster(name)
                self._keep()

        self.app.open("name_entry", done, self.names[index])

    def _into_roster(self, name):
        # A typed name is in the roster the moment it is confirmed: leaving the setup, or a power cut,
        # never takes it with it. A name already there stays where it is until the game starts.
        key = name.lower()
        roster = self.app.store.roster
        for known in roster:
            if known.lower() == key:
                return
        self._save_roster([name] + list(roster))

    def _taken(self, name, skip):
        key = name.lower()
        for i in range(len(self.names)):
            if i != skip and self.names[i].lower() == key:
                return True
        return False

    def _start(self):
        app = self.app
        if len(self.names) < 2:
            app.notify(app.t("two_names"))
            return
        if self.target <= 0:
            app.notify(app.t("bad_target"))
            self._go(TARGET)
            return
        running = app.session.game
        if running is not None and not running.finished:
            # The running game stays on flash; the history can continue it.
            app.open("confirm", app.t("pause_q"), self._begin, app.t("pause_detail"))
            return
        self._begin()

    def _begin(self):
        app = self.app
        values = None
        if self.values is not None:
            from tafel.cards import RANKS

            values = {}
            for r in range(len(RANKS)):
                values[RANKS[r]] = self.values[r]
        try:
            app.session.start(self.names, VARIANTS[self.variant], self.target, values, self.dealer)
        except ValueError as err:  # a core refusal, in the table's language
            app.notify(app.refusal(err))
            return
        except FLASH_ERRORS as err:  # flash full or failing: say so, keep the setup
            app.notify(app.refused_save(err))
            return
        self._remember()
        self.names = []
        self._keep()  # the setup is a game now
        app.show_game()
        app.open("entry")

    def _remember(self):
        # Names of this game go to the front of the roster; a failure here never blocks play.
        lowered = [n.lower() for n in self.names]
        self._save_roster(self.names + [n for n in self.app.store.roster if n.lower() not in lowered])

    def _save_roster(self, roster):
        try:
            self.app.store.save_roster(roster)
        except FLASH_ERRORS as err:  # a roster the flash refused never blocks play: only logged
            if self.app.log is not None:
                self.app.log(err)

    def draw_row(self, canvas, row):
        t = self.app.t
        last = canvas.rows - 1
        if row == 0:
            canvas.bar(0, t("new_game"))
            return
        if row == last:
            item = self._item(self.cursor)
            hint = {VARIANT: "keys_variant", TARGET: "keys_target", "name": "keys_seat",
                    "start": "keys_start", DEALER: "keys_variant", VALUES: "keys_values"}.get(item, "")
            canvas.text(last, 0, t(hint) if hint else "")
            return
        i = self.top + row - 1
        if i >= self._items():
            return
        item = self._item(i)
        if item == VARIANT:
            text = t(VARIANTS[self.variant])
        elif item == TARGET:
            text = "%s %d" % (t("to_target"), self.target)
        elif item == DEALER:
            text = t("st_dealer") % (self.names[self.dealer] if self.names else "-")
        elif item == VALUES:
            text = t("st_values") % t("st_values_own" if self.values else "st_values_std")
        elif item == "name":
            text = "%d %s" % (i - 1, self.names[i - 2])
        elif item == "add":
            text = "+ " + t("add_seat") if len(self.names) < MAX_SEATS else t("seats_full")
        else:
            text = t("start")
        if i == self.cursor:
            canvas.text(row, 0, "►")
        canvas.text(row, 1, text[:canvas.cols - 1], i == self.cursor)
