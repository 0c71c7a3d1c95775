# Runs under MicroPython for bench/firmware_budget.py (a bench helper: not a test, never deployed).
#
#   micropython [-X heapsize=N] -m _bench_game DEPLOY DATA PROFILE STAGE [COUNT]
#
# The bench compiles this file to DEPLOY/_bench_game.mpy and runs it from
# DEPLOY. DEPLOY is a deploy tree: the firmware at its root, the core under
# lib/tafel, the simulator's chip side under sim/ and the board around the chip
# under simboard/ (host_tools/simboard: sim.simmachine.from_profile puts it in
# this process, as the firmware tests have it), everything as .mpy. DATA is a
# host folder for the store: Disk(None, DATA) goes through os and open (the
# unix port's VfsPosix), so the flash contents cost no heap. The whole
# firmware runs on the simulated device (sim/device.py); every key goes
# through the emulated keypad matrix, so the real drivers scan and debounce it.
#
# STAGE
#   play     from power-on: a 10-seat standard game (names typed with
#            multi-tap, target 99999, never reached), then 300 rounds: each
#            round one winner marked with A, every other hand typed as digits,
#            # # saves. Prints "ok <sum of the totals>".
#   measure  the same, printing "mem <label> <gc.mem_alloc()>" along the way,
#            then restarts on DATA and checks the game came back as saved
#   modules  imports every deployed module listed in DEPLOY/_order.txt
#            (dependencies first): "mod <name> <bytes>"
#   prepare  the setup and 3 rounds, then stops (standings on screen; DATA keeps the game)
#   keys     boots on a prepared DATA and presses keys in standings, then in
#            round entry, with markers between the segments for callgrind
#            (--dump-before=mp_micropython_opt_level): each segment is COUNT or
#            2*COUNT keys through the keypad ("pad"), through app.key() and
#            app.render() ("app"), and the same without the emulated display
#            chip and the simulator's text capture ("bare"; on either bus,
#            I2C or SPI). Prints the order.
import gc
import os
import sys

DEPLOY, DATA, PROFILE, STAGE = sys.argv[1:5]
COUNT = int(sys.argv[5]) if len(sys.argv) > 5 else 0
sys.path[:] = [DEPLOY, DEPLOY + "/lib", ".frozen"]  # .frozen: asyncio, frozen as on the device

ROUNDS = 300
SEATS = 10
TARGET = "9 9 9 9 9"  # 99999, the largest typed target: 300 rounds stay far below it
# Ten names typed with multi-tap; a pause commits a letter before its key comes again.
NAMES = (
    ("Anna", "2 6 6 wait:1200 6 6 2"),
    ("Ben", "2 2 3 3 6 6"),
    ("Cleo", "2 2 2 5 5 5 3 3 6 6 6"),
    ("Dana", "3 2 6 6 2"),
    ("Emil", "3 3 6 4 4 4 5 5 5"),
    ("Fritz", "3 3 3 7 7 7 4 4 4 8 9 9 9 9"),
    ("Gus", "4 8 8 7 7 7 7"),
    ("Hanna", "4 4 2 6 6 wait:1200 6 6 2"),
    ("Ida", "4 4 4 3 2"),
    ("Jan", "5 2 6 6"),
)
DIGITS = "0123456789"
mem = []


def note(label):
    if STAGE == "measure":
        gc.collect()
        mem.append((label, gc.mem_alloc()))


if STAGE == "modules":
    # A package's __init__ (tafel) imports its modules: they come first from
    # DEPLOY/_split, a copy without the __init__, so each is measured alone;
    # then the real package replaces the namespace one and adds only its __init__.
    with open(DEPLOY + "/_order.txt") as f:
        order = f.read().split()
    split = DEPLOY + "/_split"
    sys.path.insert(0, split)
    import micropython

    micropython.qstr_info()  # "qstr pool: ..." after each import: the interned names' share
    for name in order:
        if name in os.listdir(split):
            sys.modules.pop(name, None)
            if split in sys.path:
                sys.path.remove(split)
        gc.collect()
        before = gc.mem_alloc()
        try:
            __import__(name)
        except ImportError:
            print("mod", name, -1)
            continue
        gc.collect()
        print("mod", name, gc.mem_alloc() - before)
        micropython.qstr_info()
    print("ok")
    sys.exit(0)

note("interpreter")
import tafel  # noqa: E402,F401

note("core")
# what main.py imports on the device
import board  # noqa: E402,F401
import clock  # noqa: E402,F401
import drivers.events  # noqa: E402,F401
import runner  # noqa: E402,F401
import startup  # noqa: E402,F401
from store.fsys import Disk  # noqa: E402
from store.store import Store  # noqa: E402

note("firmware")
from sim import device as simdevice  # noqa: E402

note("sim")


class HostDisk(Disk):
    """Disk(None, root) for a restart on the unix port: its os.ilistdir gives
    (name, type, inode) without the size that LittleFS adds, which Disk.listdir
    reads. Only used to boot on a folder that already holds files."""

    def listdir(self, rel):
        try:
            return Disk.listdir(self, rel)
        except IndexError:
            where = self.path(rel)
            return [(e[0], os.stat(where + "/" + e[0])[6]) for e in os.ilistdir(where) if e[1] == 0x8000]


