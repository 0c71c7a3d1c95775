# The simulated chip: the unchanged firmware on the chip's emulated pins and buses, its board in the launcher.
#
#   micropython -m sim.run --flash PATH --board PROFILE.json --wire-in PATH --wire-out PATH [--firmware DIR]
#       [--epoch S] [--trial-wdt-ms MS] [--reset-cause power|wdt|soft|deepsleep] [--confirm-ms MS]
#       [--serial-in FIFO --serial-out FIFO [--baud N] [--device-id ID] [--serial-session FILE]]
#       [--system-heap esp32|BYTES] [--heap-watch 1] [--idle 1|wifi] [--app DIR]
#
# One process is the chip: MicroPython with the firmware and the chip's own
# pins, buses and peripherals (sim/simmachine.py, sim/simbus.py, the flash,
# the USB serial, the Wi-Fi, the watchdog, the RTC memory). The board around
# it (display and glass, keypad, encoder) is the launcher's
# (host_tools/simboard), in another process, so the chip's heap holds what
# the ESP32's holds: the firmware and its data. The two talk over a pair of
# pipes (--wire-in, --wire-out; sim/wire.py has the frames): the launcher
# says the board's wiring and the parts' nets, then asks for the chip's time
# to pass (a key is nets, some time, other nets, more time); the chip
# answers with what its buses and pins put out, and "ok" (or "ok asleep":
# deep sleep, a wake pin brings it back).
#
# In the device build (firmware/port/unix/build.sh frozen) this module, the
# rest of sim/ and the application are frozen into the interpreter, as the
# application is into the ESP32's image: the launcher starts it with
# `-m sim.run` and nothing is compiled into the heap. Elsewhere (the PyPI
# unix port) it runs from this checkout's sources. --firmware: this
# checkout's firmware/ (its boot files go onto a flash that has none).
#
# What boots: a flash holding an installed application (/app/current) boots
# exactly what it holds (sim/flashboot.py): the flash becomes /, its own
# boot.py and bootsel.py choose the slot, the slot's main.py builds the
# device. Any other flash (blank, or the development layout) runs the
# application of this build (frozen) or checkout flat, and gets this
# checkout's boot files at its root as a first install would put them.
# Which of these, or recovery mode (sim/recovering.py: a flash holding games
# its file system does not show), store/mount.py decides, as the chip's
# _boot.py does. --reset-cause is what machine.reset_cause() says (the
# launcher passes wdt after a watchdog reset: bootsel.py counts a crash on
# probation); --confirm-ms shortens update/health.py's rule for tests.
#
# The launcher's lines (wire.py R): "ready" once the firmware runs; "ok" or
# "ok asleep" after each G; "wdt <ms>" when a watchdog starts and "fed" each
# time it is fed (sim/simwdt.py: the launcher notices a device that hangs);
# "reset watchdog" when it fires, "reset hard" after machine.reset() and
# "reset soft" after a soft reboot at the REPL, then the process ends with simwdt.RESET_EXIT and
# the launcher starts it again, as the chip starts with empty RAM. A firmware
# that raises while it starts, or whose main loop raises, leaves a halted
# device (sim/halted.py: MicroPython's REPL on the serial). A power cut is
# the launcher killing this process; the flash image file keeps what was
# programmed until then. Logs and crash reports go to stderr.
#
# The USB serial: with --serial-in/--serial-out the firmware's link serves
# docs/protocol.md on two FIFOs the launcher made and connects to a
# pseudo-terminal (host_tools/sim/serial.py), pacing what it writes to --baud
# in simulated time. As on the device, a Ctrl-C outside a link session stops
# the firmware and a REPL takes the port (sim/simusb.py), so mpremote works.
#
# --system-heap: what the Python heap grows from once its first area (-X
# heapsize) is full: "esp32", the ESP-IDF heap of an ESP32 without PSRAM as
# the device build models it, or a number of bytes (PSRAM); without it the
# heap does not grow (the heap bench's one-area runs).
# --heap-watch: the heap's peak, sampled after every step of the firmware,
# and the deepest C stack, said on stderr at the end (sim/chipstats.py).
# --idle: no firmware, only what the simulator itself puts into the heap (the
# wire, the chip's pins, the flash mounted; with the USB serial's stand-in when
# the serial is given; "wifi": and the Wi-Fi's), said on stderr ("heap-idle N").
import sys

from micropython import const

# const(): no entry in this module's globals, which stay in the chip's heap all the time it runs
_G = const(71)  # the launcher's commands (sim/wire.py)
_N = const(78)
_Q = const(81)
_RESET_EXIT = const(3)  # the exit status of a reset (sim/simwdt.py RESET_EXIT): the launcher starts this again


