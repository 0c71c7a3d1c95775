# Which application slot runs: read by boot.py at every power-up. Kept beside
# boot.py at the root of the flash and, like it, never updated over the air:
# it imports nothing of the application (the application is what it chooses).
#
# Layout on flash (docs/updates.md, "On the device"):
#   /boot.py, /bootsel.py   this; never updated
#   /app/a/, /app/b/        two application slots: main.py, *.mpy, lib/tafel/*.mpy (over a Tafel
#                           firmware image only what differs from its frozen app: lay_over)
#   /app/current            the pointer: which slot runs, JSON (below)
#   /app/stage/             the bundle being staged into the other slot (update/stage.py)
#   /data/                  games and settings: no update ever touches them
# Without /app/current the application lies flat at / (a development install
# by mpremote): nothing is chosen and MicroPython runs /main.py as usual.
#
# The pointer, {"slot": "b", "prev": "a", "version": "0.2.0", "tries": 1, "rolled": null}:
#   slot      the slot to run ("a" or "b"); prev the one before ("" = flat at /)
#   tries     None once the version confirmed itself healthy; else the boots it
#             had on trial so far (counted here, before it runs)
#   rolled    the version given up on by a rollback, until the app has said so
# It changes only by write-new-then-rename (current.new, then one rename), so
# a power cut leaves the old or the new pointer, never a mix.
#
# Trial and rollback: the updater writes a new pointer with tries 0. Each boot
# here counts one more try before the new version runs; the version confirms
# itself (update/health.py, from startup.start once its UI is up and the
# storage mounted) by writing tries None. A version that has not confirmed
# after TRIES boots is rolled back: the pointer goes back to prev, with
# `rolled` set so the old version tells the user. On a trial boot the
# watchdog runs: a version that hangs or raises on import does not feed it,
# and the reset that follows counts the next try.
import json

APP = "/app"
POINTER = APP + "/current"
TRIES = 3  # boots a new version gets to confirm itself
BOOT_VERSION = 2  # what bundles' min-boot is compared with (2: lays a slot over a frozen application)
TRIAL_WDT_MS = 60000  # a trial boot that has not confirmed in this long resets

wdt = None  # the watchdog started for a trial boot (the app feeds it: update/health.py)


def read(fs):
    """The pointer as a dict, or None (no pointer: flat layout).

    fs: None on the device (the flash is mounted at /), or a VfsLfs2 object
    (the simulator and the tests use the volume without mounting it)."""
    try:
        with _open(fs, POINTER, "r") as f:
            st = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if type(st) is not dict or st.get("slot") not in ("a", "b"):
        return None
    return st


def write(fs, st):
    tmp = POINTER + ".new"
    with _open(fs, tmp, "w") as f:
        f.write(json.dumps(st))
    _os(fs).rename(tmp, POINTER)


def slot_path(name):
    """The folder of slot `name`; "" (flat) is the root."""
    return APP + "/" + name if name else ""


def choose(fs):
    """The folder of the application to run now, counting a trial boot or rolling back.

    Returns (folder, trial): folder "" means flat at /; trial True while the
    version has not confirmed itself."""
    st = read(fs)
    if st is None:
        return "", False
    tries = st.get("tries")
    if tries is not None:
        prev = st.get("prev")
        if tries >= TRIES and prev is not None:
            st = {"slot": prev, "prev": st["slot"], "version": st.get("prev_version"),
                  "tries": None, "rolled": st.get("version") or "?"}
            if not prev:  # back to the flat install: its pointer is none at all
                _os(fs).remove(POINTER)
                return "", False
            write(fs, st)
            return slot_path(prev), False
        st["tries"] = tries + 1
        write(fs, st)
        return slot_path(st["slot"]), True
    return slot_path(st["slot"]), False


def boot():
    """On the device, from boot.py: pick the slot, point sys.path and the working folder at it."""
    import os
    import sys

    folder, trial = choose(None)
    if not folder:
        return
    if not lay_over(folder):  # stock MicroPython: the slot holds the whole application
        sys.path[:] = [folder, ".frozen", folder + "/lib", "/"]
    os.chdir(folder)  # MicroPython then runs the slot's main.py
    if trial:
        import machine

        watch(machine)


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
    """A trial boot: start the watchdog the running app must feed (update/health.py).

    machine: the machine module (the simulator passes sim/simmachine.py)."""
    global wdt
    wdt = machine.WDT(timeout=TRIAL_WDT_MS)


def _open(fs, path, mode):
    return open(path, mode) if fs is None else fs.open(path, mode)


def _os(fs):
    if fs is None:
        import os

        return os
    return fs
