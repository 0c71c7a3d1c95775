# Recovery mode: a flash whose games the file system does not show; its screen, keys and link, stepped every 10 ms.
#
# Nothing here writes the flash until the user asks for it on the device: C,
# then # on "Alle Spiele löschen?" erases every block that is not erased and
# makes an empty file system (store/mount.py format_all), then resets. Until
# then the link (recovery/commands.py) lets the laptop read the raw flash
# (tafel rescue). The chip runs this from port/_boot.py (recovery/boot.py), the
# simulator from sim/run.py (sim/recovering.py): it holds no store and no game.
from micropython import const

from recovery import screen
from ui.canvas import Canvas
from ui.texts import find

STEP_MS = const(10)


class Recovery:
    def __init__(self, hw, dev, why, games, reset, capture=False, lang="de"):
        """hw: board.Board (display, keypad, encoder) or None (no board profile: the link alone);
        dev: the flash's block device; why: store/mount.py's UNMOUNTABLE or UNLISTED, or
        recovery/boot.py's FAILED; games: how many the raw scan found (None: not counted);
        reset(): machine.reset, after the format."""
        self.hw = hw
        self.dev = dev
        self.why = why
        self.games = games
        self.reset = reset
        self.canvas = Canvas(hw.display, capture) if hw is not None else None
        if lang == "en":
            from ui.texts_en import TEXTS
        else:
            from ui.texts_de import TEXTS
        self.texts = TEXTS
        self.link = None  # recovery/commands.py's RecoveryLink, set by whoever builds this
        self.link_active = False
        self.page = screen.INFO
        self.reading = None  # percent of the raw flash sent in this boot's read, None: no read yet
        self.read_done = False  # the whole raw flash reached the laptop in this boot
        self.reached = 0  # blocks 0 .. reached - 1 were sent by reads that joined up (a resumed one continues)
        self._joined = False  # the running read began within what was sent before
        self.formatted = 0  # percent of the format done
        self.dirty = True
        self.restore = None  # restore(dev) after the format: what the chip's image needs to start (boot.py)

    def t(self, key):
        return find(self.texts, key, key)

    # ---- what the link tells ---------------------------------------------------------

    def set_link(self, active):
        if active != self.link_active:
            self.link_active = active
            self.dirty = True

    def read_at(self, first, block, blocks):
        """A raw read from block `first` has sent the blocks before `block` (of `blocks`)."""
        if block == first:  # it begins: a read resumed where an earlier one got to joins it
            self._joined = first <= self.reached
        if self._joined and block > self.reached:
            self.reached = block
        percent = block * 100 // blocks if blocks else 100
        if percent != self.reading:
            self.reading = percent
            self.dirty = True

    def read_complete(self):
        """The laptop acknowledged a read's end: rescued if the reads so far covered every block."""
        if self._joined and self.reached >= self.dev.ioctl(4, 0):
            self.read_done = True
            self.dirty = True

    # ---- keys and the loop ---------------------------------------------------------------

    def key(self, k):
        if self.page == screen.INFO:
            if k == "C":
                self._show(screen.CONFIRM)
        elif self.page == screen.CONFIRM:
            if k == "#" or k == "PUSH":
                self.format()
            elif k == "*":
                self._show(screen.INFO)

    def step(self, now):
        hw = self.hw
        if hw is not None:
            key = hw.keypad.scan(now)
            if key is not None:
                self.key(key)
            if hw.encoder is not None:
                while True:
                    turn = hw.encoder.poll(now)
                    if turn is None:
                        break
                    self.key(turn)
        if self.link is not None:
            self.link.poll(now)
        self.render()

    def render(self):
        if not self.dirty or self.canvas is None:
            return 0
        self.dirty = False
        screen.draw(self.canvas, self.t, self)
        return self.canvas.flush()

    def format(self):
        """Erase, format, reset: the user asked for it on the device."""
        from store.mount import format_all

        if self.link is not None:
            self.link.end()
        self._show(screen.FORMATTING)
        format_all(self.dev, self._formatting)
        if self.restore is not None:
            self.restore(self.dev)
        self.reset()

    def _formatting(self, done, total):
        percent = done * 100 // total
        if percent // 10 != self.formatted // 10:  # a redraw every 10 %: the format is what runs
            self.formatted = percent
            self.dirty = True
            self.render()

    def _show(self, page):
        self.page = page
        self.dirty = True
        self.render()
