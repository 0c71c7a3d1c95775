# The simulator's device: the unchanged firmware on emulated parts, driven by a line protocol.
#
#   micropython firmware/sim/run.py --flash PATH --board PROFILE.json [--epoch S] [--trial-wdt-ms MS]
#       [--serial-in FIFO --serial-out FIFO [--baud N] [--device-id ID] [--serial-session FILE]]
#       [--heap-growth N [--heap-watch 1]] [--app DIR]
#
# The heap: in the image's own 32-bit build (firmware/port/unix/build.sh frozen)
# the application is frozen in as on the ESP32, the launcher starts this with the
# board's first heap area (-X heapsize) and --heap-growth, what the heap may grow
# by; grant_sim_share adds what the simulator's own parts take (below). On any
# other interpreter the application is imported from this checkout. sim/simheap.py
# measures the simulator's share and, with --heap-watch, the heap's peak.
#
# stdin, one command a line           stdout
#   key <0-9 A-D * # CW CCW PUSH>       ok <1 if the glass changed, else 0> [asleep]
#   wait <ms>                           ok <changed> [asleep]
#   snap                                snap <w> <h> <hex> (mono) or snap565 <w> <h> <hex>
#                                       (colour), text <row> per row, end
#   quit
# The glass is what the emulated display shows: for the SSD1306 `snap` with
# MONO_VLSB pages (w x h / 8 bytes), for the ST7789 `snap565` with RGB565
# pixels, big-endian, row by row from the top left (w x h x 2 bytes), the
# board as the profile's rotation holds it. A power cut
# is the launcher killing this process; the flash image file keeps what was
# programmed until then. Logs and crash reports go to stderr.
#
# The watchdog (sim/simwdt.py): a trial boot of a new version starts it
# (bootsel.watch, its timeout bootsel.TRIAL_WDT_MS, or --trial-wdt-ms to keep
# tests short). stdout then also carries "wdt <ms>" (a watchdog runs; 0: none)
# and "fed", between the replies, for the launcher to notice a device that
# hangs. When it fires, the reply is "reset watchdog" and the process ends
# with status simwdt.RESET_EXIT: the launcher starts it again from boot. A
# firmware that raises while it starts leaves a halted device (sim/halted.py:
# MicroPython's REPL) that answers the same commands until the watchdog, if
# one runs, resets it. machine.reset() (after an update's switch) and a soft
# reboot (Ctrl-D at the REPL) start the firmware again too: the reply is "reset
# soft", the same exit status, and the launcher starts the process again, so
# the new version (or the slot a first install wrote) boots in a heap as empty
# as a reset or MicroPython's soft reset leaves the chip's.
#
# The USB serial: with --serial-in/--serial-out the firmware's link serves
# docs/protocol.md on two FIFOs the launcher made and connects to a
# pseudo-terminal (host_tools/sim_serial.py), pacing what it writes to --baud
# in simulated time, as the device does in real time. The launcher holds
# both FIFOs open read-write, so opening them here never waits. The link runs
# only while simulated time passes (key and wait commands). As on the device,
# a Ctrl-C outside a link session stops the firmware and a REPL takes the
# port (sim/simusb.py), so mpremote works; Ctrl-D at its prompt starts the
# firmware again.
import gc
import sys

_START_ALLOC = gc.mem_alloc()  # this script's compiled code and the interpreter's own start
_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_FIRMWARE = _HERE.rsplit("/", 1)[0] if "/" in _HERE else ".."


def _frozen_app():
    # True in the image's own build (firmware/port/unix/build.sh frozen): the application
    # and the simulator's machine are frozen into the interpreter, as on the ESP32.
    path = sys.path[:]
    sys.path[:] = [".frozen"]
    try:
        import appimage  # noqa: F401  (frozen beside the application, firmware/port/manifest.py)

        return True
    except ImportError:
        return False
    finally:
        sys.path[:] = path


