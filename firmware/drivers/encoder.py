# Rotary encoder with push button: pin interrupts only count quadrature steps; poll() makes the events.
#
# State = A << 1 | B. Turning clockwise the pins go 11 -> 01 -> 00 -> 10 -> 11
# (A leads; at rest a KY-040 reads 11). Every edge of A or B runs _irq, which
# reads both pins and adds the step the (old, new) pair means; a jump where
# both pins changed (an edge missed) adds nothing, and contact bounce adds
# +1 -1 pairs that cancel. _irq writes only small ints, so it allocates
# nothing, and poll() never writes what _irq writes: `taken` counts the steps
# already turned into events, so no count is lost to a race between them.
from time import ticks_diff

# Step for (old state << 2) | new state.
_STEP = (0, -1, 1, 0,
         1, 0, 0, -1,
         -1, 0, 0, 1,
         0, 1, -1, 0)


class Encoder:
    def __init__(self, a, b, button=None, steps_per_detent=4, debounce_ms=20):
        """a, b: input pins with irq(); button: input pin reading 0 while pressed, or None."""
        self._a = a
        self._b = b
        self._button = button
        self.steps_per_detent = steps_per_detent
        self.debounce_ms = debounce_ms
        self._state = (a.value() << 1) | b.value()
        self._pos = 0  # steps counted by _irq (+ clockwise); only _irq writes it
        self._taken = 0  # steps turned into events; only poll() writes it
        self._raw = False  # button: last reading, pressed or not
        self._since = 0  # when that reading last changed
        self._down = False  # debounced button state
        trigger = a.IRQ_RISING | a.IRQ_FALLING
        a.irq(handler=self._irq, trigger=trigger)
        b.irq(handler=self._irq, trigger=trigger)

    def _irq(self, pin):
        s = (self._a.value() << 1) | self._b.value()
        self._pos += _STEP[(self._state << 2) | s]
        self._state = s

    def deinit(self):
        """Detach the interrupt handlers (before deep sleep, or when a test is done)."""
        self._a.irq(handler=None)
        self._b.irq(handler=None)

    def poll(self, now_ms):
        """The next event, 'CW', 'CCW' or 'PUSH', or None; call until None.

        A half-turned detent gives nothing until it is completed (and nothing
        at all if turned back). PUSH comes once per press, when the button
        has read pressed for debounce_ms.
        """
        button = self._button
        if button is not None:
            pressed = not button.value()
            if pressed != self._raw:
                self._raw = pressed
                self._since = now_ms
            elif pressed != self._down and ticks_diff(now_ms, self._since) >= self.debounce_ms:
                self._down = pressed
                if pressed:
                    return "PUSH"
        ahead = self._pos - self._taken
        detent = self.steps_per_detent
        if ahead >= detent:
            self._taken += detent
            return "CW"
        if ahead <= -detent:
            self._taken -= detent
            return "CCW"
        return None
