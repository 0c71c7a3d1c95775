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
#
# Whatever else mounting raises (the flash's I/O, a heap that refuses twice, a
# bug) is no reason for a dark display either: recovery mode then says the start
# failed (FAILED), the laptop can read the raw flash, and nothing is formatted
# unless the user asks on the device.
import gc
import sys

FAILED = "boot_failed"  # recovery's why when mounting raised what store/mount.py has no rule for


def start(bdev=None, where="/"):
    """Mounts the flash partition `bdev` (default: flashbdev's) at `where`, or runs recovery mode."""
    if bdev is None:
        try:
            from flashbdev import bdev
        except ImportError:
            return
        if bdev is None:  # no file system partition: as stock MicroPython, the REPL without files
            return
    vol, rescue = decide(bdev)
    if rescue is None:
        try:
            import vfs

            vfs.mount(vol, where)
        except Exception as err:
            sys.print_exception(err)
            rescue = (FAILED, None)
    if rescue is not None:
        run(bdev, rescue[0], rescue[1])
        return
    try:
        from recovery import profile

        profile.remember(where.rstrip("/") + "/board.json")
    except Exception as err:  # the NVS copy is written at a later boot; this one goes on
        sys.print_exception(err)


def decide(bdev):
    """(the mounted LittleFS, None), or (None, (why, games)) for recovery mode: store/mount.py's
    rules; a MemoryError is tried once more after a collection, anything else they raise is FAILED
    (games None: not counted)."""
    from store.errors import StoreError
    from store.mount import mount

    for attempt in (0, 1):
        try:
            return mount(bdev)[0], None
        except StoreError as err:
            return None, err.detail
        except MemoryError as err:
            if not attempt:
                gc.collect()
                continue
            failed = err
        except Exception as err:
            failed = err
        sys.print_exception(failed)
    return None, (FAILED, None)


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
        except Exception as err:  # a profile that does not build: the link alone
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


# firmware/boot.py's and main.py's lines, put back by recovery mode's format; bootsel.py, which boot.py
# imports, is frozen in the image beside the application (port/boards/TAFEL_ESP32/manifest.py)
BOOT_PY = (b"# Runs first at every power-up (firmware/boot.py), put back by recovery mode's format: bootsel.py\n"
           b"# is the image's until tafel flash puts the flash's own beside this.\n"
           b"import bootsel\n\nbootsel.boot()\n")
MAIN_PY = (b"# Device entry (firmware/main.py), put back by recovery mode's format: the application frozen\n"
           b"# in the image runs until an update or tafel flash brings a slot.\n"
           b"from assemble import assemble, run  # noqa: F401\n\nif __name__ == \"__main__\":\n    run()\n")


def restore(dev):
    """After recovery's format on the chip: what the image's frozen application starts from on the
    empty flash: /main.py, /boot.py (its bootsel is the image's) and /board.json (the copy in NVS)."""
    import vfs

    from recovery import profile

    vol = vfs.VfsLfs2(dev)
    board = profile.kept()
    for name, data in (("main.py", MAIN_PY), ("board.json", board), ("boot.py", BOOT_PY)):  # boot.py last
        if data:
            with vol.open("/" + name, "wb") as f:
                f.write(data)


def let_go(had):
    """Forgets the modules the boot imported (not in `had`), so their objects leave the heap before
    the application starts; store.mount stays while it holds a note for the boot check."""
    for name in list(sys.modules):
        if name in had:
            continue
        if name == "store.mount" and sys.modules[name]._notes:
            continue
        del sys.modules[name]
