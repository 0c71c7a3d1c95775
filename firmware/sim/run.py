# The simulator's device: the unchanged firmware on emulated parts, driven by a line protocol.
#
#   micropython firmware/sim/run.py --flash PATH --board PROFILE.json [--epoch S] [--trial-wdt-ms MS]
#       [--serial-in FIFO --serial-out FIFO [--baud N] [--device-id ID] [--serial-session FILE]]
#       [--heap-growth N [--heap-watch 1]] [--app DIR] [--reset-cause power|wdt|soft|deepsleep]
#       [--hold KEY] [--confirm-ms MS]
#
# What boots: a flash holding an installed application (/app/current) boots
# exactly what it holds (sim/flashboot.py): the flash becomes /, its own
# boot.py and bootsel.py choose the slot, the slot's main.py builds the
# device; nothing of the application comes from this checkout. Any other
# flash (blank, or the development layout) runs this checkout's application
# flat, and gets this checkout's boot files at its root as a first install
# would put them. Which of these, or recovery mode (sim/recovering.py: a flash
# holding games its file system does not show), store/mount.py decides, as the
# chip's _boot.py does; its flashbdev module is stood in for. --reset-cause
# is what machine.reset_cause() says (the launcher passes wdt after a watchdog
# reset: bootsel.py counts a crash on probation); --hold KEY is held down
# through the power-on (0: bootsel.py's recovery key); --confirm-ms shortens
# update/health.py's rule for tests.
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
# firmware that raises while it starts, or whose main loop raises, leaves a
# halted device (sim/halted.py: MicroPython's REPL, answering on the serial)
# that answers the same commands until the watchdog, if one runs, resets it. machine.reset() (after an update's switch) and a soft
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

_HOST_PATH = list(sys.path)  # the simulator's own modules (sim/) and, for a development flash, the app


def _say(line):
    # A line for the launcher beside the replies (the watchdog's "wdt <ms>" and "fed").
    sys.stdout.write(line + "\n")


class _FlashBdev:
    # Stands in for the ESP32 port's frozen flashbdev module: the file system's partition as `bdev`
    # (the raw flash read, recovery/flashread.py, finds it there, as on the chip).
    def __init__(self, dev):
        self.bdev = dev


def _flash(flash_path):
    """(FileFlash, its LittleFS or None, None or (why, games) for recovery mode).

    store/mount.py's rules, as the chip's _boot.py takes them: None and None for a flash the
    store formats (blank, or holding no game: the app is this checkout's); recovery mode for
    one whose file system does not show the games the raw flash holds."""
    from sim.fileflash import FileFlash

    dev = FileFlash(flash_path)  # in its file only: the device's heap holds no copy of the flash
    sys.modules["flashbdev"] = _FlashBdev(dev)
    had = list(sys.modules)
    from store import mount

    vol, what, games = mount.decide(dev)
    rescue = (what, games) if what in mount.RECOVERY else None
    for name in list(sys.modules):  # as the chip's _boot.py lets go of them: the app imports its own
        if name not in had:
            del sys.modules[name]
    return dev, vol, rescue


def _absolute(path):
    import os

    return path if path.startswith("/") else os.getcwd().rstrip("/") + "/" + path


def _halt(err, profile, serial, device_id, chip=None):
    # No application runs: it raised while it started (what MicroPython does with an exception
    # out of main.py; a hang there is the launcher's to notice), or none was there to start.
    from sim.halted import Halted

    return Halted(profile, serial, err, device_id, chip)


watch = None  # a HeapWatch with --heap-watch


def serve(device, inp, out, halt=None):
    """Answer the launcher's commands until it quits (or the device resets: the process ends).

    halt(err): what the device becomes when an exception escapes its firmware (main.py ends in
    MicroPython's REPL, the watchdog still counting); None: report it and go on."""
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
            except Exception as err:  # out of the firmware's main loop: main.py ends, as on the chip
                sys.print_exception(err, sys.stderr)
                if halt is None or device.app is None:
                    out.write("error %s\n" % err)
                    continue
                device = halt(err, device)
            if device.reset_pending or device.restart_pending:  # machine.reset(), or Ctrl-D at the REPL:
                out.write("reset soft\n")  # the reply says so and the launcher starts this again
                sys.exit(simwdt.RESET_EXIT)
            # "asleep": the device went into deep sleep (power.py); a key wakes it.
            out.write("ok %d%s\n" % (device.changed(), " asleep" if device.asleep else ""))
    finally:
        if watch is not None:
            watch.say()


_USAGE = ("usage: run.py --flash PATH --board PROFILE.json [--epoch S] [--trial-wdt-ms MS] [--heap-growth N [--heap-watch 1]] "
          "[--app DIR] [--reset-cause power|wdt|soft|deepsleep] [--hold KEY] [--confirm-ms MS] "
          "[--serial-in FIFO --serial-out FIFO [--baud N] [--device-id ID] [--serial-session FILE]]")
CAUSES = {"power": 1, "hard": 2, "wdt": 3, "deepsleep": 4, "soft": 5}  # machine.reset_cause(), as the ESP32's


def _args(argv):
    opts = {"--flash": None, "--board": None, "--epoch": "0", "--serial-in": None, "--serial-out": None,
            "--baud": "115200", "--device-id": None, "--trial-wdt-ms": None, "--serial-session": None,
            "--heap-growth": None, "--heap-watch": None, "--app": None, "--reset-cause": "power", "--hold": None,
            "--confirm-ms": None}
    i = 1
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            raise SystemExit(_USAGE)
    if not opts["--flash"] or not opts["--board"] or opts["--reset-cause"] not in CAUSES:
        raise SystemExit(_USAGE)
    return opts


