# The chip's own pins and buses in the simulator (never deployed): the firmware's `machine`, wired to the board by a wire.
#
#   hw = Machine(wire)                        # the chip; wire: sim/wire.py (PipeWire or LocalWire)
#   hw.wire_up(board_frame); hw.nets(nets_frame)   # what the board told it (host_tools/simboard)
#   board = board.build(profile, hw)          # the real drivers, on these pins
#   hw = simmachine.from_profile(profile)     # tests: the chip and a board of its own in this process
#
# Everything outside the chip (displays and their glass, the keypad, the
# encoder) is the board's, in another process or, for tests, another object
# (host_tools/simboard/bench.py); only the chip's state is here, in a few
# preallocated tables, so the device's heap holds what the ESP32's holds. A
# GPIO's level is resolved over its net (the GPIOs the parts join to it,
# which the board sends as nets): a pin driving 0 or 1 (OUT, or OPEN_DRAIN
# pulling low) wins; else a part's contact to ground; else a pull-up or
# pull-down (the ESP32's, or a part's). With strict=True, reading a floating
# input, a short (0 and 1 driven at once), a pull-up on GPIO 34-39 (they have
# none), an output on an input-only pin or a flash pin raises SimError: wiring
# bugs surface in tests instead of as odd behaviour. Edge interrupts run at
# once, inside the call that changed the level (a pin write, new nets).
# What the board follows (an LCD's CS, DC, reset line and backlight) is sent
# as it changes; I2C and SPI writes go out whole. sleep_ms(ms), which drivers
# are given for their chips' set-up delays, returns at once and tells the
# board (an LCD checks its timing rules against it).
import machine

from sim import simwdt

_N = 40  # GPIO 0-39
_FLASH = (6, 7, 8, 9, 10, 11)
_MISSING = (20, 24, 28, 29, 30, 31)  # no such GPIO on the ESP32
_GROUND, _UP, _DOWN = 1, 2, 4  # a part's flags for a GPIO (host_tools/simboard/bench.py)


class SimError(ValueError):
    pass


class SimPin(machine.PinBase):
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 1
    IRQ_FALLING = 2
    _machine = None  # set in each Machine's own subclass

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self._machine.gpio(id)
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        m, n = self._machine, self.id
        if value is not None:
            m.out[n] = 1 if value else 0  # the latch first, so the pin never glitches
        if mode != -1:
            if mode not in (self.IN, self.OUT, self.OPEN_DRAIN):
                raise ValueError("invalid pin mode")
            if mode != self.IN and n >= 34:
                m.fault("GPIO %d is input-only" % n)
            m.mode[n] = mode
        if pull != -1:
            if pull == self.PULL_UP and n >= 34:
                m.fault("GPIO %d has no internal pull-up" % n)
            m.pull[n] = 0 if n >= 34 or pull is None else pull
        m.changed(n)

    def value(self, v=None):
        m = self._machine
        if v is None:
            return m.level(self.id)
        m.out[self.id] = 1 if v else 0
        m.changed(self.id)

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3):
        m, n = self._machine, self.id
        if handler is None:
            m.handlers.pop(n, None)
            return
        m.handlers[n] = (handler, trigger, self)
        m.seen[n] = _code(m.level(n, True))

    def __repr__(self):
        return "Pin(%d)" % self.id


def _code(level):
    return 2 if level is None else level


