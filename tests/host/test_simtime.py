# The virtual chip's clock and random numbers (firmware/port/unix/tafel/simtime.c): the wall clock
# is the simulated time since power-up, as on the ESP32 (whose firmware never sets it), so the
# flash's time stamps come from the simulation, not the laptop; with TAFEL_CHIP_SEED the random
# numbers are a fixed sequence. Together: the same key script writes the same flash, byte for byte,
# in every run, and the heap figures measured on it do not wander.
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import heap_scenarios  # noqa: E402
from needs import needs

BUILD = heap_scenarios.device_build()
pytestmark = needs(BUILD is not None, "the 32-bit device build", "make device-build")

POWER_UP_S = 946684800  # the ESP32's system time at power-up (0 in MicroPython's 2000 Epoch) in 1970's

CLOCK = r'''
import time, vfs, simchip
print(time.time_ns() // 10**9)
simchip.wdt_elapse(20)    # a firmware step
simchip.sleep_ms(3980)    # a driver's wait
print(time.time_ns() // 10**6 - 946684800000)

class Ram:  # a LittleFS on 32 blocks of RAM
    def __init__(self):
        self.b = bytearray(32 * 4096)
    def readblocks(self, n, buf, off=0):
        buf[:] = self.b[n * 4096 + off:n * 4096 + off + len(buf)]
    def writeblocks(self, n, buf, off=0):
        self.b[n * 4096 + off:n * 4096 + off + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 6:  # erase
            self.b[arg * 4096:arg * 4096 + 4096] = b"\xff" * 4096
        return {4: 32, 5: 4096, 6: 0}.get(op)

dev = Ram()
vfs.VfsLfs2.mkfs(dev)
vol = vfs.VfsLfs2(dev)
with vol.open("f", "wb") as f:
    f.write(b"x")
print(vol.stat("f")[8])
'''


def chip(script, **env):
    done = subprocess.run([str(BUILD), "-c", script], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_chip_starts_at_its_power_up_time_and_moves_only_with_the_simulation():
    start, ms, stamp = chip(CLOCK)
    assert int(start) == POWER_UP_S
    assert int(ms) == 4000  # 20 ms of a step and 3980 of a sleep, nothing of the laptop's time
    assert int(stamp) == POWER_UP_S + 4  # what LittleFS stamped on the file


def test_a_seed_makes_the_random_numbers_the_same_in_every_run():
    draw = "import os, random; print(os.urandom(16).hex(), random.getrandbits(30))"
    assert chip(draw, TAFEL_CHIP_SEED="7") == chip(draw, TAFEL_CHIP_SEED="7")
    assert chip(draw, TAFEL_CHIP_SEED="7") != chip(draw, TAFEL_CHIP_SEED="8")
    assert chip(draw) != chip(draw)  # without one, the laptop's randomness, as the chip's hardware RNG


def test_the_export_scenarios_hundred_games_are_the_same_flash_in_every_run(tmp_path):
    images = []
    for run in ("one", "two"):  # two runs, each in a folder of its own (the flash's path differs)
        folder = tmp_path / run
        folder.mkdir()
        images.append(heap_scenarios.Scenarios(folder).hundred_games().read_bytes())
    assert hashlib.sha256(images[0]).digest() == hashlib.sha256(images[1]).digest()
