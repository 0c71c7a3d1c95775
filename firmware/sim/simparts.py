# Simulated parts wired to simmachine's GPIOs: the keypad matrix and the KY-040 rotary encoder.
#
# A part tells the machine, per GPIO it touches: links(n), the other GPIOs
# joined to n right now (a pressed key joins its row to its column);
# drive(n), 0 when a contact pulls n to ground, else None; pull(n), 1 when
# the module has a pull-up resistor on n, else None. After a change a part
# calls machine.changed(gpios) so edge interrupts fire.


class Matrix:
    """A membrane keypad: key (r, c) joins row wire r to column wire c while pressed (no diodes)."""

    def __init__(self, machine, rows, cols, keys):
        self.machine = machine
        self.rows = list(rows)
        self.cols = list(cols)
        self.keys = "".join(keys)  # position r * ncols + c
        self.down = set()  # positions held

    def _pos(self, key):
        i = self.keys.find(key)
        if len(key) != 1 or i < 0:
            raise ValueError("no key %r on this keypad" % key)
        return i

    def press(self, key):
        self.down.add(self._pos(key))
        self.machine.changed(self.rows + self.cols)

    def release(self, key=None):
        """Let go of one key, or of all of them."""
        if key is None:
            self.down.clear()
        else:
            self.down.discard(self._pos(key))
        self.machine.changed(self.rows + self.cols)

    def links(self, n):
        ncols = len(self.cols)
        out = []
        if n in self.rows:
            r = self.rows.index(n)
            for pos in self.down:
                if pos // ncols == r:
                    out.append(self.cols[pos % ncols])
        elif n in self.cols:
            c = self.cols.index(n)
            for pos in self.down:
                if pos % ncols == c:
                    out.append(self.rows[pos // ncols])
        return out

    def drive(self, n):
        return None

    def pull(self, n):
        return None


# Next state of (A << 1 | B) for one clockwise step: 11 -> 01 -> 00 -> 10 -> 11.
_CW = {3: 1, 1: 0, 0: 2, 2: 3}
_CCW = {v: k for k, v in _CW.items()}


class Knob:
    """A KY-040: contacts A and B to ground (open at a detent), a push switch to ground.

    The module has 10k pull-ups on A and B; the switch's pull-up is left out
    on most of them, so by default the MCU must pull it up itself.
    """

    def __init__(self, machine, a, b, button=None, steps_per_detent=4, pull_ups=True, button_pull_up=False):
        self.machine = machine
        self.a = a
        self.b = b
        self.button = button
        self.steps_per_detent = steps_per_detent
        self.pull_ups = pull_ups
        self.button_pull_up = button_pull_up
        self.state = 3  # both contacts open
        self.pressed = False

    def step(self, direction):
        """One quadrature transition (one pin changes): +1 clockwise, -1 counter-clockwise."""
        old = self.state
        self.state = (_CW if direction > 0 else _CCW)[old]
        # One pin at a time, as the contacts do: the one whose bit changed.
        self.machine.changed([self.a] if (old ^ self.state) & 2 else [self.b])

    def turn(self, detents=1):
        """Turn by whole clicks: positive clockwise; each click is steps_per_detent transitions."""
        direction = 1 if detents > 0 else -1
        for _ in range(abs(detents) * self.steps_per_detent):
            self.step(direction)

    def push(self):
        self.pressed = True
        if self.button is not None:
            self.machine.changed([self.button])

    def release(self):
        self.pressed = False
        if self.button is not None:
            self.machine.changed([self.button])

    def links(self, n):
        return ()

    def drive(self, n):
        if n == self.a:
            return None if self.state & 2 else 0
        if n == self.b:
            return None if self.state & 1 else 0
        if n == self.button:
            return 0 if self.pressed else None
        return None

    def pull(self, n):
        if n == self.a or n == self.b:
            return 1 if self.pull_ups else None
        if n == self.button and self.button_pull_up:
            return 1
        return None
