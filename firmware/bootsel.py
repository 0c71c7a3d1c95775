# Which application slot runs: read by boot.py at every power-up. Kept beside
# boot.py at the root of the flash and, like it, never updated over the air:
# it imports nothing of the application (the application is what it chooses).
#
# Layout on flash (docs/updates.md, "On the device"):
#   /boot.py, /bootsel.py   this; never updated
#   /board.json             the board profile (the recovery key's pins are read from it)
#   /app/a/, /app/b/        two application slots: main.py, *.mpy, lib/tafel/*.mpy (over a Tafel
#                           firmware image only what differs from its frozen app: lay_over)
#   /app/current            the pointer: which slot runs, JSON (below)
#   /app/rolled             the versions given up on, newest first, JSON (below)
#   /app/stage/             the bundle being staged into the other slot (update/stage.py)
#   /data/                  games and settings: no update ever touches them
# Without /app/current the application lies flat at / (a development install
# by mpremote): nothing is chosen and MicroPython runs /main.py as usual.
#
# The pointer, {"slot": "b", "prev": "a", "version": "0.2.0", "prev_version": "0.1.0",
# "id": "...", "prev_id": "...", "tries": 1, "crashes": None}:
#   slot      the slot to run ("a" or "b")
#   prev      the slot of the version before, still whole on the flash ("" = flat at /);
#             None once nothing is there to go back to (staging writes into that slot)
#   id        the running bundle's id (16 hex digits of its head's SHA-256; "" unknown)
#   tries     on trial: the boots it had so far (counted here, before it runs); else None
#   crashes   on probation: the crashes it had so far (below); else None
#   settled   on probation: whether this boot's main loop has run health.CONFIRM_MS (absent: True)
# It changes only by write-new-then-rename (current.new, then one rename), so
# a power cut leaves the old or the new pointer, never a mix.
#
# The rule (docs/updates.md, "Trial boots and rollback"):
# - Trial. The updater writes a new pointer with tries 0. Each boot here
#   counts one more try and starts the watchdog (TRIAL_WDT_MS) before the new
#   version runs. The version confirms itself (update/health.py) only after
#   its main loop has run health.CONFIRM_MS with the display drawn, the link
#   listening and the store mounted: tries None, crashes 0. Whatever raises or
#   hangs before that, on import or running, feeds no watchdog; the chip
#   resets and the next boot counts another try. A version that has not
#   confirmed after TRIES boots is rolled back.
# - Probation. A confirmed version stays on probation until it has run
#   health.PROBATION_MS in one boot (then crashes None). A boot counts a crash
#   by the reset that came before it, as the ESP32 port reports it
#   (ports/esp32/modmachine.c, mp_machine_reset_cause): WDT_RESET (the task or
#   interrupt watchdog: a hang, or an exception that ended main.py) and
#   HARD_RESET (ESP_RST_PANIC: a crash in C, ESP-IDF out of memory; ESP_RST_SW:
#   machine.reset(), which the app calls only to start a new version or after a
#   format) always; PWRON_RESET (power-on, and ESP_RST_BROWNOUT: a supply that
#   sags, as Wi-Fi's start can make it) only if the boot before had not settled,
#   its main loop not having run health.CONFIRM_MS (20 s): a version that dies
#   while it starts counts, a table that unplugs a device it used does not
#   (unplugging three times within 20 s of switching on, during the 10 minutes,
#   would). DEEPSLEEP_RESET (a wake) and SOFT_RESET (Ctrl-D) never count. The
#   _CRASHES-th rolls it back, the previous version being still whole.
# - The recovery key. Holding RECOVERY_KEY while the device powers on gives
#   the running version up for the previous one, if one is whole on the flash;
#   if none is, no application starts and no watchdog runs: MicroPython's REPL
#   waits on the USB for `tafel flash`.
# A rollback points back at prev and adds a record to /app/rolled:
# {"version", "why" ("boots", "crashes" or "key"), "count", "at" (epoch seconds,
# 0 unknown: the application stamps it when it knows the time), "shown" (the
# application said so on screen)}; at most KEEP records.
import json

