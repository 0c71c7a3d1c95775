# Simulated SPI controller and PWM (simulator only): SPI writes reach the chips whose CS pin is low, with the level of their DC pin.
#
# Each Machine makes its own subclasses with _machine set, so SPI(id, sck=,
# mosi=) finds the chips attached to that sck/mosi pair. As on the ESP32
# port, a bus made without miso= takes the bus's default MISO pin (12 for
# SPI 1, 19 for SPI 2); a write-only bus must say miso=None, and strict mode
# refuses the default. Counters let tests see what crossed the bus.

_DEFAULT = object()
_DEFAULT_MISO = {1: 12, 2: 19}


class SimSPI:
    _machine = None

    def __init__(self, id, baudrate=500000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=_DEFAULT):
        m = self._machine
        if id not in _DEFAULT_MISO:
            raise ValueError("SPI ID must be 1 or 2")
        if miso is _DEFAULT:
            m.fault("SPI(%d) without miso= takes GPIO %d as MISO on the ESP32; pass miso=None for a "
                    "write-only bus" % (id, _DEFAULT_MISO[id]))
            miso = None
        self.id = id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.pins = (getattr(sck, "id", sck), getattr(mosi, "id", mosi), getattr(miso, "id", miso))
        self._devices = m.spi_buses.get(self.pins[:2], [])
        self.writes = 0
        self.bytes_written = 0

    def write(self, buf):
        self.writes += 1
        self.bytes_written += len(buf)
        level = self._machine.level
        for chip, cs, dc in self._devices:
            if cs is None or level(cs) == 0:
                chip.spi_write(buf, level(dc))

    def deinit(self):
        pass


class SimPWM:
    """PWM(pin, freq=, duty_u16=): the pin is an output whose brightness is duty_u16 / 65535."""

    _machine = None

    def __init__(self, pin, freq=1000, duty_u16=0):
        m = self._machine
        self.pin = pin
        self._gpio = m.gpio(getattr(pin, "id", pin))
        if self._gpio.n in range(34, 40):
            m.fault("GPIO %d is input-only: no PWM" % self._gpio.n)
        self._freq = freq
        self._gpio.mode = 3  # an output (SimPin.OUT)
        self.duty_u16(duty_u16)

    def duty_u16(self, value=None):
        if value is None:
            return self._gpio.pwm
        self._gpio.pwm = max(0, min(65535, int(value)))
        self._machine.changed((self._gpio.n,))

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value

    def deinit(self):
        self._gpio.pwm = None
        self._machine.changed((self._gpio.n,))
