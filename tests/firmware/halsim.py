# Test helper (not a test): the default board profile built on the simulated machine, and a fake clock.
import asyncio
import os

import board
from sim import simmachine

_HERE = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
REPO = _HERE.rsplit("/", 3)[0]
PROFILE = REPO + "/hardware/boards/esp32-devkitc-ssd1306.json"


def profile():
    return board.load_profile(PROFILE)


def make(prof=None, strict=True):
    """(hw, board): the simulated machine and the board built on it."""
    prof = prof or profile()
    hw = simmachine.from_profile(prof, strict)
    return hw, board.build(prof, hw)


class Clock:
    """Injected time: ticks_ms() reads it, sleep_ms() advances it and yields to the other tasks."""

    def __init__(self, t=0):
        self.t = t

    def ticks_ms(self):
        return self.t

    async def sleep_ms(self, ms):
        self.t += ms
        await asyncio.sleep_ms(0)


def drain(poll, now, limit=50):
    """Every event a poll-style call gives at one instant, as a list."""
    out = []
    event = poll(now)
    while event is not None and len(out) < limit:
        out.append(event)
        event = poll(now)
    return out
