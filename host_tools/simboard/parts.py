# The parts on the simulated board around the chip: the keypad matrix and the KY-040 rotary encoder, as nets.
#
# A part touches some of the chip's GPIOs and says, for the state it is in,
# what it does to them (net()): pairs of GPIOs it joins (a pressed key joins
# its row wire to its column wire), GPIOs it closes a contact to ground on,
# and GPIOs it pulls up with a resistor of its own. After every change it
# calls notify(), and the bench (bench.py) hands the chip the new nets; the
# chip works out every pin's level from them and from what it drives itself,
# and runs its edge interrupts (firmware/sim/simmachine.py). Runs on CPython
# (the launcher) and on MicroPython (the firmware tests' in-process bench).


class Nets:
    """What the parts do to the chip's GPIOs now: joined pairs, contacts to ground, pull-ups, pull-downs."""

    def __init__(self):
        self.pairs = []
        self.ground = []
        self.up = []
        self.down = []


class Matrix:
    """A membrane keypad: key (r, c) joins row wire r to column wire c while pressed (no diodes)."""

    def __init__(self, rows, cols, keys, notify):
        self.rows = list(rows)
        self.cols = list(cols)
        self.keys = "".join(keys)  # position r * ncols + c
        self.down = set()  # positions held
        self.notify = notify

    def _pos(self, key):
        i = self.keys.find(key)
        if len(key) != 1 or i < 0:
            raise ValueError("no key %r on this keypad" % key)
        return i

    def press(self, key):
        self.down.add(self._pos(key))
        self.notify()

    def release(self, key=None):
        """Let go of one key, or of all of them."""
        if key is None:
            self.down.clear()
        else:
            self.down.discard(self._pos(key))
        self.notify()

    def net(self, nets):
        ncols = len(self.cols)
        for pos in sorted(self.down):
            nets.pairs.append((self.rows[pos // ncols], self.cols[pos % ncols]))


# Next state of (A << 1 | B) for one clockwise step: 11 -> 01 -> 00 -> 10 -> 11.
_CW = {3: 1, 1: 0, 0: 2, 2: 3}
_CCW = {v: k for k, v in _CW.items()}


class Knob:
    """A KY-040: contacts A and B to ground (open at a detent), a push switch to ground.

    The module has 10k pull-ups on A and B; the switch's pull-up is left out
    on most of them, so by default the MCU must pull it up itself.
    """

    def __init__(self, a, b, button, notify, steps_per_detent=4, pull_ups=True, button_pull_up=False):
        self.a = a
        self.b = b
        self.button = button
        self.notify = notify
        self.steps_per_detent = steps_per_detent
        self.pull_ups = pull_ups
        self.button_pull_up = button_pull_up
        self.state = 3  # both contacts open
        self.pressed = False

    def step(self, direction):
        """One quadrature transition (one contact changes): +1 clockwise, -1 counter-clockwise."""
        self.state = (_CW if direction > 0 else _CCW)[self.state]
        self.notify()

    def turn(self, detents=1):
        """Turn by whole clicks: positive clockwise; each click is steps_per_detent transitions."""
        direction = 1 if detents > 0 else -1
        for _ in range(abs(detents) * self.steps_per_detent):
            self.step(direction)

    def push(self):
        self.pressed = True
        self.notify()

    def release(self):
        self.pressed = False
        self.notify()

    def net(self, nets):
        if not self.state & 2:
            nets.ground.append(self.a)
        if not self.state & 1:
            nets.ground.append(self.b)
        if self.pressed and self.button is not None:
            nets.ground.append(self.button)
        if self.pull_ups:
            nets.up.extend((self.a, self.b))
        if self.button_pull_up and self.button is not None:
            nets.up.append(self.button)
