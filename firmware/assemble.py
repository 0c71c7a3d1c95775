# The device put together: the board from its profile, the flash store, the app, its link and its loop.
#
# main.py (run by MicroPython from the slot bootsel.py chose) calls run(),
# which builds everything on the chip's parts and loops in real time. The
# simulator (sim/run.py) runs the same main.py from the same slot of its
# flash image and calls assemble() with its emulated parts (machine, clock,
# power, USB serial) in place of the chip's; it then steps the Runner in
# simulated time where run() loops in real time. This lives here, not in
# main.py, because main.py stays source and is compiled into the heap at
# every boot; this module is frozen into the firmware image (or an .mpy).
import sys

from micropython import const

import board

# The rest of the app is imported in assemble(), after the display: loaded as .mpy files (an
# update laid over the image), the modules take some 40 KB of the heap in small pieces, and the
# display's buffer (2.4 KB in one piece on the 320x240 board) would find no run long enough.

PROFILE = "/board.json"
_MODULES = const(74)  # the module that makes sys.modules' table grow from 73 entries to 97


def assemble(machine, profile, clock, make_power, transport, device_id, vol=None, capture=False, log=None,
             disk=None):
    """The drivers on `machine`'s pins, the store on the flash, the app with its first screen and
    its link on `transport` (None: no serial); the Runner (its .app, .link and .board).

    make_power(hw): the deep sleep's Power for the built board, or None; vol: the flash's
    VfsLfs2 when it is not mounted at / (tests); disk: the store's Disk, if not the
    flash's /data (bench); log(err): crash reports."""
    # The display first: its buffers are the largest blocks the app keeps (2.4 KB in one piece on
    # the 320x240 board), before the sys.modules table and the link's modules scatter theirs.
    hw = board.build(profile, machine)
    from drivers.events import EventQueue
    from runner import Runner
    from startup import start
    from store.fsys import Disk
    from store.store import Store

    _room_for_modules()
    if transport is not None:
        # The link's code before the game is loaded, while the heap is young: its wire format's
        # names (tafel/wire.py) take one 776-byte table, which after a game's boot may find no room.
        from link.link import Link
    power = make_power(hw)
    # wlan: network.WLAN, imported when an update over Wi-Fi asks; restart: after an update over
    # Wi-Fi the new version runs on trial
    app = start(hw.display, Store(disk or Disk(vol, "/data")), clock, capture, log, power, hw.keypad,
                wlan=lambda: board.wlan(machine), restart=machine.reset)
    if app.settings.get("club"):  # a club's table (store/pairing.py): its link to the hub, once Wi-Fi is set
        from club.table import restart

        app.device_id = device_id
        restart(app)
    link = None
    if transport is not None:  # the protocol of docs/protocol.md on the USB serial, beside the REPL
        link = Link(transport, app, device_id, log, machine.reset)  # reset: after an update's switch
    return Runner(app, hw, EventQueue(), link)


def _room_for_modules():
    # sys.modules is one hash table, made anew 4/3 its size when it is full: the 74th module needs
    # 97 entries, 776 bytes in one block. The app holds about 70 modules (in the simulator) and an
    # update imports several more (update/stage.py); after hours of play the heap has free runs of
    # a few hundred bytes, seldom one that long, and that import would fail. So the table takes
    # that size now, while the heap is young: 192 bytes more than the 73 entries it has otherwise.
    mods = sys.modules
    n = 0
    while len(mods) < _MODULES:
        mods[n] = None
        n += 1
    while n:
        n -= 1
        del mods[n]


def run():
    import binascii

    import esp32
    import machine

    from clock import DeviceClock
    from link.transport import StreamTransport
    from power import DevicePower

    profile = board.load_profile(PROFILE)
    serial = profile.get("serial") or {}
    baud = serial.get("baud", 115200)
    native = bool(serial.get("native_usb"))
    transport = StreamTransport(sys.stdin.buffer, sys.stdout.buffer, 0 if native else baud // 10, native)
    device_id = "esp32-" + binascii.hexlify(machine.unique_id()).decode()
    clock = DeviceClock()
    links = []  # crash reports stay off the serial while a link session has it

    def log(err):
        if not (links and links[0].active):
            sys.print_exception(err)

    # DevicePower after the build: it lets go of pins held in deep sleep
    runner = assemble(machine, profile, clock, lambda hw: DevicePower(machine, esp32, profile, hw),
                      transport, device_id, log=log)
    links.append(runner.link)
    try:
        runner.run(clock)  # it feeds the watchdog (bootsel.py starts it at every boot)
    except KeyboardInterrupt:  # Ctrl-C on the serial outside a link session: to the REPL on purpose
        from update import health

        health.relax()
        raise
    finally:
        runner.link.end()  # Ctrl-C works again at the REPL, whatever stopped the app
