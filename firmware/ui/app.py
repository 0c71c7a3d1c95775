# The application: screen stack, key dispatch, timers, display sleep and the crash guard.
import sys

from micropython import const

from ui import registry
from ui.canvas import Canvas
from ui.texts import find

_MESSAGE_MS = const(2500)
_ENOSPC = const(28)  # OSError: no space left on the file system
# A running game's totals (Screen.lit) stay readable while the table plays: after the "sleep" setting's
# time the display only dims to half its contrast. It goes dark once no key came for the deep sleep's
# time, or this many minutes where that is longer or never (the table has left; an OLED left lit for
# hours would keep the digits burnt in): the usual sleep and deep sleep follow.
_LIT_MIN = const(30)


class App:
    """Everything a screen needs is reached through the app.

    display: a framebuf display driver (show/show_pages, poweron/poweroff, contrast)
    clock:   ticks_ms() and time() (epoch seconds, 0 while the clock is not set)
    store:   the flash store (see store/); session: the running game (session.py)
    power:   power.Power when the board can deep-sleep, else None
    wlan:    () -> the board's Wi-Fi station (board.wlan), or None: no Wi-Fi
    restart: () -> reboot, into a new version after an update over Wi-Fi, or None
    """

    # Set only on a paired table (club/table.py restart(); the class's None otherwise, no room taken).
    device_id = None  # the club link's topics carry it (assemble.py, link/pair.py)
    club = None  # the club link while paired with Wi-Fi set; the main loop steps it
    club_mark = None  # its mark in the title row: club/table.py's OFFLINE, CATCHING_UP, ONLINE

    def __init__(self, display, clock, store, session, settings, capture=False, log=None, power=None,
                 wlan=None, restart=None):
        self.display = display
        self.canvas = Canvas(display, capture)
        self.clock = clock
        self.store = store
        self.session = session
        self.settings = settings
        self.log = log
        self.stack = []
        self.texts = None
        self.asleep = False
        self.dimmed = False  # a running game's view, dimmed instead of dark (_lit_ms)
        self.power = power
        self.last_key = clock.ticks_ms()
        self.message = None  # (text, until_ms): a short notice over the bottom row
        self.link_active = False  # a laptop's session on the USB serial (link/): a mark in the title row
        self.usb_seen = self.last_key  # when a USB host was last heard or known present (link/link.py)
        self.wlan = wlan
        self.restart = restart
        self.room_made = False  # the screens and the game let go for an update over USB (make_room)
        self.set_language(settings.get("lang", "de"))

    # ---- texts -------------------------------------------------------------
    def set_language(self, lang):
        if lang not in registry.LANGUAGES:  # a damaged settings file: the first language
            lang = registry.LANGUAGES[0]
        self.texts = __import__("ui.texts_" + lang, None, None, ("TEXTS",)).TEXTS
        for screen in self.stack:
            screen.touch()

    def t(self, key):
        return find(self.texts, key, key)

    def refused_save(self, err):
        """The words for a change the flash refused (ui/screen.py FLASH_ERRORS), after logging it: the
        store's reason, "flash full" for a file system with no space left, else "flash error"."""
        if self.log is not None:
            self.log(err)
        key = getattr(err, "key", None)
        if key is None:
            key = "flash_full" if getattr(err, "errno", None) == _ENOSPC else "save_failed"
        text = find(self.texts, key)
        return text if text is not None else find(self.texts, "save_failed")

    def refusal(self, err):
        """What a refusal of the core (tafel.errors.ScoreError) says in the table's language;
        never the core's English message, never a raw key."""
        text = find(self.texts, "err_%s" % getattr(err, "code", "refused"))
        return text if text is not None else find(self.texts, "err_refused")

    # ---- navigation ------------------------------------------------------------
    @property
    def screen(self):
        return self.stack[-1] if self.stack else None

    def open(self, name, *args):
        """Open the screen registered as `name` (ui/registry.py) over this one: its class made
        with (app, *args), its module imported now if it is not."""
        self.push(registry.load(name)(self, *args))

    def push(self, screen):
        if self.stack:
            self.stack[-1].on_hide()
        self.stack.append(screen)
        screen.on_open()

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop().on_hide()
            self.stack[-1].on_open()
            self._forget()

    def replace(self, screen):
        if self.stack:
            self.stack.pop().on_hide()
        self.stack.append(screen)
        screen.on_open()
        self._forget()

    def home(self):
        while self.stack:
            self.stack.pop().on_hide()
        self.open("home")
        self._forget()

    def _forget(self):
        # A closed screen's transient module leaves sys.modules and the ui package (ui/registry.py).
        registry.forget_closed([type(screen).__module__ for screen in self.stack])

    def show_game(self):
        """The running game's main view: standings, and game over on top of them once it ended."""
        self.home()
        session = self.session
        if session.game is None and session.game_id is not None:  # let go for an update (make_room)
            try:
                session.reload()
            except MemoryError:
                self._restart_into_game()
                return
        game = session.game
        if game is not None:
            self.open("standings")
            if game.finished:
                self.open("over")

    def set_link(self, active):
        """The link says a session began or ended; the title row shows it. A session that ends
        with the room an update took (make_room) still let go of: the game again, if the table
        has not gone elsewhere meanwhile."""
        if active != self.link_active:
            self.link_active = active
            if self.screen is not None:
                self.screen.touch(0)
        if not active and self.room_made:
            self.room_made = False
            if len(self.stack) == 1 and type(self.screen).__module__ == "ui.home":
                self.show_game()

    def make_room(self):
        """The laptop sends an update over USB: its checks (the signature's SHA-512 and Ed25519 in
        Python, the manifest) need the heap the screens and the game hold. Every screen lets go,
        their modules too, and the game (it is on flash); home shows, saying so. Once the session ends without the
        restart into the new version, set_link() brings the game back (so does `continue`)."""
        if self.room_made:
            return
        self.room_made = True
        self._let_go()
        self.let_game_go()  # the game's screens come back with the game
        self.open("home")
        self.notify(self.t("upd_usb"))

    def let_game_go(self, keep=()):
        """An update's transfer and checks need the heap the game and the closed screens hold: the
        game lets go (it is on flash: home's "continue" or the new version brings it back), and so
        do the modules of every screen not open, except those named in `keep`."""
        self.session.unload()
        registry.forget_closed(keep, resident=True)

    def notify(self, text):
        """Show a short notice in the bottom row for a moment."""
        self.message = (text, self.clock.ticks_ms() + _MESSAGE_MS)
        self._touch_bottom()

    # ---- events ----------------------------------------------------------------
    def key(self, k):
        """Handle one key event. A key that wakes the display does nothing else."""
        self.last_key = self.clock.ticks_ms()
        if self.asleep:
            self.wake()
            return
        if self.dimmed:  # the totals were readable: the key counts, at full contrast again
            self._undim()
        if self.message is not None:
            self.message = None
            self._touch_bottom()
        self._guard(self.screen.key, k)

    def tick(self):
        now = self.clock.ticks_ms()
        if self.message is not None and now - self.message[1] >= 0:
            self.message = None
            self._touch_bottom()
        sleep_s = self.settings.get("sleep", 60)
        if type(sleep_s) is not int:  # a damaged settings file never stops the loop
            sleep_s = 60
        idle = now - self.last_key
        if sleep_s and not self.asleep and idle >= sleep_s * 1000:
            screen = self.screen
            if screen is not None and screen.lit() and idle < self._lit_ms():
                if not self.dimmed:
                    self.dimmed = True
                    self.display.contrast(self._contrast() // 2)
            else:
                self._undim()
                self.asleep = True
                self.display.poweroff()
        if self.asleep and self.power is not None and not self.link_active and self._deep_sleep_due(now):
            from ui.resume import sleep

            if self.club is not None:  # the club link: "offline" said, the station off
                self.club.stop(True)

            sleep(self)  # on the device this does not return: waking is a reboot
            return
        if self.screen is not None:
            self._guard(self.screen.tick, now)

    def _deep_sleep_due(self, now):
        # settings["deep_sleep"]: minutes without a key, 0 = never; only ever
        # once the display has gone dark (see ui/settings.py). A USB host that
        # talks to the device, or holds its port where the board can tell,
        # keeps it awake too: nothing on the serial could wake it (usb_seen).
        minutes = self._deep_minutes()
        quiet = now - max(self.last_key, self.usb_seen)
        return minutes > 0 and quiet >= minutes * 60000 and self.power.can_sleep()

    def _deep_minutes(self):
        minutes = self.settings.get("deep_sleep", 30)
        return minutes if type(minutes) is int else 30

    def _lit_ms(self):
        minutes = self._deep_minutes()
        return (minutes if 0 < minutes < _LIT_MIN else _LIT_MIN) * 60000

    def wake(self):
        self.asleep = False
        self.display.poweron()

    def _contrast(self):
        level = self.settings.get("contrast", 127)
        return level if type(level) is int and 0 <= level <= 255 else 127

    def _undim(self):
        if self.dimmed:
            self.dimmed = False
            self.display.contrast(self._contrast())

    def render(self):
        """Redraw the rows that changed and send them to the display."""
        screen = self.screen
        if screen is None or not screen.dirty:
            return 0
        canvas = self.canvas
        mask = screen.dirty
        screen.dirty = 0
        last = canvas.rows - 1
        for row in range(canvas.rows):
            if mask & (1 << row):
                canvas.clear(row)
                if row == last and self.message is not None:
                    canvas.text(row, 0, self.message[0][:canvas.cols])
                else:
                    self._guard(screen.draw_row, canvas, row)
                if row == 0 and self.link_active:
                    canvas.mark(0, 0, canvas.cols - 1)
                if row == 0 and self.club_mark is not None:  # beside the link's mark (or in its place)
                    # (no local of its own: a larger frame is a larger block taken at every redraw)
                    canvas.mark(0, self.club_mark + 1, canvas.cols - 1 - self.link_active)
        return canvas.flush()

    def _touch_bottom(self):
        if self.screen is not None:
            self.screen.touch(self.canvas.rows - 1)

    def _guard(self, fn, arg, extra=None):
        # A screen that raises must never take the game with it: log it, say so,
        # and return to the running game's standings (its data is on flash already).
        try:
            if extra is None:
                fn(arg)
            else:
                fn(arg, extra)
        except Exception as err:  # any screen bug lands here
            if self.log is not None:
                self.log(err)
            else:
                sys.print_exception(err)
            self.recover()

    def recover(self):
        self._let_go()  # the screens' game too: the replay has its room
        try:
            self.session.reload()
            self.show_game()
        except Exception as err:
            if self.log is not None:
                self.log(err)
            self.stack = []
            self.open("home")
        self.notify(self.t("crashed"))
        self.screen.touch()

    def reload_saved(self, key):
        """A change is on flash but the game did not fit in memory again (session.NotLoaded): every
        screen lets go (and the game it holds; the caller's screen drops its own), the game is
        replayed from flash and shown with the notice `key`, which says what is true: the change
        is saved. If even then the heap cannot hold the game, the device restarts into it (where
        it can: `restart`), else home says so; the game is on flash either way."""
        self._let_go()
        try:
            self.session.load_saved()
        except MemoryError:
            self._restart_into_game()
            return
        self.show_game()
        self.notify(self.t(key))

    def _restart_into_game(self):
        # The game is on flash and the heap cannot hold it now: the device restarts into it (where
        # it can), home says so meanwhile.
        self.home()
        self.notify(self.t("saved_restart"))
        if self.restart is not None:
            self.render()  # the notice on the glass before the restart
            self.restart()

    def _let_go(self):
        while self.stack:
            self.stack.pop().on_hide()
        self.message = None
        self._forget()