class Chip:
    """What lasts through the firmware's own reboots in this process (a wake from deep sleep): the
    wire, the board's wiring and the parts' nets as they are now. In the device build the chip's
    side is C (the module simchip, firmware/port/unix/tafel/simchip.c: the wire, the pins and buses,
    the watchdog and the flash, none of it in the heap, as the ESP32 has them in C); elsewhere
    sim/wire.py and sim/simmachine.py, the same in Python."""

    def __init__(self, wire, cause, native):
        self.wire = wire
        self.cause = cause
        self.native = native  # wire is simchip
        self.board = None
        self.nets = None if native else bytearray(len(wire.cmd))
        self.machine = None

    def take(self, kind):
        """A command about the board (B, N): kept, and the chip's pins told (simchip did both)."""
        wire = self.wire
        if kind == 66:  # B
            self.board = True if self.native else bytes(wire.cmd[:wire.size])
        elif kind == _N and not self.native:
            nets = self.nets
            for i in range(wire.size):
                nets[i] = wire.cmd[i]
            if self.machine is not None:
                self.machine.nets(nets)

    def make(self):
        """The chip powers up (or wakes): its pins as after a reset, the board's wiring and nets given."""
        if self.native:
            self.wire.power_on()
            self.wire.set_reset_cause(self.cause)
            self.machine = self.wire
            return self.wire
        from sim import simmachine

        m = self.machine = simmachine.Machine(self.wire)
        m.cause = self.cause
        m.wire_up(self.board)
        m.nets(self.nets)
        return m


def serve(device, chip, profile, device_id, stats=None, depth=0):
    """Answer the launcher's commands until it quits (or the device resets: the process ends).

    An exception out of the firmware's main loop leaves it in MicroPython's REPL, the watchdog
    still counting (sim/halted.py), as main.py ends on the chip. stats: sim/chipstats.py's, when
    the heap is watched; depth: the C stack the chip's own main loop has in use where it steps the
    firmware (the ESP32's stack limit is set from here)."""
    wire = chip.wire
    _limit_stack(depth)
    while True:
        kind = wire.command()
        if kind == _G:
            try:
                device.advance(wire.number())
            except chip.machine.WatchdogReset as err:  # the chip resets: the launcher starts this again from boot
                sys.stderr.write("watchdog reset: %s\n" % err)
                _say_stats(stats)  # before the reply: the launcher ends this process on it
                wire.say(b"reset watchdog")
                sys.exit(_RESET_EXIT)
            except Exception as err:  # out of the firmware's main loop: main.py ends, as on the chip
                sys.print_exception(err, sys.stderr)
                if getattr(device, "app", None) is None:
                    wire.say("error %s" % err)
                    continue
                from sim.poweron import halted

                device = halted(err, profile, getattr(device, "serial", None), device_id, wire,
                                chip.machine.wdt_elapse)
            if device.reset_pending or device.restart_pending:  # machine.reset(), or Ctrl-D at the REPL:
                _say_stats(stats)
                # the launcher starts this again, machine.reset_cause() as the ESP32 port says it:
                # HARD_RESET after machine.reset() (ESP_RST_SW), SOFT_RESET after Ctrl-D
                wire.say(b"reset hard" if device.reset_pending else b"reset soft")
                sys.exit(_RESET_EXIT)
            wire.say(b"ok asleep" if device.asleep else b"ok")
        elif kind == _N or kind == 66:
            chip.take(kind)
        elif kind == _Q or kind == 0:
            return
        else:
            wire.say("error unknown command %d" % kind)


def _say_stats(stats):
    if stats is not None:
        stats.say()
        stats.said = True


def _limit_stack(depth):
    # The ESP32 task's C stack limit, in this build's bytes (tafelchip.ESP32_STACK_LIMIT), for the
    # firmware stepped from one call below here, plus what this process's own frames above that
    # point take beyond the chip's (depth: measured where main.py's loop steps it).
    try:
        import tafelchip
    except ImportError:
        return  # not the device build: the interpreter's own limit
    import micropython

    tafelchip.stack_limit(tafelchip.ESP32_STACK_LIMIT + max(0, micropython.stack_use() - depth))


def _idle(wire):
    # No firmware: what the heap holds now is the simulator's own share of it (on stderr), then time
    # passes with nothing running until the launcher quits.
    import gc

    gc.collect()
    sys.stderr.write("heap-idle %d\n" % gc.mem_alloc())
    wire.say(b"ready")
    while True:
        kind = wire.command()
        if kind == _G:
            wire.say(b"ok")
        elif kind == 0 or kind == _Q:
            return


def main():
    try:
        from sim import poweron
    except ImportError:  # run by path from a checkout (not frozen): its firmware/ holds sim/
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
        sys.path.insert(0, here.rsplit("/", 1)[0] if "/" in here else "..")
        from sim import poweron

    device, chip, profile, device_id, stats, depth = poweron.start(Chip)
    poweron = None  # noqa: F841
    del sys.modules["sim.poweron"]  # the power-up is done (a crash imports it again); the package's
    delattr(sys.modules["sim"], "poweron")  # name for it too, or the module stayed (800 bytes)
    if stats == "idle":  # what the simulator holds in the chip's heap now (device: what it holds)
        _idle(chip.wire)
        return
    if device is None:  # the launcher went away
        return
    chip.wire.say(b"ready")
    try:
        serve(device, chip, profile, device_id, stats, depth)
    finally:
        if stats is not None and not stats.said:
            stats.say()


main()
