# The image's smoke test, chip side: run over the UART's REPL (ci.sh qemu: mpremote run), on the image in QEMU.
#
# It imports the application's modules from the frozen image, plays a short game on
# a LittleFS in RAM (the chip's own flash is left alone: QEMU's image is a fresh one,
# but this runs on a real board too), and prints what the chip has: Python's heap
# (micropython.mem_info) and ESP-IDF's (esp32.idf_heap_info), so the log of every
# build says how much room the image leaves. Each step prints one "SMOKE" line; the
# last is "SMOKE ok" or "SMOKE failed <step>: <error>" (ci.sh looks for "SMOKE ok").
# tests/host/test_esp32_ci.py runs it on the 32-bit unix build with the app frozen
# (the same manifest as the image).
import gc
import sys

import micropython

MODULES = ("bootsel", "tafel.game", "tafel.records", "store.store", "store.mount", "link.link",
           "update.stage", "update.health", "ui.app", "drivers.keypad", "recovery.boot")
BLOCK = 256  # small blocks: the store counts blocks (it keeps 64 free), and 100 of these are 25 KB


_ERASED = b"\xff" * 32


class RamBlocks:
    # A block device in RAM, as esp32.Partition is to LittleFS.
    def __init__(self, count):
        self.count = count
        self.data = bytearray(count * BLOCK)
        for n in range(count):
            self.ioctl(6, n)

    def readblocks(self, n, buf, off=0):
        at = n * BLOCK + off
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # a whole block: erased first
            self.ioctl(6, n)
            off = 0
        at = n * BLOCK + off
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return BLOCK
        if op == 6:  # erase: 0xFF, a row of 32 at a time
            view = memoryview(self.data)
            for at in range(arg * BLOCK, (arg + 1) * BLOCK, 32):
                view[at:at + 32] = _ERASED
        return 0


def _imports():
    for name in MODULES:
        __import__(name)
    return "%d modules" % len(MODULES)


def _game():
    import vfs

    from store.fsys import Disk
    from store.store import Store
    from tafel.game import Game

    dev = RamBlocks(100)
    vfs.VfsLfs2.mkfs(dev)
    store = Store(Disk(vfs.VfsLfs2(dev, mtime=False), "/data"))
    store.boot()
    game_id = store.next_game_id()
    game = Game(("Anna", "Ben", "Cleo"), "standard", 500, None, 0, game_id)
    store.new_game(game_id, game.create_record())
    for r in range(6):
        rec = game.round_record({"Anna": 0, "Ben": 10 + r, "Cleo": 20}, "Anna")
        store.append(game_id, rec)
        game.apply(rec)
    again = store.load_game(game_id)
    assert again.totals() == game.totals(), (again.totals(), game.totals())
    return "game %d: %d rounds, totals %s, saved and read back" % (game_id, len(again.rounds), game.totals())


def _heap():
    gc.collect()
    micropython.mem_info()
    return "free %d, in use %d" % (gc.mem_free(), gc.mem_alloc())


def _idf():
    try:
        import esp32
    except ImportError:
        return "no esp32 module (not an ESP32)"
    for caps, name in ((esp32.HEAP_DATA, "data"), (esp32.HEAP_EXEC, "exec")):
        print("SMOKE idf_heap_info %s %s" % (name, esp32.idf_heap_info(caps)))
    return "printed"


def main():
    print("SMOKE begin %s %s" % (sys.platform, sys.version))
    for name, step in (("imports", _imports), ("game", _game), ("heap", _heap), ("idf heap", _idf)):
        try:
            print("SMOKE %s: %s" % (name, step()))
        except Exception as err:  # noqa: BLE001  (the log says which step and why)
            sys.print_exception(err)
            print("SMOKE failed %s: %r" % (name, err))
            return
    print("SMOKE ok")


main()
