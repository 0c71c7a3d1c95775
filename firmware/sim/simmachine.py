# Simulated ESP32 (simulator and tests, never deployed): a machine-like object whose Pin, I2C, SPI and PWM reach simulated parts.
#
#   hw = simmachine.from_profile(profile)   # parts wired as the profile says
#   board = board.build(profile, hw)         # the real drivers, on simulated pins
#   hw.matrix.press("5"); hw.knob.turn(-1); hw.display.glass()
#
# A GPIO's level is resolved over its net (the GPIOs a pressed key joins to
# it): a pin driving 0 or 1 (OUT, or OPEN_DRAIN pulling low) wins; else a
# part's contact to ground; else a pull-up or pull-down (the ESP32's or a
# module's). With strict=True, reading a floating input, a short (0 and 1
# driven at once), a pull-up on GPIO 34-39 (they have none), an output on
# an input-only pin or a flash pin raises SimError: wiring bugs surface in
# tests instead of as odd behaviour. Edge interrupts run at once, inside
# the call that changed the level (pin write, key press, knob step). Time is
# not simulated here: whoever drives the parts holds a key long enough on
# their own clock for the driver's debounce to accept it. The one exception
# is sleep_ms(ms), which drivers are given for their chips' set-up delays: it
# returns at once and moves `elapsed_ms` on, the clock the emulated ST7789
# checks its timing rules against. Parts that follow an output pin (a chip's
# reset line, a backlight) register with listen(gpio, callback).
import machine

from sim import simwdt
from sim.simi2c import SimI2C
from sim.simparts import Knob, Matrix
from sim.simspi import SimPWM, SimSPI

_VALID = set(range(0, 20)) | {21, 22, 23, 25, 26, 27} | set(range(32, 40))
_FLASH = set(range(6, 12))
_INPUT_ONLY = set(range(34, 40))


class SimError(ValueError):
    pass


class _Gpio:
    """The state of one GPIO, shared by every Pin object made for it."""

    def __init__(self, n):
        self.n = n
        self.mode = None  # None until configured, or Pin.IN / OUT / OPEN_DRAIN
        self.pull = None
        self.out = 0
        self.handler = None
        self.trigger = 0
        self.irq_pin = None
        self.seen = None  # level when the handler last looked, for edges
        self.pwm = None  # duty_u16 while a PWM drives the pin

    def drive(self):
        if self.pwm is not None:
            return 1 if self.pwm else 0
        if self.mode == SimPin.OUT:
            return self.out
        if self.mode == SimPin.OPEN_DRAIN and not self.out:
            return 0
        return None


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
        self._gpio = self._machine.gpio(id)
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        m, g = self._machine, self._gpio
        if value is not None:
            g.out = 1 if value else 0  # the latch first, so the pin never glitches
        if mode != -1:
            if mode not in (self.IN, self.OUT, self.OPEN_DRAIN):
                raise ValueError("invalid pin mode")
            if mode != self.IN and g.n in _INPUT_ONLY:
                m.fault("GPIO %d is input-only" % g.n)
            g.mode = mode
        if pull != -1:
            if pull == self.PULL_UP and g.n in _INPUT_ONLY:
                m.fault("GPIO %d has no internal pull-up" % g.n)
            g.pull = None if g.n in _INPUT_ONLY else pull
        m.changed((g.n,))

    def value(self, v=None):
        if v is None:
            return self._machine.level(self._gpio.n)
        self._gpio.out = 1 if v else 0
        self._machine.changed((self._gpio.n,))

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3):
        m, g = self._machine, self._gpio
        g.handler, g.trigger, g.irq_pin = handler, trigger, self
        g.seen = m.level(g.n, quiet=True)
        if handler is None:
            m.watched.discard(g.n)
        else:
            m.watched.add(g.n)

    def __repr__(self):
        return "Pin(%d)" % self.id


