# The firmware's main loop: poll the inputs into one event queue, hand keys to the app, redraw.
#
# step() is the whole loop body. The device runs it with a 10 ms pause after
# each (run(): a plain loop, no asyncio: its modules would hold 2 KB of the
# heap for one task); the simulator calls it with simulated time, so both run
# the same code path. A paired table's club link (club/) is stepped too, after the keys and the
# serial and before the screens: it never waits for the network. Once a second it hands the time to update/health.py, which
# feeds the watchdog of a trial or probation boot (bootsel.py) and confirms a
# new version once the loop has run long enough: a version whose loop hangs
# or raises stops feeding it and is reset, and rolled back after a few tries.
from micropython import const

from drivers.events import NAMES, code
from update import health

STEP_MS = const(10)
_FEED_MS = const(1000)  # the watchdog's feeds (and the health rule's steps), far inside its timeout


class Runner:
    def __init__(self, app, board, queue, link=None):
        """link: a link.Link serving the USB serial, or None."""
        self.app = app
        self.board = board
        self.keypad = board.keypad
        self.encoder = board.encoder
        self.queue = queue
        self.link = link
        self.fed = None  # when health.step ran last (the first step runs it)

    def step(self, now):
        queue = self.queue
        key = self.keypad.scan(now)
        if key is not None:
            queue.put(code(key))
        if self.encoder is not None:
            while True:
                turn = self.encoder.poll(now)
                if turn is None:
                    break
                queue.put(code(turn))
        app = self.app
        while len(queue):
            app.key(NAMES[queue.get()])
        if self.link is not None:
            self.link.poll(now)
        if app.club is not None:  # the club link (club/table.py), on a paired table: never waits
            app.club.step(now)
        app.tick()
        app.render()
        if self.fed is None or now - self.fed >= _FEED_MS:  # keys read, link served, display drawn
            self.fed = now
            health.step(now, app.store)

    def run(self, clock):
        """The device's main loop, for ever: a step, then STEP_MS for the rest of the chip (the
        USB serial's and the UART's buffers fill meanwhile; Ctrl-C is a KeyboardInterrupt here)."""
        from time import sleep_ms

        while True:
            self.step(clock.ticks_ms())
            sleep_ms(STEP_MS)
