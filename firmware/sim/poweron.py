# The simulated chip powers up (never deployed): the flash mounted or recovery mode, then the firmware, or the REPL.
#
# sim/run.py's start (start()): its arguments read, the wire to the launcher
# and the board's wiring, the chip's pins, the USB serial, then, in the order
# the ESP32 takes it: store/mount.py decides
# what the flash is (as the image's _boot.py does; its flashbdev module is
# stood in for), then the flash's own boot.py and the slot's main.py run
# (sim/flashboot.py), or this build's or checkout's application on a
# development flash, or recovery mode; an exception out of the firmware's
# start leaves MicroPython's REPL (sim/halted.py).
import sys

_OPTS = {"--flash": None, "--board": None, "--epoch": "0", "--serial-in": None, "--serial-out": None,
         "--baud": "115200", "--device-id": None, "--trial-wdt-ms": None, "--serial-session": None,
         "--heap-watch": None, "--app": None, "--reset-cause": "power", "--confirm-ms": None,
         "--wire-in": None, "--wire-out": None, "--firmware": None, "--idle": None, "--system-heap": None}
CAUSES = {"power": 1, "hard": 2, "wdt": 3, "deepsleep": 4, "soft": 5}  # machine.reset_cause(), as the ESP32's


def args(argv):
    opts = dict(_OPTS)
    i = 1
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            raise SystemExit("usage: run.py " + " ".join("[%s X]" % k for k in sorted(_OPTS)))
    for need in ("--flash", "--board", "--wire-in", "--wire-out"):
        if not opts[need]:
            raise SystemExit("run.py: %s is needed" % need)
    if opts["--reset-cause"] not in CAUSES:
        raise SystemExit("run.py: --reset-cause is one of " + ", ".join(sorted(CAUSES)))
    return opts


def start(chip_class):
    """The chip powers up as sim/run.py's arguments say: (device, chip, profile, device id, stats or
    None, the C stack's depth where the chip's own loop steps the firmware); device None when there
    is nothing to run (--idle: stats "idle", or the launcher gone)."""
    opts = args(sys.argv)
    del sys.argv[1:]  # the launcher's short names (the unix port interned them: qstrs for good)
    firmware = paths(opts)
    host_path = list(sys.path)
    try:
        import simchip as wire  # the device build: the chip's side in C

        wire.wire(opts["--wire-in"], opts["--wire-out"])
        native = True
    except ImportError:
        from sim.wire import PipeWire

        wire = PipeWire(open(opts["--wire-in"], "rb"), open(opts["--wire-out"], "wb"))
        native = False
    chip = chip_class(wire, CAUSES[opts["--reset-cause"]], native)
    kind = 0
    while chip.board is None or kind != 78:  # the launcher says the board first (B, then N), before the chip powers up
        kind = wire.command()
        if not kind:
            return None, chip, None, None, None, 0
        chip.take(kind)
    system_heap(opts["--system-heap"])
    stats = None
    if opts["--heap-watch"] is not None:
        from sim.chipstats import Stats

        stats = Stats()
    if not native:
        from sim import simwdt

        simwdt.beat = wire.say  # "wdt <ms>", "fed": the launcher notices a hang
    machine = chip.make()
    serial, device_id = wires(opts)
    dev, vol, rescue = flash(opts["--flash"], native)
    if opts["--idle"]:  # no firmware: run.py says what the simulator itself holds in the chip's heap,
        # with the stand-ins a flow adds: the USB serial's (serial), the Wi-Fi station's and its sockets' (wifi)
        held = [dev, vol]
        if serial:
            held.append(_serial(opts, serial, _app_transport(opts, serial)))
        if opts["--idle"] == "wifi":
            held.append(machine.WLAN())
        return held, chip, None, None, "idle", 0
    # What the chip's firmware holds from here on: its board profile (main.py reads /board.json), and
    # how deep the chip's C stack is where its main loop steps it.
    import json

    with open(opts["--board"]) as f:  # read now: the flash may become /
        profile = json.load(f)
    depth = chip_depth()
    if rescue is not None:  # recovery mode: the flash's boot.py and main.py are not reached
        device = recover(profile, dev, rescue, opts, serial, device_id, machine, wire)
    else:
        device = boot(profile, dev, vol, opts, serial, device_id, chip, wire, firmware, host_path)
    device.on_step = stats.step if stats is not None else None
    return device, chip, profile, device_id, stats, depth