class Machine:
    """A machine-like object: Pin, I2C, SPI, PWM, WDT, sleep_ms, reset, reset_cause, and the parts
    on the simulated board. run.py hands it to the firmware as the `machine` module."""

    # machine.reset_cause() values as the ESP32 port has them
    PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5
    WDT = simwdt.WDT  # the chip's one watchdog
    cause = 1  # what the last reset was (run.py --reset-cause): PWRON_RESET unless told
    reset_asked = False  # reset() was called: run.py ends the process, the launcher starts it again

    def __init__(self, strict=True):
        self.strict = strict
        self.gpios = {}
        self.parts = []
        self.buses = {}  # (scl, sda) -> {address: chip}
        self.spi_buses = {}  # (sck, mosi) -> [(chip, cs, dc)]
        self.watched = set()  # GPIOs with an interrupt handler
        self.listeners = {}  # GPIO -> [callback(level)]: parts following an output
        self.faults = []  # what strict=False let pass
        self.elapsed_ms = 0  # moved on only by sleep_ms()
        self.Pin = type("Pin", (SimPin,), {"_machine": self})
        self.I2C = type("I2C", (SimI2C,), {"_machine": self})
        self.SPI = type("SPI", (SimSPI,), {"_machine": self})
        self.PWM = type("PWM", (SimPWM,), {"_machine": self})
        self.display = self.matrix = self.knob = None
        self.wlan = None  # sim/simnet.py's station, made by the first WLAN()

    def fault(self, message):
        self.faults.append(message)
        if self.strict:
            raise SimError(message)

    def gpio(self, n):
        g = self.gpios.get(n)
        if g is None:
            if n not in _VALID:
                raise ValueError("invalid pin %r" % (n,))
            if n in _FLASH:
                self.fault("GPIO %d belongs to the module's flash" % n)
            g = self.gpios[n] = _Gpio(n)
        return g

    def attach_i2c(self, chip, address, scl, sda):
        self.buses.setdefault((scl, sda), {})[address] = chip

    def attach_spi(self, chip, sck, mosi, cs, dc):
        self.spi_buses.setdefault((sck, mosi), []).append((chip, cs, dc))

    def listen(self, n, callback):
        """callback(level) whenever GPIO n may have changed (level 0, 1 or None when floating)."""
        self.listeners.setdefault(n, []).append(callback)

    def sleep_ms(self, ms):
        self.elapsed_ms += ms

    def reset(self):
        """machine.reset(): on the chip it never returns; here the device stops at its next step."""
        self.reset_asked = True

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
        g = self.gpios.get(n)
        if g is not None and g.pwm is not None:
            return g.pwm / 65535
        return self.level(n, quiet=True) or 0

    def add(self, part):
        self.parts.append(part)
        return part

    def net(self, n):
        """The GPIOs joined to n right now, n included."""
        found = [n]
        for m in found:
            for part in self.parts:
                for other in part.links(m):
                    if other not in found:
                        found.append(other)
        return found

    def level(self, n, quiet=False):
        """0 or 1; None for a floating net when quiet, else a fault."""
        low = high = False
        pulls = None
        for m in self.net(n):
            g = self.gpios.get(m)
            if g is not None:
                d = g.drive()
                low = low or d == 0
                high = high or d == 1
                if g.pull is not None and pulls is None:
                    pulls = 1 if g.pull == SimPin.PULL_UP else 0
            for part in self.parts:
                low = low or part.drive(m) == 0  # parts only ever close a contact to ground
                if pulls is None:
                    pulls = part.pull(m)
        if low and high:
            if not quiet:
                self.fault("short circuit on GPIO %d" % n)
            return 0
        if low or high:
            return 0 if low else 1
        if pulls is not None:
            return pulls
        if not quiet:
            self.fault("GPIO %d read while floating" % n)
            return 1
        return None

    def changed(self, gpios):
        """Levels may have changed on these GPIOs' nets: tell the listeners, run the edge interrupts due."""
        if self.listeners:
            for n in gpios:
                for callback in self.listeners.get(n, ()):
                    callback(self.level(n, quiet=True))
        if not self.watched:
            return
        for n in gpios:
            for m in self.net(n):
                if m not in self.watched:
                    continue
                g = self.gpios[m]
                now = self.level(m, quiet=True)
                before, g.seen = g.seen, now
                if before is None or now is None or now == before:
                    continue
                if g.trigger & (SimPin.IRQ_RISING if now else SimPin.IRQ_FALLING):
                    g.handler(g.irq_pin)


premade = None  # a Machine made ahead (sim/simheap.py measures it), taken by the next from_profile


HOLD_MS = 50  # a key press: held long enough for the keypad's debounce, then let go


def press(m, name, advance):
    """Presses and lets go a key (0-9 A-D * #) or the knob (CW, CCW: one detent; PUSH) of machine
    `m`; advance(ms) lets the simulated time pass while it is held and after."""
    if name == "CW" or name == "CCW":
        m.knob.turn(1 if name == "CW" else -1)
        advance(HOLD_MS)
    elif name == "PUSH":
        m.knob.push()
        advance(HOLD_MS)
        m.knob.release()
        advance(HOLD_MS)
    else:
        m.matrix.press(name)
        advance(HOLD_MS)
        m.matrix.release(name)
        advance(HOLD_MS)


def from_profile(profile, strict=True):
    """A Machine with the profile's display, keypad and encoder wired to the profile's pins."""
    global premade
    if premade is not None and premade.strict == strict:
        m, premade = premade, None
        return m
    m = Machine(strict)
    d = profile["display"]
    if d["driver"] == "ssd1306" and d["bus"] == "i2c":
        from sim.ssd1306_chip import SSD1306Chip

        m.display = SSD1306Chip(d["width"], d["height"], d.get("external_vcc", False), strict)
        m.attach_i2c(m.display, d.get("address", 0x3C), d["i2c"]["scl"], d["i2c"]["sda"])
    elif d["driver"] == "st7789" and d["bus"] == "spi":
        _st7789(m, d, strict)
    elif d["driver"] == "ili9341" and d["bus"] == "spi":
        from sim.ili9341_chip import ILI9341Chip

        _st7789(m, d, strict, ILI9341Chip)
    else:
        raise ValueError("the simulator has no %r on %r" % (d["driver"], d["bus"]))
    k = profile["keypad"]
    m.matrix = m.add(Matrix(m, k["rows"], k["cols"], k["keys"]))
    e = profile.get("encoder")
    if e:
        # pull_up false in a profile says the module pulls A and B up itself.
        m.knob = m.add(Knob(m, e["a"], e["b"], e.get("button"), e.get("steps_per_detent", 4),
                            pull_ups=not e.get("pull_up", False)))
    return m


def _st7789(m, d, strict, chip_class=None):
    # An SPI colour LCD: the ST7789, or a controller modelled on it (sim/ili9341_chip.py).
    if chip_class is None:
        from sim.st7789_chip import ST7789Chip as chip_class
    invert = d.get("invert_colours", chip_class.__name__ == "ST7789Chip")
    chip = m.display = chip_class(d["width"], d["height"], d.get("rotation", 0), invert,
                                  strict, clock=lambda: m.elapsed_ms)
    m.attach_spi(chip, d["spi"]["sck"], d["spi"]["mosi"], d.get("cs"), d["dc"])
    if d.get("rst") is not None:
        m.listen(d["rst"], lambda level: chip.reset_line(level != 0))
    bl = d.get("backlight")
    if bl is not None:
        m.listen(bl, lambda level: chip.set_backlight(m.brightness(bl)))
    else:
        chip.set_backlight(1.0)  # a backlight wired to the supply