class Machine:
    """A machine-like object: Pin, I2C, SPI, PWM, WDT, sleep_ms, reset, reset_cause, unique_id, WLAN.
    run.py hands it to the firmware as the module `machine`."""

    # machine.reset_cause() values as the ESP32 port has them
    PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
    WDT = simwdt.WDT  # the chip's one watchdog
    WatchdogReset = simwdt.WatchdogReset
    wdt_elapse = staticmethod(simwdt.elapse)  # ms of the chip's time passed (sim/device.py)
    cause = 1  # what the last reset was (run.py --reset-cause): PWRON_RESET unless told
    _reset = False  # reset() was called: run.py ends the process, the launcher starts it again

    def __init__(self, wire=None, strict=True):
        """wire: to the board (sim/wire.py); None: a chip with nothing wired to it."""
        from sim.simbus import SimI2C, SimPWM, SimSPI
        from sim.wire import NoWire

        self.wire = wire if wire is not None else NoWire()
        self.strict = strict
        self.mode = bytearray(_N)  # 0 until configured, or Pin.IN / OUT / OPEN_DRAIN
        self.pull = bytearray(_N)  # 0, Pin.PULL_UP or Pin.PULL_DOWN (the ESP32's own)
        self.out = bytearray(_N)  # the output latch
        self.used = bytearray(_N)  # a Pin was made for it
        self.duty = {}  # GPIO -> duty_u16 while a PWM drives it
        self.handlers = {}  # GPIO -> (handler, trigger, pin): edge interrupts
        self.seen = bytearray(_N)  # a watched GPIO's level when its handler last looked (2: floating)
        self.ext = bytearray(_N)  # the parts' flags: a contact to ground, a pull-up, a pull-down
        self.pairs = bytearray(64)  # GPIOs the parts join, two bytes a pair
        self.npairs = 0
        self.heard = b""  # the GPIOs whose level the board follows
        self.said = bytearray(_N)  # what was last said of it (level + 1; 0: nothing yet)
        self.i2c_buses = []  # [((scl, sda), addresses)], in the board's order
        self.spi_buses = []  # [(sck, mosi)]
        self._net = bytearray(_N)  # scratch for walking a net
        self._in = bytearray(_N)
        self.faults = []  # what strict=False let pass
        self.elapsed_ms = 0  # moved on only by sleep_ms()
        self.Pin = type("Pin", (SimPin,), {"_machine": self})
        self.I2C = type("I2C", (SimI2C,), {"_machine": self})
        self.SPI = type("SPI", (SimSPI,), {"_machine": self})
        self.PWM = type("PWM", (SimPWM,), {"_machine": self})
        self.wlan = None  # sim/simnet.py's station, made by the first WLAN()

    # ---- what the board says ----------------------------------------------------------
    def wire_up(self, frame):
        """The board's wiring (sim/wire.py B): I2C buses and the addresses answering there, SPI
        buses, the GPIOs whose level the board follows."""
        i = 1
        for _ in range(frame[0]):
            k = frame[i + 2]
            self.i2c_buses.append(((frame[i], frame[i + 1]), bytes(frame[i + 3:i + 3 + k])))
            i += 3 + k
        count = frame[i]
        i += 1
        for _ in range(count):
            self.spi_buses.append((frame[i], frame[i + 1]))
            i += 2
        count = frame[i]
        self.heard = bytes(frame[i + 1:i + 1 + count])  # noqa: E203

    def nets(self, frame):
        """The parts' nets now (sim/wire.py N): GPIOs joined in pairs, and each touched GPIO's flags.
        Levels that changed run the edge interrupts and reach the board. Nothing new is made."""
        k = frame[0]
        pairs = self.pairs
        if 2 * k > len(pairs):
            raise SimError("more keys held than the simulator follows")
        for i in range(2 * k):
            pairs[i] = frame[1 + i]
        self.npairs = k
        ext = self.ext
        for i in range(_N):
            ext[i] = 0
        i = 1 + 2 * k
        for _ in range(frame[i]):
            ext[frame[i + 1]] = frame[i + 2]
            i += 2
        self.changed(-1)

    # ---- levels -----------------------------------------------------------------------
    def fault(self, message):
        self.faults.append(message)
        if self.strict:
            raise SimError(message)

    def gpio(self, n):
        if not 0 <= n < _N or n in _MISSING:
            raise ValueError("invalid pin %r" % (n,))
        if n in _FLASH:
            self.fault("GPIO %d belongs to the module's flash" % n)
        self.used[n] = 1

    def _drive(self, n):
        # 0 or 1 when the chip drives the GPIO, else 2.
        if n in self.duty:
            return 1 if self.duty[n] else 0
        mode = self.mode[n]
        if mode == 3:  # OUT
            return self.out[n]
        if mode == 7 and not self.out[n]:  # OPEN_DRAIN pulling low
            return 0
        return 2

    def members(self, n):
        """How many GPIOs are in n's net, left in self._net[:count] (n first)."""
        net = self._net
        net[0] = n
        count = 1
        if not self.npairs:
            return 1
        inside = self._in
        for i in range(_N):
            inside[i] = 0
        inside[n] = 1
        pairs = self.pairs
        k = 0
        while k < count:
            m = net[k]
            for p in range(0, 2 * self.npairs, 2):
                a, b = pairs[p], pairs[p + 1]
                other = b if a == m else (a if b == m else -1)
                if other >= 0 and not inside[other]:
                    inside[other] = 1
                    net[count] = other
                    count += 1
            k += 1
        return count

    def level(self, n, quiet=False):
        """0 or 1; None for a floating net when quiet, else a fault."""
        low = high = False
        pulls = 2
        net = self._net
        for k in range(self.members(n)):
            m = net[k]
            d = self._drive(m)
            if d == 0:
                low = True
            elif d == 1:
                high = True
            flags = self.ext[m]
            if flags & _GROUND:
                low = True
            if pulls == 2:
                p = self.pull[m]
                if p:
                    pulls = 1 if p == 1 else 0
                elif flags & _UP:
                    pulls = 1
                elif flags & _DOWN:
                    pulls = 0
        if low and high:
            if not quiet:
                self.fault("short circuit on GPIO %d" % n)
            return 0
        if low or high:
            return 0 if low else 1
        if pulls != 2:
            return pulls
        if not quiet:
            self.fault("GPIO %d read while floating" % n)
            return 1
        return None

    def changed(self, n):
        """GPIO n's net may have changed level (-1: any GPIO, new nets): tell the board what it
        follows, run the edge interrupts due."""
        for g in self.heard:  # a few GPIOs (an LCD's lines); a net of keys never joins them
            if n < 0 or g == n or self.npairs:
                code = _code(self.level(g, True)) + 1
                if code != self.said[g]:
                    self.said[g] = code
                    self.wire.pin(g, None if code == 3 else code - 1)
        if not self.handlers:
            return
        if n >= 0 and self.npairs == 0:
            if n in self.handlers:
                self._edge(n)
            return
        for g in self.handlers:
            self._edge(g)

    def _edge(self, g):
        handler, trigger, pin = self.handlers[g]
        now = _code(self.level(g, True))
        before = self.seen[g]
        self.seen[g] = now
        if before == 2 or now == 2 or now == before:
            return
        if trigger & (SimPin.IRQ_RISING if now else SimPin.IRQ_FALLING):
            handler(pin)

    def keys_held(self):
        """How many pairs of GPIOs the parts join now (keys held)."""
        return self.npairs

    def grounded(self, n):
        """Whether a part closes a contact to ground on GPIO n now."""
        return bool(self.ext[n] & _GROUND)

    # ---- the rest of `machine` --------------------------------------------------------
    def sleep_ms(self, ms):
        self.elapsed_ms += ms
        self.wire.sleep(ms)

    def reset(self):
        """machine.reset(): on the chip it never returns; here the device stops at its next step."""
        self._reset = True

    def reset_asked(self):
        """Whether reset() was called (run.py ends the process, the launcher starts it again)."""
        return self._reset

    def reset_cause(self):
        return self.cause

    def unique_id(self):
        return b"\x24\x0a\xc4\x00\x51\xe7"

    def WLAN(self, interface=None):
        """The Wi-Fi station (board.wlan): the laptop's network, see sim/simnet.py."""
        if self.wlan is None:
            from sim.simnet import SimWLAN

            self.wlan = SimWLAN()
        return self.wlan

    def brightness(self, n):
        """0.0-1.0: a PWM's duty, else the pin's level (0 when floating)."""
        if n in self.duty:
            return self.duty[n] / 65535
        return self.level(n, quiet=True) or 0


def from_profile(profile, strict=True):
    """A chip and, in this process, the board its profile describes (host_tools/simboard, on the
    path of the firmware tests): the Machine, with the board's parts as .bench, .display, .matrix
    and .knob. The simulator's device keeps its board in the launcher instead (sim/run.py)."""
    from simboard.bench import Bench

    from sim.wire import LocalWire

    bench = Bench(profile, strict)
    m = Machine(LocalWire(bench), strict)
    m.bench = bench
    m.display, m.matrix, m.knob = bench.display, bench.matrix, bench.knob
    m.wire_up(bench.board_frame())
    bench.attach(m.nets)
    m.nets(bench.nets_frame())
    return m


def press(m, name, advance):
    """Presses and lets go a key or works the knob of an in-process board (from_profile)."""
    m.bench.press(name, advance)
