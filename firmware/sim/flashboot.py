# The simulated chip boots what its flash holds (never deployed): the flash at /, its boot.py, the slot's main.py.
#
#   main, err = flashboot.boot(vol, machine, hw_dir, trial_wdt_ms)
#
# What MicroPython on the ESP32 does at power-up, done in the simulator's
# process: the flash's LittleFS becomes the root file system, the flash's
# own /boot.py runs (it imports the flash's /bootsel.py, which counts a trial
# boot, starts the watchdog, rolls back, lays the slot over a frozen image
# and leaves the working folder in the slot), then the main.py in the
# working folder. The application's modules come from the slot (and from the
# frozen image in the device build), never from this checkout: only the
# simulator's own parts are reachable, the checkout's sim/ mounted at
# /hw/sim (the chip's hardware, in effect). `machine` is the emulated machine
# (sim/simmachine.py), installed as the module `machine` for boot.py and the
# application. main.py is run from the working folder by name, as
# MicroPython runs it, but not as __main__: sim/device.py calls its
# assemble() and steps the Runner in simulated time where assemble.run() would
# loop in real time.
#
# Used by run.py when the flash holds an installed application (/app/current);
# a flash without one (blank, or the development layout) runs this
# checkout's application instead (run.py).
import os
import sys

HW = "/hw"


def installed(vol):
    """Whether the flash holds an installed application (the pointer bootsel.py reads)."""
    try:
        vol.stat("app/current")
        return True
    except OSError:
        return False


def boot(vol, machine, hw_dir, profile, trial_wdt_ms=None):
    """The flash at /, its boot.py run; (main module or None, the exception that stopped it or None).

    None and None: no application starts (the recovery key with nothing to go back to,
    no main.py): MicroPython's REPL. hw_dir: the checkout's sim/ folder (relative: to the process's own cwd).
    profile: the board profile's bytes, kept as /board.json (the simulated board is the
    one the launcher names; bootsel.py reads the recovery key's pins there).
    trial_wdt_ms: the watchdog's timeout for trial and probation boots, shortened for tests."""
    import vfs

    _keep(vol, "board.json", profile)
    frozen = _sim_frozen()
    vfs.umount("/")
    vfs.mount(vol, "/")
    if not frozen:  # the simulator's package from the checkout, reachable once the flash is /
        vfs.mount(vfs.VfsPosix(hw_dir), HW + "/sim")
    os.chdir("/")
    _move_sim_package()
    sys.modules["machine"] = machine
    sys.path[:] = ["", ".frozen", "/lib"]  # MicroPython's own on the ESP32
    try:
        import bootsel  # the flash's, from / (nothing of the checkout's is on sys.path)

        _run("/boot.py")
        if trial_wdt_ms:
            _shorten(bootsel, machine, trial_wdt_ms)
    except Exception as err:  # MicroPython prints it and goes on to main.py
        sys.print_exception(err, sys.stderr)
    if not frozen:
        sys.path.append(HW)  # the simulator's own later imports (sim.simnet, ...), after everything of the app
    return run_main(_join(os.getcwd(), "main.py"))


def _shorten(bootsel, machine, ms):
    # Tests shorten the watchdog of a trial or probation boot (as boot.py left the pointer); an
    # ordinary boot keeps the chip's 60 s, as a test that waits at its REPL needs.
    st = bootsel.read(None)
    if st is not None and (st.get("tries") is not None or st.get("crashes") is not None):
        bootsel.TRIAL_WDT_MS = ms
        if bootsel.wdt is not None:
            bootsel.wdt = machine.WDT(timeout=ms)


def run_main(path):
    """main.py at `path` run as MicroPython runs it (by name, not as __main__): (Main, None), or
    (None, the exception out of it), or (None, None) when there is no such file."""
    try:
        with open(path) as f:
            source = f.read()
    except OSError:
        return None, None
    names = {"__name__": "main", "__file__": path}
    try:  # run from the working folder by name, as MicroPython runs it: not on sys.path
        exec(source, names)
    except Exception as err:  # an exception out of main.py: the REPL, as on the chip
        return None, err
    source = None
    return Main(names), None


class Main:
    """The slot's main.py, run as a module would be: its assemble() (sim/device.py calls it)."""

    def __init__(self, names):
        self.names = names

    def __getattr__(self, name):
        try:
            return self.names[name]
        except KeyError:
            raise AttributeError(name)


def _sim_frozen():
    path = getattr(sys.modules.get("sim"), "__path__", None)
    return path is not None and str(path).startswith(".frozen")


def _move_sim_package():
    # The simulator's package, imported from the checkout before the flash became /, is found at
    # /hw/sim from now on (frozen in the device build, where it stays as it is).
    sim = sys.modules.get("sim")
    path = getattr(sim, "__path__", None)
    if path is not None and not str(path).startswith(".frozen"):
        sim.__path__ = HW + "/sim"


def _keep(vol, name, data):
    try:
        with vol.open(name, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with vol.open(name + ".new", "wb") as out:
        out.write(data)
    vol.rename(name + ".new", name)


def _run(path):
    try:
        with open(path) as f:
            source = f.read()
    except OSError:
        return  # no boot.py: nothing chooses a slot, main.py at / runs
    exec(source, {"__name__": "boot"})


def _join(folder, name):
    return (folder.rstrip("/") or "") + "/" + name


BOOT_FILES = ("bootsel.py", "boot.py")  # boot.py last: until it is there nothing chooses a slot


def give_boot_files(vol, firmware_dir):
    """A flash without boot.py gets the boot files of this checkout (firmware_dir), as a
    board gets them with its first install: an update to the development application then boots."""
    try:
        vol.stat("boot.py")
    except OSError:
        put_boot_files(vol, firmware_dir)


def put_boot_files(vol, firmware_dir):
    """boot.py and bootsel.py from firmware_dir to the flash's root, as source (what tafel flash does)."""
    for name in BOOT_FILES:
        with open(firmware_dir + "/" + name, "rb") as f:
            _keep(vol, name, f.read())