def chip_depth():
    # The C stack in use where the chip's main loop steps the firmware: main.py's run() calls
    # runner.run(clock), which calls step() (assemble.py); measured here one call deep the same way.
    import micropython

    def step():
        return micropython.stack_use()

    return step()


def system_heap(what):
    # What the heap may grow from (--system-heap): the device build models it (tafelchip), elsewhere
    # the interpreter's own heap is all there is.
    try:
        import tafelchip
    except ImportError:
        return
    tafelchip.idf_setup(None if what is None else (what if what == "esp32" else int(what)))


def paths(opts):
    # Where the application comes from: frozen in (the device build), .mpy files (--app), or this
    # checkout's sources; the checkout's firmware/ for the boot files a fresh flash gets.
    firmware = opts["--firmware"]
    if firmware is None:
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
        firmware = here.rsplit("/", 1)[0] if "/" in here else ".."
    try:
        import appimage  # noqa: F401  (frozen beside the application: the device build)

        del sys.modules["appimage"]  # only asked: the chip imports it when an update does

        # A relative path stays one: the process never leaves the folder the launcher runs it in
        # (the flash mounted at / moves only the VFS's cwd, and VfsPosix takes a relative root), and
        # every path the chip is given is interned for good (a qstr), so one that spelled out that
        # folder's random name would make the heap differ from run to run.
        sys.path[:] = [".frozen"]  # the application and bootsel.py, frozen as in the ESP32 image
        return firmware
    except ImportError:
        pass
    if not firmware.startswith("/"):  # sources on sys.path: found again after a REPL's chdir
        import os

        firmware = os.getcwd().rstrip("/") + "/" + firmware
    if opts["--app"]:  # the application as .mpy files, as stock MicroPython imports it
        sys.path[:] = [opts["--app"], opts["--app"] + "/lib", ".frozen", firmware]
    else:  # this checkout's sources, compiled as they are imported
        for path in (firmware + "/../lib", firmware):
            if path not in sys.path:
                sys.path.insert(0, path)
    return firmware


def wires(opts):
    """The launcher's two serial FIFOs, opened now (before the flash may become /), or None; the device id."""
    import binascii

    device_id = opts["--device-id"]
    if not device_id:  # the same flash image, the same device; as long as the chip's "esp32-" and 6 bytes of MAC
        device_id = "sim-%014x" % (binascii.crc32(opts["--flash"].encode()) & 0xFFFFFFFF)
    if not opts["--serial-in"] or not opts["--serial-out"]:
        return None, "sim"
    from sim.simusb import SimUSB  # noqa: F401  (imported before the flash may become /)

    session = opts["--serial-session"]
    return (open(opts["--serial-in"], "rb"), open(opts["--serial-out"], "wb"),
            open(session, "wb") if session else None), device_id


class _FlashBdev:
    # Stands in for the ESP32 port's frozen flashbdev module: the file system's partition as `bdev`
    # (the raw flash read, link/flashread.py, finds it there, as on the chip). No methods: a
    # function would hold this module's globals, and with them all of this module, for good.
    bdev = None


def flash(path, native=False):
    """(FileFlash, its LittleFS or None, None or (why, games) for recovery mode).

    store/mount.py's rules, as the chip's _boot.py takes them: None and None for a flash the
    store formats (blank, or holding no game: the app is this checkout's); recovery mode for
    one whose file system does not show the games the raw flash holds."""
    if native:  # the device build: the flash chip in C (simchip), as esp32.Partition is on the chip
        from simchip import Flash as FileFlash
    else:
        from sim.fileflash import FileFlash
    dev = FileFlash(path)  # in its file only: the device's heap holds no copy of the flash
    sys.modules["flashbdev"] = _FlashBdev()
    _FlashBdev.bdev = dev
    had = list(sys.modules)
    from store import mount

    try:
        vol, what, games = mount.decide(dev)
        rescue = (what, games) if what in mount.RECOVERY else None
    except Exception as err:  # as on the chip (recovery/boot.py decide): recovery mode, never a dark display
        from recovery.boot import FAILED

        sys.print_exception(err)
        vol, rescue = None, (FAILED, None)
    for name in list(sys.modules):  # as the chip's _boot.py lets go of them: the app imports its own
        if name not in had:
            del sys.modules[name]
    return dev, vol, rescue


