# The chip's boot (port/_boot.py, frozen in the Tafel image): the flash mounted at / by store/mount.py's rules, or recovery.
#
# Stock MicroPython's _boot.py mounts the "vfs" partition and, when that
# fails, formats it if its first block is erased or prints "corrupted" in an
# endless loop (inisetup.py). Here store/mount.py decides instead: a flash
# that needs recovery is never formatted, the recovery app runs right here
# (its display, its keys, the USB link: recovery/app.py) and boot.py and
# main.py, which live on that flash, are never reached. It ends only with the
# reset after a format the user asked for, or with Ctrl-C outside a link
# session, which leaves MicroPython's REPL (mpremote works, without files).
import sys


def start(bdev=None, where="/"):
    """Mounts the flash partition `bdev` (default: flashbdev's) at `where`, or runs recovery mode."""
    if bdev is None:
        try:
            from flashbdev import bdev
        except ImportError:
            return
        if bdev is None:  # no file system partition: as stock MicroPython, the REPL without files
            return
    import vfs

    from store.errors import StoreError
    from store.mount import mount

    try:
        vol, _ = mount(bdev)
    except StoreError as err:
        why, games = err.detail
        run(bdev, why, games)
        return
    vfs.mount(vol, where)
    from recovery import profile

    profile.remember(where.rstrip("/") + "/board.json")


def run(dev, why, games):
    """Recovery mode on the chip, in real time, until a reset (or Ctrl-C: the REPL)."""
    import binascii
    import time

    import machine
    import micropython

    from link.transport import StreamTransport
    from recovery.app import STEP_MS, Recovery
    from recovery.commands import RecoveryLink
    from recovery.profile import recall

    profile = recall() or {}
    hw = None
    if profile:
        try:
            import board

            hw = board.build(profile, machine)
        except Exception as err:  # noqa: a profile that does not build: the link alone
            sys.print_exception(err)
    serial = profile.get("serial") or {}
    native = bool(serial.get("native_usb"))
    transport = StreamTransport(sys.stdin.buffer, sys.stdout.buffer, 0 if native else serial.get("baud", 115200) // 10,
                                native)
    rec = Recovery(hw, dev, why, games, machine.reset)
    rec.restore = restore
    rec.link = RecoveryLink(transport, rec, "esp32-" + binascii.hexlify(machine.unique_id()).decode())
    micropython.kbd_intr(3)  # _boot.py runs with the interrupt off: Ctrl-C outside a session leaves for the REPL
    try:
        while True:
            rec.step(time.ticks_ms())
            time.sleep_ms(STEP_MS)
    finally:
        rec.link.end()


# firmware/main.py's lines: the device's entry when the application lies flat (the image's, frozen)
MAIN_PY = (b"# Device entry, put back by recovery mode's format (firmware/main.py): the application frozen in\n"
           b"# the image runs flat until tafel flash brings back the boot files and a slot.\n"
           b"from assemble import assemble, run  # noqa: F401\n\nif __name__ == \"__main__\":\n    run()\n")


def restore(dev):
    """After recovery's format on the chip: what the image's frozen application needs to start from
    the empty flash, /main.py and /board.json (the copy in NVS). boot.py and bootsel.py, which are
    not in the image, come back with the next tafel flash; until then nothing chooses a slot."""
    import vfs

    from recovery import profile

    vol = vfs.VfsLfs2(dev)
    with vol.open("/main.py", "wb") as f:
        f.write(MAIN_PY)
    board = profile.kept()
    if board:
        with vol.open("/board.json", "wb") as f:
            f.write(board)


def let_go(had):
    """Forgets the modules the boot imported (not in `had`), so their objects leave the heap before
    the application starts; store.mount stays while it holds a note for the boot check."""
    for name in list(sys.modules):
        if name in had:
            continue
        if name == "store.mount" and sys.modules[name]._notes:
            continue
        del sys.modules[name]
