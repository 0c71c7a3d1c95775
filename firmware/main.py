# Device entry: the board from its profile, the flash store, the app and its loop.
import asyncio
import sys

import esp32
import machine

import board
from clock import DeviceClock
from drivers.events import EventQueue
from power import DevicePower
from runner import Runner
from startup import start
from store.fsys import Disk
from store.store import Store

PROFILE = "/board.json"


def run():
    profile = board.load_profile(PROFILE)
    hw = board.build(profile, machine)
    power = DevicePower(machine, esp32, profile, hw)  # after build: lets go of pins held in deep sleep
    clock = DeviceClock()
    link = []  # the Link, once there is one: crash reports stay off the serial in its sessions

    def log(err):
        if not (link and link[0].active):
            sys.print_exception(err)

    app = start(hw.display, Store(Disk(None, "/data")), clock, log=log, power=power, keypad=hw.keypad)
    app.wlan = lambda: board.wlan(machine)  # network.WLAN, imported when an update over Wi-Fi asks
    app.restart = machine.reset  # after an update over Wi-Fi: the new version runs on trial
    link.append(_link(profile, app, log))
    link[0].restart = machine.reset  # after an update's switch: the new version runs on trial
    try:
        asyncio.run(Runner(app, hw, EventQueue(), link[0]).run(clock))  # it feeds a trial boot's watchdog
    finally:
        link[0].end()  # Ctrl-C works again at the REPL, whatever stopped the app


def _link(profile, app, log):
    # The protocol of docs/protocol.md on the USB serial, beside the REPL.
    import binascii

    from link.link import Link
    from link.transport import StreamTransport

    serial = profile.get("serial") or {}
    baud = serial.get("baud", 115200)
    native = bool(serial.get("native_usb"))
    transport = StreamTransport(sys.stdin.buffer, sys.stdout.buffer, 0 if native else baud // 10, native)
    device_id = "esp32-" + binascii.hexlify(machine.unique_id()).decode()
    return Link(transport, app, device_id, log)


run()