FROZEN = _frozen_app()
# --app DIR: the application as .mpy files in DIR, as stock MicroPython imports it on a board with
# PSRAM (bench/device_heap.py --deployment mpy, on the 32-bit build without the app frozen in).
_APP = sys.argv[sys.argv.index("--app") + 1] if "--app" in sys.argv[:-1] else None
if FROZEN:  # the frozen modules first; from this checkout only what a flash's root holds (bootsel)
    sys.path[:] = [".frozen", _FIRMWARE]
elif _APP:
    sys.path[:] = [_APP, _APP + "/lib", ".frozen", _FIRMWARE]
else:  # the application and the simulator from this checkout, compiled as they are imported
    sys.path.insert(0, _FIRMWARE + "/../lib")
    sys.path.insert(0, _FIRMWARE)

_HOST_PATH = list(sys.path)  # the simulator's own modules (sim/) and, for a flat flash, the app


def _say(line):
    # A line for the launcher beside the replies (the watchdog's "wdt <ms>" and "fed").
    sys.stdout.write(line + "\n")


def boot_slot(flash_path):
    """(FileFlash, volume or None): the flash, and its application slot on sys.path if it has one.

    A flash with /app/current (a first install by sim/install.py, then
    updates) runs the application from its slot, as boot.py and bootsel.py
    choose it on the device: the modules, the trust store, the version are
    the slot's; only sim/ comes from this checkout. A flash without one runs
    the flat layout: the application frozen into the device build, else this
    checkout's (or --app's). On the device build a slot is laid over the
    frozen application as bootsel.lay_over does on the chip."""
    import vfs

    from sim.fileflash import FileFlash

    dev = FileFlash(flash_path)  # in its file only: the device's heap holds no copy of the flash
    try:
        vol = vfs.VfsLfs2(dev)
    except OSError:
        return dev, None  # blank: the store formats it, the app is this checkout's
    return dev, _choose(vol)


def _choose(vol):
    import bootsel

    folder, trial = bootsel.choose(vol)
    if trial:
        from sim import simwdt

        bootsel.watch(simwdt)  # simwdt stands in for machine: WDT(timeout=...)
    if not folder:
        sys.path[:] = _HOST_PATH
        return vol
    try:
        import vfs

        vfs.mount(vol, "/flash")
    except OSError:
        pass  # mounted already
    if FROZEN:  # as bootsel.lay_over on the device: the slot's modules over the frozen ones
        import overlay

        sys.path[:] = _HOST_PATH
        overlay.install("/flash" + folder)
    else:
        sys.path[:] = ["/flash" + folder, "/flash" + folder + "/lib"] + _HOST_PATH
    return vol


def _device(profile_path, dev, vol, serial, device_id, epoch=0):
    from sim.device import Device

    new = Device(profile_path, epoch=epoch, flash=dev, serial=serial, device_id=device_id, vol=vol)
    new.profile_path = profile_path
    if serial is not None:
        serial.device = new
    return new


def _halt(err, profile_path, serial, device_id):
    # The firmware raised while it started: what MicroPython does with an exception out of
    # main.py (a hang there is the launcher's to notice).
    from sim.halted import Halted

    if serial is not None:
        serial.device = None  # no Ctrl-C to take: the REPL has the port already
    return Halted(profile_path, serial, err, device_id)


watch = None  # a HeapWatch with --heap-watch