from micropython import const

APP = "/app"
POINTER = APP + "/current"
ROLLED = APP + "/rolled"
PROFILE = "/board.json"
TRIES = const(3)  # boots a new version gets to confirm itself
_CRASHES = const(3)  # crashes on probation (watchdog, panic, a power-on before it settled) that roll it back
KEEP = const(4)  # rollback records kept
RECOVERY_KEY = "0"  # held at power-on: back to the previous version
# A plain int, not const(): tafel flash and tafel bundle show read this line (host_tools/update/).
BOOT_VERSION = 4  # what bundles' min-boot is compared with (3: probation, recovery key, /app/rolled;
# 4: probation's crashes counted by the reset's cause and the settled mark)
# A plain int, not const(): the simulator and tests shorten it.
TRIAL_WDT_MS = 60000  # the watchdog every boot that runs the application starts: a loop unfed this long resets

wdt = None  # the watchdog this boot started (the app feeds it: update/health.py), None without an app

# The reset before this boot, from machine.reset_cause() (_cause)
POWER = "power"  # PWRON_RESET: power-on or brownout
WATCHDOG = "watchdog"  # WDT_RESET
HARD = "hard"  # HARD_RESET: a panic, or machine.reset()
WAKE = "wake"  # DEEPSLEEP_RESET
SOFT = "soft"  # SOFT_RESET: Ctrl-D at the REPL


def read(fs, path=POINTER):
    """The pointer as a dict, or None (no pointer: flat layout).

    fs: None on the device (the flash is mounted at /), or a VfsLfs2 object
    (tests use the volume without mounting it)."""
    st = _load(fs, path)
    if type(st) is not dict or st.get("slot") not in ("a", "b"):
        return None
    return st


def write(fs, st, path=POINTER):
    tmp = path + ".new"
    with _open(fs, tmp, "w") as f:
        f.write(json.dumps(st))
    _os(fs).rename(tmp, path)


def rollbacks(fs):
    """The rollback records, newest first ([] if none)."""
    got = _load(fs, ROLLED)
    return got if type(got) is list else []


def slot_path(name):
    """The folder of slot `name`; "" (flat) is the root."""
    return APP + "/" + name if name else ""


def choose(fs, cause=POWER, key=False):
    """The folder of the application to run now, counting a trial boot or a crash, or rolling back.

    cause: the reset before this boot (POWER, WATCHDOG, HARD, WAKE, SOFT); key: the recovery key
    is held. Returns (folder, phase): folder "" means flat at /, None means no
    application at all (the REPL); phase True on trial or probation. Every boot
    that runs an application runs the watchdog (boot())."""
    st = read(fs)
    if st is None:
        return "", False
    prev = st.get("prev")
    if key:
        return (_roll_back(fs, st, "key", 0), False) if prev is not None else (None, False)
    tries = st.get("tries")
    if tries is not None:
        if tries >= TRIES and prev is not None:
            return _roll_back(fs, st, "boots", tries), False
        st["tries"] = tries + 1
        write(fs, st)
        return slot_path(st["slot"]), True
    crashes = st.get("crashes")
    if crashes is None:
        return slot_path(st["slot"]), False
    counted = cause == WATCHDOG or cause == HARD or (cause == POWER and st.get("settled") is False)
    if counted:
        crashes += 1
        if crashes >= _CRASHES and prev is not None:
            return _roll_back(fs, st, "crashes", crashes), False
        st["crashes"] = crashes
    if counted or st.get("settled") is not False:
        st["settled"] = False  # until this boot's main loop has run long enough (update/health.py)
        write(fs, st)
    return slot_path(st["slot"]), True


