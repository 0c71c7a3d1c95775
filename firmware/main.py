# Device entry: the board from its profile, the flash store, the app and its loop.
import asyncio

import machine

import board
from clock import DeviceClock
from drivers.events import EventQueue
from runner import Runner
from startup import start
from store.fsys import Disk
from store.store import Store

PROFILE = "/board.json"


def run():
    hw = board.build(board.load_profile(PROFILE), machine)
    clock = DeviceClock()
    app = start(hw.display, Store(Disk(None, "/data")), clock)
    asyncio.run(Runner(app, hw, EventQueue()).run(clock))


run()