def _wires(opts):
    """The launcher's two FIFOs, opened now (before the flash may become /), or None; the device id."""
    import binascii

    device_id = opts["--device-id"]
    if not device_id:  # the same flash image, the same device
        device_id = "sim-%08x" % (binascii.crc32(opts["--flash"].encode()) & 0xFFFFFFFF)
    if not opts["--serial-in"] or not opts["--serial-out"]:
        return None, "sim"
    from sim.simusb import SimUSB  # noqa: F401  (imported before the flash may become /)

    session = opts["--serial-session"]
    return (open(opts["--serial-in"], "rb"), open(opts["--serial-out"], "wb"),
            open(session, "wb") if session else None), device_id


def _serial(opts, wires):
    # SimUSB: Ctrl-C outside a session stops the firmware and a REPL answers (mpremote works);
    # --serial-session: where to say that a link session began or ended (the launcher's ring, sim_serial.py).
    # The link's transport is the application's (assemble.run() makes the same on the chip).
    from link.transport import StreamTransport
    from sim.simusb import SimUSB

    inp, out, session = wires
    # usb_host: the launcher's pseudo-terminal is a laptop's USB port, open while it runs: no deep sleep.
    return SimUSB(StreamTransport(inp, out, int(opts["--baud"]) // 10, kbd=False), session_file=session,
                  usb_host=True)


def main():
    opts = _args(sys.argv)
    global watch
    if opts["--heap-growth"] is not None:  # a measuring build (firmware/port/unix): the board's heap exactly
        from sim import simheap

        growth = int(opts["--heap-growth"])
        share = simheap.grant_sim_share(opts["--board"], growth, _START_ALLOC)
        if opts["--heap-watch"] is not None:
            watch = simheap.HeapWatch(share, growth)
    import json

    from sim import flashboot, simmachine, simwdt

    simwdt.beat = _say
    with open(opts["--board"], "rb") as f:
        profile_bytes = f.read()
    profile = json.loads(profile_bytes)
    machine = simmachine.from_profile(profile)
    machine.cause = CAUSES[opts["--reset-cause"]]
    simmachine.premade = machine  # the Device takes this very machine
    hold = opts["--hold"]
    if hold:  # held while the chip powers on: bootsel.py looks at it, so does the app's start
        machine.matrix.press(hold)
    wires, device_id = _wires(opts)
    dev, vol, rescue = _flash(opts["--flash"])
    if rescue is not None:  # recovery mode: the flash's boot.py and main.py are not reached
        _recover(opts, profile, dev, rescue, wires, device_id, hold)
        return
    main_module = err = None
    flash_boot = vol is not None and flashboot.installed(vol)
    if flash_boot:  # an installed application: exactly what the flash holds boots
        trial_ms = int(opts["--trial-wdt-ms"]) if opts["--trial-wdt-ms"] else None
        main_module, err = flashboot.boot(vol, machine, _absolute(_HERE), profile_bytes, trial_ms)
        vol = "/"
    else:  # a development flash: this checkout's application, flat (nothing chooses a slot)
        sys.path[:] = _HOST_PATH
        if vol is not None:
            flashboot.give_boot_files(vol, _absolute(_FIRMWARE))
    profile_bytes = None  # noqa: F841  (not held in the device's heap while it runs)
    device = None
    serial = None
    if err is None and (main_module is not None or not flash_boot):
        try:
            serial = _serial(opts, wires) if wires else None
            device = _device(opts, profile, dev, vol, serial, device_id, main_module, hold)
        except Exception as e:  # what an exception out of main.py is on the chip: the REPL
            err = e
    if device is None:
        device = _halt(err, profile, serial or _raw_serial(wires), device_id)
    if hold:
        machine.matrix.release(hold)
    print("ready %d %d %s" % (device.chip.width, device.chip.height, device.board.name))
    if opts["--confirm-ms"]:  # tests: the health rule's time, shortened (the rule the same)
        health = sys.modules.get("update.health")
        if health is not None:
            health.CONFIRM_MS = int(opts["--confirm-ms"])
    serve(device, sys.stdin, sys.stdout, lambda err, dev: _halt(err, profile, serial, device_id, dev.chip))


def _recover(opts, profile, dev, rescue, wires, device_id, hold):
    # What the chip's _boot.py runs instead of boot.py and main.py (recovery/boot.py): recovery mode,
    # its code frozen in the device build, this checkout's otherwise.
    sys.path[:] = _HOST_PATH
    from sim.recovering import RecoveringDevice

    serial = _serial(opts, wires) if wires else None
    device = RecoveringDevice(profile, dev, rescue[0], rescue[1], serial, device_id)
    if hold:
        device.machine.matrix.release(hold)
    print("ready %d %d %s" % (device.chip.width, device.chip.height, device.board.name))
    serve(device, sys.stdin, sys.stdout)


def _device(opts, profile, dev, vol, serial, device_id, main_module, hold):
    from sim.device import Device

    device = Device(opts["--board"], epoch=int(opts["--epoch"]), flash=dev, serial=serial, device_id=device_id,
                    vol=vol, main=main_module, profile=profile)
    if serial is not None:
        serial.device = device
    return device


def _raw_serial(wires):
    # The REPL's own serial when the application's transport could not be had (sim/simusb.py).
    if not wires:
        return None
    from sim.simusb import RawPort, SimUSB

    inp, out, session = wires
    return SimUSB(RawPort(inp, out), session_file=session)


main()