def boot(profile, dev, vol, opts, wires, device_id, chip, wire, firmware, host_path):
    """The running device (sim/device.py), or a halted one when its firmware raised at start.

    profile: the board profile's dict; chip: run.py's Chip (its machine, the first boot's)."""
    from sim import flashboot

    machine = chip.machine
    main_module = err = None
    flash_boot = vol is not None and flashboot.installed(vol)
    if flash_boot:  # an installed application: exactly what the flash holds boots
        trial_ms = int(opts["--trial-wdt-ms"]) if opts["--trial-wdt-ms"] else None
        with open(opts["--board"], "rb") as f:
            kept = f.read()  # the chip's /board.json
        main_module, err = flashboot.boot(vol, machine, firmware + "/sim", kept, trial_ms)
        kept = None
        vol = "/"
    else:  # a development flash: this build's or checkout's application, flat (nothing chooses a slot)
        sys.path[:] = host_path
        if vol is not None:
            flashboot.give_boot_files(vol, firmware)
        main_module, err = flashboot.run_main(firmware + "/main.py")  # main.py is never frozen
    device = serial = None
    if err is None and main_module is not None:
        try:
            serial = _serial(opts, wires) if wires else None
            from sim.device import Device

            device = Device(opts["--board"], epoch=int(opts["--epoch"]), flash=dev, serial=serial,
                            device_id=device_id, vol=vol, main=main_module, profile=profile,
                            machine=_first(machine, chip), capture=wire)
            if serial is not None:
                serial.device = device
        except Exception as e:  # what an exception out of main.py is on the chip: the REPL
            err = e
    if device is None:
        return halted(err, profile, serial or _raw_serial(wires), device_id, wire, machine.wdt_elapse)
    if opts["--confirm-ms"]:  # tests: the health rule's time, shortened (the rule the same)
        health = sys.modules.get("update.health")
        if health is not None:
            health.CONFIRM_MS = int(opts["--confirm-ms"])
    return device


def _first(machine, chip):
    # The machine the flash's boot.py ran on is the first boot's; later boots (a wake) make their own.
    made = [machine]

    def make():
        return made.pop() if made else chip.make()

    return make


def halted(err, profile, serial, device_id, wire, elapse):
    """MicroPython's REPL: no application runs (it raised while it started, or none was there)."""
    from sim.halted import Halted

    wire.canvas(0, 0)  # no text on the glass (the launcher's board keeps the picture)
    return Halted(profile, serial, err, device_id, elapse=elapse)


def recover(profile, dev, rescue, opts, wires, device_id, machine, wire):
    """What the chip's _boot.py runs instead of boot.py and main.py (recovery/boot.py): recovery mode."""
    from sim.recovering import RecoveringDevice

    serial = _serial(opts, wires) if wires else None
    return RecoveringDevice(profile, dev, rescue[0], rescue[1], serial, device_id, machine, wire)


def _serial(opts, wires, port=None):
    # SimUSB: Ctrl-C outside a session stops the firmware and a REPL answers (mpremote works);
    # --serial-session: where to say that a link session began or ended (the launcher's ring, host_tools/sim/serial.py).
    # The link's transport is the application's (assemble.run() makes the same on the chip).
    from link.transport import StreamTransport
    from sim.simusb import SimUSB

    inp, out, session = wires
    if port is None:
        port = StreamTransport(inp, out, int(opts["--baud"]) // 10, kbd=False)
    # usb_host: the launcher's pseudo-terminal is a laptop's USB port, open while it runs: no deep sleep.
    return SimUSB(port, session_file=session, usb_host=True)


def _app_transport(opts, wires):
    # --idle: the link's transport, made as _serial makes it, and its bytes said on stderr ("heap-app
    # N"): the application's own (its module and object), which assemble.run() makes on the chip
    # too, so not the simulator's. Its import and the object, each after a collection.
    import gc

    gc.collect()
    before = gc.mem_alloc()
    from link.transport import StreamTransport

    port = StreamTransport(wires[0], wires[1], int(opts["--baud"]) // 10, kbd=False)
    gc.collect()
    sys.stderr.write("heap-app %d\n" % (gc.mem_alloc() - before))
    return port


def _raw_serial(wires):
    # The REPL's own serial when the application's transport could not be had (sim/simusb.py).
    if not wires:
        return None
    from sim.simusb import RawPort, SimUSB

    inp, out, session = wires
    return SimUSB(RawPort(inp, out), session_file=session)