def serve(device, inp, out):
    """Answer the launcher's commands until it quits (or the device resets: the process ends)."""
    from sim import simwdt

    try:
        while True:
            if watch is not None:
                watch.look()
            line = inp.readline()
            if not line:
                return
            words = line.split()
            if not words:
                continue
            cmd = words[0]
            try:
                if cmd == "key" and len(words) == 2 and (device.keys is None or words[1] in device.keys):
                    device.key(words[1])
                elif cmd == "wait" and len(words) == 2:
                    device.advance(int(words[1]))
                elif cmd == "snap":
                    device.snap(out)
                    out.flush() if hasattr(out, "flush") else None
                    continue
                elif cmd == "quit":
                    return
                else:
                    out.write("error unknown command %s\n" % line.strip())
                    continue
            except simwdt.WatchdogReset as err:  # the chip resets: the launcher starts this again from boot
                sys.stderr.write("watchdog reset: %s\n" % err)
                out.write("reset watchdog\n")
                sys.exit(simwdt.RESET_EXIT)
            except Exception as err:  # report, keep serving: the launcher decides
                sys.print_exception(err, sys.stderr)
                out.write("error %s\n" % err)
                continue
            if device.reset_pending or device.restart_pending:  # machine.reset(), or Ctrl-D at the REPL:
                out.write("reset soft\n")  # the reply says so and the launcher starts this again
                sys.exit(simwdt.RESET_EXIT)
            # "asleep": the device went into deep sleep (power.py); a key wakes it.
            out.write("ok %d%s\n" % (device.changed(), " asleep" if device.asleep else ""))
    finally:
        if watch is not None:
            watch.say()


_USAGE = ("usage: run.py --flash PATH --board PROFILE.json [--epoch S] [--trial-wdt-ms MS] [--heap-growth N [--heap-watch 1]] [--app DIR] "
          "[--serial-in FIFO --serial-out FIFO [--baud N] [--device-id ID] [--serial-session FILE]]")


def _args(argv):
    opts = {"--flash": None, "--board": None, "--epoch": "0", "--serial-in": None, "--serial-out": None,
            "--baud": "115200", "--device-id": None, "--trial-wdt-ms": None, "--serial-session": None,
            "--heap-growth": None, "--heap-watch": None, "--app": None}
    i = 1
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            raise SystemExit(_USAGE)
    if not opts["--flash"] or not opts["--board"]:
        raise SystemExit(_USAGE)
    return opts


def _serial(opts):
    if not opts["--serial-in"] or not opts["--serial-out"]:
        return None, "sim"
    import binascii

    from link.transport import StreamTransport
    from sim.simusb import SimUSB

    inp = open(opts["--serial-in"], "rb")
    out = open(opts["--serial-out"], "wb")
    device_id = opts["--device-id"]
    if not device_id:  # the same flash image, the same device
        device_id = "sim-%08x" % (binascii.crc32(opts["--flash"].encode()) & 0xFFFFFFFF)
    # SimUSB: Ctrl-C outside a session stops the firmware and a REPL answers (mpremote works)
    # --serial-session: where to say that a link session began or ended (the launcher's ring, sim_serial.py)
    return SimUSB(StreamTransport(inp, out, int(opts["--baud"]) // 10, kbd=False),
                  session_file=opts["--serial-session"]), device_id


def main():
    opts = _args(sys.argv)
    global watch
    if opts["--heap-growth"] is not None:  # a measuring build (firmware/port/unix): the board's heap exactly
        from sim import simheap

        growth = int(opts["--heap-growth"])
        share = simheap.grant_sim_share(opts["--board"], growth, _START_ALLOC)
        if opts["--heap-watch"] is not None:
            watch = simheap.HeapWatch(share, growth)
    import bootsel
    from sim import simwdt

    simwdt.beat = _say
    if opts["--trial-wdt-ms"]:
        bootsel.TRIAL_WDT_MS = int(opts["--trial-wdt-ms"])
    dev, vol = boot_slot(opts["--flash"])
    serve(_power_on(opts, dev, vol), sys.stdin, sys.stdout)


def _power_on(opts, dev, vol):
    serial, device_id = None, "sim"
    try:
        serial, device_id = _serial(opts)  # its transport is the application's code too
        device = _device(opts["--board"], dev, vol, serial, device_id, int(opts["--epoch"]))
    except Exception as err:
        device = _halt(err, opts["--board"], serial, device_id)
    print("ready %d %d %s" % (device.chip.width, device.chip.height, device.board.name))
    return device


main()
