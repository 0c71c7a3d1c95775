# The chip's I2C and SPI controllers and PWM in the simulator (never deployed): what they put out goes down the wire.
#
# Each Machine (sim/simmachine.py) makes its own subclasses with _machine set,
# so I2C(id, scl=, sda=) and SPI(id, sck=, mosi=) find their bus among those
# the board said it has. An I2C write is acknowledged only by an address the
# board said answers on that bus (else OSError ENODEV, as on the chip). As on
# the ESP32 port, an SPI bus made without miso= takes the bus's default MISO
# pin (12 for SPI 1, 19 for SPI 2); a write-only bus must say miso=None, and
# strict mode refuses the default. Counters let tests see what crossed a bus.

_DEFAULT = object()
_DEFAULT_MISO = {1: 12, 2: 19}


class SimI2C:
    _machine = None

    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.freq = freq
        pins = (getattr(scl, "id", scl), getattr(sda, "id", sda))
        self._bus = -1
        self._addresses = b""
        for i, (wires, addresses) in enumerate(self._machine.i2c_buses):
            if wires == pins:
                self._bus, self._addresses = i, addresses
        self.transactions = 0
        self.bytes_written = 0  # payload bytes after the address byte

    def scan(self):
        return sorted(self._addresses)

    def writeto(self, addr, buf, stop=True):
        return self.writevto(addr, (buf,), stop)

    def writevto(self, addr, vector, stop=True):
        if addr not in self._addresses:
            raise OSError(19)  # ENODEV: nobody acknowledged the address
        n = 0
        for buf in vector:
            n += len(buf)
        self.transactions += 1
        self.bytes_written += n
        self._machine.wire.i2c(self._bus, addr, vector)
        return n + 1  # acknowledged bytes, the address included


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
        self._bus = -1
        for i, wires in enumerate(m.spi_buses):
            if wires == self.pins[:2]:
                self._bus = i
        self.writes = 0
        self.bytes_written = 0

    def write(self, buf):
        self.writes += 1
        self.bytes_written += len(buf)
        if self._bus >= 0:  # a bus nothing is wired to: the bytes go nowhere
            self._machine.wire.spi(self._bus, buf)

    def deinit(self):
        pass


class SimPWM:
    """PWM(pin, freq=, duty_u16=): the pin is an output whose brightness is duty_u16 / 65535."""

    _machine = None

    def __init__(self, pin, freq=1000, duty_u16=0):
        m = self._machine
        self.pin = pin
        self._n = getattr(pin, "id", pin)
        m.gpio(self._n)
        if self._n >= 34:
            m.fault("GPIO %d is input-only: no PWM" % self._n)
        self._freq = freq
        m.mode[self._n] = 3  # an output (SimPin.OUT)
        self.duty_u16(duty_u16)

    def duty_u16(self, value=None):
        m = self._machine
        if value is None:
            return m.duty.get(self._n)
        m.duty[self._n] = max(0, min(65535, int(value)))
        if self._n in m.heard:
            m.wire.pwm(self._n, m.duty[self._n])
        m.changed(self._n)

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value

    def deinit(self):
        m = self._machine
        m.duty.pop(self._n, None)
        if self._n in m.heard:
            m.wire.pwm(self._n, None)
        m.changed(self._n)