def _roll_back(fs, st, why, count):
    # The record first: a power cut between the two leaves the rollback to do again, not untold.
    version = st.get("version") or "?"
    old = rollbacks(fs)
    if old and old[0].get("version") == version and not old[0].get("shown"):
        old = old[1:]  # the same rollback, cut short once already
    write(fs, [{"version": version, "why": why, "count": count, "at": 0, "shown": False}] + old[:KEEP - 1], ROLLED)
    prev = st["prev"]
    if not prev:  # back to the flat install: its pointer is none at all
        _os(fs).remove(POINTER)
        return ""
    write(fs, {"slot": prev, "prev": None, "version": st.get("prev_version"), "id": st.get("prev_id") or "",
               "tries": None, "crashes": None})
    return slot_path(prev)


def boot(machine=None):
    """On the device, from boot.py: pick the slot, point sys.path and the working folder at it.

    machine: the machine module (the simulator hands its own in)."""
    import os
    import sys

    if machine is None:
        import machine
    folder, _ = choose(None, _cause(machine), held(machine))
    if folder is None:  # the recovery key and nothing to go back to: no application, the REPL
        os.chdir(APP)  # no main.py there
    else:
        if folder:
            if not lay_over(folder):  # stock MicroPython: the slot holds the whole application
                sys.path[:] = [folder, ".frozen", folder + "/lib", "/"]
            os.chdir(folder)  # MicroPython then runs the slot's main.py
        # Always, not only on trial or probation: a hang anywhere resets the device, and every round
        # confirmed on screen was on flash before (session.py). The main loop feeds it; so does
        # long work outside it (update/health.py feed). A deliberate Ctrl-C lengthens it (health.relax).
        watch(machine)
    # The application keeps this module (the pointer's read and write, the watchdog) for as long
    # as it runs: the code only a boot needs is let go, so its bytecode leaves the heap.
    g = globals()
    for name in BOOT_ONLY:
        g.pop(name, None)


BOOT_ONLY = ("choose", "_roll_back", "boot", "lay_over", "watch", "_cause", "held")


def lay_over(folder):
    """A Tafel firmware image (the application frozen in): the slot's modules over it; False if none.

    The slot holds only what differs from the image (update/stage.py), module by
    module; overlay.py, frozen in the image, puts each before its frozen one."""
    try:
        import overlay
    except ImportError:  # stock MicroPython: no frozen application
        return False
    import sys

    sys.path[:] = [".frozen", "/", "/lib"]
    overlay.install(folder)
    return True


def watch(machine):
    """Start the watchdog the running app must feed (update/health.py)."""
    global wdt
    wdt = machine.WDT(timeout=TRIAL_WDT_MS)


def _cause(machine):
    # machine.reset_cause() as choose() takes it; a port without it: a power-on.
    try:
        got = machine.reset_cause()
        for name, cause in (("WDT_RESET", WATCHDOG), ("HARD_RESET", HARD), ("DEEPSLEEP_RESET", WAKE),
                            ("SOFT_RESET", SOFT)):
            if got == getattr(machine, name):
                return cause
    except AttributeError:
        pass
    return POWER


def held(machine, profile=PROFILE):
    """Whether RECOVERY_KEY is held now, read straight off the keypad's pins in the profile."""
    try:
        with open(profile) as f:
            keypad = json.load(f)["keypad"]
        for r in range(len(keypad["keys"])):
            c = keypad["keys"][r].find(RECOVERY_KEY)
            if c >= 0:
                break
        else:
            return False
        pin = machine.Pin
        row = pin(keypad["rows"][r], pin.OUT, value=0)
        col = pin(keypad["cols"][c], pin.IN, pin.PULL_UP)
        down = not col.value() and not col.value() and not col.value()
        row.init(pin.IN)  # let go: the application sets the keypad up itself
        return down
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return False


def _load(fs, path):
    try:
        with _open(fs, path, "r") as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def _open(fs, path, mode):
    return open(path, mode) if fs is None else fs.open(path, mode)


def _os(fs):
    if fs is None:
        import os

        return os
    return fs