if STAGE == "measure":
    # Split Device() into its parts without changing it: wrap what it calls.
    def wrap(mod, name, label):
        real = getattr(mod, name)

        def wrapped(*args):
            result = real(*args)
            note(label)
            return result

        setattr(mod, name, wrapped)

    from sim import simmachine  # sim.device imports it when the device boots: its cost is the board's stage's

    wrap(simmachine, "from_profile", "sim_board")
    wrap(simdevice.board, "build", "drivers")
    import startup  # main.assemble() builds the device: the board, the Store, then startup.start()

    real_start = startup.start

    def measured_start(*args, **kwargs):
        note("store")
        return real_start(*args, **kwargs)

    startup.start = measured_start  # assemble() imports it by name when it runs: this one

fails = []


def log(err):
    fails.append(err)
    sys.print_exception(err)


# The store's folder inside DATA: its twin (the second copy, a sibling folder) then lands in DATA
# too, never in DATA's parent, where every run (and the heap search's parallel ones) would share it.
STORE = DATA + "/store"
try:
    os.mkdir(STORE)
except OSError:
    pass  # there from the prepare stage
dev = simdevice.Device(PROFILE, disk=(HostDisk if STAGE == "keys" else Disk)(None, STORE))
dev.app.log = log
note("started")
key = dev.key
advance = dev.advance


def play(script):
    for token in script.split():
        if token[0] == "w":
            advance(int(token[5:]))
        else:
            key(token)


seed = 12345


def hand():
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return (seed >> 16) % 61


def play_round(r):
    # From standings: # opens round entry. Each seat: A for the winner, else the
    # hand as digits; D to the next seat; # on the last seat shows the result,
    # a second # saves (and shows the standings).
    total = 0
    if r:
        key("#")
    w = r % SEATS
    for s in range(SEATS):
        if s == w:
            key("A")
        else:
            n = hand()
            total += n
            if n >= 10:
                key(DIGITS[n // 10])
            key(DIGITS[n % 10])
        key("D" if s < SEATS - 1 else "#")
    key("#")
    return total


def check(game, rounds, total):
    assert fails == [], fails
    assert len(game.rounds) == rounds, (len(game.rounds), rounds)
    assert not game.finished
    got = 0
    for _, points in game.totals():
        got += points
    assert got == total, (got, total)


if STAGE != "keys":
    # Home: new game; down to the target, type it; down to "+ add player".
    play("1 D " + TARGET + " D")
    for _, typed in NAMES:
        play("# # " + typed + " #")  # open the picker, take "new name", type, take it
    play("D #")  # ten seats: the cursor is on "at most 10"; "start" one below; round entry of round 1 opens
    game = dev.app.session.game
    assert game is not None, dev.screen()
    assert game.variant == "standard" and game.target == 99999, (game.variant, game.target)
    assert list(game.players) == [n for n, _ in NAMES], game.players
    note("setup")
    rounds = 3 if STAGE == "prepare" else ROUNDS
    total = 0
    for r in range(rounds):
        total += play_round(r)
    check(dev.app.session.game, rounds, total)
    assert dev.screen()[0].startswith(("Stand R%d " % rounds, "R%d " % rounds)), dev.screen()  # ten seats: "R3  1-6/13 99999"
    note("game")
    if STAGE == "measure":
        for label, used in mem:
            print("mem", label, used)
        import micropython

        micropython.qstr_info()
        # A restart on the same folder: the game comes back from the files as saved.
        dev = game = None
        gc.collect()
        store = Store(HostDisk(None, STORE))
        store.boot()
        check(store.load_game(store.running_game()), rounds, total)
        print("reloaded", rounds)
    print("ok", total)
    sys.exit(0)

# ---- keys: segments between callgrind markers ----------------------------------
import micropython  # noqa: E402

marker = micropython.opt_level  # its C function is the dump point
app = dev.app
display = dev.board.display
# The display's bus: I2C (SSD1306, writevto) or SPI (ST7789, write); "bare" drops its writes.
BUS_WRITE = "writevto" if hasattr(display, "i2c") else "write"
bus = display.i2c if BUS_WRITE == "writevto" else display.spi
canvas = app.canvas
assert dev.screen()[0].startswith(("Stand R3 ", "R3 ")), dev.screen()
segments = []


def nobus(*args):
    return 0


def run(cycle, how, n):
    if how == "pad":
        for i in range(n):
            key(cycle[i % 8])
    else:
        render = app.render
        for i in range(n):
            app.key(cycle[i % 8])
            render()


def measure(screen, cycle):
    run(cycle, "pad", 8)  # warm up: glyph cache, lazily imported code
    for how in ("pad", "app", "bare"):
        if how == "bare":  # the firmware's own share: no emulated chip, no text capture
            setattr(bus, BUS_WRITE, nobus)
            canvas.capture = False
        for n in (COUNT, 2 * COUNT):
            gc.collect()
            marker()
            run(cycle, how, n)
            marker()
            segments.append("%s/%s/%d" % (screen, how, n))
    delattr(bus, BUS_WRITE)  # back to the class's method: the emulated chip sees writes again
    canvas.capture = True
    app.screen.touch()  # redraw all: the glass missed the "bare" segments
    app.render()


# Standings: ten seats, six rows: D scrolls down four times, C back up.
measure("standings", ("D", "D", "D", "D", "C", "C", "C", "C"))
key("#")  # round entry of round 4
assert dev.screen()[0].startswith(("R4 ", "Runde 4")), dev.screen()
# Round entry: a hand typed and deleted on the first two seats, down and back up.
measure("round", ("3", "7", "*", "*", "D", "5", "*", "C"))
assert dev.screen()[0].startswith(("R4 ", "Runde 4")), dev.screen()
assert fails == [], fails
print("segments", " ".join(segments))
print("ok", COUNT)
