# Simulated I2C controller (simulator only): writes go, byte for byte, to the emulated chips wired to its two pins.
#
# Each Machine makes its own subclass with _machine set, so I2C(id, scl=, sda=)
# finds the chips attached to that scl/sda pair. Counters let tests see what
# crossed the bus.


class SimI2C:
    _machine = None

    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.freq = freq
        pins = (getattr(scl, "id", scl), getattr(sda, "id", sda))
        self._devices = self._machine.buses.get(pins, {})
        self.transactions = 0
        self.bytes_written = 0  # payload bytes after the address byte

    def scan(self):
        return sorted(self._devices)

    def writeto(self, addr, buf, stop=True):
        return self.writevto(addr, (buf,), stop)

    def writevto(self, addr, vector, stop=True):
        chip = self._devices.get(addr)
        if chip is None:
            raise OSError(19)  # ENODEV: nobody acknowledged the address
        n = 0
        for buf in vector:
            n += len(buf)
        self.transactions += 1
        self.bytes_written += n
        chip.write(vector)
        return n + 1  # acknowledged bytes, the address included
