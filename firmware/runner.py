# The firmware's main loop: poll the inputs into one event queue, hand keys to the app, redraw.
#
# step() is the whole loop body. The device runs it every 10 ms from an
# asyncio task; the simulator calls it with simulated time, so both run the
# same code path.
import asyncio

from drivers.events import NAMES, code

STEP_MS = 10


class Runner:
    def __init__(self, app, board, queue, link=None):
        """link: a link.Link serving the USB serial, or None."""
        self.app = app
        self.keypad = board.keypad
        self.encoder = board.encoder
        self.queue = queue
        self.link = link

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
        app.tick()
        app.render()

    async def run(self, clock):
        while True:
            self.step(clock.ticks_ms())
            await asyncio.sleep_ms(STEP_MS)
